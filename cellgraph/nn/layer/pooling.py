"""Pooling layers: MaxPool1d/2d/3d, AvgPool1d/2d/3d, LPPool1d/2d and AdaptiveAvgPool1d/2d.

Adaptive average pooling is a linear map with constant matrices along each spatial axis
(built with NumPy when the graph is compiled; ops.apply_along), so it is matmuls and its
gradient is matmul's.
"""
from __future__ import annotations

import numbers

import numpy as np

import cellgraph.ops as P
from cellgraph.compiler.builder import Tracer
from cellgraph.ops.function.nn_func.pooling import (
    _per_axis,
    adaptive_max_pool,
    check_adaptive_max_pool3d_input,
    max_unpool,
    unpool_windows,
)
from cellgraph.ops.function.nn_func.window_pool import window_pool as _window_pool
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.conv_ops import same_padding
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell
from ._checks import check_input
from .conv import _check_format, _pad_mode, _pair

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "FractionalMaxPool2d",
           "FractionalMaxPool3d", "LPPool1d", "LPPool2d",
           "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


class AdaptiveAvgPool1d(Cell):
    """Average (N, C, L) over `output_size` adaptive bins."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = int(output_size)

    def construct(self, x):
        check_input("AdaptiveAvgPool1d", x, rank=3)
        return P.adaptive_avg_pool1d(x, self.output_size)


class AdaptiveAvgPool2d(Cell):
    """Average (N, C, H, W) over an `output_size` grid of adaptive bins (None keeps a size)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size if isinstance(output_size, (tuple, list)) else (
            output_size, output_size)

    def construct(self, x):
        check_input("AdaptiveAvgPool2d", x, rank=(3, 4))
        return P.adaptive_avg_pool2d(x, self.output_size)


def _pads(padding, nd: int, op: str) -> tuple:
    """`padding` as (before, after) per pooled axis: an int, one value per axis, two per axis
    (before and after of each axis in turn) or, for 2-D, (top, bottom, left, right)."""
    items = (padding,) if isinstance(padding, numbers.Integral) else tuple(padding)
    if any(isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0 for v in items):
        raise ArgumentValueError(f"{op}: `padding` must be non-negative ints, got {padding!r}")
    if len(items) == 1:
        items = items * nd
    if len(items) == nd:
        return tuple((int(v), int(v)) for v in items)
    if len(items) == 2 * nd:
        return tuple((int(items[2 * i]), int(items[2 * i + 1])) for i in range(nd))
    raise ArgumentValueError(f"{op}: `padding` must be an int or a tuple of {nd} or {2 * nd} "
                             f"ints, got {padding!r}")


class _Pool2d(Cell):
    op = ""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0,
                 data_format="NCHW"):
        super().__init__()
        # as given (MindSpore's attributes: `AvgPool2d(3).kernel_size == 3`), and per axis
        self.kernel_size, self.stride = kernel_size, stride
        self.kernel_hw = _pair(kernel_size, self.op, "kernel_size")
        self.stride_hw = _pair(stride, self.op, "stride")
        self.pad_mode = _pad_mode(pad_mode, padding, self.op)
        self.padding = padding
        _check_format(data_format, self.op)

    def construct(self, x):
        check_input(self.op, x, rank=(3, 4))
        if len(x.shape) == 4:
            return self.pool(x)
        # an unbatched (C, H, W) input, as MindSpore's 2-D pools take it
        out = self.pool(P.expand_dims(x, 0))
        return tuple(P.squeeze(o, 0) for o in out) if isinstance(out, tuple) else P.squeeze(out, 0)

    def explicit_padding(self, x) -> tuple:
        """(top, bottom, left, right) for this input."""
        if self.pad_mode == "valid":
            return (0, 0, 0, 0)
        if self.pad_mode == "pad":
            p = self.padding
            if isinstance(p, numbers.Integral):
                return (p,) * 4
            return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)
        top, bottom = same_padding(x.shape[2], self.kernel_hw[0], self.stride_hw[0])
        left, right = same_padding(x.shape[3], self.kernel_hw[1], self.stride_hw[1])
        return (top, bottom, left, right)

    def extend_repr(self) -> str:  # MindSpore's pools print their pad_mode in capitals
        return f"kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"pad_mode={self.pad_mode.upper()}"


class MaxPool2d(_Pool2d):
    """The maximum over each kernel_size window (padding counts as -inf)."""

    op = "MaxPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.dilation = _per_axis(dilation, 2, self.op, "dilation")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)
        # MindSpore's MaxPool3DWithArgmax path: pad_mode 'pad' with dilation, indices or ceil
        self.windowed = self.dilation != (1, 1) or self.return_indices or self.ceil_mode
        if self.windowed and self.pad_mode != "pad":
            raise ArgumentValueError(f"{self.op}: `padding`, `dilation`, `return_indices` and "
                                     f"`ceil_mode` can not be set to non-default values when "
                                     f"`pad_mode` is not 'pad', got pad_mode={pad_mode!r}")

    def pool(self, x):
        """The pooled (N, C, H, W) input."""
        if self.windowed:
            top, bottom, left, right = self.explicit_padding(x)
            return _window_pool(x, self.op, "max", self.kernel_hw, self.stride_hw,
                                ((top, bottom), (left, right)), self.dilation, self.ceil_mode,
                                return_indices=self.return_indices)
        return NF.max_pool2d(x, self.kernel_hw, self.stride_hw, self.explicit_padding(x))


class AvgPool2d(_Pool2d):
    """The mean over each kernel_size window. With pad_mode='same' the padding is left out of
    each window's count (as TensorFlow and MindSpore do); with 'pad', `count_include_pad`
    decides."""

    op = "AvgPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        if divisor_override is not None and (isinstance(divisor_override, bool) or not isinstance(
                divisor_override, numbers.Integral) or divisor_override <= 0):
            raise ArgumentValueError(f"AvgPool2d: `divisor_override` must be an int > 0, got "
                                     f"{divisor_override!r}")
        self.ceil_mode, self.divisor_override = bool(ceil_mode), divisor_override
        self.windowed = self.ceil_mode or divisor_override is not None
        if self.windowed and self.pad_mode == "same":
            raise ArgumentValueError("AvgPool2d: `ceil_mode` and `divisor_override` are not "
                                     "supported with pad_mode='same'")
        self.count_include_pad = bool(count_include_pad) and self.pad_mode == "pad"

    def pool(self, x):
        """The pooled (N, C, H, W) input."""
        if self.windowed:
            top, bottom, left, right = self.explicit_padding(x)
            return _window_pool(x, self.op, "avg", self.kernel_hw, self.stride_hw,
                                ((top, bottom), (left, right)), ceil_mode=self.ceil_mode,
                                count_include_pad=self.count_include_pad,
                                divisor_override=self.divisor_override)
        return NF.avg_pool2d(x, self.kernel_hw, self.stride_hw, self.explicit_padding(x),
                             count_include_pad=self.count_include_pad)


class _Pool1d(Cell):
    """A 1-D pooling layer: the 2-D one over (N, C, 1, W)."""

    pool2d = MaxPool2d

    def _build(self, kernel_size, stride, pad_mode, padding, **options):
        # the 2-D pool that does the work, in a tuple: MindSpore's 1-D pools have no child
        # Cell (and print as one layer), and a tuple of Cells is no Cell's child
        self.pools = (self.pool2d((1, kernel_size), (1, stride), pad_mode,
                                  (0, 0, padding, padding) if padding else 0, **options),)

    def extend_repr(self) -> str:
        return self.pools[0].extend_repr()

    def construct(self, x):
        check_input(type(self).__name__, x, rank=(2, 3))
        unbatched = len(x.shape) == 2
        out = self.pools[0](P.expand_dims(P.expand_dims(x, 0) if unbatched else x, 2))

        def restore(o):
            o = P.squeeze(o, 2)
            return P.squeeze(o, 0) if unbatched else o

        return tuple(restore(o) for o in out) if isinstance(out, tuple) else restore(out)


class MaxPool1d(_Pool1d):
    """The maximum over each window of an (N, C, W) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        if isinstance(dilation, tuple) and len(dilation) == 1:
            dilation = dilation[0]
        self._build(kernel_size, stride, pad_mode, padding, dilation=(1, dilation),
                    return_indices=return_indices, ceil_mode=ceil_mode)


class AvgPool1d(_Pool1d):
    """The mean over each window of an (N, C, W) input."""

    pool2d = AvgPool2d

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self._build(kernel_size, stride, pad_mode, padding, ceil_mode=ceil_mode,
                    count_include_pad=count_include_pad)


class _Pool3d(Cell):
    fn = staticmethod(P.max_pool3d)
    kind = "max"

    def _build(self, kernel_size, stride, pad_mode, padding, dilation=1, ceil_mode=False,
               return_indices=False, count_include_pad=True, divisor_override=None):
        op = type(self).__name__
        if divisor_override is not None and (isinstance(divisor_override, bool) or not isinstance(
                divisor_override, numbers.Integral) or divisor_override <= 0):
            raise ArgumentValueError(f"{op}: `divisor_override` must be an int > 0, got "
                                     f"{divisor_override!r}")
        mode = str(pad_mode).lower()
        self.pad_mode = mode.upper()  # as MindSpore keeps it
        self.dilation = _per_axis(dilation, 3, op, "dilation")
        self.return_indices, self.ceil_mode = bool(return_indices), bool(ceil_mode)
        self.count_include_pad, self.divisor_override = bool(count_include_pad), divisor_override
        if (self.dilation != (1, 1, 1) or self.return_indices) and mode != "pad":
            raise ArgumentValueError(f"{op}: `pad_mode` must be 'pad' when `dilation` is not 1 "
                                     f"or `return_indices` is True, got {pad_mode!r}")
        if mode == "same":
            raise ArgumentValueError(f"{op}: pad_mode='same' is not supported; give `padding` "
                                     f"with pad_mode='pad'")
        self.windowed = (self.dilation != (1, 1, 1) or self.return_indices or self.ceil_mode
                         or not self.count_include_pad or divisor_override is not None)
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        if self.windowed:
            self._kernel = _per_axis(kernel_size, 3, op, "kernel_size")
            self._stride = _per_axis(self._kernel if stride is None else stride, 3, op, "stride")
            self._pads = _pads(padding, 3, op)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"

    def construct(self, x):
        check_input(type(self).__name__, x, rank=(4, 5))
        unbatched = len(x.shape) == 4
        if unbatched:
            x = P.expand_dims(x, 0)
        if self.windowed:
            out = _window_pool(x, type(self).__name__, self.kind, self._kernel, self._stride,
                               self._pads, self.dilation, self.ceil_mode, self.count_include_pad,
                               self.divisor_override, self.return_indices)
        else:
            out = type(self).fn(x, self.kernel_size, self.stride, self.padding)
        if unbatched:
            return tuple(P.squeeze(o, 0) for o in out) if isinstance(out, tuple) else \
                P.squeeze(out, 0)
        return out


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
    kind = "avg"

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


class LPPool1d(_LPPool):
    """Power-average pooling over the last axis of (N, C, L) or (C, L)."""

    nd = 1


class LPPool2d(_LPPool):
    """Power-average pooling over the last two axes of (N, C, H, W)."""

    nd = 2


class _AdaptiveMaxPool(Cell):
    nd = 1
    index_dtype = None  # int64

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        name = type(self).__name__
        items = (output_size,) * self.nd if output_size is None or isinstance(
            output_size, numbers.Integral) else tuple(output_size)
        if len(items) == 1:
            items = items * self.nd
        if len(items) != self.nd or any(v is not None and (isinstance(v, bool) or not isinstance(
                v, numbers.Integral) or v < 1) for v in items):
            raise ArgumentValueError(f"{name}: `output_size` must be a positive int or a tuple "
                                     f"of {self.nd} positive ints (or None), got "
                                     f"{output_size!r}")
        if not isinstance(return_indices, bool):
            raise DTypeError(f"{name}: `return_indices` must be a bool, got "
                             f"{type(return_indices).__name__}")
        self.output_size, self.return_indices = output_size, return_indices
        self._sizes = items

    def construct(self, x):
        name = type(self).__name__
        check_input(name, x, rank=(self.nd + 1, self.nd + 2))
        self._check_dtype(x)
        return adaptive_max_pool(x, name, self._sizes, self.return_indices,
                                 self.index_dtype)

    def _check_dtype(self, x):
        if not x.dtype.is_float:
            raise DTypeError(f"{type(self).__name__}: the input must be float, got {x.dtype}")


class AdaptiveMaxPool1d(_AdaptiveMaxPool):
    """The maximum over `output_size` equal bins of the last axis of (N, C, L); as MindSpore's,
    L must be a multiple of `output_size`."""

    nd = 1

    def __init__(self, output_size):
        if isinstance(output_size, bool) or not isinstance(output_size, numbers.Integral):
            raise DTypeError(f"AdaptiveMaxPool1d: `output_size` must be an int, got "
                             f"{type(output_size).__name__}")
        super().__init__(output_size)

    def construct(self, x):
        check_input("AdaptiveMaxPool1d", x, rank=3)
        length = x.shape[-1]
        if length < self.output_size or length % self.output_size:
            raise ArgumentValueError(f"AdaptiveMaxPool1d: the input's last axis ({length}) must "
                                     f"be a multiple of `output_size` ({self.output_size})")
        return super().construct(x)

    def _check_dtype(self, x):
        if x.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"For AdaptiveMaxPool1d, the x_dtype must be float16 or float32, "
                             f"but got {x.dtype}.")


class AdaptiveMaxPool2d(_AdaptiveMaxPool):
    """The maximum over an `output_size` grid of adaptive bins of (N, C, H, W) or (C, H, W);
    None in `output_size` keeps that axis's size."""

    nd = 2


class AdaptiveMaxPool3d(_AdaptiveMaxPool):
    """The maximum over an `output_size` grid of adaptive bins of (N, C, D, H, W) or
    (C, D, H, W); None in `output_size` keeps that axis's size. Its indices are int32, as
    MindSpore's."""

    nd = 3
    index_dtype = dt.int32

    def _check_dtype(self, x):
        check_adaptive_max_pool3d_input(x)


class _MaxUnpool(Cell):
    nd = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self._kernel, self._stride, self._padding = unpool_windows(
            kernel_size, stride, padding, self.nd, type(self).__name__)

    def construct(self, x, indices, output_size=None):
        name = type(self).__name__
        if output_size is not None and not isinstance(output_size, tuple):
            raise ArgumentValueError(f"{name}: `output_size` must be a tuple, got "
                                     f"{type(output_size).__name__}")
        if output_size is not None and not output_size:
            raise ArgumentValueError(f"{name}: `output_size` must not be empty")
        return max_unpool(x, indices, name, self._kernel, self._stride, self._padding,
                          output_size or ())


class MaxUnpool1d(_MaxUnpool):
    """MaxPool1d's inverse: (N, C, L) or (C, L) values written at their pooling indices into
    zeros of length (L - 1) stride - 2 padding + kernel_size (or `output_size`)."""

    nd = 1


class MaxUnpool2d(_MaxUnpool):
    """MaxPool2d's inverse over (N, C, H, W) or (C, H, W)."""

    nd = 2


class MaxUnpool3d(_MaxUnpool):
    """MaxPool3d's inverse over (N, C, D, H, W) or (C, D, H, W)."""

    nd = 3


def _fractional_starts(samples, length: int, out: int, kernel: int):
    """The window starts (N, C, out) of one axis of fractional max pooling (Graham): with
    alpha = (length - kernel) / (out - 1), start i = floor((i + u) alpha) - floor(u alpha)
    for the plane's sample u, and the last window ends at the end."""
    if out == 1:
        return P.fill(dt.int32, tuple(samples.shape) + (1,), length - kernel)
    alpha = (length - kernel) / (out - 1)
    steps = Tensor(np.arange(out - 1, dtype=np.float32))
    u = P.expand_dims(P.cast(samples, dt.float32), -1)
    starts = P.sub(P.floor(P.mul(P.add(steps, u), alpha)), P.floor(P.mul(u, alpha)))
    last = P.fill(dt.float32, tuple(samples.shape) + (1,), float(length - kernel))
    return P.cast(P.concat((starts, last), -1), dt.int32)


class _FractionalMaxPool(Cell):
    nd = 2
    sample_axes = (1, 0)  # which of a plane's samples each pooled axis (H, W) uses

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = type(self).__name__
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, \
            output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples
        self._kernel = _per_axis(kernel_size, self.nd, name, "kernel_size")
        if output_size is None and output_ratio is None:
            raise ArgumentValueError(f"{name}: `output_size` or `output_ratio` must be given")
        if output_size is not None and output_ratio is not None:
            raise ArgumentValueError(f"{name}: give `output_size` or `output_ratio`, not both")
        self._size = None if output_size is None else _per_axis(output_size, self.nd, name,
                                                                "output_size")
        if output_ratio is not None:
            ratios = (output_ratio,) * self.nd if isinstance(output_ratio, (int, float)) else \
                tuple(output_ratio)
            if len(ratios) != self.nd or not all(0 < r < 1 for r in ratios):
                raise ArgumentValueError(f"{name}: `output_ratio` must be {self.nd} values in "
                                         f"(0, 1), got {output_ratio!r}")
            self._ratio = ratios
        if not isinstance(return_indices, bool):
            raise DTypeError(f"{name}: `return_indices` must be a bool, got "
                             f"{type(return_indices).__name__}")

    def construct(self, x):
        name = type(self).__name__
        check_input(name, x, rank=(self.nd + 1, self.nd + 2))
        unbatched = len(x.shape) == self.nd + 1
        if unbatched:
            x = P.expand_dims(x, 0)
        n, c = x.shape[:2]
        spatial = tuple(x.shape[2:])
        sizes = self._size or tuple(int(length * r) for length, r in zip(spatial, self._ratio))
        for length, k, size in zip(spatial, self._kernel, sizes):
            if size + k - 1 > length:
                raise ArgumentValueError(f"{name}: an output size {size} with a kernel of {k} "
                                         f"needs an input of at least {size + k - 1}, got "
                                         f"{length}")
        samples = self._random_samples
        if samples is None:  # a fresh draw per call, as MindSpore's
            samples = P.uniform((n, c, self.nd), Tensor(0.0, dt.float32),
                                Tensor(1.0, dt.float32))
        gathered, positions = x, []
        for axis, (length, k, size) in enumerate(zip(spatial, self._kernel, sizes)):
            sample = P.squeeze(P.slice(samples, (0, 0, self.sample_axes[axis]), (n, c, 1)), -1)
            starts = _fractional_starts(sample, length, size, k)
            pos = P.add(P.expand_dims(starts, -1), Tensor(np.arange(k, dtype=np.int32)))
            positions.append(pos)  # (N, C, size, k)
            shape = [n, c] + [1] * self.nd
            shape[2 + axis] = size * k
            index = P.reshape(pos, (n, c) + (1,) * axis + (size * k,) +
                              (1,) * (self.nd - axis - 1))
            target = tuple(gathered.shape[:2 + axis]) + (size * k,) + \
                tuple(gathered.shape[3 + axis:])
            gathered = P.gather_elements(gathered, 2 + axis, P.broadcast_to(index, target))
        split = (n, c) + tuple(v for size, k in zip(sizes, self._kernel) for v in (size, k))
        order = (0, 1) + tuple(2 + 2 * i for i in range(self.nd)) + \
            tuple(3 + 2 * i for i in range(self.nd))
        window = int(np.prod(self._kernel))
        flat = P.reshape(P.transpose(P.reshape(gathered, split), order),
                         (n, c) + tuple(sizes) + (window,))
        best = P.reduce_max(flat, -1)
        if self.return_indices:
            where = None
            for axis, pos in enumerate(positions):
                shape = [n, c] + [1] * (2 * self.nd)
                shape[2 + axis], shape[2 + self.nd + axis] = sizes[axis], self._kernel[axis]
                term = P.reshape(P.cast(pos, dt.int64), tuple(shape))
                where = term if where is None else P.add(P.mul(where, spatial[axis]), term)
            where = P.reshape(P.broadcast_to(where, (n, c) + tuple(sizes) + self._kernel),
                              (n, c) + tuple(sizes) + (window,))
            first = P.expand_dims(P.argmax(flat, -1), -1)
            index = P.squeeze(P.gather_elements(where, 2 + self.nd, first), -1)
            out = (best, index)
            return tuple(P.squeeze(o, 0) for o in out) if unbatched else out
        return P.squeeze(best, 0) if unbatched else best


class FractionalMaxPool2d(_FractionalMaxPool):
    """Max pooling over windows of `kernel_size` at pseudo-random starts (fractional max
    pooling, Graham 2014) giving an `output_size` (or `output_ratio` of the input) grid over
    (N, C, H, W) or (C, H, W). Each plane's two samples in [0, 1) (`_random_samples`, shape
    (N, C, 2), drawn afresh on each call when not given) place the windows: the first for W,
    the second for H, as MindSpore's."""

    nd = 2
    sample_axes = (1, 0)


class FractionalMaxPool3d(_FractionalMaxPool):
    """FractionalMaxPool2d over (N, C, D, H, W) or (C, D, H, W); each plane's three samples
    place the windows of D, H and W in that order."""

    nd = 3
    sample_axes = (0, 1, 2)


class AdaptiveAvgPool3d(Cell):
    """The mean over an `output_size` grid of adaptive bins of (N, C, D, H, W) or
    (C, D, H, W): bin i of an axis of length L covers [floor(i L / n), ceil((i + 1) L / n));
    None in `output_size` keeps that axis's size. Each axis is a matmul with a constant
    averaging matrix, so the gradient is matmul's."""

    def __init__(self, output_size):
        super().__init__()
        items = (output_size,) * 3 if output_size is None or isinstance(
            output_size, numbers.Integral) else tuple(output_size)
        if len(items) == 1:
            items = items * 3
        if len(items) != 3 or any(v is not None and (isinstance(v, bool) or not isinstance(
                v, numbers.Integral) or v < 1) for v in items):
            raise ArgumentValueError(f"AdaptiveAvgPool3d: `output_size` must be a positive int "
                                     f"or a tuple of 3 positive ints (or None), got "
                                     f"{output_size!r}")
        self.output_size, self._sizes = output_size, items

    def construct(self, x):
        check_input("AdaptiveAvgPool3d", x, rank=(4, 5))
        if not x.dtype.is_float:
            raise DTypeError(f"AdaptiveAvgPool3d: the input must be float, got {x.dtype}")
        rank = len(x.shape)
        out = x
        for axis, n in zip(range(rank - 3, rank), self._sizes):
            length = x.shape[axis]
            n = length if n is None else n
            starts = np.arange(n) * length // n
            stops = -(-(np.arange(n) + 1) * length // n)
            matrix = np.zeros((length, n), np.dtype(x.dtype.np_name))
            for i, (a, b) in enumerate(zip(starts, stops)):
                matrix[a:b, i] = 1.0 / (b - a)
            perm = tuple(i for i in range(rank) if i != axis) + (axis,)
            moved = P.matmul(P.transpose(out, perm), Tensor(matrix))
            back = tuple(int(np.argsort(perm)[i]) for i in range(rank))
            out = P.transpose(moved, back)
        return out
