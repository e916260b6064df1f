"""Convolution and pooling layers over NCHW images: Conv2d, MaxPool2d, AvgPool2d."""
from __future__ import annotations

import math
import numbers

from cellgraph.common.initializer import HeUniform, Uniform, compute_fans, initializer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.conv_ops import same_padding
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter

from .cell import Cell
from .layers import check_input, positive_int

__all__ = ["AvgPool2d", "Conv2d", "MaxPool2d"]

_PAD_MODES = ("same", "valid", "pad")


def _pair(value, op: str, name: str) -> tuple[int, int]:
    items = value if isinstance(value, (tuple, list)) else (value, value)
    if len(items) != 2 or any(isinstance(v, bool) or not isinstance(v, numbers.Integral)
                              for v in items):
        raise DTypeError(f"{op}: `{name}` must be an int or a pair of ints, got {value!r}")
    if min(items) < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be positive, got {value!r}")
    return int(items[0]), int(items[1])


def _pad_mode(pad_mode, padding, op: str) -> str:
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in _PAD_MODES:
        raise ArgumentValueError(f"{op}: `pad_mode` must be 'same', 'valid' or 'pad', got "
                                 f"{pad_mode!r}")
    if mode != "pad" and padding not in (0, (0, 0), (0, 0, 0, 0)):
        raise ArgumentValueError(f"{op}: padding={padding!r} needs pad_mode='pad', got "
                                 f"pad_mode={pad_mode!r}")
    return mode


def _check_format(data_format, op: str) -> None:
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")


class Conv2d(Cell):
    """2-D convolution: weight of shape (out_channels, in_channels / group, kh, kw)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=dt.float32):
        super().__init__()
        self.in_channels = positive_int(in_channels, "Conv2d", "in_channels")
        self.out_channels = positive_int(out_channels, "Conv2d", "out_channels")
        self.group = positive_int(group, "Conv2d", "group")
        if self.in_channels % self.group or self.out_channels % self.group:
            raise ArgumentValueError(f"Conv2d: group={group} must divide in_channels="
                                     f"{in_channels} and out_channels={out_channels}")
        self.kernel_size = _pair(kernel_size, "Conv2d", "kernel_size")
        self.stride = _pair(stride, "Conv2d", "stride")
        self.dilation = _pair(dilation, "Conv2d", "dilation")
        self.pad_mode = _pad_mode(pad_mode, padding, "Conv2d")
        self.padding = padding
        _check_format(data_format, "Conv2d")
        self.has_bias = bool(has_bias)
        shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(compute_fans(shape)[0]))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")

    def construct(self, x):
        check_input("Conv2d", x, rank=4, channels=self.in_channels, dtype=self.weight.dtype)
        return NF.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                         self.dilation, self.group)

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}")


class _Pool2d(Cell):
    op = ""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0,
                 data_format="NCHW"):
        super().__init__()
        self.kernel_size = _pair(kernel_size, self.op, "kernel_size")
        self.stride = _pair(stride, self.op, "stride")
        self.pad_mode = _pad_mode(pad_mode, padding, self.op)
        self.padding = padding
        _check_format(data_format, self.op)

    def explicit_padding(self, x) -> tuple:
        """(top, bottom, left, right) for this input."""
        if self.pad_mode == "valid":
            return (0, 0, 0, 0)
        if self.pad_mode == "pad":
            p = self.padding
            if isinstance(p, numbers.Integral):
                return (p,) * 4
            return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)
        top, bottom = same_padding(x.shape[2], self.kernel_size[0], self.stride[0])
        left, right = same_padding(x.shape[3], self.kernel_size[1], self.stride[1])
        return (top, bottom, left, right)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"pad_mode={self.pad_mode}, padding={self.padding}"


class MaxPool2d(_Pool2d):
    """The maximum over each kernel_size window (padding counts as -inf)."""

    op = "MaxPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        if dilation != 1 or return_indices or ceil_mode:
            raise ArgumentValueError("MaxPool2d: dilation, return_indices and ceil_mode are not "
                                     "supported")

    def construct(self, x):
        check_input(self.op, x, rank=4)
        return NF.max_pool2d(x, self.kernel_size, self.stride, self.explicit_padding(x))


class AvgPool2d(_Pool2d):
    """The mean over each kernel_size window. With pad_mode='same' the padding is left out of
    each window's count (as TensorFlow and MindSpore do); with 'pad', `count_include_pad`
    decides."""

    op = "AvgPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        if ceil_mode or divisor_override is not None:
            raise ArgumentValueError("AvgPool2d: ceil_mode and divisor_override are not "
                                     "supported")
        self.count_include_pad = bool(count_include_pad) and self.pad_mode == "pad"

    def construct(self, x):
        check_input(self.op, x, rank=4)
        return NF.avg_pool2d(x, self.kernel_size, self.stride, self.explicit_padding(x),
                             count_include_pad=self.count_include_pad)
