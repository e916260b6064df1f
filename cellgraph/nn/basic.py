"""Small layers over existing ops: OneHot, Pad, Norm, ClipByNorm, Triu, Tril,
ReduceLogSumExp, Upsample, AdaptiveAvgPool1d/2d.

Adaptive average pooling and upsampling are linear maps with constant matrices along each
spatial axis (built with NumPy when the graph is compiled; ops.apply_along), so they are
matmuls and their gradients are matmul's.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

import cellgraph.ops as P
from cellgraph.common.initializer import Uniform, initializer
from cellgraph.compiler.builder import Tracer
from cellgraph.ops.function.array_func.padding import pad_pairs_mode
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .cell import Cell
from .layers import Dense, check_input, positive_int

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "BiDense", "ClipByNorm", "Linear", "MatMul", "Norm", "OneHot",
           "Pad", "ReduceLogSumExp", "Tril", "Triu", "Upsample"]


class Linear(Dense):
    """y = x W^T + b with PyTorch's arguments; W of shape (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, has_bias=bias,
                         dtype=dt.float32 if dtype is None else dtype)


class BiDense(Cell):
    """The bilinear map y[..., o] = sum_ij x1[..., i] weight[o, i, j] x2[..., j] + bias[o],
    weight of shape (out_channels, in1_channels, in2_channels); both initialized uniform in
    +-1/sqrt(in1_channels) unless given."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=dt.float32):
        super().__init__()
        self.in1_channels = positive_int(in1_channels, "BiDense", "in1_channels")
        self.in2_channels = positive_int(in2_channels, "BiDense", "in2_channels")
        self.out_channels = positive_int(out_channels, "BiDense", "out_channels")
        if not isinstance(has_bias, bool):
            raise DTypeError(f"BiDense: `has_bias` must be a bool, got {type(has_bias).__name__}")
        self.has_bias = has_bias
        bound = 1 / math.sqrt(self.in1_channels)
        shape = (self.out_channels, self.in1_channels, self.in2_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ArgumentValueError(f"BiDense: `weight_init` must have shape (out_channels, "
                                     f"in1_channels, in2_channels) = {shape}, got "
                                     f"{tuple(weight_init.shape)}")
        self.weight = Parameter(initializer(weight_init, shape, dtype), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (self.out_channels,):
                raise ArgumentValueError(f"BiDense: `bias_init` must have shape "
                                         f"({self.out_channels},), got {tuple(bias_init.shape)}")
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")

    def construct(self, input1, input2):
        for name, value in (("input1", input1), ("input2", input2)):
            if not isinstance(value, (Tensor, Tracer)):
                raise DTypeError(f"BiDense: `{name}` must be a Tensor, got "
                                 f"{type(value).__name__}")
        shape1, shape2 = tuple(input1.shape), tuple(input2.shape)
        for name, shape, size in (("input1", shape1, self.in1_channels),
                                  ("input2", shape2, self.in2_channels)):
            if not shape or shape[-1] != size:
                raise ShapeError(f"BiDense: the last dimension of `{name}` must be {size}, got "
                                 f"shape {shape}")
        if shape1[:-1] != shape2[:-1]:
            raise ShapeError(f"BiDense: the dimensions but the last of `input1` {shape1} and "
                             f"`input2` {shape2} must be the same")
        x1 = P.reshape(input1, (-1, self.in1_channels))
        x2 = P.reshape(input2, (-1, self.in2_channels))
        w = P.reshape(P.transpose(self.weight, (1, 2, 0)), (self.in1_channels, -1))
        out = P.reshape(P.matmul(x1, w), (-1, self.in2_channels, self.out_channels))
        out = P.reduce_sum(out * P.expand_dims(x2, -1), 1)
        if self.has_bias:
            out = out + self.bias
        return P.reshape(out, shape1[:-1] + (self.out_channels,))

    def extend_repr(self) -> str:
        text = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, " \
               f"output_channels={self.out_channels}"
        return text + (f", has_bias={self.has_bias}" if self.has_bias else "")


class MatMul(Cell):
    """x1 @ x2 with NumPy's broadcasting of the leading axes; `transpose_x1`/`transpose_x2`
    swap the last two axes of an operand of rank >= 2 first (a 1-D operand is a vector)."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise DTypeError(f"MatMul: `{name}` must be a bool, got {value!r}")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return P.matmul(x1, x2)


class OneHot(Cell):
    """Indices -> one-hot vectors of length `depth` on `axis`, in `dtype`."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=dt.float32):
        super().__init__()
        if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or depth < 0:
            raise DTypeError(f"OneHot: `depth` must be an int >= 0, got {depth!r}")
        self.axis, self.depth = axis, int(depth)
        self.on_value, self.off_value, self.dtype = on_value, off_value, dt.as_dtype(dtype)

    def construct(self, indices):
        on = Tensor(np.asarray(self.on_value, self.dtype.np), self.dtype)
        off = Tensor(np.asarray(self.off_value, self.dtype.np), self.dtype)
        return P.one_hot(indices, self.depth, on, off, self.axis)

    def extend_repr(self) -> str:
        return f"axis={self.axis}, depth={self.depth}, on_value={self.on_value}, " \
               f"off_value={self.off_value}, dtype={self.dtype}"


class Pad(Cell):
    """Pad each axis by `paddings[i] = (before, after)`: mode "CONSTANT" (zeros), "REFLECT"
    (mirror without the edge) or "SYMMETRIC" (mirror with it)."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
            raise DTypeError(f"Pad: `paddings` must be a tuple of (before, after) pairs, got "
                             f"{paddings!r}")
        self.paddings = tuple((int(a), int(b)) for a, b in paddings)
        self.mode = str(mode).upper()
        if self.mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ArgumentValueError(f"Pad: `mode` must be 'CONSTANT', 'REFLECT' or "
                                     f"'SYMMETRIC', got {mode!r}")

    def construct(self, x):
        if len(self.paddings) != len(x.shape):
            raise ShapeError(f"Pad: expected {len(x.shape)} (before, after) pairs for an input "
                             f"of shape {tuple(x.shape)}, got {len(self.paddings)}")
        if self.mode == "CONSTANT":
            flat = tuple(v for pair in reversed(self.paddings) for v in pair)
            return P.pad(x, flat)
        return pad_pairs_mode(x, self.paddings, self.mode.lower())


class Norm(Cell):
    """The L2 norm sqrt(sum(x^2)) over `axis` (all axes for ())."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        return P.sqrt(P.reduce_sum(P.square(x), self.axis, self.keep_dims))


class ClipByNorm(Cell):
    """x * clip_norm / max(||x||, clip_norm), the L2 norm over `axis` (all axes for None)."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        l2 = P.sqrt(P.reduce_sum(P.square(x), self.axis, True))
        return P.div(P.mul(x, clip_norm), P.maximum(l2, clip_norm))


class Triu(Cell):
    """Zero the elements below the k-th diagonal of the last two axes."""

    lower = False

    def __init__(self):
        super().__init__()

    def construct(self, x, k=0):
        rows, cols = x.shape[-2:]
        keep = np.tril(np.ones((rows, cols)), k) if self.lower else np.triu(np.ones((rows, cols)),
                                                                            k)
        return P.mul(x, Tensor(keep.astype(x.dtype.np), x.dtype))


class Tril(Triu):
    """Zero the elements above the k-th diagonal of the last two axes."""

    lower = True


class ReduceLogSumExp(Cell):
    """log(sum(exp(x))) over `axis`, computed as max + log(sum(exp(x - max)))."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        top = P.stop_gradient(P.reduce_max(x, self.axis, True))
        out = P.add(P.log(P.reduce_sum(P.exp(P.sub(x, top)), self.axis, True)), top)
        return out if self.keep_dims else P.squeeze(out, self._axes(len(x.shape)))

    def _axes(self, ndim: int) -> tuple:
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        return tuple(a % ndim for a in axes) if axes else tuple(range(ndim))


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


class Upsample(Cell):
    """Resize the spatial axes (after N, C) to `size` or by `scale_factor`: "nearest"
    (source index floor(i * in / out)) or "linear"/"bilinear"/"trilinear" (ops.interpolate)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        if (size is None) == (scale_factor is None):
            raise ArgumentValueError("Upsample: give exactly one of `size` and `scale_factor`")
        self.size, self.scale_factor = size, scale_factor
        self.mode, self.align_corners = mode, align_corners

    def construct(self, x):
        return P.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners)
