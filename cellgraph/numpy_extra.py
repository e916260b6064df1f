"""Still more of `mindspore.numpy`: index search, products, remainders, statistics, splitting
and index helpers, over the functional ops (`cellgraph.numpy` re-exports them). Index arrays
that depend only on shapes (tril_indices, unravel_index's strides) are computed on the host."""
from __future__ import annotations

import itertools
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.ops.core import normalize_axis

from .numpy import _binary, _cast, _dtype, _unary, asarray, float32, int32

__all__ = ["append", "argmax", "argmin", "array_split", "broadcast_arrays", "cbrt", "copy",
           "cumprod", "diagflat", "diagonal", "fmod", "hypot", "isfinite", "isin", "isinf",
           "log1p", "logaddexp2", "mod", "multi_dot", "remainder", "repeat", "round", "std",
           "tril_indices", "triu_indices", "trunc", "unravel_index", "var"]

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


def fmod(x1, x2):
    """Remainder with the dividend's sign: x1 - trunc(x1 / x2) * x2."""
    x1, x2 = _float(x1), x2 if isinstance(x2, numbers.Number) else _float(x2)
    return F.sub(x1, F.mul(P.trunc(F.div(x1, x2)), x2))


def hypot(x1, x2):
    x1, x2 = _float(x1), _float(x2)
    return F.sqrt(F.add(F.square(x1), F.square(x2)))


def cbrt(x):
    x = _float(x)
    return F.mul(F.sign(x), F.pow(F.abs(x), 1.0 / 3.0))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2), computed without overflow."""
    x1, x2 = _float(x1), _float(x2)
    high = F.maximum(x1, x2)
    gap = F.neg(F.abs(F.sub(x1, x2)))
    return F.add(high, F.div(P.log1p(F.pow(2.0, gap)), onp.log(2.0)))


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
    x = asarray(x)
    axis = normalize_axis(axis, len(x.shape))
    length = x.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        n = int(indices_or_sections)
        if n <= 0:
            raise ValueError(f"array_split: the number of sections must be > 0, got {n}")
        sizes = [length // n + (i < length % n) for i in range(n)]
        bounds = list(onp.cumsum([0] + sizes))
    else:
        bounds = [0] + [min(int(i), length) for i in indices_or_sections] + [length]
    lead = (slice(None),) * axis
    return [x[lead + (slice(int(a), int(max(a, b))),)] for a, b in itertools.pairwise(bounds)]


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
