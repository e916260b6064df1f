"""Reductions and statistics: `all`, `any`, `addn`, `logsumexp`, `nansum`, `var`/`std` (and
with the mean), `count_nonzero`, `cumprod`, `histc`, `norm`, `vector_norm`, `diff`."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _ndim, _shape
from cellgraph.ops.function.array_func.segment import _segment_sum
from cellgraph.ops.function.math_func.elementwise import _as_float, isfinite, isnan
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import linalg_ops as L
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, normalize_axis, tensor_axis
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.primitives.nn_functional import cumsum

__all__ = ["addn", "all", "any", "count_nonzero", "cov", "cumprod", "diff", "histc", "logcumsumexp",
           "logsumexp", "nansum", "norm", "reduce_max", "reduce_mean", "reduce_min",
           "reduce_sum", "std", "std_mean", "var", "var_mean", "vector_norm"]


# `ops.reduce_sum(x, axis=())` and the others are MindSpore's instances of ReduceSum() and its
# siblings: their `keep_dims` is the class's init argument (False), never a call argument
# (`ops.ReduceSum(keep_dims=True)(x, axis)` keeps the reduced dimensions)
def reduce_sum(x, axis=()):
    """The sum over `axis` (every axis when it is ())."""
    return F.reduce_sum(x, axis)


def reduce_mean(x, axis=()):
    """The mean over `axis` (every axis when it is ())."""
    return F.reduce_mean(x, axis)


def reduce_max(x, axis=()):
    """The maximum over `axis` (every axis when it is ())."""
    return F.reduce_max(x, axis)


def reduce_min(x, axis=()):
    """The minimum over `axis` (every axis when it is ())."""
    return F.reduce_min(x, axis)


def cumprod(input, dim, dtype=None):
    """Running products along `dim`, by a log-step scan: in round k every element is
    multiplied by the running product 2**k places before it (ones before the start). Zeros and
    signs need no special care, the gradients are exact at any order, and the work and memory
    grow as n log n (MindSpore's kernel multiplies in order: the last bits may differ). Bool
    and integer inputs multiply in int64, as MindSpore 2.10's; `dtype` casts the result."""
    if not abstract_of(input).dtype.is_inexact:
        input = F.cast(input, dt.int64)
    out = _running_product(input, dim)
    return out if dtype is None else F.cast(out, dtype)


def _running_product(input, dim):
    ndim = _ndim(input)
    dim = tensor_axis(dim, ndim, "cumprod")
    size = _shape(input)[dim]
    out, step = input, 1
    while step < size:
        head = A.getitem(out, index=_along(ndim, dim, A.Slice(0, step, None)))
        before = A.getitem(out, index=_along(ndim, dim, A.Slice(0, size - step, None)))
        out = F.concat([head, F.mul(A.getitem(out, index=_along(
            ndim, dim, A.Slice(step, None, None))), before)], dim)
        step *= 2
    return out


def _along(ndim: int, axis: int, item) -> tuple:
    return (A.Slice(None, None, None),) * axis + (item,) + (A.Slice(None, None, None),) * (
        ndim - axis - 1)


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(x))) over `dim`, shifted by the (constant) maximum for stability."""
    top = F.stop_gradient(F.amax(input, dim, True))
    out = F.add(F.log(F.sum(F.exp(F.sub(input, top)), dim, True)), top)
    return out if keepdim else F.squeeze(out, dim)


_MATRIX_ORDS = (2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc", None)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """MindSpore's norm: over one axis (an int `dim`, or a 1-D input) the vector norm of
    `ord`; over two (a pair `dim`, or a 2-D input with `dim=None`) the matrix norm of `ord`
    (1/-1: max/min column sum, inf/-inf: max/min row sum, 2/-2: largest/smallest singular
    value, 'nuc': their sum, None/'fro': Frobenius); with neither given, the 2-norm of all."""
    ndim = _ndim(A)
    if dim is None:
        axes = tuple(range(ndim))
    elif isinstance(dim, int):
        axes = (dim,)
    elif isinstance(dim, tuple):
        if len(dim) > 2:
            raise ValueError("For norm, the dimensions is out of range.")
        axes = dim
    else:
        raise TypeError(f"For norm, the dim should be int or tuple of int, but got {type(dim)}")
    if len(axes) == 1 and isinstance(ord, str):
        raise TypeError(f"For norm, ord mode can not be str for vectors, but got {ord}.")
    if len(axes) == 2 and ord not in _MATRIX_ORDS:
        raise ValueError(f"For norm, the ord mode must be in [2, -2, 1, -1, float('inf'), "
                         f"-float('inf'), 'fro', 'nuc', None] for matrices, but got {ord}.")
    if dtype is not None:
        A = F.cast(A, dtype)
    if len(axes) == 2 and not (dim is None and ord is None):
        return _matrix_norm(A, ord, axes, keepdim)
    # one axis, or all of them (MindSpore's own norm gives None for ord over 3 or more axes)
    return vector_norm(A, 2 if ord is None or ord == "fro" else ord,
                       None if dim is None else axes, keepdim)


def _matrix_norm(A, ord, axes, keepdim):
    ndim = _ndim(A)
    row, col = (normalize_axis(a, ndim) for a in axes)
    if row == col:
        raise ValueError("For norm, the elements of dim can not be duplicate.")
    if ord in (1, -1, float("inf"), -float("inf")):
        summed, over = (row, col) if ord in (1, -1) else (col, row)
        sums = F.reduce_sum(F.abs(A), summed)
        over -= over > summed  # the summed axis is gone
        pick = F.reduce_max if ord in (1, float("inf")) else F.reduce_min
        out = pick(sums, over)
    elif ord in (2, -2, "nuc"):
        perm = [a for a in range(ndim) if a not in (row, col)] + [row, col]
        values = L.svd(A.transpose(tuple(perm)).astype(dt.float32), compute_uv=False)
        pick = {2: F.reduce_max, -2: F.reduce_min, "nuc": F.reduce_sum}[ord]
        out = pick(values, -1)
    else:  # None or "fro"
        size = F.abs(A) if abstract_of(A).dtype.is_complex else A
        out = F.sqrt(F.reduce_sum(F.square(size), (row, col)))
    if keepdim:
        shape = list(_shape(A))
        shape[row] = shape[col] = 1
        out = F.reshape(out, tuple(shape))
    return out


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """(sum |x|^ord)^(1/ord) over `axis` (all axes for None); inf/-inf: max/min of |x|."""
    keepdim = keepdims
    axis = () if axis is None else axis
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


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum with NaNs counted as zero."""
    # NaNs become zeros before the cast to `dtype` (an integer one has no NaN); bool counts
    x = F.cast(input, dt.int64) if abstract_of(input).dtype.is_bool else input
    if abstract_of(x).dtype.is_float:
        x = M.select(isnan(x), A.zeros_like(x), x)
    x = x if dtype is None else F.cast(x, dtype)
    return F.reduce_sum(x, () if axis is None else axis, keepdims)


def logcumsumexp(input, axis):
    """log(cumsum(exp(input))) along `axis`, shifted by the maximum so it does not overflow."""
    x = _as_float(input)
    shift = F.stop_gradient(F.reduce_max(x, axis, True))
    return M.add(M.log(cumsum(M.exp(M.sub(x, shift)), axis)), shift)


def histc(input, bins=100, min=0.0, max=0.0):
    """Counts of the elements in `bins` equal bins over [min, max], in the input's dtype
    (float32 for float16), as MindSpore's Histogram kernel counts them: where min == max, the data's own range, widened
    by 1 on each side where that is one value; elements outside are not counted, one at the
    top edge falls in the last bin. A range that is not finite (NaN data) is ValueError when
    it runs."""
    if bins <= 0:
        raise ArgumentValueError(f"histc: `bins` must be positive, got {bins}")
    if min > max:
        raise ArgumentValueError(f"histc: `min` ({min}) must not exceed `max` ({max})")
    dtype = abstract_of(input).dtype
    x = F.reshape(F.cast(input, dt.float64 if dtype in (dt.int32, dt.int64, dt.float64)
                         else dt.float32), (-1,))
    if min == max:
        low, high = F.reduce_min(x), F.reduce_max(x)
        same = M.equal(low, high)
        low, high = M.select(same, M.sub(low, 1.0), low), M.select(same, M.add(high, 1.0), high)
        finite = F.cast(M.logical_not(isfinite(F.stack([low, high], 0))), dt.int32)
        check_range(F.reduce_sum(finite), low=0, high=1, what="count of range ends not finite",
                    op="Histogram", error="value")
    else:
        low, high = float(min), float(max)
    position = F.cast(R.floor(M.mul(M.div(M.sub(x, low), M.sub(high, low)), float(bins))),
                      dt.int32)
    position = M.minimum(M.maximum(position, 0), bins - 1)
    inside = M.logical_and(M.greater_equal(x, low), M.less_equal(x, high))
    counts = _segment_sum(F.cast(inside, dt.int32), position, bins)
    return F.cast(counts, dt.float32 if dtype == dt.float16 else dtype)


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


def _cov_weights(weights, name: str, observations: int, is_kind, kind: str) -> None:
    aval = abstract_of(weights)
    if aval.ndim > 1:
        raise ValueError(f"For cov, the {name} must have one or fewer dimensions, but got "
                         f"{aval.ndim} dimensions.")
    if not is_kind(aval.dtype):
        raise TypeError(f"For cov, the dtype of {name} must be {kind} type, but got type "
                        f"{aval.dtype}")
    if int(np.prod(aval.shape)) != observations:
        raise ValueError(f"For cov, the numel of {name} must equal the number of columns of "
                         f"input, but got numel:{int(np.prod(aval.shape))}, number of columns "
                         f"of input:{observations}.")


def _divisor(value):
    """MindSpore divides by float64 values as they are and by any other in float32."""
    return value if abstract_of(value).dtype == dt.float64 else F.cast(value, dt.float32)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of `input` (observations in its
    columns), with `correction` subtracted from the observation count (1: unbiased) and
    optional integer frequency and float observation weights, as MindSpore computes it."""
    aval = abstract_of(input)
    if aval.ndim > 2:
        raise ValueError(f"For cov, the input must have two or fewer dimensions, but got "
                         f"{aval.ndim} dimensions.")
    if aval.dtype == dt.bool_:
        raise TypeError("For cov, the input dtype can not be bool.")
    x = F.reshape(input, (1, -1)) if aval.ndim < 2 else input
    if abstract_of(x).dtype in (dt.float16, dt.bfloat16):
        x = F.cast(x, dt.float32)
    observations = _shape(x)[1]
    if fweights is not None:
        _cov_weights(fweights, "fweights", observations, lambda d: d.is_int, "an integer")
    if aweights is not None:
        _cov_weights(aweights, "aweights", observations, lambda d: d.is_float,
                     "a floating point")
    weights = [w for w in (fweights, aweights) if w is not None]
    w = weights[0] * weights[1] if len(weights) == 2 else (weights[0] if weights else None)
    if w is not None:
        w_sum = F.reduce_sum(w)
        avg = F.reduce_sum(x * w, 1) / _divisor(w_sum)
    else:
        w_sum = _const(observations, dt.int64)
        avg = F.reduce_sum(x, 1) / _divisor(w_sum)
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * F.reduce_sum(w * aweights) / w_sum
    else:
        norm_factor = w_sum - correction
    norm_factor = F.maximum(norm_factor, F.zeros_like(norm_factor))
    x = x - F.expand_dims(avg, 1)
    c = F.matmul(x, F.transpose(x * w if w is not None else x, (1, 0)))
    return F.squeeze(c / _divisor(F.cast(norm_factor, dt.float32)))
