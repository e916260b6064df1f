"""Index-tuple gathers and scatters from one flat index per row: `indices[..., :K]` names
elements (or slices) of the first K axes, `flat = indices · strides`. Gathering is one gather
on the input with its first K axes merged; scattering contracts updates with one-hot rows of
`flat` (a matmul), so every function here differentiates in the input and the updates.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ShapeError
from cellgraph.primitives.nn_functional import one_hot

from . import functional as F

__all__ = ["gather_nd", "tensor_scatter_add", "tensor_scatter_update"]


def _flat_index(x_shape, indices):
    """(flat row index of each index tuple, K, the shape of each indexed slice)."""
    k = abstract_of(indices).shape[-1]
    if k > len(x_shape):
        raise ShapeError(f"index tuples of length {k} do not fit an input of rank "
                         f"{len(x_shape)}")
    strides = np.cumprod((x_shape[1:k] + (1,))[::-1])[::-1].astype(np.int64)
    flat = F.reduce_sum(F.mul(F.cast(indices, dt.int64), A.cast(strides, dtype=dt.int64)), -1)
    return flat, k, tuple(x_shape[k:])


def gather_nd(input_x, indices):
    """out[i...] = input_x[indices[i..., 0], ..., indices[i..., K-1]] (slices for K < rank)."""
    x_shape = tuple(abstract_of(input_x).shape)
    flat, k, tail = _flat_index(x_shape, indices)
    rows = F.reshape(input_x, (int(np.prod(x_shape[:k])),) + tail)
    return F.gather(rows, flat, 0)


def _scatter_rows(input_x, indices, updates):
    x_shape = tuple(abstract_of(input_x).shape)
    flat, k, tail = _flat_index(x_shape, indices)
    count = int(np.prod(x_shape[:k]))
    picks = F.cast(one_hot(F.reshape(flat, (-1,)), count, 1, 0, -1), abstract_of(input_x).dtype)
    rows = F.reshape(F.cast(updates, abstract_of(input_x).dtype), (-1, int(np.prod(tail))))
    return picks, rows, (count,) + tail, x_shape


def tensor_scatter_add(input_x, indices, updates):
    """input_x with updates added at the index tuples (repeated indices add up)."""
    picks, rows, _, x_shape = _scatter_rows(input_x, indices, updates)
    added = F.matmul(F.transpose(picks, (1, 0)), rows)
    return F.add(input_x, F.reshape(added, x_shape))


def tensor_scatter_update(input_x, indices, updates):
    """input_x with the slices at the index tuples replaced by updates (each index once)."""
    picks, rows, row_shape, x_shape = _scatter_rows(input_x, indices, updates)
    flat_x = F.reshape(input_x, (row_shape[0], -1))
    hit = F.greater(F.reduce_max(picks, 0), 0)  # rows some index tuple names
    placed = F.matmul(F.transpose(picks, (1, 0)), rows)
    replaced = F.broadcast_to(F.expand_dims(hit, 1), abstract_of(flat_x).shape)
    return F.reshape(F.select(replaced, placed, flat_x), x_shape)
