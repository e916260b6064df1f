"""`mindspore.numpy.math_ops`: arithmetic, elementwise math, reductions, products and
statistics (add, exp, sum, matmul, dot, norm, cov, ...). Elementwise functions follow the
module's rules: integer input to a float function is computed in float32."""
from __future__ import annotations

import inspect
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as _dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.core import (
    PRIMITIVES,
    abstract_of,
    fmt_shape,
    normalize_axis,
    value_input,
)
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    ShapeError,
    ShapeRunError,
    UnsupportedError,
)

from . import array_creations, array_ops, logic_ops
from .array_creations import asarray
from .array_ops import moveaxis
from .dtypes import float32, int32, int64
from .utils import (
    _binary,
    _bool_arg,
    _cast,
    _check_inner,
    _common_dtype,
    _distinct_axes,
    _dtype,
    _error,
    _flat_or,
    _float,
    _int_arg,
    _rounding,
    _to_tensor,
    _unary,
    take_tensors_only,
)

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


multiply = _binary(F.mul, "multiply")


def _int_to_float32(a, b) -> tuple:
    """Two operands neither of them float, as float32 (a true division's)."""
    if a.dtype.is_float or b.dtype.is_float:
        return a, b
    return F.cast(a, float32), F.cast(b, float32)


# RealDiv, whose 0-d operands promote as any Tensor (ops.div takes them as numbers): float16
# divided by a Python float gives float32, as mindspore.numpy's tensor_div
divide = _binary(lambda a, b: P.tensor_div(*_int_to_float32(a, b)), "divide")


true_divide, power = divide, _binary(F.pow, "power")


def _extremum(binary, name: str):
    """maximum/minimum: with one operand a scalar (a Python number or a 0-d array) and no
    `dtype`, the result takes the other operand's dtype, as mindspore.numpy's does
    (maximum(int32 array, 2.5) compares in float32, then is int32)."""
    compare = _binary(binary, name)

    def fn(x1, x2, dtype=None):
        out = compare(x1, x2, dtype)
        ranks = [0 if isinstance(v, numbers.Number) else len(asarray(v).shape) for v in (x1, x2)]
        if dtype is None and (ranks[0] == 0) != (ranks[1] == 0):
            other = asarray(x2 if ranks[0] == 0 else x1)
            out = _cast(out, other.dtype)
        return out
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = compare.__doc__
    return fn


maximum, minimum = _extremum(F.maximum, "maximum"), _extremum(F.minimum, "minimum")


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):
    """Sum over `axis` (all axes by default); integer and bool input sums in int64, as
    MindSpore 2.10's (and NumPy's) does."""
    _bool_arg(keepdims, "sum", "keepdims")
    a = asarray(a)
    _distinct_axes(a, axis, "sum", ShapeRunError)
    dtype = _dtype(dtype, "sum") or (int64 if a.dtype.is_bool or a.dtype.is_int else None)
    out = _core.reduce_sum(_cast(a, dtype), axis, keepdims)
    return out if initial is None else F.add(out, initial)


def mean(a, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over `axis` (float32 for integer input)."""
    _bool_arg(keepdims, "mean", "keepdims")
    a = asarray(a)  # integers keep their dtype, their mean rounded towards zero (MindSpore's)
    _distinct_axes(a, axis, "mean")
    if a.dtype.is_bool:
        a = F.cast(a, float32)
    return _cast(_core.reduce_mean(a, axis, keepdims), _dtype(dtype, "mean"))


def _scalar_initial(initial, op: str) -> None:
    if initial is not None and not isinstance(initial, numbers.Number) and not (
            hasattr(initial, "shape") and tuple(initial.shape) == ()):
        raise _error(ArgumentError, op, f"`initial` should be a scalar, got "
                     f"{type(initial).__name__} {initial!r:.60}")


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over `axis`, at least `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    _bool_arg(keepdims, "amax", "keepdims")
    a = asarray(a)
    _distinct_axes(a, axis, "amax")
    _scalar_initial(initial, "amax")
    return F.amax(a, axis, keepdims, initial=initial, where=where)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over `axis`, at most `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    _bool_arg(keepdims, "amin", "keepdims")
    a = asarray(a)
    _distinct_axes(a, axis, "amin")
    _scalar_initial(initial, "amin")
    return F.amin(a, axis, keepdims, initial=initial, where=where)


def matmul(x1, x2, dtype=None):
    """Matrix product with NumPy's rules: 1-D operands are vectors, batch dims broadcast."""
    dtype = _dtype(dtype, "matmul")
    a, b = asarray(x1), asarray(x2)
    if not a.shape or not b.shape:
        raise _error(ShapeError, "matmul", f"operands must have rank >= 1, got shapes "
                     f"{fmt_shape(a.shape)} and {fmt_shape(b.shape)}; use multiply for scalars")
    # MindSpore's matmul raises RuntimeError for it (MatMulExt), its dot ValueError
    _check_inner(a.shape[-1], b.shape[-2] if len(b.shape) > 1 else b.shape[0], a, b, "matmul",
                 ShapeRunError)
    return _cast(F.matmul(a, b), dtype)


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


def reciprocal(x, dtype=None):
    """1 / x, elementwise, as MindSpore's `tensor_div(1, x)`: integers give their integer
    quotient rounded towards zero (NumPy's rule), a float x its float reciprocal."""
    return _cast(P.tensor_div(1, asarray(x)), _dtype(dtype, "reciprocal"))


floor, ceil = _rounding(P.floor, "floor"), _rounding(P.ceil, "ceil")


def sign(x, dtype=None):
    """-1, 0 or 1 by the sign of each element, as mindspore.numpy computes it: x / |x| where x
    is not 0, so integers give float32 signs and NaN stays NaN; bools are refused."""
    x = _to_tensor(x)
    if abstract_of(x).dtype.is_bool:
        raise DTypeError("sign does not accept dtype bool.")
    signs = F.select(F.equal(x, 0), F.zeros_like(F.div(x, 1)), F.div(x, F.abs(x)))
    return _cast(signs, _dtype(dtype, "sign"))


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
    """x limited to [xmin, xmax], as MindSpore's: maximum with xmin, then minimum with xmax,
    each in x's dtype for a number bound (an integer x stays integer)."""
    if xmin is None and xmax is None:
        raise _error(ArgumentValueError, "clip", "One of max or min must be given.")
    x = asarray(x)
    if xmin is not None:
        x = maximum(x, xmin)
    if xmax is not None:
        x = minimum(x, xmax)
    return _cast(x, _dtype(dtype, "clip"))


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
    """A vector norm over one axis, a matrix norm over two (NumPy's orders: None or 2, any
    number, inf, 0 for vectors; None or 'fro', +-1, +-inf for matrices). Without `axis`, all
    the array's values as one vector for ord None, else a vector or matrix by its rank. A
    vector p-norm is (sum |x|^p)^(1/p) with p and 1/p arrays of their own, as mindspore.numpy
    computes it: float16 input gives a float32 2-norm."""
    _bool_arg(keepdims, "norm", "keepdims")
    if not (ord is None or isinstance(ord, numbers.Number) and not isinstance(ord, bool)
            or ord in ("fro", "nuc")):
        raise _error(ArgumentValueError, "norm", f"invalid value for `ord`: {ord!r}")
    x = asarray(x)
    ndim = x.ndim
    if axis is None:
        if ord is None:
            x = F.reshape(x, (-1,))
        if x.ndim not in (1, 2):
            raise _error(ArgumentValueError, "norm", f"for None axis, the array must be a vector "
                         f"or a 2-D matrix, got {x.ndim} dimensions")
        axes = tuple(range(x.ndim))
    else:
        axis = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
        _distinct_axes(x, axis, "norm")
        axes = tuple(normalize_axis(a, x.ndim) for a in axis)
    if len(axes) == 1:
        out = _vector_norm(x, ord, axes, keepdims)
    elif len(axes) == 2:
        out = _matrix_norm(x, ord, axes, keepdims)
    else:
        raise _error(ArgumentValueError, "norm", f"invalid number of axes: {len(axes)}")
    if keepdims and out.ndim < ndim:  # the flattened array's norm, kept as ndim ones
        out = F.reshape(out, (1,) * ndim)
    return out


def _vector_norm(x, ord, axes, keepdims):
    if ord in ("fro", "nuc"):
        raise _error(ArgumentValueError, "norm", "Frobenius norm and nuclear norm are only "
                     "defined for vectors")  # sic: MindSpore's words
    ord = 2 if ord is None else ord
    if ord == onp.inf:
        return _core.reduce_max(absolute(x), axes, keepdims)
    if ord == -onp.inf:
        return _core.reduce_min(absolute(x), axes, keepdims)
    if ord == 0:
        return _core.reduce_sum(F.cast(F.not_equal(x, 0), float32), axes, keepdims)
    return power(_core.reduce_sum(power(absolute(x), ord), axes, keepdims), 1.0 / ord)


def _matrix_norm(x, ord, axes, keepdims):
    if ord == 0:
        raise _error(ArgumentValueError, "norm", "for 0 axis, norm is defined only for 2-D "
                     "matrices")
    if ord in (2, -2, "nuc"):
        raise _error(UnsupportedError, "norm", "nuclear norm is not implemented" if ord == "nuc"
                     else "2-norm is not implemented for matrices")
    if ord not in (None, "fro", 1, -1, onp.inf, -onp.inf):
        raise _error(ArgumentValueError, "norm", f"invalid norm order for matrices: {ord!r}")
    if ord in (None, "fro"):
        return F.sqrt(_core.reduce_sum(F.square(x), axes, keepdims))
    rows, cols = axes  # inf: the largest row sum; 1: the largest column sum
    summed, reduced = (cols, rows) if ord in (onp.inf, -onp.inf) else (rows, cols)
    if not keepdims and reduced > summed:
        reduced -= 1
    sums = _core.reduce_sum(absolute(x), summed, keepdims)
    return (_core.reduce_max if ord > 0 else _core.reduce_min)(sums, reduced, keepdims)


def count_nonzero(x, axis=None, keepdims=False):
    _bool_arg(keepdims, "count_nonzero", "keepdims")
    return _core.reduce_sum(F.cast(F.not_equal(asarray(x), 0), int32), () if axis is None else axis,
                        keepdims)


def average(x, axis=None, weights=None, returned=False):
    x = asarray(x)  # integers keep their dtype, as in mean
    if x.dtype.is_bool:
        x = F.cast(x, float32)
    axes = () if axis is None else axis
    if weights is None:
        out, total = _core.reduce_mean(x, axes), None
    else:
        w = asarray(weights)
        if axis is not None and len(w.shape) == 1 and len(x.shape) > 1:
            shape = [1] * len(x.shape)
            shape[normalize_axis(axis, len(x.shape))] = w.shape[0]
            w = F.reshape(w, tuple(shape))
        total = F.reduce_sum(F.mul(F.ones_like(x), w), axes)
        weighted = F.reduce_sum(F.mul(x, w), axes)
        out = (F.div(weighted, total) if weighted.dtype.is_float or weighted.dtype.is_complex
               else P.truncate_div(weighted, total))
    return (out, total) if returned else out


log1p, trunc = _unary(P.log1p, "log1p"), _unary(P.trunc, "trunc")


def _floor_mod(a, b):
    """The remainder with the divisor's sign, as NumPy's; 0 for an integer zero divisor, as
    mindspore.numpy and NumPy give."""
    out = P.floor_mod(a, b)
    if out.dtype.is_float:
        return out
    return F.where(F.equal(b, 0), F.zeros_like(out), out)


remainder = _binary(_floor_mod, "remainder")


def argmin(a, axis=None):
    """Index of the smallest element (of the flattened array when axis is None)."""
    a, axis = _flat_or(a, axis)
    return P.argmin(a, axis)


def argmax(a, axis=None):
    """Index of the largest element (of the flattened array when axis is None)."""
    a, axis = _flat_or(a, axis)
    return P.argmax(a, axis)


def cumprod(a, axis=None, dtype=None):
    """Running products along `axis` (the flattened array for None), as mindspore.numpy
    computes them: in float32 (float64 stays float64), then in `dtype`, by default the input's
    (bool, int8 and int16 give int32; uint8 and uint16 uint32)."""
    a, axis = _flat_or(a, axis)
    given = abstract_of(a).dtype
    out = P.cumprod(a if given == _dt.float64 else F.cast(a, _dt.float32), axis)
    if dtype is None:
        dtype = _CUMPROD_WIDENED.get(given.name, given)
    return _cast(out, _dtype(dtype, "cumprod"))


_CUMPROD_WIDENED = {"bool_": _dt.int32, "int8": _dt.int32, "int16": _dt.int32,
                    "uint8": _dt.uint32, "uint16": _dt.uint32}


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
    """Remainder with the dividend's sign: x1 - trunc(x1 / x2) * x2, in the operands' promoted
    dtype (integers computed in float32, a zero divisor giving 0); `dtype` casts it."""
    a, b = _common_dtype([asarray(x1), asarray(x2)])
    target = a.dtype
    if not target.is_float:
        a, b = F.cast(a, float32), F.cast(b, float32)
    out = F.sub(a, F.mul(b, P.trunc(P.tensor_div(a, b))))
    if not target.is_float:
        out = F.cast(F.where(F.equal(b, 0), F.zeros_like(out), out), target)
    return _cast(out, _dtype(dtype, "fmod"))


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
    _bool_arg(keepdims, "var", "keepdims")
    x = asarray(x)
    _distinct_axes(x, axis, "var")
    axes = tuple(range(len(x.shape))) if axis is None else (
        (axis,) if isinstance(axis, int) else tuple(axis))
    count = int(onp.prod([x.shape[normalize_axis(a, len(x.shape))] for a in axes]))
    mean = _core.reduce_mean(x, axes, True)  # of integers, rounded towards zero as MindSpore's
    x = _float(x)
    deviation = F.sub(x, F.cast(mean, x.dtype))
    return F.div(_core.reduce_sum(F.square(deviation), axes, keepdims), max(count - ddof, 0))


def std(x, axis=None, ddof=0, keepdims=False):
    return F.sqrt(var(x, axis, ddof, keepdims))


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """The covariance matrix of the variables in the rows of `m` (columns when not `rowvar`),
    `y` adding more variables; observations weighted by `fweights` (counts) and `aweights`."""
    x = _float(m)
    x = F.reshape(x, (1, -1)) if len(x.shape) <= 1 else x
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
    _bool_arg(rowvar, "corrcoef", "rowvar")
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


# ----- more of NumPy's functions, in MindSpore numpy's forms -------------------------------------

__all__ += [
    "around", "bitwise_not", "convolve", "copysign", "correlate", "cumsum", "deg2rad", "diff",
    "divmod", "ediff1d", "exp2", "fabs", "fix", "float_power", "floor_divide", "gcd",
    "gradient", "heaviside", "inner", "invert", "kron", "lcm", "matrix_power", "nancumsum",
    "nanmax", "nanmean", "nanmin", "nanstd", "nansum", "nanvar", "outer", "polyadd", "polyder",
    "polyint", "polymul", "polysub", "polyval", "promote_types", "ptp", "rad2deg", "radians",
    "ravel_multi_index", "result_type", "rint", "trapz", "unwrap",
]

copysign = _binary(P.copysign, "copysign")
floor_divide = _binary(P.floor_divide, "floor_divide")
float_power = _binary(P.float_power, "float_power")
gcd = _binary(P.gcd, "gcd")
lcm = _binary(P.lcm, "lcm")
heaviside = _binary(lambda x1, x2: P.heaviside(*array_ops.broadcast_arrays(
    *_common_dtype([x1, x2]))), "heaviside")
exp2 = _unary(lambda x: F.pow(2.0, _float(x)), "exp2")
fabs = _unary(F.abs, "fabs")  # MindSpore keeps an integer dtype
rint = _unary(lambda x: P.round(_float(x)), "rint")
invert = bitwise_not = _unary(P.invert, "invert")
bitwise_not.__doc__ = "Elementwise bitwise NOT (logical NOT for bool)."
deg2rad = radians = _unary(lambda x: F.mul(_float(x), onp.pi / 180), "deg2rad")
rad2deg = _unary(lambda x: F.mul(_float(x), 180 / onp.pi), "rad2deg")


def around(a, decimals=0):
    """`round`, under NumPy's other name."""
    return round(a, decimals)


def fix(x):
    """x rounded toward zero, as a float."""
    return P.trunc(_float(asarray(x)))


def divmod(x1, x2, dtype=None):
    """(floor_divide(x1, x2), remainder(x1, x2))."""
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def cumsum(a, axis=None, dtype=None):
    """The cumulative sum along `axis` (of the flattened array when None); bool and small
    integers add as int32."""
    a, axis = _flat_or(asarray(a), axis)
    dtype = _dtype(dtype, "cumsum") or (int32 if a.dtype.is_bool or (
        a.dtype.is_int and a.dtype.np.itemsize < 4) else None)
    return P.cumsum(_cast(a, dtype), axis)


def nancumsum(a, axis=None, dtype=None):
    """`cumsum` with NaNs counted as 0."""
    a = asarray(a)
    return cumsum(F.select(P.isnan(a), F.zeros_like(a), a) if a.dtype.is_float else a, axis,
                  dtype)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along `axis`, after `prepend` and `append` are joined."""
    a = asarray(a)
    parts = [asarray(p) if hasattr(p, "shape") or isinstance(p, (list, tuple)) else p
             for p in (prepend, a, append)]
    axis = normalize_axis(axis, a.ndim)
    joined = [_broadcast_edge(p, a, axis) for p in parts if p is not None]
    a = P.concat(joined, axis) if len(joined) > 1 else a
    for _ in range(n):
        length = a.shape[axis]
        a = F.sub(P.narrow(a, axis, 1, length - 1), P.narrow(a, axis, 0, length - 1))
    return a


def _broadcast_edge(p, a, axis):
    """A number or an array without `axis` as a slab of a's shape, one long on `axis`."""
    if isinstance(p, numbers.Number):
        shape = list(a.shape)
        shape[axis] = 1
        return F.cast(P.fill(a.dtype, tuple(shape), p), a.dtype)
    if p.ndim < a.ndim:
        p = P.expand_dims(p, axis)
    return _cast(p, a.dtype)


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of the flattened array, with `to_begin` and `to_end` joined at the ends."""
    flat = F.reshape(asarray(ary), (-1,))
    out = F.sub(flat[1:], flat[:-1])
    parts = [F.reshape(_cast(asarray(p), out.dtype), (-1,)) for p in (to_begin,) if p is not None]
    parts += [out] + [F.reshape(_cast(asarray(p), out.dtype), (-1,)) for p in (to_end,)
                      if p is not None]
    return P.concat(parts, 0) if len(parts) > 1 else out


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient by central differences inside and one-sided ones at the edges (edge_order 1),
    along each axis of `axis` (every axis by default), with unit spacing or the scalar spacings
    of `varargs`; a list of arrays for several axes."""
    f = _float(asarray(f))
    axes = list(range(f.ndim)) if axis is None else (
        [axis] if isinstance(axis, int) else list(axis))
    axes = [normalize_axis(ax, f.ndim) for ax in axes]
    if edge_order != 1:
        raise _error(ShapeError, "gradient", f"only edge_order=1 is supported, got {edge_order}")
    spacings = list(varargs) if varargs else [1.0] * len(axes)
    if len(spacings) == 1 and len(axes) > 1:
        spacings = spacings * len(axes)
    out = []
    for ax, h in zip(axes, spacings):
        n = f.shape[ax]
        if n < 2:
            raise _error(ShapeError, "gradient", "Shape of array too small to calculate a "
                         "numerical gradient, at least (edge_order + 1) elements are required.")
        first = F.sub(P.narrow(f, ax, 1, 1), P.narrow(f, ax, 0, 1))
        last = F.sub(P.narrow(f, ax, n - 1, 1), P.narrow(f, ax, n - 2, 1))
        parts = [first]
        if n > 2:
            parts.append(F.mul(F.sub(P.narrow(f, ax, 2, n - 2), P.narrow(f, ax, 0, n - 2)), 0.5))
        parts.append(last)
        out.append(F.div(P.concat(parts, ax), h))
    return out[0] if len(out) == 1 else out


def inner(a, b):
    """The sum product over the last axes (a scalar times an array for a 0-d operand)."""
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    _check_inner(a.shape[-1], b.shape[-1], a, b, "inner")
    return P.tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b):
    """The outer product of the flattened arrays."""
    return F.mul(F.reshape(asarray(a), (-1, 1)), F.reshape(asarray(b), (1, -1)))


def kron(a, b):
    """The Kronecker product: blocks a[i, j] * b."""
    a, b = asarray(a), asarray(b)
    ndim = max(a.ndim, b.ndim)
    a = F.reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape))
    b = F.reshape(b, (1,) * (ndim - b.ndim) + tuple(b.shape))
    # a's axes interleaved with b's: (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...)
    a_shape = [d for s in a.shape for d in (s, 1)]
    b_shape = [d for s in b.shape for d in (1, s)]
    out = F.mul(F.reshape(a, tuple(a_shape)), F.reshape(b, tuple(b_shape)))
    return F.reshape(out, tuple(x * y for x, y in zip(a.shape, b.shape)))


def matrix_power(a, n):
    """The square matrix (or stack of them) to the integer power n."""
    n = _int_arg(n, "matrix_power", "exponent")
    return P.matrix_power(_float(asarray(a)) if n < 0 else asarray(a), n)


def _nan_reduce(name, reduce, fill):
    def fn(a, axis=None, dtype=None, keepdims=False):
        a = asarray(a)
        if a.dtype.is_float:
            a = F.select(P.isnan(a), P.full_like(a, fill), a)
        return _cast(reduce(a, axis, keepdims), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`{name[3:]}` with the NaNs left out."
    return fn


# MindSpore's nansum, nanmean, nanvar and nanstd take any truthy `keepdims`; nanmax and nanmin
# want a bool, as amax and amin
nansum = _nan_reduce("nansum", lambda a, axis, keepdims: sum(a, axis, keepdims=bool(keepdims)),
                     0)
nanmax = _nan_reduce("nanmax", lambda a, axis, keepdims: amax(a, axis, keepdims), -onp.inf)
nanmin = _nan_reduce("nanmin", lambda a, axis, keepdims: amin(a, axis, keepdims), onp.inf)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """The mean of the elements that are not NaN."""
    keepdims = bool(keepdims)
    a = _float(asarray(a))
    numbers_ = F.cast(P.logical_not(P.isnan(a)), a.dtype)
    total = nansum(a, axis, keepdims=keepdims)
    return _cast(F.div(total, sum(numbers_, axis, keepdims=keepdims)), _dtype(dtype, "nanmean"))


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The variance of the elements that are not NaN (divided by their count - ddof)."""
    keepdims = bool(keepdims)
    a = _float(asarray(a))
    present = P.logical_not(P.isnan(a))
    count = sum(F.cast(present, a.dtype), axis, keepdims=True)
    centred = F.select(present, F.sub(a, F.div(nansum(a, axis, keepdims=True), count)),
                       F.zeros_like(a))
    out = F.div(sum(F.square(centred), axis, keepdims=keepdims),
                F.sub(sum(F.cast(present, a.dtype), axis, keepdims=keepdims), ddof))
    return _cast(out, _dtype(dtype, "nanvar"))


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """The standard deviation of the elements that are not NaN."""
    return _cast(F.sqrt(nanvar(a, axis, None, ddof, keepdims)), _dtype(dtype, "nanstd"))


def ptp(x, axis=None, keepdims=False):
    """The range, max - min, along `axis`."""
    _bool_arg(keepdims, "ptp", "keepdims")
    return F.sub(amax(x, axis, keepdims), amin(x, axis, keepdims))


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of y along `axis` by the trapezoidal rule (sample points `x`, or spacing
    `dx`)."""
    y = _float(asarray(y))
    axis = normalize_axis(axis, y.ndim)
    n = y.shape[axis]
    heights = F.mul(F.add(P.narrow(y, axis, 1, n - 1), P.narrow(y, axis, 0, n - 1)), 0.5)
    if x is None:
        return F.mul(sum(heights, axis), dx)
    x = _float(asarray(x))
    if x.ndim == 1:
        shape = [1] * y.ndim
        shape[axis] = n - 1
        widths = F.reshape(F.sub(x[1:], x[:-1]), tuple(shape))
    else:
        widths = F.sub(P.narrow(x, axis, 1, n - 1), P.narrow(x, axis, 0, n - 1))
    return sum(F.mul(heights, widths), axis)


def unwrap(p, discont=onp.pi, axis=-1):
    """p with its jumps of more than `discont` along `axis` replaced by their 2 pi
    complements."""
    p = _float(asarray(p))
    axis = normalize_axis(axis, p.ndim)
    n = p.shape[axis]
    step = F.sub(P.narrow(p, axis, 1, n - 1), P.narrow(p, axis, 0, n - 1))
    wrapped = F.sub(P.remainder(F.add(step, onp.pi), 2 * onp.pi), onp.pi)
    wrapped = F.select(P.logical_and(F.equal(wrapped, -onp.pi), F.greater(step, 0)),
                       P.full_like(wrapped, onp.pi), wrapped)
    correction = F.select(F.less(F.abs(step), discont), F.zeros_like(step),
                          F.sub(wrapped, step))
    zeros = F.zeros_like(P.narrow(p, axis, 0, 1))
    return F.add(p, P.concat((zeros, P.cumsum(correction, axis)), axis))


# ----- polynomials: coefficient arrays, highest power first --------------------------------------

def _poly_pad(a1, a2):
    a1, a2 = F.reshape(asarray(a1), (-1,)), F.reshape(asarray(a2), (-1,))
    n = max(a1.shape[0], a2.shape[0])
    pad = lambda a: a if a.shape[0] == n else P.concat(
        (P.zeros((n - a.shape[0],), a.dtype), a), 0)
    return pad(a1), pad(a2)


def polyadd(a1, a2):
    """The sum of two polynomials."""
    return F.add(*_poly_pad(a1, a2))


def polysub(a1, a2):
    """The difference of two polynomials."""
    return F.sub(*_poly_pad(a1, a2))


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their coefficients)."""
    return convolve(a1, a2, "full")


def polyval(p, x):
    """p evaluated at x (Horner's rule)."""
    p, x = F.reshape(asarray(p), (-1,)), asarray(x)
    out = F.zeros_like(_float(x)) if not p.shape[0] else None
    for i in range(p.shape[0]):
        out = p[i] if out is None else F.add(F.mul(out, x), p[i])
    return _cast(F.add(F.zeros_like(x), out), None) if x.ndim else out


def polyder(p, m=1):
    """The m-th derivative of the polynomial p."""
    p = F.reshape(asarray(p), (-1,))
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return P.zeros((1,), p.dtype)
        p = F.mul(p[:-1], F.cast(asarray(onp.arange(n, 0, -1)), p.dtype))
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p, with the integration constants k (0 by default)."""
    p = _float(F.reshape(asarray(p), (-1,)))
    constants = [0.0] * m if k is None else (list(k) if isinstance(k, (list, tuple)) else [k] * m)
    for i in range(m):
        n = p.shape[0]
        scaled = F.div(p, F.cast(asarray(onp.arange(n, 0, -1)), p.dtype))
        p = P.concat((scaled, F.cast(asarray([constants[i]]), p.dtype)), 0)
    return p


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D arrays ('full', 'same' or 'valid')."""
    a, v = F.reshape(asarray(a), (-1,)), F.reshape(asarray(v), (-1,))
    return _correlate_full(a, P.flip(v, (0,)), mode, "convolve")


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-D arrays ('valid', 'same' or 'full')."""
    a, v = F.reshape(asarray(a), (-1,)), F.reshape(asarray(v), (-1,))
    return _correlate_full(a, v, mode, "correlate")


def _correlate_full(a, v, mode, op):
    """sum_k a[n + k] v[k] over the shifts `mode` keeps (a and v swapped when v is longer, as
    NumPy's correlate reverses the result then)."""
    if mode not in ("full", "same", "valid"):
        raise _error(ShapeError, op, f"mode must be one of 'full', 'same', 'valid', got {mode!r}")
    n, m = a.shape[0], v.shape[0]
    if n == 0 or m == 0:
        raise _error(ShapeError, op, "inputs cannot be empty")
    swap = m > n
    if swap:
        a, v, n, m = P.flip(v, (0,)), P.flip(a, (0,)), m, n
    padded = P.concat((P.zeros((m - 1,), a.dtype), a, P.zeros((m - 1,), a.dtype)), 0)
    positions = onp.arange(n + m - 1)[:, None] + onp.arange(m)[None, :]
    windows = P.gather(padded, asarray(positions.astype(onp.int32)), 0)
    full = sum(F.mul(windows, v), 1)
    if mode == "full":
        out = full
    elif mode == "valid":
        out = full[m - 1:n]
    else:
        start = (m - 1) // 2
        out = full[start:start + n]
    return out


def promote_types(type1, type2):
    """The dtype both promote to (MindSpore's rules)."""
    from cellgraph.primitives import dtype as _dt

    return _dt.promote(_dtype(type1, "promote_types"), _dtype(type2, "promote_types"))


def result_type(*arrays_and_dtypes):
    """The dtype the arguments promote to together."""
    from cellgraph.primitives import dtype as _dt

    def dtype_of(a):
        if isinstance(a, _dt.DType):
            return a
        if a is None or isinstance(a, numbers.Number):
            return None   # numbers are weak
        if isinstance(a, (str, type, onp.dtype)):  # 'i2', numpy.float32, numpy.dtype
            return _dt.from_numpy(onp.dtype(a))
        return asarray(a).dtype

    dtypes = [dtype_of(a) for a in arrays_and_dtypes]
    out = None
    for d in dtypes:
        if d is not None:
            out = d if out is None else promote_types(out, d)
    return out if out is not None else float32


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """The flat indices of the index tuples into an array of shape `dims` ('clip' clips each
    index into its axis, 'wrap' wraps it; order 'C' or 'F')."""
    dims = tuple(int(d) for d in dims)
    if order not in ("C", "F"):
        raise _error(ShapeError, "ravel_multi_index", f"order must be 'C' or 'F', got {order!r}")
    strides = (onp.cumprod((1,) + dims[:0:-1])[::-1] if order == "C"
               else onp.cumprod((1,) + dims[:-1]))
    out = None
    for index, dim, stride in zip(multi_index, dims, strides):
        index = asarray(index)
        if mode == "clip":
            index = P.clamp(index, 0, dim - 1)
        elif mode == "wrap":
            index = P.remainder(index, dim)
        term = F.mul(index, int(stride))
        out = term if out is None else F.add(out, term)
    return out



# ----- histograms: their bins follow from the data, so they are counted on the host ----------

__all__ += ["histogram", "histogram2d", "histogramdd"]


def _host(value, op: str, what: str):
    """The values of an argument (a Tensor whose values are known, or a Python sequence)."""
    if value is None or isinstance(value, (numbers.Number, str)):
        return value
    return value_input(asarray(value), op, what)


def _edges(bins, edges):
    """MindSpore's bin edges: the dtype of bins given as a sequence (int32 for Python ints),
    float32 when computed from the data."""
    if isinstance(bins, numbers.Integral):  # start + i * step in float32, as MindSpore's
        low, high = onp.float32(edges[0]), onp.float32(edges[-1])
        step = onp.float32((high - low) / onp.float32(bins))
        ours = low + onp.arange(bins + 1, dtype=onp.float32) * step
        ours[-1] = high
        return asarray(ours)
    return asarray(bins) if not hasattr(bins, "aval") else bins


def histogram(a, bins=10, range=None, weights=None, density=False):
    """(the float32 counts of the flattened `a` in `bins`, the bin edges), as NumPy's
    histogram; `weights` sum instead of counting, `density` normalises to a density."""
    values = _host(a, "histogram", "a")
    weights = _host(weights, "histogram", "weights")
    hist, edges = onp.histogram(onp.ravel(values), _host(bins, "histogram", "bins"), range=range,
                                weights=None if weights is None else onp.ravel(weights),
                                density=density)
    return asarray(hist.astype(onp.float32)), _edges(bins, edges)


def histogramdd(sample, bins=10, range=None, weights=None, density=False):
    """(the float32 counts of the rows of `sample` (N, D) in a D-dimensional grid of bins, a
    list of the D arrays of bin edges), as NumPy's histogramdd."""
    values = _host(sample, "histogramdd", "sample")
    spec = bins if isinstance(bins, numbers.Integral) else [
        b if isinstance(b, numbers.Integral) else _host(b, "histogramdd", "bins") for b in bins]
    hist, edges = onp.histogramdd(values, spec, range=range, density=density,
                                  weights=_host(weights, "histogramdd", "weights"))
    per_axis = bins if isinstance(bins, (list, tuple)) else [bins] * len(edges)
    return asarray(hist.astype(onp.float32)), [_edges(b, e) for b, e in zip(per_axis, edges)]


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):
    """(the float32 counts of the points (x[i], y[i]) in a 2-D grid of bins, the x edges, the
    y edges), as NumPy's histogram2d."""
    sample = onp.stack([onp.ravel(_host(x, "histogram2d", "x")),
                        onp.ravel(_host(y, "histogram2d", "y"))], axis=1)
    pair = bins if isinstance(bins, (list, tuple)) and len(bins) == 2 else [bins, bins]
    hist, edges = histogramdd(sample, pair, range, weights, density)
    return hist, edges[0], edges[1]


take_tensors_only(globals())
