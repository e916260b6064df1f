"""Tensors made from shapes and values: `arange`, `eye`, `meshgrid`, `full_like`,
`scalar_to_tensor`, `tuple_to_array`; constants over Python numbers are built with NumPy when
the graph is compiled."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.compiler.builder import current_builder
from cellgraph.ops.function.array_func.attributes import _const, _shape
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["arange", "eye", "full_like", "make_tuple", "meshgrid", "ones_like",
           "scalar_to_tensor", "tuple_to_array", "zeros_like"]


_ARANGE_TENSOR_TYPES = (dt.int32, dt.float32, dt.int64, dt.float64)


def _bound(value, name: str):
    """A bound of arange as a Python number: a 0-d Tensor (int32, int64, float32 or float64,
    as MindSpore takes) read by its value, which the graph is specialised on."""
    if not hasattr(value, "shape"):
        return value
    aval = abstract_of(value)
    if aval.dtype not in _ARANGE_TENSOR_TYPES:
        raise DTypeError(f"For arange, the input type must be int or float or a TensorScalar in "
                         f"{list(_ARANGE_TENSOR_TYPES)}, but got {aval.dtype} for `{name}`")
    if tuple(aval.shape) != ():
        raise ArgumentValueError(f"For arange, the input args must be a TensorScalar, but got "
                                 f"{name} shape:{tuple(aval.shape)}")
    number = np.asarray(value_input(value, "arange", name)).reshape(())
    return int(number) if aval.dtype.is_int else float(number)


def arange(start=0, end=None, step=1, *, dtype=None):
    """[start, end) by `step` (one argument: [0, start)); int64 for ints, else float32."""
    if end is None:
        start, end = 0, start
    for name, value in (("start", start), ("end", end), ("step", step)):
        if not isinstance(value, numbers.Real) and not hasattr(value, "shape"):
            raise DTypeError(f"For arange, the input type must be int or float or a TensorScalar, "
                             f"but got {type(value).__name__} for `{name}`")
    start, end, step = (_bound(v, name) for v, name in ((start, "start"), (end, "end"),
                                                        (step, "step")))
    if step == 0:
        raise ArgumentValueError("arange: `step` must not be 0")
    if (end < start and step > 0) or (end > start and step < 0):
        raise ArgumentValueError(f"For arange, `step` {step} points away from `end` {end} from "
                                 f"`start` {start} (MindSpore's Range: delta cannot be "
                                 f"{'positive' if step > 0 else 'negative'} when limit "
                                 f"{'<' if end < start else '>'} start)")
    values = np.arange(start, end, step)
    if dtype is None:
        dtype = dt.int64 if all(isinstance(v, numbers.Integral) for v in (start, end, step)) \
            else dt.float32
    return _const(values.astype(dt.as_dtype(dtype).np), dtype)


def eye(n, m=None, dtype=None):
    """The n x m identity matrix (float32 unless `dtype` says otherwise)."""
    dtype = dt.float32 if dtype is None else dtype
    n, m = (int(value_input(v, "Eye", name).reshape(-1)[0]) if hasattr(v, "aval") else v
            for v, name in ((n, "n"), (m, "m")))
    return _const(np.eye(n, m).astype(dt.as_dtype(dtype).np), dtype)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors ("xy": the first two axes swapped, as NumPy)."""
    tensors = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)) else inputs
    if indexing not in ("xy", "ij"):
        raise ArgumentValueError(f"meshgrid: `indexing` must be 'xy' or 'ij', got {indexing!r}")
    sizes = [_shape(t)[0] for t in tensors]
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, t in enumerate(tensors):
        axis = i if indexing == "ij" or len(sizes) < 2 else {0: 1, 1: 0}.get(i, i)
        shape = [1] * len(sizes)
        shape[axis] = sizes[axis]
        grids.append(F.broadcast_to(F.reshape(t, tuple(shape)), tuple(sizes)))
    return tuple(grids)


def full_like(input, fill_value, *, dtype=None):
    shape = abstract_of(input).shape
    return F.fill(dtype or abstract_of(input).dtype, shape, fill_value)


def make_tuple(*elements):
    """The tuple of `elements` (MindSpore's MakeTuple). In a graph they are kept as given;
    called eagerly, a Python int becomes an int64 and a float a float32 0-d Tensor, as
    MindSpore's primitive gives them."""
    if current_builder() is not None:
        return tuple(elements)
    return tuple(_scalar_tensor(e) if isinstance(e, (int, float)) and not isinstance(e, bool)
                 else e for e in elements)


def _scalar_tensor(value):
    kind = dt.int64 if isinstance(value, int) else dt.float32
    return A.cast(np.asarray(value, kind.np), dtype=kind)


def scalar_to_tensor(input_x, dtype=dt.float32):
    """A 0-d tensor holding the Python number `input_x`."""
    if not isinstance(input_x, numbers.Number):
        raise DTypeError(f"scalar_to_tensor: expected a Python number, got "
                         f"{type(input_x).__name__}")
    return A.cast(np.asarray(input_x), dtype=dt.as_dtype(dtype))


def tuple_to_array(input_x):
    """A 1-D tensor from a tuple of Python numbers, in the dtype its first element decides
    (MindSpore 2.10's): float32 for a float, else int32 (the others cast to it)."""
    first = input_x[0] if len(input_x) else 0
    kind = np.float32 if isinstance(first, (float, np.floating)) else np.int32
    return A.cast(np.asarray(input_x).astype(kind), dtype=dt.from_numpy(kind))


def ones_like(input, *, dtype=None):
    """Ones with `input`'s shape, in `input`'s dtype or `dtype`."""
    out = F.ones_like(input)
    return out if dtype is None else F.cast(out, dtype)


def zeros_like(input, *, dtype=None):
    """Zeros with `input`'s shape, in `input`'s dtype or `dtype`."""
    out = F.zeros_like(input)
    return out if dtype is None else F.cast(out, dtype)
