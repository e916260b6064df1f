"""Array-module kernels for the core primitives: the CuPy backend's table, written once over the
NumPy API subset that CuPy implements.

Every kernel is `fn(xp, *operands, **params)`, `xp` the array module (`cupy`), bound once by
`make_backend` with `functools.partial`. Nothing here imports CuPy, so the same table also runs
with `xp = numpy`: that is how the conformance tests check it on machines without a GPU
(`make_backend(numpy, "xp_numpy")`). The NumPy reference kernels call `np.*` and `np.asarray`
directly, which CuPy arrays refuse, hence this table.

Types do not depend on the array module's own promotion (CuPy applies NumPy 1.x value-based
casting to 0-d arrays and Python scalars; the reference follows NEP 50): elementwise ops cast
their array operands to the dtype `result_dtype` computes, as the type rules do, and cast the
result to it.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from cellgraph.ops.array_ops import to_numpy_index

from . import collective_kernels, promotion
from .backend import Backend, host_fallback
from .promotion import BOOL, F32, F64

TABLE: dict[str, Callable] = {}  # primitive name -> fn(xp, *operands, **params)
HOST_FALLBACKS = {
    "uniform_real": "draws from the global NumPy generator, so set_seed gives the same numbers "
                    "on every backend",
    "print": "formats values on the host",
}


def kernel(*names: str):
    """Register `fn(xp, *operands, **params)` as the kernel of each primitive named."""
    def deco(fn):
        for name in names:
            TABLE[name] = fn
        return fn
    return deco


def make_backend(xp, name: str = "cupy", device: str = "GPU") -> Backend:
    """A backend running this table on array module `xp` (`cupy`, or `numpy` in tests)."""
    from . import cupy_nn_kernels  # noqa: F401  (registers the nn kernels in TABLE)

    to_host = getattr(xp, "asnumpy", np.asarray)
    kernels = {prim: functools.partial(fn, xp) for prim, fn in TABLE.items()}
    for prim in HOST_FALLBACKS:
        kernels[prim] = host_fallback(prim, to_host, xp.asarray)
    kernels.update(collective_kernels.KERNELS)  # they take CuPy arrays through DLPack
    return Backend(name, xp, kernels, to_host=to_host, from_host=xp.asarray, device=device)


# ----- operands --------------------------------------------------------------------------------

def array(x, xp):
    """An operand as an `xp` array; a Python float becomes float32, as the type rules say."""
    if isinstance(x, xp.ndarray):
        return x
    if type(x) is float:
        return xp.asarray(x, dtype=F32)
    return xp.asarray(x)


def floating(x, xp):
    """An operand of a float function: integers and bools compute in float32."""
    x = array(x, xp)
    return x if x.dtype.kind == "f" else x.astype(F32)


def _dtype_of(a) -> np.dtype:
    return np.dtype(a.dtype) if hasattr(a, "dtype") else np.asarray(a).dtype


def result_dtype(args, float_with_int=F32) -> np.dtype:
    """The NumPy dtype an elementwise op gives (see runtime.promotion)."""
    return promotion.result_dtype(args, _dtype_of, float_with_int)


def promote(xp, *args, float_with_int=F32) -> tuple[list, np.dtype]:
    """Operands cast to the result dtype (Python scalars stay scalars), and that dtype."""
    dtype = result_dtype(args, float_with_int)
    out = [a if type(a) in (bool, int, float) else array(a, xp).astype(dtype, copy=False)
           for a in args]
    if all(type(a) in (bool, int, float) for a in out):  # CuPy's ufuncs want an array
        out[0] = xp.asarray(out[0], dtype=dtype)
    return out, dtype


def promote_arrays(xp, *args) -> list:
    """All operands as arrays of the result dtype (for functions that take arrays only)."""
    dtype = result_dtype(args)
    return [xp.asarray(a, dtype=dtype) if type(a) in (bool, int, float) else
            array(a, xp).astype(dtype, copy=False) for a in args]


# ----- elementwise -----------------------------------------------------------------------------

def _elementwise(name: str, float_with_int=F32, bool_result=False):
    def run(xp, *args):
        args, dtype = promote(xp, *args, float_with_int=float_with_int)
        out = getattr(xp, name)(*args)
        return xp.asarray(out, dtype=BOOL if bool_result else dtype)
    return run


for _prim, _fn in {"add": "add", "sub": "subtract", "mul": "multiply", "pow": "power",
                   "maximum": "maximum", "minimum": "minimum"}.items():
    TABLE[_prim] = _elementwise(_fn)
for _prim, _fn in {"equal": "equal", "not_equal": "not_equal", "less": "less",
                   "less_equal": "less_equal", "greater": "greater",
                   "greater_equal": "greater_equal"}.items():
    TABLE[_prim] = _elementwise(_fn, float_with_int=F64, bool_result=True)  # as NumPy compares
for _prim in ("logical_and", "logical_or"):
    TABLE[_prim] = _elementwise(_prim, bool_result=True)


@kernel("div")
def _div(xp, x, y):
    (x, y), dtype = promote(xp, x, y)
    if dtype.kind == "f":
        return xp.asarray(xp.true_divide(x, y), dtype=dtype)
    # integer division computes in float64 and gives float32, as the NumPy kernel does
    x, y = (a if type(a) in (bool, int, float) else a.astype(F64) for a in (x, y))
    return xp.true_divide(x, y).astype(F32)


@kernel("select")
def _select(xp, cond, x, y):
    (x, y), dtype = promote(xp, x, y)
    return xp.asarray(xp.where(array(cond, xp), x, y), dtype=dtype)


def _unary(name: str, operand=array):
    """`xp.<name>` of one operand, made an array by `operand` (`floating`: in float32 for ints)."""
    def run(xp, x):
        return getattr(xp, name)(operand(x, xp))
    return run


for _prim, _fn in {"neg": "negative", "abs": "absolute", "sign": "sign", "square": "square",
                   "logical_not": "logical_not", "zeros_like": "zeros_like",
                   "ones_like": "ones_like"}.items():
    TABLE[_prim] = _unary(_fn)
for _prim, _fn in {"sqrt": "sqrt", "exp": "exp", "log": "log", "sin": "sin", "cos": "cos",
                   "tan": "tan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
                   "asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
                   "acosh": "arccosh", "atanh": "arctanh"}.items():
    TABLE[_prim] = _unary(_fn, floating)
TABLE["stop_gradient"] = lambda xp, x: array(x, xp)


@kernel("relu")
def _relu(xp, x):
    x = array(x, xp)
    return xp.maximum(x, 0).astype(x.dtype, copy=False)
TABLE["rsqrt"] = lambda xp, x: 1 / xp.sqrt(floating(x, xp))
TABLE["reciprocal"] = lambda xp, x: 1 / floating(x, xp)
TABLE["sigmoid"] = lambda xp, x: 0.5 * (xp.tanh(0.5 * floating(x, xp)) + 1)


@kernel("matmul")
def _matmul(xp, x, y, transpose_a=False, transpose_b=False):
    x, y = promote_arrays(xp, x, y)
    if transpose_a:
        x = xp.swapaxes(x, -1, -2)
    if transpose_b:
        y = xp.swapaxes(y, -1, -2)
    return xp.matmul(x, y)


# ----- reductions ------------------------------------------------------------------------------

def _axis(axis):
    return None if axis == () else tuple(axis)


@kernel("reduce_sum")
def _reduce_sum(xp, x, axis=(), keep_dims=False):
    x = array(x, xp)
    return xp.sum(x, axis=_axis(axis), keepdims=keep_dims, dtype=x.dtype)


@kernel("reduce_mean")
def _reduce_mean(xp, x, axis=(), keep_dims=False):
    x = floating(x, xp)
    return xp.mean(x, axis=_axis(axis), keepdims=keep_dims, dtype=x.dtype)


@kernel("reduce_max")
def _reduce_max(xp, x, axis=(), keep_dims=False):
    return xp.amax(array(x, xp), axis=_axis(axis), keepdims=keep_dims)


@kernel("reduce_min")
def _reduce_min(xp, x, axis=(), keep_dims=False):
    return xp.amin(array(x, xp), axis=_axis(axis), keepdims=keep_dims)


@kernel("reduce_prod")
def _reduce_prod(xp, x, axis=(), keep_dims=False):
    x = array(x, xp)
    return xp.prod(x, axis=_axis(axis), keepdims=keep_dims, dtype=x.dtype)


# ----- shapes and indexing ---------------------------------------------------------------------

TABLE["reshape"] = lambda xp, x, shape: xp.reshape(array(x, xp), shape)
TABLE["transpose"] = lambda xp, x, perm: xp.transpose(array(x, xp), perm)
TABLE["broadcast_to"] = lambda xp, x, shape: xp.broadcast_to(array(x, xp), shape)
TABLE["expand_dims"] = lambda xp, x, axis: xp.expand_dims(array(x, xp), axis)
TABLE["squeeze"] = lambda xp, x, axis=(): xp.squeeze(array(x, xp), axis=_axis(axis))
TABLE["cast"] = lambda xp, x, dtype: array(x, xp).astype(dtype.np, copy=False)
TABLE["getitem"] = lambda xp, x, index: array(x, xp)[to_numpy_index(index)]
TABLE["fill"] = lambda xp, dtype, shape, value: xp.full(shape, value, dtype=dtype.np)
TABLE["concat"] = lambda xp, *xs, axis=0: xp.concatenate(promote_arrays(xp, *xs), axis=axis)
TABLE["stack"] = lambda xp, *xs, axis=0: xp.stack(promote_arrays(xp, *xs), axis=axis)


@kernel("getitem_grad")
def _getitem_grad(xp, g, index, shape):
    g = array(g, xp)
    out = xp.zeros(shape, dtype=g.dtype)
    out[to_numpy_index(index)] = g
    return out


def scatter_add(xp, target, index, values) -> None:
    """`target[index] += values`, repeated indices accumulating: `ufunc.at` (CuPy has it since
    v13), else `cupyx.scatter_add`."""
    try:
        xp.add.at(target, index, values)
    except (AttributeError, NotImplementedError):
        import cupyx

        cupyx.scatter_add(target, index, values)


@kernel("gather")
def _gather(xp, x, indices, axis=0):
    return xp.take(array(x, xp), array(indices, xp), axis=axis)


@kernel("gather_grad")
def _gather_grad(xp, g, indices, axis, shape):
    g, indices = array(g, xp), array(indices, xp)
    out = xp.zeros(shape, dtype=g.dtype)
    rows = xp.moveaxis(g, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim)))
    moved = xp.moveaxis(out, axis, 0)  # a view: adding into it adds into `out`
    scatter_add(xp, moved, indices.reshape(-1), rows.reshape((indices.size,) + moved.shape[1:]))
    return out


# ----- softmax ---------------------------------------------------------------------------------

@kernel("softmax")
def _softmax(xp, x, axis=-1):
    x = array(x, xp)
    e = xp.exp(x - xp.amax(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


@kernel("log_softmax")
def _log_softmax(xp, x, axis=-1):
    x = array(x, xp)
    shifted = x - xp.amax(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
