"""Still more of `mindspore.numpy`: index search, products, remainders, statistics, splitting
and index helpers, over the functional ops (`cellgraph.numpy` re-exports them). Index arrays
that depend only on shapes (tril_indices, unravel_index's strides) are computed on the host."""
from __future__ import annotations

import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives.core import normalize_axis

from .numpy import _binary, _cast, _dtype, _unary, asarray, float32, int32

__all__ = ["append", "argmax", "argmin", "argwhere", "array_split", "bincount",
           "broadcast_arrays", "cbrt", "copy", "corrcoef", "cov", "cumprod", "diagflat",
           "diagonal", "digitize", "fmod", "hypot", "interp", "isfinite", "isin", "isinf",
           "log1p", "logaddexp2", "mod", "multi_dot", "nonzero", "randint", "remainder", "repeat",
           "round", "searchsorted", "std", "tril_indices", "triu_indices", "trunc", "unique",
           "unravel_index", "var"]

isfinite, isinf = _unary(P.isfinite, "isfinite"), _unary(P.isinf, "isinf")
log1p, trunc = _unary(P.log1p, "log1p"), _unary(P.trunc, "trunc")
remainder = mod = _binary(P.floor_mod, "remainder")  # the divisor's sign, as NumPy's


def _float(x):
    x = asarray(x)
    return x if x.dtype.is_float else F.cast(x, float32)


def _flat_or(a, axis):
    """(a, axis), with a flattened and axis 0 when axis is None."""
    a = asarray(a)
    return (F.reshape(a, (-1,)), 0) if axis is None else (a, axis)


def argmin(a, axis=None):
    """Index of the smallest element (of the flattened array when axis is None)."""
    a, axis = _flat_or(a, axis)
    return P.argmin(a, axis)


def argmax(a, axis=None):
    """Index of the largest element (of the flattened array when axis is None)."""
    a, axis = _flat_or(a, axis)
    return P.argmax(a, axis)


def cumprod(a, axis=None, dtype=None):
    a, axis = _flat_or(a, axis)
    return _cast(P.cumprod(a, axis), _dtype(dtype, "cumprod"))


def multi_dot(arrays):
    """The matrix product of the arrays, left to right (1-D ends as row/column vectors)."""
    arrays = [asarray(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"multi_dot: expected at least 2 arrays, got {len(arrays)}")
    out = arrays[0]
    for a in arrays[1:]:
        out = F.matmul(out, a)
    return out


def round(a, decimals=0):
    """Round half to even at `decimals` places."""
    a = asarray(a)
    if not decimals:
        return P.round(a)
    scale = 10.0 ** decimals
    return F.div(P.round(F.mul(_float(a), scale)), scale)


def fmod(x1, x2, dtype=None):
    """Remainder with the dividend's sign: x1 - trunc(x1 / x2) * x2; `dtype` casts it."""
    x1, x2 = _float(x1), x2 if isinstance(x2, numbers.Number) else _float(x2)
    return _cast(F.sub(x1, F.mul(P.trunc(F.div(x1, x2)), x2)), _dtype(dtype, "fmod"))


def hypot(x1, x2, dtype=None):
    x1, x2 = _float(x1), _float(x2)
    return _cast(F.sqrt(F.add(F.square(x1), F.square(x2))), _dtype(dtype, "hypot"))


def cbrt(x, dtype=None):
    x = _float(x)
    return _cast(F.mul(F.sign(x), F.pow(F.abs(x), 1.0 / 3.0)), _dtype(dtype, "cbrt"))


def logaddexp2(x1, x2, dtype=None):
    """log2(2**x1 + 2**x2), computed without overflow; `dtype` casts the result."""
    x1, x2 = _float(x1), _float(x2)
    high = F.maximum(x1, x2)
    gap = F.neg(F.abs(F.sub(x1, x2)))
    out = F.add(high, F.div(P.log1p(F.pow(2.0, gap)), onp.log(2.0)))
    return _cast(out, _dtype(dtype, "logaddexp2"))


def copy(a):
    """A new array with a's values."""
    return F.add(asarray(a), F.zeros_like(asarray(a)))


def var(x, axis=None, ddof=0, keepdims=False):
    """Mean squared deviation from the mean, divided by N - ddof."""
    x = _float(x)
    axes = tuple(range(len(x.shape))) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    count = int(onp.prod([x.shape[normalize_axis(a, len(x.shape))] for a in axes]))
    deviation = F.sub(x, F.reduce_mean(x, axes, True))
    return F.div(F.reduce_sum(F.square(deviation), axes, keepdims), max(count - ddof, 0))


def std(x, axis=None, ddof=0, keepdims=False):
    return F.sqrt(var(x, axis, ddof, keepdims))


def append(arr, values, axis=None):
    """arr and values joined along axis (both flattened when axis is None)."""
    arr, values = asarray(arr), asarray(values)
    if axis is None:
        arr, values, axis = F.reshape(arr, (-1,)), F.reshape(values, (-1,)), 0
    return F.concat((arr, F.cast(values, arr.dtype)), axis)


def array_split(x, indices_or_sections, axis=0):
    """Like split, but n sections need not divide the axis: the first len % n get one more."""
    return list(P.tensor_split(asarray(x), indices_or_sections, axis))


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = onp.broadcast_shapes(*[tuple(a.shape) for a in arrays])
    return [F.broadcast_to(a, shape) for a in arrays]


def repeat(a, repeats, axis=None):
    """Each element `repeats` times along axis (of the flattened array when None)."""
    a, axis = _flat_or(a, axis)
    if not isinstance(repeats, numbers.Integral):
        raise TypeError(f"repeat: `repeats` must be an int, got {repeats!r}")
    return P.repeat_elements(a, int(repeats), axis)


def _indices(rows_cols, dtype=int32):
    return tuple(asarray(onp.asarray(i), dtype) for i in rows_cols)


def tril_indices(n, k=0, m=None):
    return _indices(onp.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    return _indices(onp.triu_indices(n, k, m))


def unravel_index(indices, shape, order="C"):
    """Flat indices -> a tuple of coordinate arrays for `shape`."""
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    indices = asarray(indices)
    dims = list(shape) if order == "C" else list(reversed(shape))
    coords = []
    for size in reversed(dims):
        coords.append(P.floor_mod(indices, size))
        indices = P.floor_div(indices, size)
    coords = coords[::-1] if order == "C" else coords
    return tuple(coords)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The offset diagonal of the (axis1, axis2) planes, as the last axis."""
    a = asarray(a)
    nd = len(a.shape)
    axis1, axis2 = normalize_axis(axis1, nd), normalize_axis(axis2, nd)
    rest = [i for i in range(nd) if i not in (axis1, axis2)]
    planes = F.transpose(a, tuple(rest) + (axis1, axis2))
    rows, cols = a.shape[axis1], a.shape[axis2]
    flat = [r * cols + r + offset for r in range(rows) if 0 <= r + offset < cols]
    planes = F.reshape(planes, tuple(planes.shape[:-2]) + (rows * cols,))
    return P.gather(planes, asarray(onp.asarray(flat, onp.int64)), len(rest))


def diagflat(v, k=0):
    from .numpy_more import diag

    return diag(F.reshape(asarray(v), (-1,)), k)


def isin(element, test_elements, invert=False):
    """Whether each element occurs in test_elements (element's shape)."""
    element, tests = asarray(element), F.reshape(asarray(test_elements), (-1,))
    found = P.any(F.equal(F.expand_dims(element, -1), tests), -1)
    return F.logical_not(found) if invert else found


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """The covariance matrix of the variables in the rows of `m` (columns when not `rowvar`),
    `y` adding more variables; observations weighted by `fweights` (counts) and `aweights`."""
    x = _float(m)
    x = F.reshape(x, (1, -1)) if len(x.shape) == 1 else x
    if not rowvar and len(x.shape) == 2:
        x = F.transpose(x, (1, 0))
    if y is not None:
        other = _float(y)
        other = F.reshape(other, (1, -1)) if len(other.shape) == 1 else other
        x = P.concat((x, other if rowvar else F.transpose(other, (1, 0))), 0)
    ddof = (0 if bias else 1) if ddof is None else ddof
    n = x.shape[1]
    weights = None
    for given in (fweights, aweights):
        if given is not None:
            given = _weights(given, x.dtype)
            weights = given if weights is None else weights * given
    if weights is None:
        total, mean = n, x.mean(axis=1, keep_dims=True)
        norm = n - ddof
    else:
        total = weights.sum()
        mean = (x * weights).sum(axis=1, keepdims=True) / total
        norm = total - ddof * ((weights * _weights(aweights, x.dtype)).sum() / total
                               if aweights is not None else 1)
    centred = x - mean
    scaled = centred if weights is None else centred * weights
    out = P.matmul(scaled, F.transpose(centred, (1, 0))) / norm
    out = out if out.shape != (1, 1) else F.reshape(out, ())
    return out if dtype is None else _cast(out, _dtype(dtype, "cov"))


def _weights(values, dtype):
    """Observation weights in the data's dtype (host arrays converted once, at full
    precision)."""
    if isinstance(values, (list, tuple, onp.ndarray)):
        return asarray(onp.asarray(values, dtype.np), dtype)
    return _cast(asarray(values), dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients: cov / (std_i std_j), clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if len(c.shape) == 0:
        return c / c
    d = P.sqrt(P.diagonal(c))
    out = c / F.expand_dims(d, 1) / F.expand_dims(d, 0)
    return P.clip_by_value(out, -1.0, 1.0)


def searchsorted(a, v, side="left", sorter=None):
    """Indices where the values `v` would be inserted into the sorted 1-D `a`."""
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a = asarray(a)
    if sorter is not None:
        a = P.gather(a, asarray(sorter), 0)
    return P.searchsorted(a, asarray(v), side=side)


def interp(x, xp, fp, left=None, right=None):
    """Piecewise-linear interpolation of the points (xp, fp), xp increasing; `left`/`right`
    (fp[0], fp[-1] by default) outside them."""
    x, xp, fp = _float(x), _float(xp), _float(fp)
    n = xp.shape[0]
    if n == 1:  # one point: its value everywhere between the bounds
        out = F.zeros_like(x) + fp[0]
    else:
        idx = P.clip_by_value(P.searchsorted(xp, x, side="right") - 1, 0, n - 2)
        x0, x1 = P.gather(xp, idx, 0), P.gather(xp, idx + 1, 0)
        f0, f1 = P.gather(fp, idx, 0), P.gather(fp, idx + 1, 0)
        out = f0 + (x - x0) / (x1 - x0) * (f1 - f0)
    low = fp[0] if left is None else left
    high = fp[n - 1] if right is None else right
    out = P.select(x < xp[0], F.zeros_like(out) + low, out)
    return P.select(x > xp[n - 1], F.zeros_like(out) + high, out)


def unique(x, return_inverse=False):
    """The sorted distinct values of the flattened `x` (and the indices of the flattened x's
    elements among them), as MindSpore's, which ravels a multi-dimensional input first."""
    values, inverse = P.unique(F.reshape(asarray(x), (-1,)))
    return (values, inverse) if return_inverse else values


def randint(minval, maxval=None, shape=None, dtype=int32):
    """Integers uniformly drawn from [minval, maxval) (from [0, minval) with one bound)."""
    if maxval is None:
        minval, maxval = 0, minval
    shape = () if shape is None else (shape,) if isinstance(shape, numbers.Integral) else \
        tuple(shape)
    return P.randint(minval, maxval, shape, dtype=_dtype(dtype, "randint"))


def bincount(x, weights=None, minlength=0, length=None):
    """Occurrences of each non-negative int in `x` (summed `weights` when given)."""
    out = P.bincount(asarray(x), None if weights is None else asarray(weights), minlength)
    return out if length is None else out[:length]


def digitize(x, bins, right=False):
    """The index of the bin each value falls in (bins increasing)."""
    return P.searchsorted(asarray(bins), asarray(x), side="left" if right else "right")


def nonzero(a):
    """The indices of the non-zero elements, one Tensor per axis."""
    return P.nonzero(asarray(a), as_tuple=True)


def argwhere(a):
    """The indices of the non-zero elements, (count, ndim)."""
    return P.nonzero(asarray(a))
