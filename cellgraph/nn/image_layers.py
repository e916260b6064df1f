"""Layers of image-to-image networks (CycleGAN, pix2pix, super-resolution): the padding Cells
ZeroPad2d / ConstantPad1d-3d / ReflectionPad1d-2d, PixelShuffle and PixelUnshuffle,
InstanceNorm1d-3d (GroupNorm with one group per channel: instance statistics in training and
evaluation alike, as MindSpore's) and Dropout2d/3d (whole channels dropped)."""
from __future__ import annotations

import numbers

import cellgraph.ops as P
from cellgraph.compiler.builder import Tracer
from cellgraph.ops.function.nn_func.conv import extract_patches
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.primitives.random_ops import rand
from cellgraph.runtime.tensor import Tensor

from .cell import Cell
from .layers import check_input, guarded
from .normalization import GroupNorm

__all__ = ["ChannelShuffle", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Dropout1d", "Dropout2d", "Dropout3d",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "PixelShuffle",
           "PixelUnshuffle", "ReflectionPad1d", "ReflectionPad2d", "Unfold", "ZeroPad2d"]


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


class PixelShuffle(Cell):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _factor(upscale_factor, "PixelShuffle", "upscale_factor")

    def construct(self, input):
        return P.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _factor(downscale_factor, "PixelUnshuffle", "downscale_factor")

    def construct(self, input):
        return P.pixel_unshuffle(input, self.downscale_factor)


def _factor(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be a positive int, got {value!r}")
    return int(value)


class _InstanceNorm(GroupNorm):
    """Each (example, channel) normalised over its spatial axes, then scaled by gamma and
    shifted by beta per channel."""

    rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=dt.float32):
        super().__init__(num_features, num_features, eps, affine, gamma_init, beta_init, dtype)
        self.num_features = self.num_channels
        self.momentum = momentum

    def construct(self, x):
        check_input(type(self).__name__, x, rank=self.rank, channels=self.num_features)
        return super().construct(x)

    def extend_repr(self) -> str:
        return f"num_features={self.num_features}, eps={self.eps}, affine={self.affine}"


class InstanceNorm1d(_InstanceNorm):
    rank = 3


class InstanceNorm2d(_InstanceNorm):
    rank = 4


class InstanceNorm3d(_InstanceNorm):
    rank = 5


class Dropout2d(Cell):
    """In training, zero whole channels of (N, C, H, W) with probability `p` and scale the rest
    by 1 / (1 - p); in evaluation, the identity."""

    rank = 4

    def __init__(self, p=0.5):
        super().__init__()
        name = type(self).__name__
        if isinstance(p, bool) or not isinstance(p, numbers.Real):
            raise DTypeError(f"{name}: `p` must be a float, got {type(p).__name__}")
        if not 0 <= p <= 1:
            raise ArgumentValueError(f"{name}: `p` must be in [0, 1], got {p}")
        self.p = float(p)

    def construct(self, x):
        check_input(type(self).__name__, x, rank=self.rank)
        if not guarded(self, "training") or self.p == 0.0:
            return x
        if self.p == 1.0:
            return x * 0
        shape = tuple(x.shape[:2]) + (1,) * (self.rank - 2)
        keep = P.cast(P.less(rand(shape), 1 - self.p), x.dtype)
        return x * keep / (1 - self.p)

    def extend_repr(self) -> str:
        return f"p={self.p:g}"


class Dropout3d(Dropout2d):
    rank = 5


class Dropout1d(Cell):
    """In training, zero whole channels of (N, C, L) or (C, L) with probability `p` and scale
    the rest by 1 / (1 - p); in evaluation, the identity. `p` must be a float, as in
    MindSpore."""

    def __init__(self, p=0.5):
        super().__init__()
        if not isinstance(p, float):
            raise DTypeError(f"Dropout1d: `p` must be a float, got {type(p).__name__}")
        if not 0 <= p <= 1:
            raise ArgumentValueError(f"Dropout1d: `p` must be in [0, 1], got {p}")
        self.p = p

    def construct(self, x):
        if not isinstance(x, (Tensor, Tracer)):
            raise DTypeError(f"Dropout1d: the input must be a Tensor, got {type(x).__name__}")
        if len(x.shape) not in (2, 3):
            raise ArgumentValueError(f"Dropout1d: the input must be 2-D (C, L) or 3-D (N, C, L), "
                                     f"got shape {tuple(x.shape)}")
        if not guarded(self, "training") or self.p == 0.0:
            return x
        if self.p == 1.0:
            return x * 0
        shape = tuple(x.shape[:-1]) + (1,)
        keep = P.cast(P.less(rand(shape), 1 - self.p), x.dtype)
        return x * keep / (1 - self.p)

    def extend_repr(self) -> str:
        return f"p={self.p:g}"


class ChannelShuffle(Cell):
    """Splits the channels (axis 1) of (N, C, ...), (N, C) included, into `groups` groups and interleaves them:
    channel g * (C / groups) + i goes to position i * groups + g."""

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int):
            raise DTypeError(f"ChannelShuffle: `groups` must be an int, got "
                             f"{type(groups).__name__}")
        if groups < 1:
            raise ArgumentValueError(f"ChannelShuffle: `groups` must be larger than 0, got "
                                     f"{groups}")
        self.groups = groups

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) < 2:
            raise ArgumentValueError(f"ChannelShuffle: the input must have at least 2 dimensions "
                                     f"(N, C, ...), got shape {shape}")
        n, c = shape[0], shape[1]
        if c % self.groups:
            raise ArgumentValueError(f"ChannelShuffle: the channels ({c}) must be divisible by "
                                     f"`groups` ({self.groups})")
        out = P.reshape(x, (n, self.groups, c // self.groups, -1))
        out = P.transpose(out, (0, 2, 1, 3))
        return P.reshape(out, shape)

    def extend_repr(self) -> str:
        return f"groups={self.groups}"


class Unfold(Cell):
    """Image patches: (N, C, H, W) -> (N, kh * kw * C, out_rows, out_cols), each window's
    values with the channels of one position together; `ksizes`, `strides` and `rates` are
    [1, row, col, 1] as in MindSpore."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        for name, value in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 \
                    or value[3] != 1:
                raise ArgumentValueError(f"Unfold: `{name}` must be [1, row, col, 1], got "
                                         f"{value!r}")
        self.ksizes, self.strides, self.rates = tuple(ksizes), tuple(strides), tuple(rates)
        self.padding = padding

    def construct(self, x):
        return extract_patches(x, self.ksizes, self.strides, self.rates, self.padding)
