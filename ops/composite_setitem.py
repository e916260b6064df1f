"""`x[index] = value` as a new tensor, from a gather and a select over constant index maps.

The index must be static (ints, slices, None, Ellipsis, lists or arrays of ints): NumPy works out
at compile time which flat positions it names, so the result is
`select(mask, gather(value_flat, source), x)` with `mask` (the named positions) and `source`
(for each position, which element of `value` lands there; the last write wins, as in NumPy)
constants. Gradients flow to `x` (outside the region) and to `value` (inside it).
"""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import functional as F
from .core import abstract_of
from .errors import DTypeError

__all__ = ["tensor_setitem"]


def _static(index) -> bool:
    """Whether NumPy can resolve `index` now (no Tensor in it, no Tensor slice bounds)."""
    for item in index if isinstance(index, tuple) else (index,):
        if isinstance(item, slice):
            bounds = (item.start, item.stop, item.step)
            if any(b is not None and not isinstance(b, numbers.Integral) for b in bounds):
                return False
        elif not (item is None or item is Ellipsis
                  or isinstance(item, (numbers.Integral, list, np.ndarray))):
            return False
    return True


def tensor_setitem(x, index, value):
    """A copy of `x` with `x[index]` replaced by `value` (broadcast to the region)."""
    if not _static(index):
        raise DTypeError("SetItem: the index of an item assignment in a graph must be static "
                         "(ints, slices, lists); for a Tensor index, build the new value with "
                         "ops.select and a mask")
    xt = abstract_of(x)
    size = int(np.prod(xt.shape))
    positions = np.arange(size).reshape(xt.shape)[index]
    if positions.size == 0:
        return x
    source = np.zeros(size, np.int64)
    mask = np.zeros(size, bool)
    source[positions.ravel()] = np.arange(positions.size)
    mask[positions.ravel()] = True
    if isinstance(value, numbers.Number):
        values = F.fill(xt.dtype, (positions.size,), value)
    else:
        values = F.reshape(F.broadcast_to(F.cast(value, xt.dtype), positions.shape), (-1,))
    placed = F.gather(values, A.cast(source, dtype=dt.int64), 0)
    flat = F.select(A.cast(mask, dtype=dt.bool_), placed, F.reshape(x, (-1,)))
    return F.reshape(flat, xt.shape)
