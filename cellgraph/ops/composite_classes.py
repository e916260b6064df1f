"""MindSpore primitive classes and small functions whose meaning is a composition of existing
operations (`ops.Flatten()`, `ops.ReduceAll()`, `ops.AddN()`, `ops.diff`, ...). A class is
configured in `__init__` and applied in `__call__`, like the classes in classes.py."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.exports import FunctionClass, function_class
from cellgraph.primitives.nn_functional import argmax
from cellgraph.primitives.nn_ops import softmax_cross_entropy
from cellgraph.primitives.random_ops import op_seeds

from . import functional as F
from .composite_conv import max_pool3d
from .composite_ops import flip, isfinite, isinf, isnan, masked_fill, random_ints
from .composite_resize import gather_elements

__all__ = [
    "AddN",
    "ArgMaxWithValue",
    "ArgMinWithValue",
    "Flatten",
    "FunctionClass",
    "GatherD",
    "IsFinite",
    "IsInf",
    "IsNan",
    "MaskedFill",
    "MaxPool3D",
    "ReduceAll",
    "ReduceAny",
    "ReverseV2",
    "ScalarToTensor",
    "Size",
    "SoftmaxCrossEntropyWithLogits",
    "TupleToArray",
    "UniformInt",
    "addn",
    "all",
    "any",
    "diff",
    "pows",
    "scalar_to_tensor",
    "tuple_to_array",
]


def all(input, axis=None, keep_dims=False):
    """True where every element along `axis` is nonzero."""
    return F.reduce_min(F.cast(input, dt.bool_), () if axis is None else axis, keep_dims)


def any(input, axis=None, keep_dims=False):
    """True where some element along `axis` is nonzero."""
    return F.reduce_max(F.cast(input, dt.bool_), () if axis is None else axis, keep_dims)


def addn(x):
    """The sum of a tuple of tensors of one shape."""
    total = x[0]
    for item in x[1:]:
        total = F.add(total, item)
    return total


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along `axis`."""
    axis = normalize_axis(axis, abstract_of(x).ndim)
    if prepend is not None or append is not None:
        x = F.concat([v for v in (prepend, x, append) if v is not None], axis)
    for _ in range(n):
        size = abstract_of(x).shape[axis]
        lead = [slice(None)] * abstract_of(x).ndim
        tail = list(lead)
        lead[axis], tail[axis] = slice(1, size), slice(0, size - 1)
        x = F.sub(F.getitem(x, tuple(lead)), F.getitem(x, tuple(tail)))
    return x


def pows(x, y):
    return F.pow(x, y)


def scalar_to_tensor(input_x, dtype=dt.float32):
    """A 0-d tensor holding the Python number `input_x`."""
    if not isinstance(input_x, numbers.Number):
        raise DTypeError(f"scalar_to_tensor: expected a Python number, got "
                         f"{type(input_x).__name__}")
    return A.cast(np.asarray(input_x), dtype=dt.as_dtype(dtype))


def tuple_to_array(input_x):
    """A 1-D tensor from a tuple of Python numbers (float32 if any is a float, else int64)."""
    kind = np.float32 if np.asarray(input_x).dtype.kind == "f" else np.int64
    return A.cast(np.asarray(input_x, kind), dtype=dt.from_numpy(kind))


class _Class:
    """Base: keeps the constructor's keyword arguments for repr."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class Flatten(_Class):
    """(N, ...) -> (N, prod(...))."""

    def __call__(self, input_x):
        shape = abstract_of(input_x).shape
        return F.reshape(input_x, (shape[0] if shape else 1, -1))


class _Reduce(_Class):
    fn = staticmethod(all)

    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self).fn(x, axis, self.keep_dims)


class ReduceAll(_Reduce):
    fn = staticmethod(all)


class ReduceAny(_Reduce):
    fn = staticmethod(any)


def _size(x) -> int:
    return int(np.prod(abstract_of(x).shape))


IsNan = function_class("IsNan", isnan)
IsInf = function_class("IsInf", isinf)
IsFinite = function_class("IsFinite", isfinite)
AddN = function_class("AddN", addn)
Size = function_class("Size", _size, "The number of elements, a Python int.")
MaskedFill = function_class("MaskedFill", masked_fill)
GatherD = function_class("GatherD", gather_elements)
ScalarToTensor = function_class("ScalarToTensor", scalar_to_tensor)
TupleToArray = function_class("TupleToArray", tuple_to_array)


class ReverseV2(_Class):
    def __init__(self, axis):
        self.axis = tuple(axis)

    def __call__(self, x):
        return flip(x, self.axis)


class MaxPool3D(_Class):
    """`ops.MaxPool3D(kernel_size, strides, pad_mode, pad_list)(x)` over (N, C, D, H, W)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        if str(pad_mode).upper() not in ("VALID", "PAD") or ceil_mode or data_format != "NCDHW":
            raise ArgumentValueError(f"MaxPool3D: pad_mode {pad_mode!r}, ceil_mode and layouts "
                                     f"other than NCDHW are not supported (use 'VALID' or 'PAD')")
        self.kernel_size, self.strides, self.pad_list = kernel_size, strides, pad_list

    def __call__(self, x):
        return max_pool3d(x, self.kernel_size, self.strides, self.pad_list)


class _ArgWithValue(_Class):
    sign = 1.0

    def __init__(self, axis=0, keep_dims=False):
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x):
        index = argmax(F.mul(x, self.sign), self.axis, self.keep_dims)
        values = F.reduce_max(x, self.axis, self.keep_dims) if self.sign > 0 else \
            F.reduce_min(x, self.axis, self.keep_dims)
        return F.cast(index, dt.int32), values


class ArgMaxWithValue(_ArgWithValue):
    """(index, value) of the maximum along `axis`."""


class ArgMinWithValue(_ArgWithValue):
    """(index, value) of the minimum along `axis`."""

    sign = -1.0


class UniformInt(_Class):
    """`ops.UniformInt(seed, seed2)(shape, minval, maxval)`: ints in [minval, maxval)."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape, minval, maxval):
        low, high = int(np.asarray(minval)), int(np.asarray(maxval))
        return random_ints(low, high, tuple(shape), op_seeds(self.seed, self.seed2, "UniformInt"),
                           dt.int32)


def softmax_cross_entropy_with_logits(logits, labels):
    """(loss, backprop): per row -sum(labels * log_softmax(logits)) and its gradient with
    respect to the logits, softmax(logits) - labels, checked as MindSpore's primitive checks
    them (float16/float32, one (N, C) shape) before the fused `softmax_cross_entropy`."""
    op = "SoftmaxCrossEntropyWithLogits"
    lt, yt = abstract_of(logits), abstract_of(labels)
    for name, t in (("logits", lt), ("labels", yt)):
        if t.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"{op}: expected `{name}` of float16 or float32, got {t.dtype}")
    if lt.ndim != 2 or lt.shape != yt.shape:
        raise ShapeError(f"{op}: expected logits and labels of one shape (N, C), got "
                         f"{lt.shape} and {yt.shape}")
    return softmax_cross_entropy(logits, labels)


SoftmaxCrossEntropyWithLogits = function_class(
    "SoftmaxCrossEntropyWithLogits", softmax_cross_entropy_with_logits,
    "`ops.SoftmaxCrossEntropyWithLogits()(logits, labels)` -> (loss (N,), backprop (N, C)).")
