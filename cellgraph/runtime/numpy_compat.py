"""NumPy 1.26 under the kernels' array-API names.

The kernel table (runtime/kernels.py) is written against the array API, which NumPy's main
namespace follows from 2.0. NumPy 1.26 has the same operations under older names (`arccos`
for `acos`, `concatenate` for `concat`) and lacks a few keywords (`asarray(copy=True)`,
`argsort(stable=True)`). `ARRAY_API` holds what NumPy 1.x needs added to its namespace; on
NumPy 2 it is empty and the kernels see NumPy itself.

Which dtype a result has is decided by the graph's type rules (casts are explicit nodes); a
Python number beside an array stands for a weak operand of the array's dtype. NumPy 1's
value-based promotion would widen it where every operand is a scalar or a 0-d array
(`float32 0-d * 0.5` is float64 there) or where its value does not fit the dtype, so on NumPy 1
the binary ufuncs and `where` are given such a number in the array's dtype (`_weak_scalars`),
as NumPy 2 (NEP 50) reads it.
"""
from __future__ import annotations

import types
from collections import namedtuple

import numpy as np

NUMPY2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"

# array-API name -> NumPy 1.x name of the same function
_RENAMED = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
            "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2",
            "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
            "bitwise_right_shift": "right_shift", "bool": "bool_", "concat": "concatenate",
            "permute_dims": "transpose", "pow": "power"}

_UniqueInverse = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])
_UniqueAll = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])

_DTYPE_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
                "real floating": "f", "complex floating": "c", "numeric": "iufc"}


def _astype(x, dtype, /, *, copy=True):
    return np.asarray(x).astype(dtype, copy=copy)


def _asarray(obj, dtype=None, *, copy=None, **kwargs):
    """NumPy 2's asarray: `copy=True` always copies, `copy=False` never does (ValueError
    where it would have to), None copies only when needed."""
    if copy is None:
        return np.asarray(obj, dtype=dtype, **kwargs)
    if copy:
        return np.array(obj, dtype=dtype, copy=True, **kwargs)
    out = np.asarray(obj, dtype=dtype, **kwargs)
    if isinstance(obj, np.ndarray) and not np.shares_memory(out, obj) and out.size:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    return out


def _argsort(x, axis=-1, *, kind=None, order=None, stable=None, descending=False):
    if descending:  # array API keyword; NumPy 2's argsort has none either
        raise TypeError("argsort() got an unexpected keyword argument 'descending'")
    return np.argsort(x, axis=axis, kind="stable" if stable else kind, order=order)


def _sort(x, axis=-1, *, kind=None, order=None, stable=None):
    return np.sort(x, axis=axis, kind="stable" if stable else kind, order=order)


def _cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    x = np.asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be given for an array of more than one dimension")
        axis = 0
    out = np.cumsum(x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(out.shape)
        shape[axis] = 1
        out = np.concatenate([np.zeros(shape, out.dtype), out], axis=axis)
    return out


def _isdtype(dtype, kind):
    """The array API's dtype-kind test (NumPy 2's `isdtype`)."""
    dtype = np.dtype(dtype)
    if isinstance(kind, tuple):
        return any(_isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        try:
            return dtype.kind in _DTYPE_KINDS[kind]
        except KeyError:
            raise ValueError(f"kind argument is a string, but {kind!r} is not a known "
                             f"kind name") from None
    return dtype == np.dtype(kind)


def _unique_inverse(x, /):
    values, inverse = np.unique(x, return_inverse=True)
    return _UniqueInverse(values, inverse.reshape(np.shape(x)))


def _unique_all(x, /):
    values, indices, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                                 return_counts=True)
    return _UniqueAll(values, indices, inverse.reshape(np.shape(x)), counts)


def _reshape(x, /, shape=None, *, order="C", newshape=None, copy=None):
    shape = newshape if shape is None else shape
    if copy:
        return np.array(x, copy=True).reshape(shape, order=order)
    out = np.reshape(x, shape, order=order)
    if copy is False and isinstance(x, np.ndarray) and not np.shares_memory(out, x) and out.size:
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return out


def _keeps_integers(rounding):
    """NumPy 2's floor, ceil and trunc: an integer or bool array comes back in its own dtype
    (NumPy 1 returns float64)."""
    def run(x, /, *args, **kwargs):
        x = np.asarray(x)
        if x.dtype.kind in "biu" and not args and not kwargs:
            return x.copy()
        return rounding(x, *args, **kwargs)
    run.__name__ = rounding.__name__
    return run


def _matrix_transpose(x, /):
    return np.swapaxes(x, -1, -2)


def _cholesky(x, /, *, upper=False):
    lower = np.linalg.cholesky(x)
    return np.conj(np.swapaxes(lower, -1, -2)) if upper else lower


def _solve(a, b, /):
    """NumPy 2's solve: `b` is a vector only when it is 1-d, else a (stack of) matrices, even
    with one axis fewer than `a` (which NumPy 1 takes for a stack of vectors)."""
    a, b = np.asarray(a), np.asarray(b)
    if b.ndim == 1:
        return np.linalg.solve(a, b)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]),
                           np.broadcast_to(b, batch + b.shape[-2:]))


def _linalg():
    names = {k: getattr(np.linalg, k) for k in dir(np.linalg) if not k.startswith("__")}
    return types.SimpleNamespace(**{**names, "cholesky": _cholesky, "solve": _solve,
                                    "matrix_transpose": _matrix_transpose})


# Python number type -> the dtype kinds that hold it as a weak operand
_WEAK_KINDS = {bool: "biufc", int: "iufc", float: "fc", complex: "c"}
# binary ufuncs whose operands do not share one dtype (an integer exponent, matrices)
_MIXED_OPERANDS = {"ldexp", "matmul"}


def _weak_operand(value, dtype):
    """`value`, a Python number, as a scalar of `dtype` where that dtype's kind holds it (an
    integer within the dtype's range); else `value` itself."""
    if dtype.kind not in _WEAK_KINDS.get(type(value), ""):
        return value
    if dtype.kind in "iu" and not isinstance(value, bool):
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            return value
    try:
        with np.errstate(over="ignore"):  # a float beyond float16/32's range is inf, as in NumPy 2
            return dtype.type(value)
    except OverflowError:  # an int beyond float64's range
        return value


def _weak_scalars(fn, first: int = 0):
    """`fn` with its Python-number operands (from position `first`) given the dtype of its
    first array operand (NumPy 2's weak scalars)."""
    def run(*args, **kwargs):
        dtype = next((a.dtype for a in args[first:] if isinstance(a, np.ndarray | np.generic)),
                     None)
        if dtype is not None:
            args = args[:first] + tuple(
                _weak_operand(a, dtype) if type(a) in _WEAK_KINDS else a for a in args[first:])
        return fn(*args, **kwargs)
    run.__name__ = fn.__name__
    return run


def _weak_scalar_functions(names) -> dict:
    """The binary ufuncs under `names` (namespace name -> NumPy name), and `where`, with weak
    Python-number operands."""
    out = {}
    for name, numpy_name in names.items():
        fn = getattr(np, numpy_name, None)
        if isinstance(fn, np.ufunc) and fn.nin == 2 and numpy_name not in _MIXED_OPERANDS:
            out[name] = _weak_scalars(fn)
    out["where"] = _weak_scalars(np.where, first=1)
    return out


def _array_api_extras() -> dict:
    if NUMPY2:
        return {}
    extras = {new: getattr(np, old) for new, old in _RENAMED.items()}
    extras.update(_weak_scalar_functions({**{n: n for n in dir(np)}, **_RENAMED}))
    extras.update(astype=_astype, asarray=_asarray, argsort=_argsort, sort=_sort,
                  cumulative_sum=_cumulative_sum, isdtype=_isdtype,
                  unique_inverse=_unique_inverse, unique_all=_unique_all,
                  matrix_transpose=_matrix_transpose,
                  reshape=_reshape, linalg=_linalg(),
                  **{name: _keeps_integers(getattr(np, name)) for name in ("floor", "ceil",
                                                                             "trunc")})
    return extras


ARRAY_API = _array_api_extras()
