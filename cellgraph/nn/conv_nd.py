"""Convolutions beyond Conv2d: Conv1d, Conv3d, Conv1dTranspose, Conv2dTranspose, and the 1-D
pooling layers. Weights have MindSpore's shapes, so checkpoints line up: Conv1d
(out, in/group, 1, k), Conv3d (out, in/group, kd, kh, kw), the transposed convolutions
(in, out/group, [1,] kh, kw)."""
from __future__ import annotations

import math

import numpy as np

import cellgraph.ops as P
from cellgraph.common.initializer import HeUniform, Uniform, compute_fans, initializer
from cellgraph.compiler.builder import Tracer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .cell import Cell
from .conv import AvgPool2d, MaxPool2d, _pad_mode
from .layers import check_input, positive_int

__all__ = ["AvgPool1d", "AvgPool3d", "Conv1d", "Conv1dTranspose", "Conv2dTranspose", "Conv3d",
           "Conv3dTranspose", "LPPool1d", "LPPool2d", "MaxPool1d", "MaxPool3d"]


def _tuple(value, n: int, op: str, name: str) -> tuple:
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(items) != n or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                              for v in items):
        raise DTypeError(f"{op}: `{name}` must be a positive int or {n} of them, got {value!r}")
    return items


class _ConvNd(Cell):
    """Shared set-up: channel checks, weight of `weight_shape`, optional bias."""

    op = ""
    rank = 2  # spatial dimensions of the input
    transposed = False
    kernel_prefix: tuple = ()  # 1-D layers keep MindSpore's (out, in, 1, k) weights

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=dt.float32):
        super().__init__()
        op = self.op
        self.in_channels = positive_int(in_channels, op, "in_channels")
        self.out_channels = positive_int(out_channels, op, "out_channels")
        self.group = positive_int(group, op, "group")
        if self.in_channels % self.group or self.out_channels % self.group:
            raise ArgumentValueError(f"{op}: group={group} must divide in_channels="
                                     f"{in_channels} and out_channels={out_channels}")
        rank = self.rank
        self.kernel_size = _tuple(kernel_size, rank, op, "kernel_size")
        self.stride = _tuple(stride, rank, op, "stride")
        self.dilation = _tuple(dilation, rank, op, "dilation")
        self.pad_mode = _pad_mode(pad_mode, padding, op) if not isinstance(padding, tuple) \
            or pad_mode == "pad" else _pad_mode(pad_mode, 0, op)
        self.padding = padding
        self.has_bias = bool(has_bias)
        lead = (self.in_channels, self.out_channels // self.group) if self.transposed else (
            self.out_channels, self.in_channels // self.group)
        shape = lead + self.kernel_prefix + self.kernel_size
        self.weight = Parameter(initializer(weight_init or HeUniform(math.sqrt(5)), shape, dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            bound = 1 / math.sqrt(compute_fans(shape)[0])
            self.bias = Parameter(initializer(bias_init or Uniform(bound), (self.out_channels,),
                                              dtype), name="bias")

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}")


class Conv1d(_ConvNd):
    """1-D convolution over (N, C, W)."""

    op, rank, kernel_prefix = "Conv1d", 1, (1,)

    def construct(self, x):
        check_input(self.op, x, rank=3, channels=self.in_channels, dtype=self.weight.dtype)
        return P.conv1d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                        self.dilation, self.group)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C, D, H, W)."""

    op, rank = "Conv3d", 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=dt.float32):
        if data_format != "NCDHW":
            raise ArgumentValueError(f"Conv3d: only data_format='NCDHW' is supported, got "
                                     f"{data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)

    def construct(self, x):
        check_input(self.op, x, rank=5, channels=self.in_channels, dtype=self.weight.dtype)
        return P.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                        self.dilation, self.group)


class Conv2dTranspose(_ConvNd):
    """2-D transposed convolution (the adjoint of Conv2d) over (N, C, H, W)."""

    op, rank, transposed = "Conv2dTranspose", 2, True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)
        self.output_padding = output_padding

    def construct(self, x):
        check_input(self.op, x, rank=4, channels=self.in_channels, dtype=self.weight.dtype)
        return P.conv_transpose2d(x, self.weight, self.bias, self.stride, self.pad_mode,
                                  _four(self.padding), self.dilation, self.group,
                                  self.output_padding)


def _four(padding):
    return (padding,) * 4 if isinstance(padding, int) else tuple(padding)


class Conv1dTranspose(_ConvNd):
    """1-D transposed convolution over (N, C, W)."""

    op, rank, transposed, kernel_prefix = "Conv1dTranspose", 1, True, (1,)

    def construct(self, x):
        check_input(self.op, x, rank=3, channels=self.in_channels, dtype=self.weight.dtype)
        out = P.conv_transpose2d(P.expand_dims(x, 2), self.weight, self.bias,
                                 (1,) + self.stride, self.pad_mode,
                                 (0, 0, self.padding, self.padding), (1,) + self.dilation,
                                 self.group)
        return P.squeeze(out, 2)


class _Pool1d(Cell):
    """A 1-D pooling layer: the 2-D one over (N, C, 1, W)."""

    pool2d = MaxPool2d

    def _build(self, kernel_size, stride, pad_mode, padding, **options):
        self.pool = self.pool2d((1, kernel_size), (1, stride), pad_mode,
                                (0, 0, padding, padding) if padding else 0, **options)

    def construct(self, x):
        check_input(type(self).__name__, x, rank=3)
        return P.squeeze(self.pool(P.expand_dims(x, 2)), 2)


class MaxPool1d(_Pool1d):
    """The maximum over each window of an (N, C, W) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        self._build(kernel_size, stride, pad_mode, padding, dilation=dilation,
                    return_indices=return_indices, ceil_mode=ceil_mode)


class AvgPool1d(_Pool1d):
    """The mean over each window of an (N, C, W) input."""

    pool2d = AvgPool2d

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self._build(kernel_size, stride, pad_mode, padding, ceil_mode=ceil_mode,
                    count_include_pad=count_include_pad)


class Conv3dTranspose(_ConvNd):
    """3-D transposed convolution (the adjoint of Conv3d) over (N, C, D, H, W)."""

    op, rank, transposed = "Conv3dTranspose", 3, True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=dt.float32):
        if data_format != "NCDHW":
            raise ArgumentValueError(f"Conv3dTranspose: only data_format='NCDHW' is supported, "
                                     f"got {data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)
        self.output_padding = output_padding

    def construct(self, x):
        check_input(self.op, x, rank=5, channels=self.in_channels, dtype=self.weight.dtype)
        return P.conv_transpose3d(x, self.weight, self.bias, self.stride, self.pad_mode,
                                  self.padding, self.dilation, self.group, self.output_padding)


class _Pool3d(Cell):
    fn = staticmethod(P.max_pool3d)

    def _build(self, kernel_size, stride, pad_mode, padding, dilation=1, ceil_mode=False,
               return_indices=False, count_include_pad=True, divisor_override=None):
        op = type(self).__name__
        if ceil_mode or return_indices or dilation != 1 or not count_include_pad or \
                divisor_override is not None:
            raise ArgumentValueError(f"{op}: dilation, ceil_mode, return_indices, "
                                     f"count_include_pad=False and divisor_override are not "
                                     f"supported")
        if str(pad_mode).lower() == "same":
            raise ArgumentValueError(f"{op}: pad_mode='same' is not supported; give `padding` "
                                     f"with pad_mode='pad'")
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, x):
        check_input(type(self).__name__, x, rank=5)
        return type(self).fn(x, self.kernel_size, self.stride, self.padding)


class MaxPool3d(_Pool3d):
    """The maximum over each window of (N, C, D, H, W) (padding counts as -inf)."""

    fn = staticmethod(P.max_pool3d)

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        self._build(kernel_size, stride, pad_mode, padding, dilation=dilation,
                    return_indices=return_indices, ceil_mode=ceil_mode)


class AvgPool3d(_Pool3d):
    """The mean over each window of (N, C, D, H, W) (padded zeros counted)."""

    fn = staticmethod(P.avg_pool3d)

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self._build(kernel_size, stride, pad_mode, padding, ceil_mode=ceil_mode,
                    count_include_pad=count_include_pad, divisor_override=divisor_override)


class _LPPool(Cell):
    """(sum over each window of x^p)^(1/p), p = `norm_type`, windows of `kernel_size` moved by
    `stride` (default: the kernel) with no padding. With `ceil_mode` a window that runs past
    the end is kept, its sum scaled by kernel_size / (elements inside), as MindSpore's
    average-pool-based definition does."""

    nd = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        name = type(self).__name__
        if not isinstance(norm_type, (float, int)):
            raise DTypeError(f"{name}: `norm_type` must be a float or int, got "
                             f"{type(norm_type).__name__}")
        if norm_type == 0:
            raise ArgumentValueError(f"{name}: `norm_type` can not be 0")
        if not isinstance(ceil_mode, bool):
            raise DTypeError(f"{name}: `ceil_mode` must be a bool, got {type(ceil_mode).__name__}")
        self.norm_type, self.kernel_size, self.stride = norm_type, kernel_size, stride
        self.ceil_mode = ceil_mode
        self._kernel = self._sizes(kernel_size, "kernel_size")
        self._stride = self._kernel if stride is None else self._sizes(stride, "stride")

    def _sizes(self, value, what):
        name = type(self).__name__
        items = tuple(value) if self.nd == 2 and isinstance(value, tuple) else (value,) * self.nd
        if len(items) != self.nd or any(isinstance(v, bool) or not isinstance(v, int)
                                        for v in items):
            raise DTypeError(f"{name}: `{what}` must be an int"
                             f"{' or a tuple of two' if self.nd == 2 else ''}, got {value!r}")
        if any(v < 1 for v in items):
            raise ArgumentValueError(f"{name}: `{what}` must be >= 1, got {value!r}")
        return items

    def _axis(self, length, k, s):
        """(output length, zeros to pad at the end, elements inside each window)."""
        if length < k:
            raise ShapeError(f"{type(self).__name__}: an input length {length} is shorter than "
                             f"the kernel {k}")
        out = (-(-(length - k) // s) if self.ceil_mode else (length - k) // s) + 1
        if self.ceil_mode and (out - 1) * s >= length:
            out -= 1
        counts = np.array([min(i * s + k, length) - i * s for i in range(out)], np.float64)
        return out, max((out - 1) * s + k - length, 0), counts

    def construct(self, x):
        name = type(self).__name__
        ranks = (2, 3) if self.nd == 1 else (4,)
        if not isinstance(x, (Tensor, Tracer)):
            raise DTypeError(f"{name}: the input must be a Tensor, got {type(x).__name__}")
        shape = tuple(x.shape)
        if len(shape) not in ranks:
            raise ShapeError(f"{name}: expected an input of rank {' or '.join(map(str, ranks))}, "
                             f"got shape {shape}")
        p = float(self.norm_type)
        x4 = x
        if self.nd == 1:
            x4 = P.expand_dims(x, -2) if len(shape) == 3 else P.expand_dims(P.expand_dims(x, 0), 2)
        kernel = (1,) * (2 - self.nd) + self._kernel
        stride = (1,) * (2 - self.nd) + self._stride
        (_, pad_h, count_h), (_, pad_w, count_w) = (
            self._axis(size, k, s) for size, k, s in zip(x4.shape[2:], kernel, stride))
        powered = P.pow(x4, p)
        if pad_h or pad_w:
            powered = P.pad(powered, (0, pad_w, 0, pad_h))
        window = kernel[0] * kernel[1]
        sums = P.avg_pool2d(powered, kernel, stride)
        counts = np.outer(count_h, count_w)
        if np.all(counts == window):
            sums = sums * float(window)
        else:
            scale = window * window / counts
            sums = sums * Tensor(scale.astype(np.dtype(x.dtype.np_name)))
        out = P.pow(sums, 1.0 / p)
        if self.nd == 1:
            out = P.squeeze(out, 2) if len(shape) == 3 else P.squeeze(P.squeeze(out, 2), 0)
        return out

    def extend_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPool):
    """Power-average pooling over the last axis of (N, C, L) or (C, L)."""

    nd = 1


class LPPool2d(_LPPool):
    """Power-average pooling over the last two axes of (N, C, H, W)."""

    nd = 2
