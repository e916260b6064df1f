"""NumPy kernels: the reference backend. One small function per primitive, keyed by its name."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.array_ops import to_numpy_index
from cellgraph.ops.check_ops import range_message

from .backend import Backend, register_backend

numpy_backend = Backend("numpy", np, device="CPU")
K = numpy_backend.kernels


def _result(x, dtype):
    """Keep kernels' outputs in the dtype the type rule promised."""
    return np.asarray(x, dtype=dtype)


for _name, _fn in {
    "neg": np.negative, "square": np.square, "sqrt": np.sqrt, "exp": np.exp, "log": np.log,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "abs": np.abs,
    "sign": np.sign, "add": np.add, "sub": np.subtract, "mul": np.multiply,
    "maximum": np.maximum, "minimum": np.minimum, "equal": np.equal,
    "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
    "greater": np.greater, "greater_equal": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_not": np.logical_not, "zeros_like": np.zeros_like, "ones_like": np.ones_like,
    "stop_gradient": lambda x: x, "select": np.where,
}.items():
    K[_name] = _fn


def _weak_float(fn, first=0):
    """A Python float with an integer or bool tensor computes in float32 (MindSpore's rule),
    where NumPy would give float64. Operands before `first` (select's condition) are kept."""
    def kernel(*args):
        if float in map(type, args):  # no generator frame: this runs on every call
            args = args[:first] + tuple(
                np.asarray(a, np.float32) if type(a) is not float and np.asarray(
                    a).dtype.kind in "biu" else a for a in args[first:])
        return fn(*args)
    return kernel


for _name in ("add", "sub", "mul", "maximum", "minimum"):
    K[_name] = _weak_float(K[_name])
K["select"] = _weak_float(np.where, first=1)


def _float_unary(fn):
    def kernel(x):
        x = np.asarray(x)
        if x.dtype.kind != "f":
            x = x.astype(np.float32)
        return fn(x)
    return kernel


for _name in ("sqrt", "exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin",
              "acos", "atan", "asinh", "acosh", "atanh"):
    K[_name] = _float_unary(K[_name])
K["rsqrt"] = _float_unary(lambda x: 1 / np.sqrt(x))
K["reciprocal"] = _float_unary(lambda x: 1 / x)
K["sigmoid"] = _float_unary(lambda x: 0.5 * (np.tanh(0.5 * x) + 1))


@numpy_backend.register("div")
@_weak_float
def _div(x, y):
    out = np.true_divide(x, y)
    if out.dtype == np.float64 and not (np.result_type(x).kind == "f" or
                                        np.result_type(y).kind == "f"):
        return out.astype(np.float32)  # integer division gives float32, as in MindSpore
    return out


@numpy_backend.register("pow")
@_weak_float
def _pow(x, y):
    return np.power(x, y)


@numpy_backend.register("matmul")
def _matmul(x, y, transpose_a=False, transpose_b=False):
    if transpose_a:
        x = x.swapaxes(-1, -2)  # the method: np.swapaxes costs a dispatch layer per call
    if transpose_b:
        y = y.swapaxes(-1, -2)
    return np.matmul(x, y)


@numpy_backend.register("relu")
def _relu(x):
    return np.maximum(x, np.zeros((), dtype=np.asarray(x).dtype))


def _axis(axis):
    return None if axis == () else axis


@numpy_backend.register("reduce_sum")
def _reduce_sum(x, axis=(), keep_dims=False):
    x = np.asarray(x)
    return np.sum(x, axis=_axis(axis), keepdims=keep_dims, dtype=x.dtype)


@numpy_backend.register("reduce_mean")
def _reduce_mean(x, axis=(), keep_dims=False):
    x = np.asarray(x)
    return np.mean(x, axis=_axis(axis), keepdims=keep_dims,
                   dtype=x.dtype if x.dtype.kind == "f" else np.float32)


@numpy_backend.register("reduce_max")
def _reduce_max(x, axis=(), keep_dims=False):
    return np.max(x, axis=_axis(axis), keepdims=keep_dims)


@numpy_backend.register("reduce_min")
def _reduce_min(x, axis=(), keep_dims=False):
    return np.min(x, axis=_axis(axis), keepdims=keep_dims)


K["reshape"] = lambda x, shape: np.reshape(x, shape)
K["transpose"] = lambda x, perm: np.transpose(x, perm)
K["broadcast_to"] = lambda x, shape: np.broadcast_to(x, shape)
K["expand_dims"] = lambda x, axis: np.expand_dims(x, axis)
K["squeeze"] = lambda x, axis=(): np.squeeze(x, axis=_axis(axis))
K["cast"] = lambda x, dtype: np.asarray(x).astype(dtype.np, copy=False)
K["getitem"] = lambda x, index: np.asarray(x)[to_numpy_index(index)]
K["gather"] = lambda x, indices, axis=0: np.take(x, indices, axis=axis)
K["concat"] = lambda *xs, axis=0: np.concatenate(xs, axis=axis)
K["stack"] = lambda *xs, axis=0: np.stack(xs, axis=axis)
K["fill"] = lambda dtype, shape, value: np.full(shape, value, dtype=dtype.np)


@numpy_backend.register("check_range")
def _check_range(x, low, high, what, op=None):
    message = range_message(np.asarray(x), low, high, what)
    if message is not None:
        raise IndexError(message)
    return x


@numpy_backend.register("getitem_grad")
def _getitem_grad(g, index, shape):
    out = np.zeros(shape, dtype=np.asarray(g).dtype)
    out[to_numpy_index(index)] = g
    return out


@numpy_backend.register("gather_grad")
def _gather_grad(g, indices, axis, shape):
    g = np.asarray(g)
    out = np.zeros(shape, dtype=g.dtype)
    moved = np.moveaxis(out, axis, 0)
    ind = np.asarray(indices).reshape(-1)
    np.add.at(moved, ind, np.moveaxis(g, tuple(range(axis, axis + np.ndim(indices))),
                                      tuple(range(np.ndim(indices)))).reshape(
        (ind.size,) + moved.shape[1:]))
    return out


@numpy_backend.register("softmax")
def _softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


@numpy_backend.register("log_softmax")
def _log_softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


@numpy_backend.register("print")
def _print(*values, template, sep=" ", end="\n"):
    from .tensor import format_print

    parts = [format_print(np.asarray(values[t])) if isinstance(t, int) else t for t in template]
    print(*parts, sep=sep, end=end)
    return ()


register_backend(numpy_backend)
