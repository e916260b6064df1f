"""The numpy module's shared helpers: argument checks, conversion of array-likes to Tensors,
MindSpore's dtype rules, and the makers of elementwise functions (`_unary`, `_binary`)."""
from __future__ import annotations

import functools
import inspect
import numbers

import numpy as onp

from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    CellgraphError,
    DTypeError,
    ShapeError,
)
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
    """A shape argument: TypeError for what is not an int or a tuple/list of ints, ValueError
    for a negative entry (MindSpore's types)."""
    items = (shape,) if isinstance(shape, numbers.Integral) else shape
    if not isinstance(items, (tuple, list)) or not all(
            isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in items):
        raise _error(ArgumentError, op, f"expected a shape (an int or a tuple of non-negative "
                     f"ints), got {shape!r}")
    if any(s < 0 for s in items):
        raise _error(ArgumentValueError, op, f"each entry in shape should be no less than 0, "
                     f"got {shape!r}")
    return tuple(int(s) for s in items)


def _int_arg(value, op: str, name: str) -> int:
    """An int argument (a count, an offset, a diagonal): TypeError otherwise, as MindSpore."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _error(ArgumentError, op, f"`{name}` should be an integer, but got "
                     f"{type(value).__name__} {value!r}")
    return int(value)


def _distinct_axes(a, axis, op: str, error=ArgumentValueError) -> None:
    """A tuple or list of axes names each axis of `a` once (MindSpore: ValueError, or its
    kernel's RuntimeError for sum)."""
    if not isinstance(axis, (tuple, list)):
        return
    ndim = len(a.shape)
    seen = [i % ndim if isinstance(i, numbers.Integral) and ndim and -ndim <= i < ndim else i
            for i in axis]
    if len(set(seen)) != len(seen):
        raise _error(error, op, f"duplicate value in `axis`: {tuple(axis)} for a Tensor of rank "
                     f"{ndim}")


def _bool_arg(value, op: str, name: str) -> bool:
    if not isinstance(value, (bool, onp.bool_)):
        raise _error(ArgumentError, op, f"`{name}` should be a bool, but got "
                     f"{type(value).__name__} {value!r}")
    return bool(value)


def _cast(x, dtype):
    """`x` in `dtype`, which may be a name or a NumPy type here (ops.cast takes dtypes only)."""
    return x if dtype is None else F.cast(x, _dtype(dtype, "cast"))


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
    if arr.dtype.kind in "OUSV":  # objects, strings, bytes: not numbers
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
    """An elementwise function of two arrays. A Python number is an array of its own, as
    mindspore.numpy makes it (float32 for a float, int32 for an int), which then meets the
    other operand by the Tensors' promotion: float16 with 0.5 gives float32, int8 with 2
    gives int32, float16 with 2 stays float16."""
    def fn(x1, x2, dtype=None):
        return _cast(op_fn(*_int_to_float(_to_tensor(x1), _to_tensor(x2))), _dtype(dtype, name))
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


def _check_inner(k1, k2, a, b, op, error=ShapeError):
    if k1 != k2:
        raise _error(error, op, f"shapes {fmt_shape(a.shape)} and {fmt_shape(b.shape)} "
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


# mindspore.numpy's functions that take Tensors only: a Python number, list or NumPy array as
# one of these arguments is its TypeError ("expect Tensor"), where the other functions convert
# array-likes. The argument positions (None: every positional argument), read off MindSpore
# 2.10 by calling each function with a number in each position.
TENSORS_ONLY = {
    (0,): "amax amin arccos arccosh arcsin arcsinh arctan arctanh array_str average cos cosh "
          "cumsum deg2rad diag diagflat diff ediff1d fix flip fliplr flipud isneginf isposinf "
          "nancumsum positive ptp rad2deg radians ravel rot90 sin sinh squeeze tan tanh "
          "transpose unique reshape split array_split hsplit vsplit dsplit",
    (0, 1): "append arctan2 dot float_power inner less_equal logaddexp2 logical_xor matmul "
            "multiply not_equal outer tensordot",
    None: "atleast_1d atleast_2d atleast_3d broadcast_arrays",
}


def take_tensors_only(namespace: dict) -> None:
    """Replace the TENSORS_ONLY functions a module defines in `namespace` with ones that check
    their Tensor arguments first (the module's own calls go through the check too)."""
    for positions, names in TENSORS_ONLY.items():
        for name in names.split():
            if name in namespace.get("__all__", ()):  # the module's own
                namespace[name] = _tensors_only(namespace[name], positions)


def _tensors_only(fn, positions):
    params = list(inspect.signature(fn).parameters)
    names = () if positions is None else tuple(params[i] for i in positions if i < len(params))

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        values = [a for i, a in enumerate(args) if positions is None or i in positions]
        values += [kwargs[n] for n in names if n in kwargs]
        for value in values:
            if not _is_tensor(value):
                raise _error(DTypeError, fn.__name__, f"expect Tensor, but got "
                             f"{type(value).__name__}")
        return fn(*args, **kwargs)
    return checked
