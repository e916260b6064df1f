"""Basic layers: Dense, Flatten, Dropout (and Dropout1d/2d/3d, which drop whole channels),
Identity, OneHot, Pad, Norm, ClipByNorm, Triu, Tril, Upsample, Unfold.

Upsampling is a linear map with constant matrices along each spatial axis (built with NumPy
when the graph is compiled; ops.apply_along), so it is matmuls and its gradient is matmul's.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

import cellgraph.ops as P
from cellgraph.common.initializer import HeUniform, Uniform, initializer
from cellgraph.common.seed import _get_graph_seed
from cellgraph.compiler.builder import Tracer
from cellgraph.ops import functional as F
from cellgraph.ops.function.nn_func.conv import extract_patches
from cellgraph.ops.operations.nn_ops import Dropout as _DropoutOp
from cellgraph.ops.operations.nn_ops import Pad as _PadOp
from cellgraph.ops.operations.nn_ops import mirror_pad
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
)
from cellgraph.primitives.random_ops import rand
from cellgraph.runtime.tensor import Parameter, Tensor

from ..cell import Cell
from ._checks import check_input, guarded, make_activation, positive_int

__all__ = [
    "ClipByNorm",
    "Dense",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "Flatten",
    "Identity",
    "L1Regularizer",
    "Linear",
    "MatrixDiag",
    "MatrixDiagPart",
    "MatrixSetDiag",
    "Norm",
    "OneHot",
    "Pad",
    "Roll",
    "Tril",
    "Triu",
    "Unflatten",
    "Unfold",
    "Upsample",
]


class Dense(Cell):
    """y = activation(x @ weight.T + bias), weight of shape (out_channels, in_channels)."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=dt.float32):
        super().__init__()
        self.in_channels = positive_int(in_channels, "Dense", "in_channels")
        self.out_channels = positive_int(out_channels, "Dense", "out_channels")
        self.has_bias = bool(has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, (self.out_channels, self.in_channels),
                                            dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(self.in_channels))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")
            self.bias_add = P.BiasAdd()
        # MindSpore's primitives, which programs shard (`dense.matmul.shard(...)`)
        self.matmul = P.MatMul(transpose_b=True)
        self.activation = make_activation(activation, "Dense")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        shape = x.shape
        if not shape:
            raise ShapeError(f"Dense: expected an input whose last dimension is in_channels="
                             f"{self.in_channels}, got shape {fmt_shape(shape)}")
        if shape[-1] != self.in_channels:  # MindSpore's MatMul's words
            raise ShapeError(f"For 'MatMul' the input dimensions must be equal, but got "
                             f"'x1_col': {shape[-1]} and 'x2_row': {self.in_channels} (Dense "
                             f"with in_channels={self.in_channels}, input of shape "
                             f"{fmt_shape(shape)}).")
        check_input("Dense", x, dtype=self.weight.dtype)
        if len(shape) != 2:
            x = F.reshape(x, (-1, self.in_channels))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(shape) != 2:
            x = F.reshape(x, tuple(shape[:-1]) + (self.out_channels,))
        return x

    def extend_repr(self) -> str:
        text = f"input_channels={self.in_channels}, output_channels={self.out_channels}, " \
               f"has_bias={self.has_bias}"
        return text + (f", activation={self.activation}" if self.activation_flag else "")


class Flatten(Cell):
    """Merge the axes from `start_dim` to `end_dim` into one (by default all but the batch)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        shape = x.shape
        ndim = max(len(shape), 1)
        start, end = self.start_dim % ndim, self.end_dim % ndim
        if not -ndim <= self.start_dim < ndim or not -ndim <= self.end_dim < ndim or start > end:
            raise ShapeError(f"Flatten: start_dim={self.start_dim} and end_dim={self.end_dim} do "
                             f"not fit an input of shape {fmt_shape(shape)}")
        merged = 1
        for d in shape[start:end + 1]:
            merged *= d
        return F.reshape(x, tuple(shape[:start]) + (merged,) + tuple(shape[end + 1:]))


class Dropout(Cell):
    """In training, zero each element with probability p = 1 - keep_prob and scale the rest by
    1 / keep_prob; in evaluation, the identity. As in MindSpore, the layer holds an
    `ops.Dropout` (`self.dropout`) given a seed pair when the layer is made: after
    `cellgraph.set_seed`, its masks are MindSpore's, layer by layer and run by run; without a
    global seed, they come from the global generator."""

    def __init__(self, keep_prob=0.5, p=None, dtype=dt.float32):
        super().__init__()
        if p is not None:
            if isinstance(p, bool) or not isinstance(p, numbers.Real):
                raise DTypeError(f"Dropout: `p` must be a float, got {type(p).__name__}")
            if not 0 <= p < 1:
                raise ArgumentValueError(f"Dropout: `p` must be in [0, 1), got {p}")
            keep_prob = 1 - p
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, numbers.Real):
            raise DTypeError(f"Dropout: `keep_prob` must be a float, got "
                             f"{type(keep_prob).__name__}")
        if not 0 < keep_prob <= 1:
            raise ArgumentValueError(f"Dropout: `keep_prob` must be in (0, 1], got {keep_prob}")
        self.keep_prob = float(keep_prob)
        # as given (MindSpore prints `p=` when p was given, else `keep_prob=`)
        self._given = ("p", p) if p is not None else ("keep_prob", keep_prob)
        self.p = 1 - self.keep_prob if p is None else p
        seed0, seed1 = _get_graph_seed(0, "dropout")
        self.dropout = _DropoutOp(self.keep_prob, seed0, seed1)

    def construct(self, x):
        if not guarded(self, "training") or self.keep_prob == 1.0:
            return x
        if not x.dtype.is_float:
            raise DTypeError(f"Dropout: expected a float input, got {x.dtype}")
        out, _ = self.dropout(x)
        return out

    def extend_repr(self) -> str:
        return "{}={}".format(*self._given)


class Identity(Cell):
    def construct(self, x):
        return x


class Linear(Dense):
    """y = x W^T + b with PyTorch's arguments; W of shape (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, has_bias=bias,
                         dtype=dt.float32 if dtype is None else dtype)

    def extend_repr(self) -> str:
        text = f"input_features={self.in_channels}, output_features={self.out_channels}"
        return text + (f", has_bias={self.has_bias}" if self.has_bias else "")


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


class Pad(Cell):
    """Pad each axis by `paddings[i] = (before, after)`, up to 4 axes, each amount >= 0: mode
    "CONSTANT" (zeros, ops.Pad), "REFLECT" (mirror without the edge) or "SYMMETRIC" (mirror
    with it; both ops.MirrorPad), with MindSpore's checks."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ArgumentValueError(f"For 'Pad', the 'mode' must be str and must be in "
                                     f"'['CONSTANT', 'REFLECT', 'SYMMETRIC']', but got '{mode}'.")
        if not isinstance(paddings, tuple):
            raise DTypeError(f"For 'Pad', the type of 'paddings' must be tuple, but got "
                             f"{type(paddings).__name__}.")
        for item in paddings:
            if not isinstance(item, (tuple, list)):
                raise DTypeError(f"object of type '{type(item).__name__}' has no len()")
            if len(item) != 2:
                raise ArgumentValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), "
                                         f"but got {paddings}.")
        if len(paddings) > 4:
            raise ArgumentValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but "
                                     f"got {len(paddings)}.")
        self.paddings = tuple((int(a), int(b)) for a, b in paddings)
        self.mode = mode

    def construct(self, x):
        if self.mode == "CONSTANT":
            return _PadOp(self.paddings)(x)
        return mirror_pad(x, self.paddings, self.mode)


class Norm(Cell):
    """The L2 norm sqrt(sum(x^2)) over `axis` (all axes for ())."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        return P.sqrt(_core.reduce_sum(P.square(x), self.axis, self.keep_dims))

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class ClipByNorm(Cell):
    """x * clip_norm / max(||x||, clip_norm), the L2 norm over `axis` (all axes for None)."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = () if axis is None else axis

    def construct(self, x, clip_norm):
        l2 = P.sqrt(_core.reduce_sum(P.square(x), self.axis, True))
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


class Upsample(Cell):
    """Resize the spatial axes (after N, C) to `size` or by `scale_factor`: "nearest"
    (source index floor(i * in / out)) or "linear"/"bilinear"/"trilinear" (ops.interpolate)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return P.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)


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


class Unflatten(Cell):
    """Axis `axis` of the input reshaped to `unflattened_size`."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise DTypeError(f"Unflatten: `axis` must be an int, got {type(axis).__name__}")
        if not isinstance(unflattened_size, (list, tuple)):
            raise DTypeError(f"Unflatten: `unflattened_size` must be a list or tuple, got "
                             f"{type(unflattened_size).__name__}")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input_x):
        shape = tuple(input_x.shape)
        rest = shape[self.axis + 1:] if self.axis != -1 else ()
        return P.reshape(input_x, shape[:self.axis] + self.unflattened_size + rest)


class Roll(Cell):
    """Elements rolled by `shift` along `axis` (ints, or sequences of one length), those
    moved past the end coming back at the start."""

    def __init__(self, shift, axis):
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
                raise DTypeError(f"Roll: `{name}` must be an int, tuple or list, got "
                                 f"{type(value).__name__}")
        shifts = list(shift) if isinstance(shift, (list, tuple)) else [shift]
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(shifts) != len(axes):
            raise ArgumentValueError(f"Roll: `shift` and `axis` must have one length, got "
                                     f"{len(shifts)} and {len(axes)}")
        self.shift, self.axis = shifts, axes

    def construct(self, input_x):
        rank = len(input_x.shape)
        for a in self.axis:
            if not -rank <= a < rank:
                raise ArgumentValueError(f"Roll: `axis` {a} is out of range for an input of "
                                         f"rank {rank}")
        return P.roll(input_x, tuple(self.shift), tuple(self.axis))


class L1Regularizer(Cell):
    """scale * sum(|weights|)."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise DTypeError(f"L1Regularizer: `scale` must be an int or float, got "
                             f"{type(scale).__name__}")
        if math.isinf(scale) or math.isnan(scale):
            raise ArgumentValueError(f"L1Regularizer: `scale` can not be INF or NAN, got {scale}")
        if scale <= 0:
            raise ArgumentValueError(f"L1Regularizer: `scale` must be > 0, got {scale}")
        self.scale = Tensor(scale, dt.float32)

    def construct(self, weights):
        weights_dtype = F.dtype(weights)  # a TypeError for what has none, as MindSpore's check
        if weights_dtype == dt.bool_:
            raise DTypeError(f"L1Regularizer: `weights` must be a number type, got "
                             f"{weights_dtype}")
        return F.mul(self.scale, F.reduce_sum(F.abs(weights)))


class MatrixDiag(Cell):
    """The batched diagonal matrices whose main diagonals are the last axis of `input_x`:
    shape (..., n) -> (..., n, n)."""

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        return P.matrix_diag(input_x)


class MatrixDiagPart(Cell):
    """The main diagonals of the batched matrices in `input_x`: shape (..., m, n) ->
    (..., min(m, n))."""

    def __init__(self):
        super().__init__()

    def construct(self, input_x):
        return P.matrix_diag_part(input_x, 0, 0)


class MatrixSetDiag(Cell):
    """`input_x` (..., m, n) with its main diagonals replaced by `diagonal` (..., min(m, n))."""

    def __init__(self):
        super().__init__()

    def construct(self, input_x, diagonal):
        return P.matrix_set_diag(input_x, diagonal)
