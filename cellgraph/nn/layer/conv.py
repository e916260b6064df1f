"""Convolution layers: Conv1d, Conv2d, Conv3d and their transposes. Weights have MindSpore's
shapes, so checkpoints line up: Conv1d (out, in/group, 1, k), Conv2d (out, in/group, kh, kw),
Conv3d (out, in/group, kd, kh, kw), the transposed convolutions (in, out/group, [1,] kh, kw)."""
from __future__ import annotations

import math
import numbers

import cellgraph.ops as P
from cellgraph.common.initializer import HeUniform, Uniform, compute_fans, initializer
from cellgraph.ops.function.nn_func.conv import conv_transpose2d_mode
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.conv_ops import check_conv2d_input_rank
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
    ShapeRunError,
)
from cellgraph.primitives.nn_functional import check_conv2d_padding
from cellgraph.runtime.tensor import Parameter

from ..cell import Cell
from ._checks import check_input, positive_int

__all__ = ["Conv1d", "Conv1dTranspose", "Conv2d", "Conv2dTranspose", "Conv3d", "Conv3dTranspose"]


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


def _check_padding(padding, op: str) -> None:
    """MindSpore's checks of a layer's `padding`: a non-negative int or a tuple of them."""
    if isinstance(padding, (int, tuple)) and not isinstance(padding, bool):
        for item in (padding,) if isinstance(padding, int) else padding:
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                what = "padding" if isinstance(padding, int) else "padding item"
                raise ArgumentValueError(f"For '{op}', the '{what}' must be int and must >= 0, "
                                         f"but got '{item}' with type '{type(item).__name__}'.")
        return
    raise DTypeError(f"For '{op}', the type of 'padding' must be int or tuple(int), but got "
                     f"{type(padding).__name__}.")


def _check_format(data_format, op: str) -> None:
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")


def _conv_repr(cell, kernel, stride, padding, dilation, data_format) -> str:
    return (f"input_channels={cell.in_channels}, output_channels={cell.out_channels}, "
            f"kernel_size={kernel}, stride={stride}, pad_mode={cell.pad_mode}, "
            f"padding={padding}, dilation={dilation}, group={cell.group}, "
            f"has_bias={cell.has_bias}, weight_init={cell.weight_init}, "
            f"bias_init={cell.bias_init}, format={data_format}")


class Conv2d(Cell):
    """2-D convolution: weight of shape (out_channels, in_channels / group, kh, kw)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=dt.float32):
        super().__init__()
        self.in_channels = positive_int(in_channels, "Conv2d", "in_channels")
        self.out_channels = positive_int(out_channels, "Conv2d", "out_channels")
        self.group = positive_int(group, "Conv2d", "group")
        if self.in_channels % self.group or self.out_channels % self.group:  # MindSpore's words
            raise ArgumentValueError(f"The argument 'group' should be divisible by 'in_channels' "
                                     f"and 'out_channels', but got group:{group}, in_channels:"
                                     f"{in_channels}, out_channels:{out_channels}.")
        self.kernel_size = _pair(kernel_size, "Conv2d", "kernel_size")
        self.stride = _pair(stride, "Conv2d", "stride")
        self.dilation = _pair(dilation, "Conv2d", "dilation")
        _check_padding(padding, "Conv2d")
        check_conv2d_padding(pad_mode, padding)  # its Conv2D primitive's checks
        self.pad_mode = pad_mode
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
        self.weight_init, self.bias_init = weight_init, bias_init  # MindSpore's attributes
        self.data_format = data_format
        # MindSpore's attributes: subclasses call them on a weight of their own (weight
        # standardisation: `self.conv2d(x, standardised(self.weight))`)
        self.conv2d = P.Conv2D(out_channel=self.out_channels, kernel_size=self.kernel_size,
                               mode=1, pad_mode=self.pad_mode, pad=self.padding,
                               stride=self.stride, dilation=self.dilation, group=self.group,
                               data_format=data_format)
        self.bias_add = P.BiasAdd(data_format=data_format)

    def construct(self, x):
        check_conv2d_input_rank(len(x.shape))  # before the dtype, as MindSpore
        check_input("Conv2d", x, dtype=self.weight.dtype)
        _check_in_channels("Conv2D", x, self.in_channels, self.group)
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output

    def extend_repr(self) -> str:
        return _conv_repr(self, self.kernel_size, self.stride, self.padding, self.dilation,
                          self.data_format)


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
        _check_padding(padding, op)
        self.pad_mode = _pad_mode(pad_mode, padding, op) if not isinstance(padding, tuple) \
            or pad_mode == "pad" else _pad_mode(pad_mode, 0, op)
        self.padding = padding
        self.has_bias = bool(has_bias)
        lead = (self.in_channels, self.out_channels // self.group) if self.transposed else (
            self.out_channels, self.in_channels // self.group)
        shape = lead + self.kernel_prefix + self.kernel_size
        if weight_init is None:  # (a Tensor given as the initial values has no truth value)
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            bound = 1 / math.sqrt(compute_fans(shape)[0])
            if bias_init is None:
                bias_init = Uniform(bound)
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")
        self.weight_init, self.bias_init = weight_init, bias_init  # MindSpore's attributes

    def extend_repr(self) -> str:
        """MindSpore's: a 1-D layer shows the 2-D convolution it is ((1, k) kernels, padding
        (0, 0, p, p)), a 3-D one the NCDHW format."""
        lead = self.kernel_prefix
        ones = (1,) * len(lead)
        padding = (0, 0, self.padding, self.padding) if lead and isinstance(self.padding, int) \
            else self.padding
        return _conv_repr(self, lead + self.kernel_size, ones + self.stride, padding,
                          ones + self.dilation, "NCDHW" if self.rank == 3 else "NCHW")


def _check_in_channels(op: str, x, in_channels: int, group: int, error=ShapeRunError) -> None:
    """The input's channels (axis 1) are the layer's, or MindSpore's error naming both: its
    CPU kernel's RuntimeError for Conv2D, a ValueError (`error`) for Conv3D."""
    channels = x.shape[1]
    if channels != in_channels:
        raise error(f"For '{op}', 'C_in' of input 'x' shape divide by parameter 'group' "
                            f"must be equal to 'C_in' of input 'weight' shape: "
                            f"{in_channels // group}, but got 'C_in' of input 'x' shape: "
                            f"{channels // group}, and 'group': {group}.")


class Conv1d(_ConvNd):
    """1-D convolution over (N, C, W)."""

    op, rank, kernel_prefix = "Conv1d", 1, (1,)

    def construct(self, x):
        check_input(self.op, x, rank=3, dtype=self.weight.dtype)
        _check_in_channels("Conv2D", x, self.in_channels, self.group)  # MindSpore's op name
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
        check_input(self.op, x, rank=5, dtype=self.weight.dtype)
        _check_in_channels("Conv3D", x, self.in_channels, self.group, ShapeError)
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
        return conv_transpose2d_mode(x, self.weight, self.bias, self.stride, self.pad_mode,
                                     _four(self.padding), self.dilation, self.group,
                                     self.output_padding)


def _four(padding):
    return (padding,) * 4 if isinstance(padding, int) else tuple(padding)


class Conv1dTranspose(_ConvNd):
    """1-D transposed convolution over (N, C, W)."""

    op, rank, transposed, kernel_prefix = "Conv1dTranspose", 1, True, (1,)

    def construct(self, x):
        check_input(self.op, x, rank=3, channels=self.in_channels, dtype=self.weight.dtype)
        out = conv_transpose2d_mode(P.expand_dims(x, 2), self.weight, self.bias,
                                    (1,) + self.stride, self.pad_mode,
                                    (0, 0, self.padding, self.padding), (1,) + self.dilation,
                                    self.group)
        return P.squeeze(out, 2)


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
