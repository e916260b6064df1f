"""MindSpore's StridedSlice and Slice, lowered to `getitem` with a static index.

StridedSlice's masks say, per entry of begin/end/strides, what NumPy indexing spells directly:
a begin_mask/end_mask bit drops that bound, an ellipsis_mask bit is `...`, a new_axis_mask bit
is `None`, and a shrink_axis_mask bit takes the single index `begin[i]`. So

    strided_slice(x, (0, 1), (2, 4), (1, 2), end_mask=0b01)   is   x[0:, 1:4:2]

and the gradient is getitem's (`getitem_grad`), with nothing new to differentiate.
"""
from __future__ import annotations

import numbers

from . import array_ops as A
from .array_ops import Slice
from .core import abstract_of, fmt_shape, static_values
from .errors import ArgumentError, ArgumentValueError, ShapeError


def _int_tuple(value, op: str, name: str) -> tuple:
    # a Tensor whose values are known (a value input): MindSpore's strided_slice and slice
    # take one as begin/end/strides/size
    if hasattr(value, "aval") and abstract_of(value).dtype.is_int \
            and abstract_of(value).ndim <= 1:
        array = static_values(value)
        if array is not None:
            value = tuple(int(v) for v in array.reshape(-1))
    items = value if isinstance(value, (tuple, list)) else (value,)
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in items):
        raise ArgumentError(f"{op}: `{name}` must be a tuple of ints, got {value!r}")
    return tuple(int(v) for v in items)


def _bit(mask: int, i: int) -> bool:
    return bool(mask >> i & 1)


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """x[begin:end:strides] per axis, with TensorFlow/MindSpore's bit masks."""
    begin = _int_tuple(begin, "StridedSlice", "begin")
    end = _int_tuple(end, "StridedSlice", "end")
    strides = _int_tuple(strides, "StridedSlice", "strides")
    if not len(begin) == len(end) == len(strides):
        raise ShapeError(f"StridedSlice: begin, end and strides must have one length, got "
                         f"{begin}, {end} and {strides}")
    if 0 in strides:
        raise ArgumentValueError(f"StridedSlice: strides must be non-zero, got {strides}")
    if ellipsis_mask.bit_count() > 1:
        raise ArgumentValueError(f"StridedSlice: ellipsis_mask {ellipsis_mask:#b} sets more "
                                 f"than one bit")
    shape = abstract_of(input_x).shape
    n = len(begin)
    consumed = sum(1 for i in range(n) if not (_bit(ellipsis_mask, i) or _bit(new_axis_mask, i)))
    if consumed > len(shape):
        raise ShapeError(f"StridedSlice: begin {begin} indexes {consumed} axes, but input_x of "
                         f"shape {fmt_shape(shape)} has {len(shape)}")
    index, axis = [], 0
    for i in range(n):
        if _bit(ellipsis_mask, i):
            index.append(Ellipsis)
            axis += len(shape) - consumed
        elif _bit(new_axis_mask, i):
            index.append(None)
        elif _bit(shrink_axis_mask, i):
            size = shape[axis]
            if size is not None and not -size <= begin[i] < size:
                raise ShapeError(f"StridedSlice: index {begin[i]} (shrink_axis_mask) is out of "
                                 f"range for axis {axis} of input_x of shape {fmt_shape(shape)}")
            index.append(begin[i])
            axis += 1
        else:
            index.append(Slice(None if _bit(begin_mask, i) else begin[i],
                               None if _bit(end_mask, i) else end[i],
                               None if strides[i] == 1 else strides[i]))
            axis += 1
    return A.getitem(input_x, index=tuple(index))


def slice(input_x, begin, size):
    """x[begin[i] : begin[i] + size[i]] on every axis; a size of -1 runs to the end."""
    begin = _int_tuple(begin, "Slice", "begin")
    size = _int_tuple(size, "Slice", "size")
    shape = abstract_of(input_x).shape
    if not len(begin) == len(size) == len(shape):
        raise ShapeError(f"Slice: begin {begin} and size {size} must give one entry per axis of "
                         f"input_x of shape {fmt_shape(shape)}")
    index = []
    for axis, (b, s, d) in enumerate(zip(begin, size, shape)):
        stop = d if s == -1 else b + s
        if b < 0 or s < -1 or (d is not None and stop > d):
            raise ShapeError(f"Slice: begin {b} with size {s} does not fit axis {axis} of "
                             f"input_x of shape {fmt_shape(shape)}")
        index.append(Slice(b, None if s == -1 else stop, None))
    return A.getitem(input_x, index=tuple(index))


__all__ = ["slice", "strided_slice"]
