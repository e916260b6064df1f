"""Convolutions beyond Conv2d: Conv1d, Conv3d, Conv1dTranspose, Conv2dTranspose, and the 1-D
pooling layers. Weights have MindSpore's shapes, so checkpoints line up: Conv1d
(out, in/group, 1, k), Conv3d (out, in/group, kd, kh, kw), the transposed convolutions
(in, out/group, [1,] kh, kw)."""
from __future__ import annotations

import math

import cellgraph.ops as P
from cellgraph.common.initializer import HeUniform, Uniform, compute_fans, initializer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter

from .cell import Cell
from .conv import AvgPool2d, MaxPool2d, _pad_mode
from .layers import check_input, positive_int

__all__ = ["AvgPool1d", "AvgPool3d", "Conv1d", "Conv1dTranspose", "Conv2dTranspose", "Conv3d",
           "Conv3dTranspose", "MaxPool1d", "MaxPool3d"]


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
