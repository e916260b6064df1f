"""MindSpore's `ops._utils.utils`: the permutation helpers gather-like bprops use, computed on
static shapes."""
from __future__ import annotations

__all__ = ["generate_shape_index", "get_1d_shape"]


def generate_shape_index(out_shape, indices_shape, axis, batch_dims=0) -> tuple:
    """The permutation that moves the `indices_shape` dimensions a gather put at `axis` of
    `out_shape` to the front (after the batch dimensions): a gather's gradient transposes by it
    before scattering back."""
    out_rank, index_rank = len(out_shape), len(indices_shape)
    if axis < 0:
        axis += out_rank - index_rank + 1
    gathered = list(range(axis, axis + index_rank - batch_dims))
    rest = [d for d in range(batch_dims, out_rank) if d not in gathered]
    return tuple(range(batch_dims)) + tuple(gathered) + tuple(rest)


def get_1d_shape(in_shape) -> tuple:
    """The shape of `in_shape` flattened: one dimension of all its elements."""
    size = 1
    for d in in_shape:
        size *= d
    return (size,)
