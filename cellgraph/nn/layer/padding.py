"""The padding Cells: ZeroPad2d, ConstantPad1d-3d, ReflectionPad1d-3d, ReplicationPad1d-3d."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from ..cell import Cell

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad2d"]


class _PadNd(Cell):
    """Pads the last axes: `padding` an int (every side of the `dims` last axes) or a tuple
    (left, right, top, bottom, front, back: the first pair for the last axis, as many pairs as
    axes to pad), checked as MindSpore checks it."""

    dims = 2
    mode = "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * self.dims)
        if self.mode == "constant":
            self.padding = self._constant_padding(name, padding)
            if not isinstance(value, (int, float)):
                raise DTypeError(f"For '{name}', the type of parameter 'value' must be in [int, "
                                 f"float], but got {type(value)}")
        else:
            self.padding = self._edge_padding(name, padding)
        self.value = value

    def _constant_padding(self, name, padding) -> tuple:
        if not isinstance(padding, tuple):
            raise DTypeError(f"For '{name}', the type of parameter 'padding' must be in [int, "
                             f"tuple], but got {type(padding)}")
        if len(padding) % 2 != 0:
            raise ArgumentValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                     f"type must be a multiple of 2, but got {len(padding)}")
        if self.dims == 1 and len(padding) != 2:
            raise ArgumentValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                     f"type must equal to 2.but got {len(padding)}")
        if len(padding) > 2 * self.dims:
            raise ArgumentValueError(f"For '{name}', the length of parameter 'padding' with tuple "
                                     f"type must no more than {2 * self.dims}.but got "
                                     f"{len(padding)}")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise DTypeError(f"For '{name}', every element in 'padding' must be integer, but got "
                             f"{padding}.")
        return padding

    def _edge_padding(self, name, padding) -> tuple:
        if not isinstance(padding, tuple):
            raise DTypeError(f"For '{name}' the input 'padding' must be an integer or tuple, but "
                             f"got {type(padding).__name__}")
        if len(padding) % 2 != 0:
            raise ArgumentValueError(f"For '{name}' the length of input 'padding' must be "
                                     f"divisible by 2, but got padding of length {len(padding)}. ")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise DTypeError(f"For '{name}' every element in 'padding' must be integer, but got "
                             f"{padding}. ")
        if self.mode == "reflect" and not all(p >= 0 for p in padding):
            raise ArgumentValueError(f"For '{name}' every element in 'padding' must be >= 0. but "
                                     f"got {padding}. ")
        return padding

    def construct(self, x):
        pairs = len(self.padding) // 2
        if self.mode == "replicate":
            if len(x.shape) < self.dims + 1:
                raise ArgumentValueError(f"{type(self).__name__}: expected an input of rank >= "
                                         f"{self.dims + 1}, got shape {tuple(x.shape)}")
            if pairs != self.dims:  # MindSpore's PadV3 (edge) takes one pair per padded axis
                rank = len(x.shape) + (len(x.shape) == self.dims + 1)  # unbatched: one added
                raise ArgumentValueError(f"For primitive[PadV3], the input dims when padding's "
                                         f"size equal {len(self.padding)} must be equal to "
                                         f"{pairs + 2}, but got {rank}.")
        if len(x.shape) < pairs:
            raise ArgumentValueError(f"For padding with length {len(self.padding)}, the dimension "
                                     f"of the tensor should be at least {pairs}, but got "
                                     f"{len(x.shape)}")
        if not pairs:
            return x
        if self.mode == "constant":
            return P.pad(x, self.padding, value=self.value)
        return P.pad(x, self.padding, mode=self.mode)


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

