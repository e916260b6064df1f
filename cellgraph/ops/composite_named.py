"""MindSpore functional ops and primitive classes that are compositions of existing operations
(no kernel, no rule of their own): `dense`, `inner`, `block_diag`, `diag_embed`, the
shrinkage activations, `hann_window`, shape queries, and the primitive-class spellings
(`ops.Elu()`, `ops.LpNorm(axis)`, ...) of functional ops defined elsewhere. Tensor operators
and methods work on eager Tensors and graph Tracers alike, so each serves both modes."""
from __future__ import annotations

import functools
import itertools
import math
import numbers

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.core import abstract_of, is_value, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.random_ops import rand

from . import composite_more as CM
from . import composite_ops as CO
from . import functional as F
from .composite_pad import pad
from .composite_resize import apply_along
from .derive import export, export_class

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "addcmul",
    "aminmax",
    "argwhere",
    "block_diag",
    "cartesian_prod",
    "combinations",
    "cross",
    "dense",
    "diag_embed",
    "eps",
    "exp2",
    "fliplr",
    "flipud",
    "float_power",
    "fmod",
    "frac",
    "hann_window",
    "hardshrink",
    "heaviside",
    "histc",
    "hypot",
    "index_fill",
    "inner",
    "is_tensor",
    "isneginf",
    "isposinf",
    "kron",
    "logcumsumexp",
    "logical_xor",
    "nansum",
    "pairwise_distance",
    "rank",
    "remainder",
    "rot90",
    "sgn",
    "signbit",
    "size",
    "softshrink",
    "swapdims",
    "t",
    "tensor_split",
    "tril_indices",
    "triu_indices",
]


def is_tensor(input) -> bool:
    """Whether `input` is a Tensor (a Parameter, or a graph value standing for one)."""
    return is_value(input) and not isinstance(input, numbers.Number | np.generic)


def _tensor(x, op: str, what: str = "input"):
    if not is_tensor(x):
        raise DTypeError(f"{op}: expected a Tensor for `{what}`, got {type(x).__name__} "
                         f"{x!r:.60}")
    return abstract_of(x)


def size(input_x) -> int:
    """The number of elements, a Python int (known while compiling)."""
    return math.prod(_tensor(input_x, "size", "input_x").shape)


def rank(input_x) -> int:
    """The number of dimensions, a Python int."""
    return _tensor(input_x, "rank", "input_x").ndim


def dense(input, weight, bias=None):
    """input @ weight^T + bias: `weight` (out, in) or (in,) (then the last axis is summed away),
    `bias` broadcast over the output's last axis."""
    x, w = _tensor(input, "dense"), _tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2):
        raise ShapeError(f"dense: `weight` must be 1-D or 2-D, got shape {w.shape}")
    if x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ShapeError(f"dense: the last dimension of `input` {x.shape} must equal the input "
                         f"features of `weight` {w.shape}")
    out = F.matmul(input, weight if w.ndim == 1 else A.transpose(weight, perm=(1, 0)))
    return out if bias is None else M.add(out, bias)


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
    if any(t.ndim > 2 for t in types):
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
    square = M.mul(F.expand_dims(input, -1), F.cast(CO.eye(m, m), x.dtype))  # (..., m, m)
    # (left, right, top, bottom) of the last two axes: the diagonal k columns right or down
    out = pad(square, (k, 0, 0, k) if offset >= 0 else (0, k, k, 0)) if k else square
    if (d1, d2) != (n_out - 2, n_out - 1):
        out = CM.movedim(out, (n_out - 2, n_out - 1), (d1, d2))
    return out


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    _tensor(input, "softshrink")
    if lambd < 0:
        raise ArgumentValueError(f"softshrink: `lambd` must be non-negative, got {lambd}")
    return M.sub(input, NF.clamp(input, -lambd, lambd))


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    _tensor(input, "hardshrink")
    return M.select(M.greater(M.abs_(input), lambd), input, A.zeros_like(input))


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
    return CO._const(values.astype(dtype.np), dtype)


def _average_matrix(size_in: int, size_out: int) -> np.ndarray:
    """(size_out, size_in): row i averages adaptive bin i, [floor(i in / out),
    ceil((i + 1) in / out))."""
    rows = np.zeros((size_out, size_in))
    for i in range(size_out):
        start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
        rows[i, start:stop] = 1.0 / (stop - start)
    return rows


def _adaptive_avg_pool(input, output_size, rank: int, op: str):
    x = _tensor(input, op)
    if x.ndim not in (rank + 1, rank + 2):
        raise ShapeError(f"{op}: expected a {rank + 1}-D or {rank + 2}-D Tensor, got shape "
                         f"{x.shape}")
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (
        output_size,) * rank
    out = input
    for axis, size in zip(range(x.ndim - rank, x.ndim), sizes):
        if size is not None and (isinstance(size, bool) or size <= 0):
            raise ArgumentValueError(f"{op}: output sizes must be positive, got {output_size}")
        out = apply_along(out, _average_matrix(x.shape[axis], size or x.shape[axis]), axis)
    return out


def adaptive_avg_pool1d(input, output_size):
    """Averages of (N, C, L) over `output_size` adaptive bins of L."""
    return _adaptive_avg_pool(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """Averages of ([N,] C, H, W) over an `output_size` grid of adaptive bins (an int for
    both, None to keep a size)."""
    return _adaptive_avg_pool(input, output_size, 2, "adaptive_avg_pool2d")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis."""
    diff = M.add(M.sub(x1, x2), eps)
    return _lp_norm(diff, -1, p, keepdim, 0.0)


# ----- elementwise -------------------------------------------------------------------------

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
    return M.logical_and(CO.isinf(input), M.greater(input, 0))


def isneginf(input):
    return M.logical_and(CO.isinf(input), M.less(input, 0))


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


# ----- reductions and scans --------------------------------------------------------------

def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum with NaNs counted as zero."""
    x = input if dtype is None else F.cast(input, dtype)
    if abstract_of(x).dtype.is_float:
        x = M.select(CO.isnan(x), A.zeros_like(x), x)
    return F.reduce_sum(x, () if axis is None else axis, keepdims)


def aminmax(input, *, axis=0, keepdims=False):
    """(min, max) along `axis`."""
    return F.reduce_min(input, axis, keepdims), F.reduce_max(input, axis, keepdims)


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


# ----- shapes and indices ----------------------------------------------------------------

def t(input):
    """The transpose of a 2-D tensor (a 0-D or 1-D one as it is)."""
    if abstract_of(input).ndim > 2:
        raise ShapeError(f"t: expected at most 2 dimensions, got shape {abstract_of(input).shape}")
    return input if abstract_of(input).ndim < 2 else A.transpose(input, perm=(1, 0))


def swapdims(input, dim0, dim1):
    perm = list(range(abstract_of(input).ndim))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    return A.transpose(input, perm=tuple(perm))


def fliplr(input):
    return F.flip(input, (1,))


def flipud(input):
    return F.flip(input, (0,))


def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees k times in the plane of `dims`, from the first toward the second."""
    d0, d1 = (normalize_axis(d, abstract_of(input).ndim) for d in dims)
    if d0 == d1:
        raise ArgumentValueError(f"rot90: the two dims must differ, got {dims}")
    k %= 4
    if k == 0:
        return input
    if k == 2:
        return F.flip(input, (d0, d1))
    swapped = swapdims(input, d0, d1)
    return F.flip(swapped, (d0,)) if k == 1 else swapdims(F.flip(input, (d0,)), d0, d1)


def kron(input, other):
    """The Kronecker product: every element of `input` times the whole of `other`."""
    a, b = _tensor(input, "kron"), _tensor(other, "kron", "other")
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + tuple(a.shape), (1,) * (n - b.ndim) + tuple(b.shape)
    x = F.reshape(input, tuple(d for s in sa for d in (s, 1)))
    y = F.reshape(other, tuple(d for s in sb for d in (1, s)))
    return F.reshape(M.mul(x, y), tuple(p * q for p, q in zip(sa, sb)))


def tensor_split(input, indices_or_sections, axis=0):
    """Pieces along `axis`: n nearly equal ones (the first len % n one longer), or cut at the
    given indices."""
    x = _tensor(input, "tensor_split")
    axis = normalize_axis(axis, x.ndim)
    length = x.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        n = int(indices_or_sections)
        if n <= 0:
            raise ArgumentValueError(f"tensor_split: sections must be positive, got {n}")
        sizes = [length // n + (i < length % n) for i in range(n)]
        bounds = [0] + list(np.cumsum(sizes))
    else:
        bounds = [0] + [min(int(i), length) for i in indices_or_sections] + [length]
    lead = (slice(None),) * axis
    return tuple(input[lead + (slice(int(lo), int(max(lo, hi))),)]
                 for lo, hi in itertools.pairwise(bounds))



def argwhere(input):
    """The indices of the non-zero elements, (count, ndim)."""
    from cellgraph.primitives.dynamic_ops import nonzero

    return nonzero(input)


def index_fill(x, axis, index, value):
    """x with the positions `index` along `axis` set to `value`."""
    shape = _tensor(x, "index_fill", "x").shape
    axis = normalize_axis(axis, len(shape))
    hits = F.reduce_sum(F.one_hot(F.reshape(index, (-1,)), shape[axis], 1, 0), (0,), False)
    mask = F.reshape(M.greater(hits, 0), tuple(shape[axis] if i == axis else 1
                                               for i in range(len(shape))))
    fill = F.broadcast_to(F.cast(value, abstract_of(x).dtype), tuple(shape))
    return M.select(F.broadcast_to(mask, tuple(shape)), fill, x)


def _triangle_indices(row, col, offset, dtype, lower: bool):
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return CO._const(np.stack([rows, cols]).astype(dt.as_dtype(dtype).np), dt.as_dtype(dtype))


def tril_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the lower triangle (below diagonal `offset`)."""
    return _triangle_indices(row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the upper triangle."""
    return _triangle_indices(row, col, offset, dtype, False)


def cartesian_prod(*inputs):
    """(N, len(inputs)): every combination of one element from each 1-D input."""
    grids = CO.meshgrid(*inputs, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """(N, r): the length-r combinations of the elements of the 1-D `input`."""
    import itertools

    n = _tensor(input, "combinations").shape[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(pick(range(n), r)), np.int64).reshape(-1, r)
    return F.reshape(F.gather(input, CO._const(rows.reshape(-1), dt.int64), 0), rows.shape)


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


# ----- primitive classes over functional ops -----------------------------------------------

def _elu(input_x, alpha=1.0):
    return CM.elu(input_x, alpha)


def _logit(x, eps=-1.0):
    return CM.logit(x, None if eps < 0 else eps)


def _reduce_std(input_x, axis=(), unbiased=True, keep_dims=False):
    """(std, mean) over `axis` (every axis when empty)."""
    axes = tuple(range(abstract_of(input_x).ndim)) if axis in ((), []) else axis
    return CM.std_mean(input_x, axes, 1 if unbiased else 0, keep_dims)


def _lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """(sum |x|^p)^(1/p) over `axis`; a zero norm comes out as `epsilon`, as MindSpore's."""
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    x = M.abs_(input)
    if p == 1:
        out = F.reduce_sum(x, axes, keep_dims)
    else:
        out = M.pow_(F.reduce_sum(M.pow_(x, p), axes, keep_dims), 1.0 / p)
    return M.maximum(out, epsilon)


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
    out = CO.arange(*values, dtype=dtype)
    if abstract_of(out).shape[0] > maxlen:
        raise ArgumentValueError(f"Range: {abstract_of(out).shape[0]} values exceed `maxlen` "
                                 f"{maxlen}")
    return out


def _dropout2d(x, keep_prob=0.5):
    """(output, mask): whole channels of (N, C, H, W) kept with probability `keep_prob` and
    scaled by 1 / keep_prob; the mask (bool, x's shape) says which elements were kept."""
    shape = _tensor(x, "Dropout2D", "x").shape
    if len(shape) != 4:
        raise ShapeError(f"Dropout2D: expected a 4-D (N, C, H, W) Tensor, got shape {shape}")
    if not 0 < keep_prob <= 1:
        raise ArgumentValueError(f"Dropout2D: `keep_prob` must be in (0, 1], got {keep_prob}")
    keep = M.less(rand(tuple(shape[:2]) + (1, 1)), keep_prob)
    mask = F.broadcast_to(keep, tuple(shape))
    return M.mul(x, F.cast(mask, abstract_of(x).dtype)) / keep_prob, mask


export_class("Elu", _elu, {"alpha": 1.0})
export_class("HSwish", CM.hardswish)
export_class("Logit", _logit, {"eps": -1.0})
export_class("Cdist", CM.cdist, {"p": 2.0})
export_class("Addcmul", lambda input, x1, x2, value: addcmul(input, x1, x2, value))
export_class("LinSpace", CO.linspace)
export_class("Range", _range, {"maxlen": 1000000})


def _unstack(input_x, axis=0, num=None):
    """The slices along `axis`; `num`, when given, must be that axis's length."""
    length = abstract_of(input_x).shape[normalize_axis(axis, abstract_of(input_x).ndim)]
    if num is not None and num != length:
        raise ArgumentValueError(f"Unstack: num={num} but axis {axis} has length {length}")
    return CO.unstack(input_x, axis)


export_class("Unstack", _unstack, {"axis": 0, "num": None})
export_class("ReduceStd", _reduce_std, {"axis": (), "unbiased": True, "keep_dims": False})
export_class("LpNorm", _lp_norm, {"axis": None, "p": 2, "keep_dims": False, "epsilon": 1e-12})
export_class("Eps", eps)
export_class("Dropout2D", _dropout2d, {"keep_prob": 0.5})


def _kl_div_loss(logits, labels, reduction="mean"):
    from cellgraph.ops.loss_functions import kl_div  # the user surface's; loaded by then

    return kl_div(logits, labels, reduction)


export_class("KLDivLoss", _kl_div_loss, {"reduction": "mean"})
export_class("SoftShrink", softshrink, {"lambd": 0.5})
export_class("HShrink", hardshrink, {"lambd": 0.5})


def range_(start, end, step):
    """`ops.range`: [start, end) by `step` (Tensors or numbers), in the dtype of `start` when it
    is a Tensor, else int64 for ints and float32 otherwise."""
    return _range(start, end, step, maxlen=math.inf)


export(range_, name="range")
