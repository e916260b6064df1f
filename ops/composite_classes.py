"""MindSpore primitive classes and small functions whose meaning is a composition of existing
operations (`ops.Flatten()`, `ops.ReduceAll()`, `ops.AddN()`, `ops.atan2`, ...). A class is
configured in `__init__` and applied in `__call__`, like the classes in classes.py."""
from __future__ import annotations

import math
import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import functional as F
from .composite_ops import flip, isfinite, isinf, isnan, masked_fill, randint
from .composite_resize import gather_elements
from .core import abstract_of, normalize_axis
from .errors import DTypeError
from .nn_functional import argmax

__all__ = ["AddN", "ArgMaxWithValue", "ArgMinWithValue", "Atan2", "Flatten", "GatherD", "IsFinite",
           "IsInf", "IsNan", "MaskedFill", "ReduceAll", "ReduceAny", "ReverseV2", "Size",
           "UniformInt", "addn", "all", "any", "atan2", "diff", "pows", "scalar_to_tensor",
           "tuple_to_array"]


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


def atan2(input, other):
    """The angle of the point (other, input), in (-pi, pi]."""
    safe = F.select(F.equal(other, 0), F.ones_like(other), other)
    base = F.atan(F.div(input, safe))
    turn = F.select(F.greater_equal(input, 0), F.fill(abstract_of(base).dtype,
                                                        abstract_of(base).shape, math.pi),
                    F.fill(abstract_of(base).dtype, abstract_of(base).shape, -math.pi))
    angle = F.select(F.less(other, 0), F.add(base, turn), base)
    return F.select(F.equal(other, 0), F.mul(F.sign(input), math.pi / 2), angle)


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


class _Unary(_Class):
    fn = staticmethod(isnan)

    def __call__(self, x):
        return type(self).fn(x)


class IsNan(_Unary):
    fn = staticmethod(isnan)


class IsInf(_Unary):
    fn = staticmethod(isinf)


class IsFinite(_Unary):
    fn = staticmethod(isfinite)


class AddN(_Unary):
    fn = staticmethod(addn)


class Size(_Unary):
    """The number of elements, a Python int."""

    @staticmethod
    def fn(x):
        return int(np.prod(abstract_of(x).shape))


class MaskedFill(_Class):
    def __call__(self, input, mask, value):
        return masked_fill(input, mask, value)


class Atan2(_Class):
    def __call__(self, x, y):
        return atan2(x, y)


class ReverseV2(_Class):
    def __init__(self, axis):
        self.axis = tuple(axis)

    def __call__(self, x):
        return flip(x, self.axis)


class GatherD(_Class):
    def __call__(self, x, dim, index):
        return gather_elements(x, dim, index)


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
        return randint(low, high, tuple(shape), dtype=dt.int32)
