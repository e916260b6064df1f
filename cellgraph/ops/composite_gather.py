"""Reads and writes at computed positions, as compositions of existing operations: `take`
(PyTorch-style flat indexing), `intopk`, `reverse_sequence`, `masked_scatter` and
`unique_consecutive`, with the primitive classes ReverseSequence and MaskedScatter. Positions
are computed with ordinary ops (cumsum, comparisons, select), so the values read keep their
gradients and vmap batches them like any other composition."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.dynamic_ops import bincount, nonzero
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import cumsum

from . import functional as F
from .composite_ops import _const
from .composite_resize import gather_elements

__all__ = ["MaskedScatter", "ReverseSequence", "intopk", "masked_scatter", "reverse_sequence",
           "take", "unique_consecutive"]


def _int_operand(x, what: str, op: str):
    if not abstract_of(x).dtype.is_int:
        raise DTypeError(f"{op}: expected an integer `{what}`, got {abstract_of(x).dtype}")
    return x


def take(input, index):
    """input's elements at `index` as if input were 1-D (negative indices count from the end);
    the result has index's shape."""
    _int_operand(index, "index", "take")
    flat = F.reshape(input, (-1,))
    size = abstract_of(flat).shape[0]
    index = F.cast(index, dt.int64)
    wrapped = F.select(index < 0, index + size, index)
    return F.gather(flat, wrapped, 0)


def intopk(x1, x2, k):
    """For each row i, whether x1[i, x2[i]] is among the row's k largest values; ties at the
    boundary count as in (fewer than k values are strictly greater), a non-finite target or an
    out-of-range label does not."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise DTypeError(f"intopk: expected an int `k`, got {k!r}")
    t1, t2 = abstract_of(x1), abstract_of(_int_operand(x2, "x2", "intopk"))
    if t1.ndim != 2 or t2.shape != t1.shape[:1]:
        raise ShapeError(f"intopk: expected x1 of shape (N, C) and x2 of shape (N,), got "
                         f"{t1.shape} and {t2.shape}")
    labels = F.cast(x2, dt.int64)
    valid = (labels >= 0) & (labels < t1.shape[1])
    safe = F.select(valid, labels, F.zeros_like(labels))
    target = gather_elements(x1, 1, F.reshape(safe, (-1, 1)))
    greater = F.reduce_sum(F.cast(x1 > target, dt.int32), 1)
    finite = F.reshape(F.isfinite(target), (-1,))
    return (greater < int(k)) & finite & valid


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """For each b along `batch_dim`, the first seq_lengths[b] entries along `seq_dim` reversed,
    the rest kept."""
    op = "ReverseSequence"
    shape = abstract_of(x).shape
    seq_dim, batch_dim = normalize_axis(seq_dim, len(shape)), normalize_axis(batch_dim, len(shape))
    if seq_dim == batch_dim:
        raise ArgumentValueError(f"{op}: seq_dim and batch_dim must differ, got {seq_dim}")
    if abstract_of(_int_operand(seq_lengths, "seq_lengths", op)).shape != (shape[batch_dim],):
        raise ShapeError(f"{op}: expected seq_lengths of shape ({shape[batch_dim]},), got "
                         f"{abstract_of(seq_lengths).shape}")
    along = [1] * len(shape)
    along[batch_dim] = shape[batch_dim]
    lengths = F.reshape(F.cast(seq_lengths, dt.int64), tuple(along))
    along = [1] * len(shape)
    along[seq_dim] = shape[seq_dim]
    position = _const(np.arange(shape[seq_dim]).reshape(along), dt.int64)
    source = F.select(position < lengths, lengths - 1 - position, position)
    return gather_elements(x, seq_dim, F.broadcast_to(source, shape))


def masked_scatter(input, mask, source):
    """input with the positions where `mask` (broadcast to input's shape) holds replaced, in
    row-major order, by source's leading elements."""
    if abstract_of(mask).dtype != dt.bool_:
        raise DTypeError(f"masked_scatter: expected a bool mask, got {abstract_of(mask).dtype}")
    shape = abstract_of(input).shape
    flat_mask = F.reshape(F.broadcast_to(mask, shape), (-1,))
    flat_source = F.reshape(source, (-1,))
    last = abstract_of(flat_source).shape[0] - 1
    order = cumsum(F.cast(flat_mask, dt.int64), 0) - 1
    order = F.select(order < 0, F.zeros_like(order), F.select(order > last,
                                                                F.zeros_like(order) + last, order))
    picked = F.gather(F.cast(flat_source, abstract_of(input).dtype), order, 0)
    return F.select(F.reshape(flat_mask, shape), F.reshape(picked, shape), input)


def unique_consecutive(input, return_idx=False, return_counts=False, axis=None):
    """The first of each run of equal consecutive elements (of the flattened input, or slices
    along `axis`); with `return_idx` each element's run number (int64), with `return_counts`
    each run's length (int64)."""
    values, idx, counts = unique_consecutive_all(input, axis)
    if return_idx and return_counts:
        return values, idx, counts
    if return_idx:
        return values, idx
    if return_counts:
        return values, counts
    return values


def unique_consecutive_all(input, axis=None):
    """(runs' first elements, each element's run number, each run's length)."""
    if axis is None:
        flat, axis, idx_shape = F.reshape(input, (-1,)), 0, abstract_of(input).shape
    else:
        axis = normalize_axis(axis, abstract_of(input).ndim)
        flat, idx_shape = input, (abstract_of(input).shape[axis],)
    length = abstract_of(flat).shape[axis]
    if length == 0:
        raise ShapeError("unique_consecutive: the input has no elements along the axis")
    index = [slice(None)] * abstract_of(flat).ndim
    head, tail = list(index), list(index)
    head[axis], tail[axis] = slice(1, None), slice(None, -1)
    changed = F.not_equal(flat[tuple(head)], flat[tuple(tail)])
    others = tuple(d for d in range(abstract_of(flat).ndim) if d != axis)
    if others:
        changed = F.reduce_max(F.cast(changed, dt.int32), others) > 0
    starts = F.concat([_const(np.ones(1, bool), dt.bool_), changed], 0)
    run = cumsum(F.cast(starts, dt.int64), 0) - 1
    first = F.reshape(nonzero(starts), (-1,))
    return F.gather(flat, first, axis), F.reshape(run, idx_shape), bincount(run)


class _Class:
    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class ReverseSequence(_Class):
    """`ops.ReverseSequence(seq_dim, batch_dim)(x, seq_lengths)`."""

    def __init__(self, seq_dim, batch_dim=0):
        self.seq_dim, self.batch_dim = seq_dim, batch_dim

    def __call__(self, x, seq_lengths):
        return reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class MaskedScatter(_Class):
    """`ops.MaskedScatter()(input, mask, updates)`."""

    def __call__(self, input, mask, updates):
        return masked_scatter(input, mask, updates)
