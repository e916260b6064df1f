"""Products, diagonals and windows as compositions of existing operations (no kernel, no rule
of their own): `dense`, `inner`, `batch_dot`, `cross`, `block_diag`, `diag_embed`,
`matrix_diag`, `hann_window`, `addcmul`, and the primitive classes MindSpore keeps for some of
them (Addcmul, Cdist, LpNorm, ReduceStd, LinSpace, Range, Unstack, Logit, Eps).

Placing values on diagonals is a product with a constant 0/1 table (`_place`): the table depends
only on shapes, so the result differentiates and batches through matmul alone."""
from __future__ import annotations

import numbers

import numpy as np

from . import dtype as dt
from . import functional as F
from .composite_more import cdist, logit, movedim
from .composite_ops import _const, linspace, unstack, vector_norm
from .composite_pad import pad
from .core import abstract_of, normalize_axis
from .errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["Addcmul", "Cdist", "Cross", "Eps", "LinSpace", "Logit", "LpNorm", "Range", "Rank", "ReduceStd",
           "Unstack", "addcmul", "batch_dot", "block_diag", "cross", "dense", "diag_embed",
           "eps", "hann_window", "inner", "matrix_diag", "numel", "rank", "size"]


def _shape(x) -> tuple:
    return abstract_of(x).shape


def known(value, what: str, op: str):
    """The value of a Python number, sequence or a Tensor whose value is known now (an eager
    Tensor), as a NumPy array; a value computed inside a graph cannot size a result."""
    if hasattr(value, "_data"):
        return value.asnumpy()
    if hasattr(value, "aval"):
        raise ArgumentValueError(f"{op}: `{what}` sets the shape of the result, so it must be a "
                                 f"constant, got a Tensor computed in the graph")
    return np.asarray(value)


# ----- sizes -------------------------------------------------------------------------------------

def size(input_x) -> int:
    """The number of elements of `input_x`, a Python int."""
    return int(np.prod(_shape(input_x)))


def numel(input) -> int:
    return size(input)


def rank(input_x) -> int:
    """The number of axes of `input_x`, a Python int."""
    return abstract_of(input_x).ndim


# ----- products ----------------------------------------------------------------------------------

def dense(input, weight, bias=None):
    """input @ weight^T + bias: weight (out, in) or (in,), bias (out,) or a scalar."""
    if abstract_of(weight).ndim not in (1, 2):
        raise ShapeError(f"dense: expected a weight of rank 1 or 2, got shape {_shape(weight)}")
    if _shape(input)[-1:] != _shape(weight)[-1:]:
        raise ShapeError(f"dense: the last axis of input {_shape(input)} must match the last "
                         f"axis of weight {_shape(weight)}")
    out = F.matmul(input, weight.T if abstract_of(weight).ndim == 2 else weight)
    return out if bias is None else out + bias


def inner(input, other):
    """The sum of products over the last axes; a 0-d operand multiplies elementwise."""
    if abstract_of(input).ndim == 0 or abstract_of(other).ndim == 0:
        return input * other
    if _shape(input)[-1] != _shape(other)[-1]:
        raise ShapeError(f"inner: the last axes of {_shape(input)} and {_shape(other)} must "
                         f"have one size")
    from .composite_ops import tensor_dot

    return tensor_dot(input, other, ((-1,), (-1,)))


def _batch_dot_axes(axes, n1: int, n2: int) -> tuple:
    """MindSpore's rule: None contracts the last axis of x1 with the last axis of a matrix x2 or
    the second-to-last of a higher-rank one; an int n contracts axis n of both."""
    if axes is None:
        return n1 - 1, n2 - 1 if n2 == 2 else n2 - 2
    if isinstance(axes, numbers.Integral):
        if axes == 0:
            raise ArgumentValueError("batch_dot: `axes` must not be 0 (the batch axis)")
        axes = (axes, axes)
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ArgumentValueError(f"batch_dot: `axes` must be None, an int or a pair of ints, "
                                 f"got {axes!r}")
    a1, a2 = (normalize_axis(a, n) for a, n in zip(axes, (n1, n2)))
    if a1 == 0 or a2 == 0:
        raise ArgumentValueError(f"batch_dot: `axes` {tuple(axes)} must not name the batch axis")
    return a1, a2


def batch_dot(x1, x2, axes=None):
    """Per example b, x1[b] and x2[b] contracted over one axis each: with x1 (B, d1, K, d2) and
    x2 (B, d3, K, d4) the result is (B, d1, d2, d3, d4), and (B, 1) when nothing is left."""
    t1, t2 = abstract_of(x1), abstract_of(x2)
    if t1.dtype != t2.dtype or not t1.dtype.is_float:
        raise DTypeError(f"batch_dot: expected two float Tensors of one dtype, got {t1.dtype} "
                         f"and {t2.dtype}")
    if t1.ndim < 2 or t2.ndim < 2:
        raise ShapeError(f"batch_dot: expected Tensors of rank >= 2, got shapes {t1.shape} and "
                         f"{t2.shape}")
    if t1.shape[0] != t2.shape[0]:
        raise ShapeError(f"batch_dot: the batch sizes differ: {t1.shape} and {t2.shape}")
    a1, a2 = _batch_dot_axes(axes, t1.ndim, t2.ndim)
    if t1.shape[a1] != t2.shape[a2]:
        raise ShapeError(f"batch_dot: axis {a1} of {t1.shape} and axis {a2} of {t2.shape} "
                         f"must have one size")
    free1 = [d for d in range(1, t1.ndim) if d != a1]
    free2 = [d for d in range(1, t2.ndim) if d != a2]
    batch, k = t1.shape[0], t1.shape[a1]
    left = F.reshape(F.transpose(x1, (0, *free1, a1)), (batch, -1, k))
    right = F.reshape(F.transpose(x2, (0, a2, *free2)), (batch, k, -1))
    out_shape = (batch, *(t1.shape[d] for d in free1), *(t2.shape[d] for d in free2))
    return F.reshape(F.matmul(left, right), out_shape if len(out_shape) > 1 else (batch, 1))


def cross(input, other, dim=None):
    """The cross product of 3-vectors along `dim` (None: the first axis of size 3)."""
    shape = np.broadcast_shapes(_shape(input), _shape(other))
    if dim is None or dim == -65530:  # MindSpore's call-time sentinel for "not given"
        dim = next((d for d, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise ShapeError(f"cross: no axis of size 3 in shape {tuple(shape)}")
    dim = normalize_axis(dim, len(shape))
    if shape[dim] != 3:
        raise ShapeError(f"cross: axis {dim} of {tuple(shape)} must have size 3")
    a0, a1, a2 = (movedim(F.broadcast_to(input, shape), dim, -1)[..., i] for i in range(3))
    b0, b1, b2 = (movedim(F.broadcast_to(other, shape), dim, -1)[..., i] for i in range(3))
    out = F.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return movedim(out, -1, dim)


def addcmul(input, tensor1, tensor2, value=1):
    """input + value * tensor1 * tensor2 (broadcasting)."""
    return input + value * tensor1 * tensor2


# ----- diagonals and blocks ----------------------------------------------------------------------

def _place(values, table: np.ndarray, out_shape: tuple):
    """values (..., L) onto out_shape through the 0/1 table (L, prod(out_shape)): each output
    cell takes the value its table column selects, zero where the column is empty."""
    lead = _shape(values)[:-1]
    dtype = abstract_of(values).dtype
    compute = dtype if dtype.is_inexact else dt.float64
    flat = F.matmul(F.cast(values, compute), _const(table, compute))
    return F.cast(F.reshape(flat, lead + tuple(out_shape)), dtype)


def block_diag(*inputs):
    """The tensors (rank <= 2; a vector is one row) as blocks along the diagonal of a matrix."""
    if not inputs:
        raise ArgumentValueError("block_diag: expected at least one Tensor")
    blocks = []
    for x in inputs:
        if abstract_of(x).ndim > 2:
            raise ShapeError(f"block_diag: expected Tensors of rank <= 2, got shape {_shape(x)}")
        blocks.append(F.reshape(x, (1, -1)) if abstract_of(x).ndim < 2 else x)
    dtype = abstract_of(blocks[0]).dtype
    for x in blocks[1:]:
        dtype = dt.promote(dtype, abstract_of(x).dtype)
    total = sum(_shape(x)[1] for x in blocks)
    rows, start = [], 0
    for x in blocks:
        width = _shape(x)[1]
        rows.append(pad(F.cast(x, dtype), (start, total - start - width)))
        start += width
    return F.concat(rows, 0)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose (dim1, dim2) planes hold input's last axis on diagonal `offset`."""
    ndim = abstract_of(input).ndim + 1
    dim1, dim2 = normalize_axis(dim1, ndim), normalize_axis(dim2, ndim)
    if dim1 == dim2:
        raise ArgumentValueError(f"diag_embed: dim1 and dim2 must differ, got {dim1} and {dim2}")
    length = _shape(input)[-1]
    n = length + abs(int(offset))
    table = np.zeros((length, n, n))
    k = np.arange(length)
    table[k, k + max(-int(offset), 0), k + max(int(offset), 0)] = 1
    square = _place(input, table.reshape(length, n * n), (n, n))
    if dim1 > dim2:
        dim1, dim2, square = dim2, dim1, square.swapaxes(-1, -2)
    return movedim(square, (-2, -1), (dim1, dim2))


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diag_table(k: tuple, rows: int, cols: int, width: int, align: str) -> np.ndarray:
    """Where each cell of a (rows, cols) matrix reads from the (diagonals, width) input: the
    flat source index, or -1 for padding. Diagonal d is input row k[1] - d; a diagonal shorter
    than `width` sits at its row's right end when its side of `align` says RIGHT."""
    table = np.full((rows, cols), -1)
    for d in range(k[0], k[1] + 1):
        length = min(rows + min(0, d), cols - max(0, d))
        right = (d >= 0 and align.startswith("RIGHT")) or (d <= 0 and align.endswith("RIGHT"))
        shift = width - length if right else 0
        for i in range(max(length, 0)):
            m, n = i - min(d, 0), i + max(d, 0)
            table[m, n] = (k[1] - d) * width + i + shift
    return table


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices whose diagonals k[0]..k[1] hold x's rows (one diagonal: x's last axis), the rest
    `padding_value` (MindSpore's MatrixDiagV3)."""
    op = "matrix_diag"
    if align not in _ALIGNS:
        raise ArgumentValueError(f"{op}: `align` must be one of {_ALIGNS}, got {align!r}")
    ks = known(k, "k", op).reshape(-1).astype(int).tolist()
    if len(ks) not in (1, 2) or ks[0] > ks[-1]:
        raise ArgumentValueError(f"{op}: `k` must be an int or a pair (low, high) with low <= "
                                 f"high, got {ks}")
    low, high = ks[0], ks[-1]
    shape = _shape(x)
    width = shape[-1]
    if low != high and (len(shape) < 2 or shape[-2] != high - low + 1):
        raise ShapeError(f"{op}: for diagonals {low}..{high} x must have {high - low + 1} rows "
                         f"in its second-to-last axis, got shape {shape}")
    min_rows, min_cols = width - min(high, 0), width + max(low, 0)
    rows = int(known(num_rows, "num_rows", op))
    cols = int(known(num_cols, "num_cols", op))
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows, cols = (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)
    if rows < min_rows or cols < min_cols or (rows != min_rows and cols != min_cols):
        raise ShapeError(f"{op}: ({rows}, {cols}) matrices cannot hold diagonals {low}..{high} "
                         f"of length {width}: one side must be exactly ({min_rows}, "
                         f"{min_cols})'s")
    table = _diag_table((low, high), rows, cols, width, align)
    lead = shape[:-1] if low == high else shape[:-2]
    flat = F.reshape(x, lead + (-1,))
    source = np.zeros((abstract_of(flat).shape[-1], rows * cols))
    cells = np.flatnonzero(table.reshape(-1) >= 0)
    source[table.reshape(-1)[cells], cells] = 1
    placed = _place(flat, source, (rows, cols))
    pad = F.cast(padding_value, abstract_of(x).dtype) if hasattr(padding_value, "aval") \
        else padding_value
    return F.select(_const(table >= 0, dt.bool_), placed, F.zeros_like(placed) + pad)


def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / N), N = window_length (periodic) or window_length - 1."""
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral) \
            or window_length < 0:
        raise ArgumentValueError(f"hann_window: `window_length` must be a non-negative int, got "
                                 f"{window_length!r}")
    dtype = dt.float32 if dtype is None else dt.as_dtype(dtype)
    if not dtype.is_float:
        raise DTypeError(f"hann_window: `dtype` must be a float type, got {dtype}")
    if window_length == 1:
        return _const(np.ones(1), dtype)
    span = window_length if periodic else window_length - 1
    return _const(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(window_length) / span), dtype)


def eps(x):
    """A tensor like x filled with its dtype's machine epsilon (what MindSpore's CPU kernel
    computes: the smallest power of two e with 1 + e / 2 == 1 failing, i.e. 1 + e > 1)."""
    dtype = abstract_of(x).dtype
    if dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"Eps: expected float16, float32 or float64, got {dtype}")
    return F.zeros_like(x) + _const(np.finfo(dtype.np).eps, dtype)


# ----- primitive classes -------------------------------------------------------------------------

class _Class:
    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class Addcmul(_Class):
    """`ops.Addcmul()(input_data, x1, x2, value)`: input_data + value * x1 * x2."""

    def __call__(self, input_data, x1, x2, value):
        return addcmul(input_data, x1, x2, value)


class Cdist(_Class):
    """`ops.Cdist(p)(input_x, input_y)`: p-norm distances between rows."""

    def __init__(self, p=2.0):
        if not isinstance(p, float) or p < 0 or np.isnan(p):
            raise ArgumentValueError(f"Cdist: `p` must be a non-negative float, got {p!r}")
        self.p = p

    def __call__(self, input_x, input_y):
        return cdist(input_x, input_y, self.p)


class LpNorm(_Class):
    """`ops.LpNorm(axis, p, keep_dims, epsilon)(input)`: sum(|input|^p)^(1/p) over `axis`."""

    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ArgumentValueError(f"LpNorm: `p` must be a non-negative int, got {p!r}")
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        self.p, self.keep_dims, self.epsilon = p, bool(keep_dims), float(epsilon)

    def __call__(self, input):
        if self.p == 0:
            return F.reduce_sum(F.cast(input != 0, abstract_of(input).dtype), self.axis,
                                self.keep_dims)
        return vector_norm(input, self.p, self.axis, self.keep_dims)


class ReduceStd(_Class):
    """`ops.ReduceStd(axis, unbiased, keep_dims)(input_x)` -> (std, mean)."""

    def __init__(self, axis=(), unbiased=True, keep_dims=False):
        self.axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        self.unbiased, self.keep_dims = bool(unbiased), bool(keep_dims)

    def __call__(self, input_x):
        axis = self.axis or None
        mean = F.reduce_mean(input_x, self.axis, self.keep_dims)
        std = input_x.std(axis=axis, ddof=int(self.unbiased), keepdims=self.keep_dims)
        return std, mean


class LinSpace(_Class):
    """`ops.LinSpace()(start, stop, num)`: `num` evenly spaced values, both ends included;
    start and stop may be Tensors computed in the graph (they get gradients)."""

    def __call__(self, start, stop, num):
        num = int(known(num, "num", "LinSpace"))
        if num <= 0:
            raise ArgumentValueError(f"LinSpace: `num` must be positive, got {num}")
        if not hasattr(start, "aval") and not hasattr(stop, "aval"):
            return linspace(float(start), float(stop), num)
        dtype = abstract_of(start).dtype if hasattr(start, "aval") else abstract_of(stop).dtype
        steps = np.arange(num) / max(num - 1, 1)
        return start + (stop - start) * _const(steps, dtype)


class Range(_Class):
    """`ops.Range(maxlen)(start, limit, delta)`: [start, limit) by delta, in the operands'
    dtype; the operands size the result, so their values must be known."""

    def __init__(self, maxlen=1000000):
        self.maxlen = int(maxlen)

    def __call__(self, start, limit, delta):
        values = [known(v, name, "Range") for v, name in
                  ((start, "start"), (limit, "limit"), (delta, "delta"))]
        if float(values[2]) == 0:
            raise ArgumentValueError("Range: `delta` must not be 0")
        out = np.arange(*(v.item() for v in values))
        if out.size > self.maxlen:
            raise ArgumentValueError(f"Range: {out.size} values exceed maxlen {self.maxlen}")
        dtype = abstract_of(start).dtype if hasattr(start, "aval") else \
            dt.from_numpy(np.asarray(start).dtype)
        return _const(out, dtype)


class Unstack(_Class):
    """`ops.Unstack(axis, num)(x)`: the slices of x along `axis`, as a tuple."""

    def __init__(self, axis=0, num=None):
        self.axis, self.num = axis, num

    def __call__(self, x):
        pieces = unstack(x, self.axis)
        if self.num is not None and self.num != len(pieces):
            raise ShapeError(f"Unstack: `num` is {self.num}, but axis {self.axis} of "
                             f"{_shape(x)} has {len(pieces)} entries")
        return pieces


class Logit(_Class):
    """`ops.Logit(eps)(x)`: log(x / (1 - x)), x clamped to [eps, 1 - eps] unless eps < 0."""

    def __init__(self, eps=-1.0):
        if not isinstance(eps, float):
            raise DTypeError(f"Logit: `eps` must be a float, got {eps!r}")
        self.eps = eps

    def __call__(self, x):
        return logit(x, None if self.eps < 0 else self.eps)


class Cross(_Class):
    """`ops.Cross(dim)(x1, x2)`: the cross product along `dim` (the default: the first axis of
    size 3)."""

    def __init__(self, dim=-65530):
        self.dim = dim

    def __call__(self, x1, x2):
        return cross(x1, x2, self.dim)


class Rank(_Class):
    """`ops.Rank()(x)`: the number of axes, a Python int."""

    def __call__(self, input_x):
        return rank(input_x)


class Eps(_Class):
    """`ops.Eps()(x)`: a tensor like x filled with its dtype's machine epsilon."""

    def __call__(self, x):
        return eps(x)
