"""`mindspore.numpy.math_ops`: arithmetic, elementwise math, reductions, products and
statistics (add, exp, sum, matmul, dot, norm, cov, ...). Elementwise functions follow the
module's rules: integer input to a float function is computed in float32."""
from __future__ import annotations

import inspect
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import functional as _core
from cellgraph.primitives.core import PRIMITIVES, fmt_shape, normalize_axis
from cellgraph.primitives.errors import ShapeError

from . import array_creations, array_ops, logic_ops
from .array_creations import asarray
from .array_ops import moveaxis
from .dtypes import float32, int32
from .utils import _binary, _cast, _check_inner, _dtype, _error, _flat_or, _float, _rounding, _unary

__all__ = [
    "absolute", "add", "amax", "amin", "arccos", "arccosh", "arcsin", "arcsinh", "arctan",
    "arctan2", "arctanh", "argmax", "argmin", "average", "bincount",
    "cbrt", "ceil", "clip", "corrcoef", "cos", "cosh", "count_nonzero", "cov",
    "cross", "cumprod", "digitize", "divide", "dot", "exp", "expm1", "floor", "fmod", "hypot",
    "interp", "log", "log1p", "logaddexp", "logaddexp2", "matmul", "maximum",
    "mean", "minimum", "multi_dot", "multiply", "negative", "norm", "power",
    "reciprocal", "remainder", "round", "searchsorted", "sign", "sin", "sinh", "sqrt", "square",
    "std", "subtract", "sum", "tan", "tanh", "tensordot", "true_divide", "trunc", "var",
]

# float functions: the primitives compute integer input in float32 (their declared promotion)
tanh, exp, log, sqrt = (_unary(F.tanh, "tanh"), _unary(F.exp, "exp"), _unary(F.log, "log"),
                        _unary(F.sqrt, "sqrt"))


sin, cos, tan = _unary(F.sin, "sin"), _unary(F.cos, "cos"), _unary(F.tan, "tan")


square = _unary(F.square, "square")


def negative(a, dtype=None):
    """Elementwise -a; `dtype` casts the result."""
    return _cast(F.neg(asarray(a)), _dtype(dtype, "negative"))


absolute = _unary(F.abs, "absolute")


add, subtract = _binary(F.add, "add"), _binary(F.sub, "subtract")


multiply, divide = _binary(F.mul, "multiply"), _binary(F.div, "divide")


true_divide, power = divide, _binary(F.pow, "power")


maximum, minimum = _binary(F.maximum, "maximum"), _binary(F.minimum, "minimum")


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):
    """Sum over `axis` (all axes by default); bool input counts as int32."""
    a = asarray(a)
    dtype = _dtype(dtype, "sum") or (int32 if a.dtype.is_bool else None)
    out = _core.reduce_sum(_cast(a, dtype), axis, keepdims)
    return out if initial is None else F.add(out, initial)


def mean(a, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over `axis` (float32 for integer input)."""
    a = asarray(a)
    if not a.dtype.is_float:
        a = F.cast(a, float32)
    return _cast(_core.reduce_mean(a, axis, keepdims), _dtype(dtype, "mean"))


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over `axis`, at least `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    return F.amax(asarray(a), axis, keepdims, initial=initial, where=where)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over `axis`, at most `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    return F.amin(asarray(a), axis, keepdims, initial=initial, where=where)


def matmul(x1, x2, dtype=None):
    """Matrix product with NumPy's rules: 1-D operands are vectors, batch dims broadcast."""
    a, b = asarray(x1), asarray(x2)
    if not a.shape or not b.shape:
        raise _error(ShapeError, "matmul", f"operands must have rank >= 1, got shapes "
                     f"{fmt_shape(a.shape)} and {fmt_shape(b.shape)}; use multiply for scalars")
    _check_inner(a.shape[-1], b.shape[-2] if len(b.shape) > 1 else b.shape[0], a, b, "matmul")
    return _cast(F.matmul(a, b), _dtype(dtype, "matmul"))


def dot(a, b):
    """NumPy's dot: a product for scalars, sum over the last axis of `a` and the second-to-last
    of `b` (the only one, for a vector) otherwise."""
    a, b = asarray(a), asarray(b)
    if not a.shape or not b.shape:
        return F.mul(a, b)
    if len(b.shape) == 1 or (len(a.shape) <= 2 and len(b.shape) == 2):
        _check_inner(a.shape[-1], b.shape[0], a, b, "dot")
        return F.matmul(a, b)
    _check_inner(a.shape[-1], b.shape[-2], a, b, "dot")
    k = a.shape[-1]
    perm = (len(b.shape) - 2,) + tuple(i for i in range(len(b.shape)) if i != len(b.shape) - 2)
    b2 = F.reshape(F.transpose(b, perm), (k, -1))
    out = F.matmul(F.reshape(a, (-1, k)), b2)
    return F.reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-2]) + tuple(b.shape[-1:]))


def _declared(prim, name: str, operands: tuple):
    """mindspore.numpy's spelling `name` of a primitive whose declaration lists it
    (`spellings=("numpy(x)",)`): its functional op over array-likes, unary or binary as its type
    rule is, taking the operands under MindSpore's names `operands`, then `dtype`."""
    arity = len(inspect.signature(prim.abstract_rule).parameters)
    fn = (_unary if arity == 1 else _binary)(getattr(F, prim.name), name)
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in operands] +
        [inspect.Parameter("dtype", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])
    if tuple(inspect.signature(fn).parameters) == (*operands, "dtype"):
        return fn

    def named(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return fn(*bound.args)

    named.__name__ = named.__qualname__ = name
    named.__doc__, named.__signature__ = fn.__doc__, signature
    return named


arcsin, _arccos, arctan = (_unary(F.asin, "arcsin"), _unary(F.acos, "arccos"),
                          _unary(F.atan, "arctan"))


arcsinh, arccosh, arctanh = (_unary(F.asinh, "arcsinh"), _unary(F.acosh, "arccosh"),
                             _unary(F.atanh, "arctanh"))


sinh, cosh, expm1 = (_unary(F.sinh, "sinh"), _unary(F.cosh, "cosh"),
                     _unary(P.expm1, "expm1"))


reciprocal = _unary(F.reciprocal, "reciprocal")


floor, ceil = _rounding(P.floor, "floor"), _rounding(P.ceil, "ceil")


sign = _unary(F.sign, "sign")


arctan2 = _binary(P.atan2, "arctan2")


def logaddexp(x1, x2, dtype=None):
    """log(exp(x1) + exp(x2)), computed as max + log1p(exp(-|x1 - x2|))."""
    a, b = asarray(x1), asarray(x2)
    top = F.maximum(a, b)
    return _cast(F.add(top, P.log1p(F.exp(F.neg(F.abs(F.sub(a, b)))))),
                 _dtype(dtype, "logaddexp"))


def arccos(input, dtype=None):
    """Elementwise arccos; `dtype` casts the result."""
    return _arccos(input, dtype)


def clip(x, xmin, xmax, dtype=None):
    return _cast(P.clip_by_value(asarray(x), xmin, xmax), _dtype(dtype, "clip"))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along `axisa` of a and `axisb` of b, put along `axisc`
    of the result (`axis` sets all three)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(asarray(a), axisa, -1), moveaxis(asarray(b), axisb, -1)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    out = F.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return moveaxis(out, -1, axisc)


def tensordot(a, b, axes=2):
    return P.tensor_dot(asarray(a), asarray(b), axes)


def norm(x, ord=None, axis=None, keepdims=False):
    """The 2-norm (Frobenius for matrices) by default; vector orders otherwise."""
    x = asarray(x)
    if not x.dtype.is_float:
        x = F.cast(x, float32)
    return P.vector_norm(x, 2 if ord in (None, "fro") else ord, axis, keepdims)


def count_nonzero(x, axis=None, keepdims=False):
    return _core.reduce_sum(F.cast(F.not_equal(asarray(x), 0), int32), () if axis is None else axis,
                        keepdims)


def average(x, axis=None, weights=None, returned=False):
    x = asarray(x)
    if not x.dtype.is_float:
        x = F.cast(x, float32)
    axes = () if axis is None else axis
    if weights is None:
        out, total = F.reduce_mean(x, axes), None
    else:
        w = asarray(weights)
        if axis is not None and len(w.shape) == 1 and len(x.shape) > 1:
            shape = [1] * len(x.shape)
            shape[normalize_axis(axis, len(x.shape))] = w.shape[0]
            w = F.reshape(w, tuple(shape))
        total = F.reduce_sum(F.mul(F.ones_like(x), w), axes)
        out = F.div(F.reduce_sum(F.mul(x, w), axes), total)
    return (out, total) if returned else out


log1p, trunc = _unary(P.log1p, "log1p"), _unary(P.trunc, "trunc")


remainder = _binary(P.floor_mod, "remainder")  # the divisor's sign, as NumPy's


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


def var(x, axis=None, ddof=0, keepdims=False):
    """Mean squared deviation from the mean, divided by N - ddof."""
    x = _float(x)
    axes = tuple(range(len(x.shape))) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    count = int(onp.prod([x.shape[normalize_axis(a, len(x.shape))] for a in axes]))
    deviation = F.sub(x, _core.reduce_mean(x, axes, True))
    return F.div(_core.reduce_sum(F.square(deviation), axes, keepdims), max(count - ddof, 0))


def std(x, axis=None, ddof=0, keepdims=False):
    return F.sqrt(var(x, axis, ddof, keepdims))


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


def bincount(x, weights=None, minlength=0, length=None):
    """Occurrences of each non-negative int in `x` (summed `weights` when given)."""
    out = P.bincount(asarray(x), None if weights is None else asarray(weights), minlength)
    return out if length is None else out[:length]


def digitize(x, bins, right=False):
    """The index of the bin each value falls in (bins increasing)."""
    return P.searchsorted(asarray(bins), asarray(x), side="left" if right else "right")


# mindspore.numpy's spellings that declarations list (`spellings=("numpy(x)",)`) and no function
# of this module's files defines: positive, log2, bitwise_and, ...
_DEFINED = {*globals(), *vars(array_creations), *vars(array_ops), *vars(logic_ops)}
for _prim in PRIMITIVES.values():
    for _spelling in _prim.spellings if _prim.public else ():
        if _spelling.module == "numpy" and _spelling.name not in _DEFINED:
            globals()[_spelling.name] = _declared(_prim, _spelling.name, _spelling.operands)
            __all__.append(_spelling.name)
