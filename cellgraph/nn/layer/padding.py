"""The padding Cells: ZeroPad2d, ConstantPad1d-3d, ReflectionPad1d-3d, ReplicationPad1d-3d."""
from __future__ import annotations

import numbers

import cellgraph.ops as P
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from ..cell import Cell

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad2d"]


class _PadNd(Cell):
    """Pads the last `dims` axes: `padding` an int (every side) or a tuple (left, right, top,
    bottom, front, back), the first pair for the last axis."""

    dims = 2
    mode = "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
            padding = (int(padding),) * (2 * self.dims)
        if not isinstance(padding, (tuple, list)) or len(padding) != 2 * self.dims or not all(
                isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in padding):
            raise DTypeError(f"{name}: `padding` must be an int or a tuple of {2 * self.dims} "
                             f"ints, got {padding!r}")
        self.padding = tuple(int(p) for p in padding)
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise DTypeError(f"{name}: `value` must be a number, got {value!r}")
        self.value = value

    def construct(self, x):
        if len(x.shape) < self.dims + 1:
            raise ArgumentValueError(f"{type(self).__name__}: expected an input of rank >= "
                                     f"{self.dims + 1}, got shape {tuple(x.shape)}")
        if self.mode == "constant":
            return P.pad(x, self.padding, value=self.value)
        return P.pad(x, self.padding, mode=self.mode)

    def extend_repr(self) -> str:
        return f"padding={self.padding}"


class ConstantPad1d(_PadNd):
    dims = 1

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(_PadNd):
    dims = 2

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad3d(_PadNd):
    dims = 3

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ZeroPad2d(_PadNd):
    dims = 2

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ReflectionPad1d(_PadNd):
    dims, mode = 1, "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad2d(_PadNd):
    dims, mode = 2, "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad3d(_PadNd):
    dims, mode = 3, "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad1d(_PadNd):
    """Pads the last axis with copies of its edge values."""

    dims, mode = 1, "replicate"

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad2d(_PadNd):
    """Pads the last two axes with copies of their edge values."""

    dims, mode = 2, "replicate"

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad3d(_PadNd):
    """Pads the last three axes with copies of their edge values."""

    dims, mode = 3, "replicate"

    def __init__(self, padding):
        super().__init__(padding)

