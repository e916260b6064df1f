"""A slice whose bounds are integer Tensors: `x[begin:end:step]` in a graph where a bound is
a 0-d integer Tensor. Where a bound's value is known while the graph is built (a constant, or
a Tensor passed to the graph: `static_values`), it is that int. Otherwise the slice is read
when the graph runs, as MindSpore's graphs read it: the bounds are normalised as Python
normalises them, `range(start, stop, step)` is computed at run time and the axis gathered at
those positions, so the sliced axis has a size known only then.

    x[1:n:2]   (n computed in the graph)   is   gather(x, sequence_range(1, min(n, len), 2), 0)
"""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import dynamic_ops as D
from . import math_ops as M
from .array_ops import Slice
from .core import abstract_of, static_values
from .errors import DTypeError, IndexValueError


def slice_bound(bound):
    """A slice bound as an int or None where it is known now (a bool is an int, as in
    MindSpore), else the 0-d integer Tensor."""
    if bound is None or isinstance(bound, numbers.Integral):
        return None if bound is None else int(bound)
    if not _is_tensor(bound):
        raise DTypeError(f"GetItem: slice bounds must be ints, None or integer Tensors, got "
                         f"{type(bound).__name__}")
    aval = abstract_of(bound)
    if not aval.dtype.is_int or aval.shape not in ((), (1,)):
        raise DTypeError(f"GetItem: a Tensor slice bound must be an integer scalar, got "
                         f"{aval.dtype} of shape {aval.shape}")
    known = static_values(bound)
    return bound if known is None else int(np.asarray(known).reshape(-1)[0])


def _is_tensor(value) -> bool:
    return hasattr(value, "aval")


def is_runtime(slice_: slice) -> bool:
    """Whether a slice (of `slice_bound`s) has a bound known only at run time."""
    return any(_is_tensor(b) for b in (slice_.start, slice_.stop, slice_.step))


def _scalar(value):
    """A 0-d int64 graph value of an int or an integer Tensor."""
    if isinstance(value, int):
        return np.int64(value)
    return A.cast(A.reshape(value, shape=()), dtype=dt.int64)


def _normalised(bound, default, size, low, high):
    """bound (None: default) made non-negative by adding `size`, then clamped to [low, high]."""
    if bound is None:
        return default
    bound = _scalar(bound)
    shifted = M.select(M.less(bound, np.int64(0)), M.add(bound, size), bound)
    return M.minimum(M.maximum(shifted, low), high)


def runtime_slice(x, axis: int, slice_: slice):
    """x sliced along `axis` by a slice with a bound known only at run time."""
    size = abstract_of(x).shape[axis]
    size = np.int64(size) if size is not None else _scalar(A.getitem(D.shape_of(x),
                                                                     index=(axis,)))
    step = slice_.step
    if isinstance(step, int) and step == 0:
        raise IndexValueError("GetItem: slice step cannot be zero")
    up_start = _normalised(slice_.start, np.int64(0), size, np.int64(0), size)
    up_stop = _normalised(slice_.stop, size, size, np.int64(0), size)
    last = M.sub(size, np.int64(1))
    down_start = _normalised(slice_.start, last, size, np.int64(-1), last)
    down_stop = _normalised(slice_.stop, np.int64(-1), size, np.int64(-1), last)
    if step is None or isinstance(step, int):
        step = 1 if step is None else step
        start, stop = (up_start, up_stop) if step > 0 else (down_start, down_stop)
        step = np.int64(step)
    else:
        step = _scalar(step)
        upward = M.greater(step, np.int64(0))
        start = M.select(upward, _scalar(up_start), _scalar(down_start))
        stop = M.select(upward, _scalar(up_stop), _scalar(down_stop))
    positions = D.sequence_range(_scalar(start), _scalar(stop), _scalar(step))
    return A.gather(x, positions, axis=axis)


def _axes_taken(item) -> int:
    """How many axes of the indexed Tensor an index item consumes."""
    if item is None or item is True or item is Ellipsis:
        return 0
    if _is_tensor(item) and abstract_of(item).dtype.is_bool:
        return abstract_of(item).ndim
    if isinstance(item, (list, np.ndarray)) and np.asarray(item).dtype == np.bool_:
        return np.asarray(item).ndim
    return 1


def apply_runtime_slices(x, items: list, positions: list):
    """x with the slices at `positions` of the index `items` applied along their axes, and
    those items made `:`; the other items index the result as they would have indexed x."""
    ndim = abstract_of(x).ndim
    taken = [_axes_taken(item) for item in items]
    ellipsis = ndim - sum(taken)
    for pos in positions:
        before = items[:pos]
        axis = sum(taken[:pos]) + (ellipsis if any(it is Ellipsis for it in before) else 0)
        x = runtime_slice(x, axis, items[pos])
        items[pos] = Slice(None, None, None)
    return x, items
