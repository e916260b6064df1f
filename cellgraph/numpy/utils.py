"""The numpy module's shared helpers: argument checks, conversion of array-likes to Tensors,
MindSpore's dtype rules, and the makers of elementwise functions (`_unary`, `_binary`)."""
from __future__ import annotations

import numbers

import numpy as onp

from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import ArgumentError, CellgraphError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor
from cellgraph.transform import caller_loc

from .dtypes import float32


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


def _to_tensor(a, dtype=None):
    """`a` (Tensor, list, tuple, number, NumPy array) as a Tensor of `dtype`: asarray, which
    the functions of every file here apply to their array-like arguments."""
    dtype = _dtype(dtype, "asarray")
    if _is_tensor(a):
        return _cast(a, dtype)
    if isinstance(a, (list, tuple)) and any(_is_tensor(x) for x in a):
        return _stack([_to_tensor(x, dtype) for x in a])
    try:
        arr = onp.asarray(a)
    except ValueError as err:
        raise _error(ShapeError, "asarray", f"the nested sequence has different lengths at one "
                     f"depth ({err})") from None
    if arr.dtype == object:
        raise _error(DTypeError, "asarray", f"cannot make a Tensor from {type(a).__name__} "
                     f"{a!r:.60}")
    return Tensor(arr, dtype or _host_dtype(arr))


def _stack(arrays, axis=0):
    """Join Tensors of one shape along a new axis."""
    items = _sequence(arrays, "stack")
    if len({tuple(a.shape) for a in items}) != 1:
        raise _error(ShapeError, "stack", f"all Tensors must have the same shape, got "
                     f"{', '.join(fmt_shape(t.shape) for t in items)}")
    return F.stack(_common_dtype(items), axis)


def _sequence(arrays, op: str) -> list:
    if _is_tensor(arrays):
        return [arrays[i] for i in range(arrays.shape[0])]
    if not isinstance(arrays, (list, tuple)) or not arrays:
        raise _error(ArgumentError, op, f"expected a non-empty tuple or list of Tensors, got "
                     f"{type(arrays).__name__} {arrays!r:.60}")
    return [_to_tensor(a) for a in arrays]


def _common_dtype(items: list) -> list:
    target = items[0].dtype
    for a in items[1:]:
        target = dt.promote(target, a.dtype)
    return [_cast(a, target) if a.dtype != target else a for a in items]


def _unary(op_fn, name: str):
    def fn(x, dtype=None):
        return _cast(op_fn(_to_tensor(x)), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name}; `dtype` casts the result."
    return fn


def _binary(op_fn, name: str):
    def fn(x1, x2, dtype=None):
        a = x1 if isinstance(x1, numbers.Number) else _to_tensor(x1)
        b = x2 if isinstance(x2, numbers.Number) else _to_tensor(x2)
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


def _check_inner(k1, k2, a, b, op):
    if k1 != k2:
        raise _error(ShapeError, op, f"shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)} "
                     f"are not aligned: {k1} (last axis of the first) != {k2}")


def _rounding(op_fn, name: str):
    """floor/ceil: a float function (integer input is rounded in float32, as NumPy gives a
    float for it)."""
    def fn(x, dtype=None):
        x = _to_tensor(x)
        return _cast(op_fn(x if x.dtype.is_float else F.cast(x, float32)), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name}; integer input gives float32, `dtype` casts the result."
    return fn


def _float(x):
    x = _to_tensor(x)
    return x if x.dtype.is_float else F.cast(x, float32)


def _flat_or(a, axis):
    """(a, axis), with a flattened and axis 0 when axis is None."""
    a = _to_tensor(a)
    return (F.reshape(a, (-1,)), 0) if axis is None else (a, axis)
