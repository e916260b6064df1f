"""MindSpore's `ops.function.math_func`: arithmetic, reductions, statistics, matrix products,
`einsum` and `stft`, as compositions of the core's operations (no kernel and no rule of their
own: their gradients and batching come from the operations they are made of)."""
from __future__ import annotations

import builtins
import functools
import itertools
import math
import numbers

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.derive import export
from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func import (
    _const,
    _matrix_shape,
    _ndim,
    _shape,
    _tensor,
    arange,
    diagonal,
    eye,
    full_like,
    is_tensor,
    meshgrid,
    movedim,
    pad,
    swapaxes,
)
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.complex_ops import complex_, imag_part, real_part
from cellgraph.primitives.core import abstract_of, normalize_axis, tensor_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import reduce_prod

__all__ = ["addcmul", "addmm", "addn", "all", "any", "baddbmm", "batch_dot", "block_diag", "bmm",
           "cartesian_prod", "cdist", "combinations", "cosine_similarity", "count_nonzero",
           "cross", "cumprod", "deg2rad", "diag_embed", "diff", "einsum", "eps", "exp2",
           "float_power", "fmod", "frac", "hann_window", "heaviside", "histc", "hypot", "inner",
           "isclose", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "kron", "lerp",
           "linspace", "logaddexp", "logcumsumexp", "logical_xor", "logit", "logsumexp",
           "nan_to_num", "nansum", "norm", "outer", "pows", "rad2deg", "remainder", "sgn",
           "signbit", "std", "std_mean", "stft", "tensor_dot", "trace", "tril_indices",
           "triu_indices", "var", "var_mean", "vector_norm", "xlogy"]


def linspace(start, end, steps):
    """`steps` evenly spaced float32 values from start to end inclusive."""
    return _const(np.linspace(start, end, int(steps)).astype(np.float32), dt.float32)


def bmm(input_x, mat2):
    """Batched matrix product."""
    return F.matmul(input_x, mat2)


def outer(input, vec2):
    return F.mul(F.reshape(input, (-1, 1)), F.reshape(vec2, (1, -1)))


def tensor_dot(x1, x2, axes):
    """Contract `axes` of x1 with `axes` of x2 (an int n: the last n of x1, first n of x2)."""
    n1, n2 = _ndim(x1), _ndim(x2)
    if isinstance(axes, numbers.Integral):
        axes = (tuple(range(n1 - axes, n1)), tuple(range(axes)))
    a1 = tuple(normalize_axis(a, n1) for a in np.atleast_1d(axes[0]))
    a2 = tuple(normalize_axis(a, n2) for a in np.atleast_1d(axes[1]))
    free1 = tuple(a for a in range(n1) if a not in a1)
    free2 = tuple(a for a in range(n2) if a not in a2)
    s1, s2 = _shape(x1), _shape(x2)
    left = F.reshape(F.transpose(x1, free1 + a1), (-1, int(np.prod([s1[a] for a in a1]))))
    right = F.reshape(F.transpose(x2, a2 + free2), (int(np.prod([s2[a] for a in a2])), -1))
    return F.reshape(F.matmul(left, right), tuple(s1[a] for a in free1) +
                     tuple(s2[a] for a in free2))


def cumprod(input, dim, dtype=None):
    """Running products along `dim`: prefix i multiplies elements 0..i (each prefix one
    reduce_prod over a masked copy, so zeros and signs need no special care)."""
    if dtype is not None:
        input = F.cast(input, dtype)
    dim = tensor_axis(dim, _ndim(input), "cumprod")
    moved = swapaxes(input, dim, -1)
    size = _shape(moved)[-1]
    expanded = F.broadcast_to(F.expand_dims(moved, -2), _shape(moved)[:-1] + (size, size))
    lower = _const(np.tril(np.ones((size, size), bool)), dt.bool_)
    prefixes = F.select(F.broadcast_to(lower, _shape(expanded)), expanded,
                        F.ones_like(expanded))
    return swapaxes(reduce_prod(prefixes, -1), dim, -1)


def deg2rad(x):
    return F.mul(x, math.pi / 180)


def rad2deg(x):
    return F.mul(x, 180 / math.pi)


def logsumexp(input, axis, keep_dims=False):
    """log(sum(exp(x))) over `axis`, shifted by the (constant) maximum for stability."""
    top = F.stop_gradient(F.reduce_max(input, axis, True))
    out = F.add(F.log(F.reduce_sum(F.exp(F.sub(input, top)), axis, True)), top)
    return out if keep_dims else F.squeeze(out, axis)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm (Frobenius for matrices) over `dim`; ord 1, inf, -inf or p for vectors."""
    return vector_norm(A, 2 if ord is None or ord == "fro" else ord, dim, keepdim, dtype=dtype)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """(sum |x|^ord)^(1/ord) over `dim` (all axes for None); inf/-inf: max/min of |x|."""
    axis = () if dim is None else dim
    if dtype is not None:
        x = F.cast(x, dtype)
    size = F.abs(x)
    if ord == float("inf"):
        return F.reduce_max(size, axis, keepdim)
    if ord == float("-inf"):
        return F.reduce_min(size, axis, keepdim)
    if ord == 0:
        return F.reduce_sum(F.cast(F.not_equal(x, 0), abstract_of(x).dtype), axis, keepdim)
    if ord == 2:  # x² for a real x (no kink at 0, as |x| has), |x|² for a complex one
        squares = F.square(size if abstract_of(x).dtype.is_complex else x)
        return F.sqrt(F.reduce_sum(squares, axis, keepdim))
    if ord == 1:
        return F.reduce_sum(size, axis, keepdim)
    return F.pow(F.reduce_sum(F.pow(size, ord), axis, keepdim), 1.0 / ord)


def isnan(x):
    return F.not_equal(x, x)


def isinf(x):
    return F.equal(F.abs(x), float("inf"))


def isfinite(x):
    return F.logical_and(F.equal(x, x), F.not_equal(F.abs(x), float("inf")))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol |other| elementwise (NaNs equal when equal_nan)."""
    close = F.less_equal(F.abs(F.sub(input, other)), F.add(F.mul(F.abs(other), rtol), atol))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(isnan(input), isnan(other)))
    return close


def _float(x, op: str):
    if not abstract_of(x).dtype.is_float:
        raise DTypeError(f"{op}: expected a float Tensor, got {abstract_of(x).dtype}")
    return x


def trace(input):
    _matrix_shape(input, "trace")
    return diagonal(input, 0, -2, -1).sum(axis=-1)


def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of x1 (B?, P, M) and x2 (B?, R, M): (B?, P, R). The
    gradient at a zero distance is zero."""
    if abstract_of(x1).ndim not in (2, 3) or abstract_of(x1).ndim != abstract_of(x2).ndim:
        raise ShapeError(f"cdist: expected two Tensors of rank 2 or 3, got shapes "
                         f"{abstract_of(x1).shape} and {abstract_of(x2).shape}")
    p = float(p)
    if p < 0:
        raise ArgumentValueError(f"cdist: `p` must be non-negative, got {p}")
    diff = F.expand_dims(x1, -2) - F.expand_dims(x2, -3)
    if p == 0:
        return (diff != 0).astype(abstract_of(x1).dtype).sum(axis=-1)
    if p == float("inf"):
        return M.abs_(diff).max(axis=-1)
    powered = diff * diff if p == 2 else M.abs_(diff) ** p
    total = powered.sum(axis=-1)
    if p == 1:
        return total
    positive = total > 0
    return M.select(positive, M.select(positive, total, A.ones_like(total)) ** (1.0 / p),
                    A.zeros_like(total))


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    dot = (x1 * x2).sum(axis=dim)
    norms = M.sqrt((x1 * x1).sum(axis=dim)) * M.sqrt((x2 * x2).sum(axis=dim))
    return dot / M.maximum(norms, eps)


def var(input, axis=None, ddof=0, keepdims=False):
    return input.var(axis=axis, ddof=ddof, keepdims=keepdims)


def std(input, axis=None, ddof=0, keepdims=False):
    return input.std(axis=axis, ddof=ddof, keepdims=keepdims)


def var_mean(input, axis=None, ddof=0, keepdims=False):
    return var(input, axis, ddof, keepdims), input.mean(axis=axis, keep_dims=keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    return std(input, axis, ddof, keepdims), input.mean(axis=axis, keep_dims=keepdims)


def count_nonzero(x, axis=(), keep_dims=False, dtype=dt.int32):
    return F.reduce_sum((x != 0).astype(dt.int32), axis, keep_dims).astype(dtype)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    info = np.finfo(abstract_of(_float(input, "nan_to_num")).dtype.name)
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf
    out = M.select(M.not_equal(input, input), full_like(input, nan), input)
    out = M.select(M.equal(out, float("inf")), full_like(input, posinf), out)
    return M.select(M.equal(out, float("-inf")), full_like(input, neginf), out)


def lerp(input, end, weight):
    return input + weight * (end - input)


def logaddexp(input, other):
    top = M.maximum(input, other)
    return top + M.log(M.exp(input - top) + M.exp(other - top))


def xlogy(input, other):
    """input * log(other), zero where input is zero (whatever other is)."""
    zero = input == 0
    safe = M.select(zero, A.ones_like(other * input), other * A.ones_like(input))
    return M.select(zero, A.zeros_like(input * safe), input * M.log(safe))


def logit(input, eps=None):
    if eps is not None:
        input = NF.clip_by_value(input, float(eps), 1.0 - float(eps))
    return M.log(input / (1 - input))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(mat1, mat2)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(batch1, batch2)


def inner(input, other):
    """Sum over the last axes of both: shape input.shape[:-1] + other.shape[:-1]; a scalar
    operand multiplies."""
    a, b = _tensor(input, "inner"), _tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return M.mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise ShapeError(f"inner: the last dimensions of {a.shape} and {b.shape} must match")
    rows = F.reshape(input, (-1, a.shape[-1]))
    cols = F.reshape(other, (-1, b.shape[-1]))
    out = F.matmul(rows, A.transpose(cols, perm=(1, 0)))
    return F.reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def block_diag(*inputs):
    """The matrices (0-D and 1-D ones as one row) along the diagonal of one zero matrix, in
    their common dtype."""
    if not inputs:
        raise ArgumentValueError("block_diag: expected at least one Tensor")
    types = [_tensor(x, "block_diag", f"inputs[{i}]") for i, x in enumerate(inputs)]
    if builtins.any(t.ndim > 2 for t in types):
        raise ShapeError(f"block_diag: expected Tensors of at most 2 dimensions, got shapes "
                         f"{[t.shape for t in types]}")
    dtype = functools.reduce(dt.promote, [t.dtype for t in types])
    mats = [F.reshape(F.cast(x, dtype), (1, -1) if t.ndim < 2 else t.shape)
            for x, t in zip(inputs, types)]
    widths = [abstract_of(m).shape[1] for m in mats]
    total, rows, left = sum(widths), [], 0
    for m, width in zip(mats, widths):
        height = abstract_of(m).shape[0]
        parts = [F.zeros((height, left), dtype), m, F.zeros((height, total - left - width), dtype)]
        rows.append(F.concat(parts, axis=1))
        left += width
    return F.concat(rows, axis=0)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonal `offset` in the plane of dims (dim1, dim2) holds the last axis
    of `input`, zeros elsewhere."""
    x = _tensor(input, "diag_embed")
    if x.ndim == 0:
        raise ShapeError("diag_embed: expected a Tensor of at least 1 dimension")
    n_out = x.ndim + 1
    d1, d2 = normalize_axis(dim1, n_out), normalize_axis(dim2, n_out)
    if d1 == d2:
        raise ArgumentValueError(f"diag_embed: dim1 and dim2 must differ, got {dim1}, {dim2}")
    m, k = x.shape[-1], abs(int(offset))
    square = M.mul(F.expand_dims(input, -1), F.cast(eye(m, m), x.dtype))  # (..., m, m)
    # (left, right, top, bottom) of the last two axes: the diagonal k columns right or down
    out = pad(square, (k, 0, 0, k) if offset >= 0 else (0, k, k, 0)) if k else square
    if (d1, d2) != (n_out - 2, n_out - 1):
        out = movedim(out, (n_out - 2, n_out - 1), (d1, d2))
    return out


def addcmul(input, tensor1, tensor2, value=1):
    """input + value * tensor1 * tensor2."""
    return M.add(input, M.mul(value, M.mul(tensor1, tensor2)))


def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / N), N the length (periodic) or the length - 1."""
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral) \
            or window_length < 0:
        raise ArgumentValueError(f"hann_window: `window_length` must be a non-negative int, "
                                 f"got {window_length!r}")
    dtype = dt.as_dtype(dtype or dt.float32)
    if not dtype.is_float:
        raise DTypeError(f"hann_window: `dtype` must be a float type, got {dtype}")
    n = window_length if periodic else window_length - 1
    values = np.ones(window_length) if window_length == 1 else 0.5 - 0.5 * np.cos(
        2 * np.pi * np.arange(window_length) / n)
    return _const(values.astype(dtype.np), dtype)


def _int_mod_by_zero_is_input(input, other, mod):
    """`mod`, except that an integer taken modulo 0 stays itself (MindSpore's remainder and
    fmod; its FloorMod answers 0 or the dtype's min there)."""
    if abstract_of(mod).dtype.is_float:
        return mod
    zeros = F.zeros_like(mod)
    return M.select(M.equal(M.add(zeros, other), 0), M.add(zeros, input), mod)


def remainder(input, other):
    """x mod y with the divisor's sign, as Python's %; an integer mod 0 is itself."""
    return _int_mod_by_zero_is_input(input, other, R.floor_mod(input, other))


def fmod(input, other):
    """The remainder of truncated division: the dividend's sign (C's fmod); an integer mod 0 is
    itself."""
    mod = _int_mod_by_zero_is_input(input, other, R.floor_mod(input, other))
    # floor_mod has the divisor's sign; where the signs differ (and mod is not 0), step back
    differ = M.logical_and(M.not_equal(mod, 0), M.less(M.mul(mod, input), 0))
    return M.select(differ, M.sub(mod, other), mod)


def hypot(input, other):
    """sqrt(input^2 + other^2)."""
    return M.sqrt(M.add(M.mul(input, input), M.mul(other, other)))


def logical_xor(input, other):
    return M.not_equal(F.cast(input, dt.bool_), F.cast(other, dt.bool_))


def frac(input):
    """The fractional part, with the input's sign: x - trunc(x)."""
    return M.sub(input, R.trunc(input))


def exp2(input):
    return M.pow_(2.0, _as_float(input))


def float_power(input, exponent):
    """input ** exponent computed in float64."""
    return M.pow_(F.cast(input, dt.float64), F.cast(exponent, dt.float64) if is_tensor(
        exponent) else float(exponent))


def heaviside(input, values):
    """0 below zero, 1 above, `values` at zero."""
    ones, zeros = A.ones_like(input), A.zeros_like(input)
    at_zero = F.broadcast_to(F.cast(values, abstract_of(input).dtype), abstract_of(input).shape)
    return M.select(M.greater(input, 0), ones, M.select(M.less(input, 0), zeros, at_zero))


def isposinf(input):
    return M.logical_and(isinf(input), M.greater(input, 0))


def isneginf(input):
    return M.logical_and(isinf(input), M.less(input, 0))


def signbit(input):
    """Whether the sign bit is set: true for negative numbers and -0.0."""
    if not abstract_of(input).dtype.is_float:
        return M.less(input, 0)
    # atan2(-0.0, -1) is -pi, atan2(0.0, -1) is pi: the sign of a zero, without dividing by it
    negative_zero = M.logical_and(M.equal(input, 0),
                                  M.less(M.atan2(input, F.fill(abstract_of(input).dtype,
                                                               abstract_of(input).shape, -1)), 0))
    return M.logical_or(M.less(input, 0), negative_zero)


def sgn(input):
    """sign(x) for real x; x / |x| (0 at 0) for complex x."""
    if not abstract_of(input).dtype.is_complex:
        return M.sign(input)
    size = M.abs_(input)
    safe = M.select(M.equal(size, 0), A.ones_like(size), size)
    return M.select(M.equal(size, 0), A.zeros_like(input), M.div(input, F.cast(safe, abstract_of(
        input).dtype)))


def _as_float(x):
    return x if abstract_of(x).dtype.is_float else F.cast(x, dt.float32)


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum with NaNs counted as zero."""
    x = input if dtype is None else F.cast(input, dtype)
    if abstract_of(x).dtype.is_float:
        x = M.select(isnan(x), A.zeros_like(x), x)
    return F.reduce_sum(x, () if axis is None else axis, keepdims)


def logcumsumexp(input, axis):
    """log(cumsum(exp(input))) along `axis`, shifted by the maximum so it does not overflow."""
    x = _as_float(input)
    shift = F.stop_gradient(F.reduce_max(x, axis, True))
    return M.add(M.log(F.cumsum(M.exp(M.sub(x, shift)), axis)), shift)


def histc(input, bins=100, min=0.0, max=0.0):
    """Counts of the elements in `bins` equal bins over [min, max] (the data's own range when
    both are 0); elements outside are not counted."""
    x = F.reshape(_as_float(input), (-1,))
    if bins <= 0:
        raise ArgumentValueError(f"histc: `bins` must be positive, got {bins}")
    if min > max:
        raise ArgumentValueError(f"histc: `min` ({min}) must not exceed `max` ({max})")
    low, high = (F.reduce_min(x), F.reduce_max(x)) if min == max == 0 else (min, max)
    width = M.sub(high, low)
    width = M.select(M.equal(width, 0), A.ones_like(width), width) if is_tensor(width) else (
        width or 1.0)
    index = F.cast(R.floor(M.mul(M.div(M.sub(x, low), width), float(bins))), dt.int32)
    index = M.select(M.equal(x, high), F.fill(dt.int32, abstract_of(index).shape, bins - 1), index)
    inside = M.logical_and(M.greater_equal(x, low), M.less_equal(x, high))
    counts = F.reduce_sum(M.mul(F.one_hot(index, bins, 1.0, 0.0),
                                F.expand_dims(F.cast(inside, dt.float32), -1)), (0,), False)
    return F.cast(counts, abstract_of(x).dtype)


def kron(input, other):
    """The Kronecker product: every element of `input` times the whole of `other`."""
    a, b = _tensor(input, "kron"), _tensor(other, "kron", "other")
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + tuple(a.shape), (1,) * (n - b.ndim) + tuple(b.shape)
    x = F.reshape(input, tuple(d for s in sa for d in (s, 1)))
    y = F.reshape(other, tuple(d for s in sb for d in (1, s)))
    return F.reshape(M.mul(x, y), tuple(p * q for p, q in zip(sa, sb)))


def _triangle_indices(row, col, offset, dtype, lower: bool):
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _const(np.stack([rows, cols]).astype(dt.as_dtype(dtype).np), dt.as_dtype(dtype))


def tril_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the lower triangle (below diagonal `offset`)."""
    return _triangle_indices(row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the upper triangle."""
    return _triangle_indices(row, col, offset, dtype, False)


def cartesian_prod(*inputs):
    """(N, len(inputs)): every combination of one element from each 1-D input."""
    grids = meshgrid(*inputs, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """(N, r): the length-r combinations of the elements of the 1-D `input`."""

    n = _tensor(input, "combinations").shape[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(pick(range(n), r)), np.int64).reshape(-1, r)
    return F.reshape(F.gather(input, _const(rows.reshape(-1), dt.int64), 0), rows.shape)


def cross(input, other, dim=None):
    """The cross product of 3-vectors along `dim` (the first axis of size 3 when None)."""
    shape = _tensor(input, "cross").shape
    if dim is None:
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise ShapeError(f"cross: no dimension of size 3 in shape {shape}")
    dim = normalize_axis(dim, len(shape))
    if shape[dim] != 3:
        raise ShapeError(f"cross: dimension {dim} of shape {shape} must have size 3")
    lead = (slice(None),) * dim
    a = [input[lead + (slice(i, i + 1),)] for i in range(3)]
    b = [other[lead + (slice(i, i + 1),)] for i in range(3)]
    parts = [M.sub(M.mul(a[1], b[2]), M.mul(a[2], b[1])),
             M.sub(M.mul(a[2], b[0]), M.mul(a[0], b[2])),
             M.sub(M.mul(a[0], b[1]), M.mul(a[1], b[0]))]
    return F.concat(parts, dim)


def eps(x):
    """x's dtype's machine epsilon (the gap from 1 to the next number), in x's shape."""
    dtype = _tensor(x, "Eps", "x").dtype
    if not dtype.is_float:
        raise DTypeError(f"Eps: expected a float Tensor, got {dtype}")
    return F.fill(dtype, abstract_of(x).shape, float(np.finfo(dtype.np).eps))


def _range(start, limit, delta, maxlen=1000000):
    """[start, limit) by delta in the inputs' dtype, at most `maxlen` values."""
    values = [v.item() if is_tensor(v) else v for v in (start, limit, delta)]
    dtype = abstract_of(start).dtype if is_tensor(start) else None
    out = arange(*values, dtype=dtype)
    if abstract_of(out).shape[0] > maxlen:
        raise ArgumentValueError(f"Range: {abstract_of(out).shape[0]} values exceed `maxlen` "
                                 f"{maxlen}")
    return out


def range_(start, end, step):
    """`ops.range`: [start, end) by `step` (Tensors or numbers), in the dtype of `start` when it
    is a Tensor, else int64 for ints and float32 otherwise."""
    return _range(start, end, step, maxlen=math.inf)


export(range_, name="range")


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


def _parse(equation: str, count: int) -> tuple[list[str], str]:
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != count:
        raise ArgumentValueError(f"einsum: the equation names {len(terms)} operands, got {count}")
    if "." in equation:
        raise ArgumentValueError("einsum: ellipsis ('...') is not supported; name every axis")
    if len(set(output)) != len(output):
        raise ArgumentValueError(f"einsum: a letter repeated in the output ({output!r})")
    if builtins.any(c not in inputs for c in output):
        raise ArgumentValueError(f"einsum: the output {output!r} names a letter no operand has")
    if not arrow:  # implicit output: the letters used once, in alphabetical order
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, output


def _diagonals(x, term: str):
    """x with each letter repeated in `term` reduced to its diagonal: returns (value, term with
    every letter once)."""
    shape = abstract_of(x).shape
    if len(term) != len(shape):
        raise ShapeError(f"einsum: the term {term!r} names {len(term)} axes, but its operand "
                         f"has shape {tuple(shape)}")
    while len(set(term)) != len(term):
        c = next(c for c in term if term.count(c) > 1)
        first, second = term.index(c), term.index(c, term.index(c) + 1)
        if shape[first] != shape[second]:
            raise ShapeError(f"einsum: letter {c!r} repeated in {term!r} has sizes "
                             f"{shape[first]} and {shape[second]}")
        eye_shape = [1] * len(shape)
        eye_shape[first] = eye_shape[second] = shape[first]
        eye = np.broadcast_to(np.eye(shape[first], dtype=bool).reshape(eye_shape), shape)
        x = F.reduce_sum(M.select(np.ascontiguousarray(eye), x, F.zeros_like(x)), (second,))
        term = term[:second] + term[second + 1:]
        shape = abstract_of(x).shape
    return x, term


def _reduce_to(x, term: str, keep: str):
    """Sum away the letters of `term` not in `keep`; returns (value, remaining term)."""
    drop = tuple(i for i, c in enumerate(term) if c not in keep)
    if drop:
        x = F.reduce_sum(x, drop)
    return x, "".join(c for c in term if c in keep)


def _permute(x, term: str, order: str):
    return x if term == order else F.transpose(x, tuple(term.index(c) for c in order))


def _contract(a, ta: str, b, tb: str, keep: str):
    """a (ta) times b (tb), summing the shared letters not in `keep`."""
    a, ta = _reduce_to(a, ta, tb + keep)
    b, tb = _reduce_to(b, tb, ta + keep)
    size = dict(zip(ta, abstract_of(a).shape)) | dict(zip(tb, abstract_of(b).shape))
    for c in set(ta) & set(tb):
        sa, sb = abstract_of(a).shape[ta.index(c)], abstract_of(b).shape[tb.index(c)]
        if sa != sb:
            raise ShapeError(f"einsum: letter {c!r} has size {sa} in one operand and {sb} in "
                             f"the other")
    batch = "".join(c for c in ta if c in tb and c in keep)
    summed = "".join(c for c in ta if c in tb and c not in keep)
    left = "".join(c for c in ta if c not in tb)
    right = "".join(c for c in tb if c not in ta)

    def prod(letters):
        return int(np.prod([size[c] for c in letters])) if letters else 1

    a3 = F.reshape(_permute(a, ta, batch + left + summed), (prod(batch), prod(left), prod(summed)))
    b3 = F.reshape(_permute(b, tb, batch + summed + right),
                   (prod(batch), prod(summed), prod(right)))
    out = F.reshape(F.matmul(a3, b3), tuple(size[c] for c in batch + left + right))
    return out, batch + left + right


def einsum(equation, *operands):
    """Einstein summation over the operands as `equation` ("ij,jk->ik") says."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    terms, output = _parse(equation, len(operands))
    operands, terms = zip(*(_diagonals(x, t) for x, t in zip(operands, terms)))
    value, term = operands[0], terms[0]
    rest = "".join(terms[1:])
    value, term = _reduce_to(value, term, rest + output)
    for k in range(1, len(operands)):
        later = "".join(terms[k + 1:])
        value, term = _contract(value, term, operands[k], terms[k], later + output)
    value, term = _reduce_to(value, term, output)
    return _permute(value, term, output)


_PAD_MODES = {"REFLECT": "reflect", "CONSTANT": "constant", "REPLICATE": "replicate",
              "CIRCULAR": "circular"}


def _dft(frames, n_fft: int, bins: int, dtype):
    """(real, imag) of sum_k frames[..., k] exp(-2 pi i w k / n_fft) for w < bins."""
    angles = 2 * np.pi * np.outer(np.arange(n_fft), np.arange(bins)) / n_fft
    cos = A.cast(np.cos(angles), dtype=dtype)
    sin = A.cast(-np.sin(angles), dtype=dtype)
    return F.matmul(frames, cos), F.matmul(frames, sin)


def _window(window, win_length: int, n_fft: int, dtype):
    """The window padded with zeros on both sides to n_fft samples (centred)."""
    if window is None:
        window = A.cast(np.ones(win_length), dtype=dtype)
    if tuple(abstract_of(window).shape) != (win_length,):
        raise ShapeError(f"stft: expected a window of shape ({win_length},), got "
                         f"{abstract_of(window).shape}")
    left = (n_fft - win_length) // 2
    if left or n_fft - win_length - left:
        window = pad(window, (left, n_fft - win_length - left))
    return window


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="REFLECT", normalized=False, onesided=None, return_complex=None):
    """(*, bins, frames) complex spectra of a 1-D or 2-D (batch, time) signal; with
    return_complex=False a real (*, bins, frames, 2) of the real and imaginary parts."""
    shape = abstract_of(x).shape
    if len(shape) not in (1, 2):
        raise ShapeError(f"stft: expected a 1-D or 2-D signal, got shape {shape}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < win_length <= n_fft or hop_length <= 0:
        raise ArgumentValueError(f"stft: expected 0 < win_length <= n_fft and hop_length > 0, "
                                 f"got n_fft={n_fft}, win_length={win_length}, "
                                 f"hop_length={hop_length}")
    x_complex = abstract_of(x).dtype.is_complex
    if window is not None and abstract_of(window).dtype.is_complex:
        raise ArgumentValueError("stft: a complex window is not supported")
    if onesided and x_complex:
        raise ArgumentValueError("stft: onesided=True needs a real signal")
    onesided = not x_complex if onesided is None else onesided
    return_complex = x_complex if return_complex is None else return_complex
    parts = (real_part(x), imag_part(x)) if x_complex else (x,)
    dtype = abstract_of(parts[0]).dtype if abstract_of(parts[0]).dtype.is_float else dt.float32
    spectra = [_spectrum(F.cast(part, dtype), n_fft, hop_length, win_length, window, center,
                         pad_mode, normalized, onesided, dtype) for part in parts]
    re, im = spectra[0]
    if x_complex:  # (a + ib) M = (aC - bS) + i(aS + bC), C and S the DFT's parts
        re, im = re - spectra[1][1], im + spectra[1][0]
    if return_complex:
        return complex_(re, im)
    return F.stack((re, im), -1)


def _spectrum(x, n_fft, hop_length, win_length, window, center, pad_mode, normalized,
              onesided, dtype):
    """(real, imag), each (*, bins, frames), of the transform of a real signal."""
    shape = abstract_of(x).shape
    if center:
        if pad_mode.upper() not in _PAD_MODES:
            raise ArgumentValueError(f"stft: pad_mode must be one of {tuple(_PAD_MODES)}, got "
                                     f"{pad_mode!r}")
        x = pad(x, (n_fft // 2, n_fft // 2), _PAD_MODES[pad_mode.upper()])
    length = abstract_of(x).shape[-1]
    if length < n_fft:
        raise ShapeError(f"stft: the (padded) signal of length {length} is shorter than "
                         f"n_fft={n_fft}")
    count = 1 + (length - n_fft) // hop_length
    positions = np.arange(count)[:, None] * hop_length + np.arange(n_fft)[None, :]
    frames = A.gather(x, positions.astype(np.int64), axis=len(shape) - 1)  # (*, T, n_fft)
    frames = frames * F.cast(_window(window, win_length, n_fft, dtype), dtype)
    bins = n_fft // 2 + 1 if onesided else n_fft
    re, im = _dft(frames, n_fft, bins, dtype)
    if normalized:
        re, im = re * (n_fft ** -0.5), im * (n_fft ** -0.5)
    axes = tuple(range(len(shape) - 1)) + (len(shape), len(shape) - 1)  # (*, bins, T)
    return F.transpose(re, axes), F.transpose(im, axes)


def all(input, axis=None, keep_dims=False):
    """True where every element along `axis` is nonzero."""
    return F.reduce_min(F.cast(input, dt.bool_), () if axis is None else axis, keep_dims)


def any(input, axis=None, keep_dims=False):
    """True where some element along `axis` is nonzero."""
    return F.reduce_max(F.cast(input, dt.bool_), () if axis is None else axis, keep_dims)


def addn(x):
    """The sum of a tuple of tensors of one shape."""
    total = x[0]
    for item in x[1:]:
        total = F.add(total, item)
    return total


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along `axis`."""
    axis = normalize_axis(axis, abstract_of(x).ndim)
    if prepend is not None or append is not None:
        x = F.concat([v for v in (prepend, x, append) if v is not None], axis)
    for _ in range(n):
        size = abstract_of(x).shape[axis]
        lead = [slice(None)] * abstract_of(x).ndim
        tail = list(lead)
        lead[axis], tail[axis] = slice(1, size), slice(0, size - 1)
        x = F.sub(F.getitem(x, tuple(lead)), F.getitem(x, tuple(tail)))
    return x


def pows(x, y):
    return F.pow(x, y)


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
