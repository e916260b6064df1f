"""`x[index] = value` on a Tensor: a new Tensor, as a composite of indexing and its transpose.

    tensor_setitem(x, index, v) = x + place(broadcast(v) - x[index])

where `place` puts a value of the indexed region's shape back where the index took it from,
zeros elsewhere: the transpose of indexing (getitem_grad for static indices, gather_grad for an
integer Tensor). So the result is differentiable like any composite: d/dx is 1 outside the
region and 0 inside, d/dv the region's incoming gradient, summed over broadcasting.

An index that mixes an integer Tensor with slices (`x[i, :, 0:2] = v`) is done in two steps:
the row `x[i]` gets `[:, 0:2] = v`, then `x[i]` gets the new row.
"""
from __future__ import annotations

import numbers

from . import array_ops as A
from . import functional as F
from .array_ops import Slice
from .core import abstract_of, is_value

_FULL = slice(None)


def _is_tensor_index(item) -> bool:
    return is_value(item) and not isinstance(item, numbers.Number | bool)


def tensor_setitem(x, index, value):
    """x with `x[index]` replaced by `value` (broadcast to the region, cast to x's dtype)."""
    items = index if isinstance(index, tuple) else (index,)
    split = next((i for i, item in enumerate(items) if _is_tensor_index(item)), None)
    if split is not None and not all(_is_full(item) for i, item in enumerate(items)
                                     if i != split):
        lead = (_FULL,) * split + (items[split],)  # x[:, ..., i] picks the rows first
        rows = F.getitem(x, lead)
        # what is left applies to the picked rows, past the axes the index tensor gave them
        kept = (_FULL,) * (split + abstract_of(items[split]).ndim)
        inner = kept + items[split + 1:]
        return tensor_setitem(x, lead, tensor_setitem(rows, inner, value))
    region = F.getitem(x, index)
    shape = abstract_of(region).shape
    dtype = abstract_of(x).dtype
    if isinstance(value, numbers.Number):
        new = F.fill(dtype, shape, value)
    else:
        new = F.broadcast_to(F.cast(value, dtype), shape)
    return F.add(x, _place(F.sub(new, region), x, items))


def _is_full(item) -> bool:
    return isinstance(item, slice) and item == _FULL


def _place(delta, x, items):
    """`delta` at the positions `x[items]` reads, zeros elsewhere."""
    shape = abstract_of(x).shape
    split = next((i for i, item in enumerate(items) if _is_tensor_index(item)), None)
    if split is not None:
        indices = items[split]
        return A.gather_grad(delta, indices, axis=split, shape=shape)
    static = tuple(_static(item) for item in items)
    return A.getitem_grad(delta, index=static, shape=shape)


def _static(item):
    if isinstance(item, slice):
        return Slice(item.start, item.stop, item.step)
    return item


__all__ = ["tensor_setitem"]
