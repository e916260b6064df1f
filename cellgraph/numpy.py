"""`cellgraph.numpy`, MindSpore's `mindspore.numpy`: NumPy-style functions on Tensors.

Everything here is written with the functional ops, so one function serves both worlds: called
from Python it runs kernels eagerly; called inside `construct` it emits graph nodes. Creation
functions whose result depends only on Python values (`zeros`, `arange`, `eye`, ...) build the
Tensor on the host; inside a graph that Tensor is a constant.

Dtype defaults follow MindSpore's numpy module, not NumPy's: floats are float32 and Python or
NumPy ints become int32 (`asarray([1, 2])`, `arange(5)`), unless `dtype` says otherwise.
"""
from __future__ import annotations

import inspect
import numbers

import numpy as onp

from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, fmt_shape, normalize_axis
from cellgraph.primitives.errors import ArgumentError, CellgraphError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

from .transform import caller_loc

float16, float32, float64 = dt.float16, dt.float32, dt.float64
int8, int16, int32, int64, uint8, bool_ = dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.bool_
pi, e, inf, nan = onp.pi, onp.e, onp.inf, onp.nan


def _error(cls, op: str, message: str) -> CellgraphError:
    """An error naming the function; in a graph the front end adds the statement's location."""
    return cls(f"numpy.{op}: {message}", None if current_builder() is not None else caller_loc())


def _is_tensor(x) -> bool:
    return isinstance(x, (Tensor, Tracer))


def _dtype(dtype, op: str):
    if dtype is None:
        return None
    try:
        return dt.as_dtype(dtype)
    except TypeError:
        raise _error(DTypeError, op, f"expected a dtype such as mindspore.float32 or "
                     f"'int32', got {dtype!r}") from None


def _host_dtype(arr: onp.ndarray) -> dt.DType:
    """MindSpore numpy's choice for data without a dtype: 64-bit numbers become 32-bit."""
    kind = arr.dtype.kind
    if kind == "f":
        return dt.float32 if arr.dtype.itemsize >= 4 else dt.from_numpy(arr.dtype)
    if kind in "iu":
        return dt.int32 if arr.dtype == onp.int64 else dt.from_numpy(arr.dtype)
    if kind == "b":
        return dt.bool_
    raise _error(DTypeError, "asarray", f"cannot make a Tensor from values of NumPy dtype "
                 f"{arr.dtype}")


def _shape(shape, op: str) -> tuple:
    items = (shape,) if isinstance(shape, numbers.Integral) else shape
    if not isinstance(items, (tuple, list)) or not all(
            isinstance(s, numbers.Integral) and not isinstance(s, bool) and s >= 0
            for s in items):
        raise _error(ArgumentError, op, f"expected a shape (an int or a tuple of non-negative "
                     f"ints), got {shape!r}")
    return tuple(int(s) for s in items)


def _cast(x, dtype):
    return x if dtype is None else F.cast(x, dtype)


# ----- creation --------------------------------------------------------------------------------

def asarray(a, dtype=None):
    """`a` (Tensor, list, tuple, number, NumPy array) as a Tensor of `dtype`."""
    dtype = _dtype(dtype, "asarray")
    if _is_tensor(a):
        return _cast(a, dtype)
    if isinstance(a, (list, tuple)) and any(_is_tensor(x) for x in a):
        return stack([asarray(x, dtype) for x in a])
    try:
        arr = onp.asarray(a)
    except ValueError as err:
        raise _error(ShapeError, "asarray", f"the nested sequence has different lengths at one "
                     f"depth ({err})") from None
    if arr.dtype == object:
        raise _error(DTypeError, "asarray", f"cannot make a Tensor from {type(a).__name__} "
                     f"{a!r:.60}")
    return Tensor(arr, dtype or _host_dtype(arr))


def array(obj, dtype=None, copy=True, ndmin=0):
    """A new Tensor from `obj`, with at least `ndmin` dimensions."""
    out = asarray(obj, dtype)
    if copy and isinstance(out, Tensor) and out is obj:
        out = out.copy()
    missing = ndmin - len(out.shape)
    return F.reshape(out, (1,) * missing + tuple(out.shape)) if missing > 0 else out


def asfarray(a, dtype=float32):
    dtype = _dtype(dtype, "asfarray")
    return asarray(a, dtype if dtype.is_float else float32)


def full(shape, fill_value, dtype=None):
    """A Tensor of `shape` filled with `fill_value` (a number or a Tensor broadcast to it)."""
    return _full(shape, fill_value, dtype, "full")


def _full(shape, fill_value, dtype, op: str):
    shape = _shape(shape, op)
    dtype = _dtype(dtype, op)
    if _is_tensor(fill_value):
        return F.broadcast_to(_cast(fill_value, dtype), shape)
    if dtype is None:
        dtype = _host_dtype(onp.asarray(fill_value))
    return Tensor(onp.full(shape, fill_value, dtype.np), dtype)


def zeros(shape, dtype=float32):
    return _full(shape, 0, dtype, "zeros")


def ones(shape, dtype=float32):
    return _full(shape, 1, dtype, "ones")


def empty(shape, dtype=float32):
    return _full(shape, 0, dtype, "empty")


def _full_like(a, fill_value, dtype, shape, op: str):
    a = asarray(a)
    dtype = _dtype(dtype, op) or a.dtype
    return _full(a.shape if shape is None else shape, fill_value, dtype, op)


def full_like(a, fill_value, dtype=None, shape=None):
    return _full_like(a, fill_value, dtype, shape, "full_like")


def zeros_like(a, dtype=None, shape=None):
    return _full_like(a, 0, dtype, shape, "zeros_like")


def ones_like(a, dtype=None, shape=None):
    return _full_like(a, 1, dtype, shape, "ones_like")


def empty_like(prototype, dtype=None, shape=None):
    return _full_like(prototype, 0, dtype, shape, "empty_like")


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop): int32 for int bounds, else float32."""
    bounds = [b for b in (start, stop, step) if b is not None]
    for b in bounds:
        if _is_tensor(b) or not isinstance(b, numbers.Number):
            raise _error(DTypeError, "arange", f"bounds must be Python numbers, got "
                         f"{type(b).__name__} {b!r:.40}")
    if step == 0:
        raise _error(ShapeError, "arange", "step must not be zero")
    if stop is None:
        start, stop = 0, start
    dtype = _dtype(dtype, "arange") or (
        int32 if all(isinstance(b, numbers.Integral) for b in bounds) else float32)
    return Tensor(onp.arange(start, stop, 1 if step is None else step).astype(dtype.np), dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from start to stop (float32 unless `dtype` says)."""
    if not isinstance(num, numbers.Integral) or num < 0:
        raise _error(ArgumentError, "linspace", f"num must be a non-negative int, got {num!r}")
    dtype = _dtype(dtype, "linspace") or float32
    start = start.asnumpy() if isinstance(start, Tensor) else start
    stop = stop.asnumpy() if isinstance(stop, Tensor) else stop
    values, step = onp.linspace(start, stop, int(num), endpoint=endpoint, retstep=True,
                                axis=axis)
    out = Tensor(values.astype(dtype.np), dtype)
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=float32):
    """The N x M matrix with ones on diagonal `k`."""
    dtype = _dtype(dtype, "eye")
    return Tensor(onp.eye(N, M, k, dtype=dtype.np), dtype)


def identity(n, dtype=float32):
    return eye(n, dtype=dtype)


# ----- shape manipulation ----------------------------------------------------------------------

def reshape(x, new_shape):
    x = asarray(x)
    shape = (new_shape,) if isinstance(new_shape, numbers.Integral) else tuple(new_shape)
    return F.reshape(x, shape)


def ravel(x):
    return reshape(x, (-1,))


def transpose(a, axes=None):
    a = asarray(a)
    ndim = len(a.shape)
    axes = tuple(reversed(range(ndim))) if axes is None else tuple(axes)
    if sorted(normalize_axis(p, ndim) for p in axes) != list(range(ndim)):
        raise _error(ShapeError, "transpose", f"axes {axes} are not a permutation of the "
                     f"{ndim} axes of a Tensor of shape {fmt_shape(a.shape)}")
    return F.transpose(a, axes)


def expand_dims(a, axis):
    return F.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return F.squeeze(asarray(a), axis)


def broadcast_to(array, shape):
    return F.broadcast_to(asarray(array), _shape(shape, "broadcast_to"))


def _sequence(arrays, op: str) -> list:
    if _is_tensor(arrays):
        return [arrays[i] for i in range(arrays.shape[0])]
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise _error(ArgumentError, op, f"expected a non-empty tuple or list of Tensors, got "
                     f"{type(arrays).__name__} {arrays!r:.60}")
    return [asarray(a) for a in arrays]


def _common_dtype(items: list) -> list:
    target = items[0].dtype
    for a in items[1:]:
        target = dt.promote(target, a.dtype)
    return [_cast(a, target) if a.dtype != target else a for a in items]


def concatenate(arrays, axis=0):
    """Join Tensors along an existing axis; `axis=None` flattens them first."""
    items = _sequence(arrays, "concatenate")
    if axis is None:
        items, axis = [ravel(a) for a in items], 0
    ndim = len(items[0].shape)
    for a in items[1:]:
        if len(a.shape) != ndim:
            raise _error(ShapeError, "concatenate", f"all Tensors must have the same rank, got "
                         f"shapes {', '.join(fmt_shape(t.shape) for t in items)}")
    return F.concat(_common_dtype(items), normalize_axis(axis, ndim))


def stack(arrays, axis=0):
    """Join Tensors of one shape along a new axis."""
    items = _sequence(arrays, "stack")
    if len({tuple(a.shape) for a in items}) != 1:
        raise _error(ShapeError, "stack", f"all Tensors must have the same shape, got "
                     f"{', '.join(fmt_shape(t.shape) for t in items)}")
    return F.stack(_common_dtype(items), axis)


# ----- math ------------------------------------------------------------------------------------

def _unary(op_fn, name: str):
    def fn(x, dtype=None):
        return _cast(op_fn(asarray(x)), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name}; `dtype` casts the result."
    return fn


# float functions: the primitives compute integer input in float32 (their declared promotion)
tanh, exp, log, sqrt = (_unary(F.tanh, "tanh"), _unary(F.exp, "exp"), _unary(F.log, "log"),
                        _unary(F.sqrt, "sqrt"))
sin, cos, tan = _unary(F.sin, "sin"), _unary(F.cos, "cos"), _unary(F.tan, "tan")
square = _unary(F.square, "square")


def negative(a, dtype=None):
    """Elementwise -a; `dtype` casts the result."""
    return _cast(F.neg(asarray(a)), _dtype(dtype, "negative"))
absolute = abs = _unary(F.abs, "absolute")


def _binary(op_fn, name: str):
    def fn(x1, x2, dtype=None):
        a = x1 if isinstance(x1, numbers.Number) else asarray(x1)
        b = x2 if isinstance(x2, numbers.Number) else asarray(x2)
        return _cast(op_fn(*_int_to_float(a, b)), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name} with broadcasting; `dtype` casts the result."
    return fn


def _int_to_float(a, b) -> tuple:
    """MindSpore's rule for an int Tensor with a float Tensor: the float dtype (NumPy would
    widen int32 with float32 to float64)."""
    if _is_tensor(a) and _is_tensor(b) and a.dtype.is_float != b.dtype.is_float:
        target = a.dtype if a.dtype.is_float else b.dtype
        return _cast(a, target), _cast(b, target)
    return a, b


add, subtract = _binary(F.add, "add"), _binary(F.sub, "subtract")
multiply, divide = _binary(F.mul, "multiply"), _binary(F.div, "divide")
true_divide, power = divide, _binary(F.pow, "power")
maximum, minimum = _binary(F.maximum, "maximum"), _binary(F.minimum, "minimum")


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):
    """Sum over `axis` (all axes by default); bool input counts as int32."""
    a = asarray(a)
    dtype = _dtype(dtype, "sum") or (int32 if a.dtype.is_bool else None)
    out = F.reduce_sum(_cast(a, dtype), axis, keepdims)
    return out if initial is None else F.add(out, initial)


def mean(a, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over `axis` (float32 for integer input)."""
    a = asarray(a)
    if not a.dtype.is_float:
        a = F.cast(a, float32)
    return _cast(F.reduce_mean(a, axis, keepdims), _dtype(dtype, "mean"))


def amax(a, axis=None, keepdims=False, initial=None, where=True):
    """The maximum over `axis`, at least `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    return F.amax(asarray(a), axis, keepdims, initial=initial, where=where)


def amin(a, axis=None, keepdims=False, initial=None, where=True):
    """The minimum over `axis`, at most `initial`; with a `where` mask only the elements it
    marks count (an initial value is needed then)."""
    return F.amin(asarray(a), axis, keepdims, initial=initial, where=where)


max, min = amax, amin  # shadow the builtins, as mindspore.numpy does


def matmul(x1, x2, dtype=None):
    """Matrix product with NumPy's rules: 1-D operands are vectors, batch dims broadcast."""
    a, b = asarray(x1), asarray(x2)
    if not a.shape or not b.shape:
        raise _error(ShapeError, "matmul", f"operands must have rank >= 1, got shapes "
                     f"{fmt_shape(a.shape)} and {fmt_shape(b.shape)}; use multiply for scalars")
    _check_inner(a.shape[-1], b.shape[-2] if len(b.shape) > 1 else b.shape[0], a, b, "matmul")
    return _cast(F.matmul(a, b), _dtype(dtype, "matmul"))


def _check_inner(k1, k2, a, b, op):
    if k1 != k2:
        raise _error(ShapeError, op, f"shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)} "
                     f"are not aligned: {k1} (last axis of the first) != {k2}")


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


def where(condition, x=None, y=None):
    """Elements of `x` where `condition` holds, else of `y` (shapes broadcast)."""
    if x is None or y is None:
        raise _error(ArgumentError, "where", "the one-argument form (the indices of nonzero "
                     "elements) gives a shape known only at run time; pass both x and y")
    cond = asarray(condition)
    if not cond.dtype.is_bool:
        cond = F.not_equal(cond, 0)
    a = x if isinstance(x, numbers.Number) else asarray(x)
    b = y if isinstance(y, numbers.Number) else asarray(y)
    return F.where(cond, a, b)


def size(a, axis=None):
    shape = asarray(a).shape
    if axis is None:
        return int(onp.prod(shape))
    return shape[normalize_axis(axis, len(shape))]


def shape(a):
    return tuple(asarray(a).shape)


def ndim(a):
    return len(asarray(a).shape)


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


for _prim in PRIMITIVES.values():
    for _spelling in _prim.spellings if _prim.public else ():
        if _spelling.module == "numpy" and _spelling.name not in globals():
            globals()[_spelling.name] = _declared(_prim, _spelling.name, _spelling.operands)

__all__ = [n for n, v in list(globals().items()) if not n.startswith("_") and (
    callable(v) or isinstance(v, (float, dt.DType))) and n not in {
        "Tensor", "Tracer", "current_builder", "caller_loc", "fmt_shape", "normalize_axis",
        "annotations", "numbers", "inspect", "PRIMITIVES"}]

from .numpy_more import *
from .numpy_more import __all__ as _more

__all__ += _more  # noqa: PLE0605

from .numpy_extra import *
from .numpy_extra import __all__ as _extra

__all__ += _extra  # noqa: PLE0605
