"""`mindspore.nn.probability.distribution._utils.utils`: the dtype rule of a distribution's
parameters (`set_param_type`), the argument checks usable inside construct (`CheckTuple`,
`CheckTensor`) and the checks on parameter values."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .._checks import greater_zero, probability

__all__ = ["CheckTensor", "CheckTuple", "cast_to_tensor", "check_greater_equal_zero",
           "check_greater_zero", "check_prob", "set_param_type"]


def _is_int(dtype) -> bool:
    return dtype is not None and dtype.is_int and dtype != dt.bool_


def set_param_type(args, hint_type):
    """The dtype a distribution computes in, from its parameters `args` ({name: value}): the
    one dtype its Tensor and ndarray parameters share (TypeError when they differ), float32
    when that is an int type or float64, and `hint_type` (float32 for an int type or None)
    when no parameter has a dtype."""
    if hint_type is None or _is_int(hint_type):
        hint_type = dt.float32
    common = None
    for name, arg in args.items():
        if not hasattr(arg, "dtype"):
            continue
        current = dt.from_numpy(arg.dtype) if isinstance(arg, np.ndarray | np.generic) \
            else dt.as_dtype(arg.dtype)
        if common is None:
            common = current
        elif current != common:
            raise DTypeError(f"{name} should have the same dtype as other arguments.")
    if common is not None and (_is_int(common) or common == dt.float64):
        return dt.float32
    return hint_type if common is None else common


def cast_to_tensor(t, hint_type=dt.float32):
    """`t` (a number, list, ndarray or Tensor) as a Tensor; a Parameter or Tensor as it is."""
    if t is None:
        raise ArgumentValueError("Input cannot be None in cast_to_tensor")
    if isinstance(t, Parameter | Tensor):
        return t
    if isinstance(t, bool):
        raise ArgumentError("Input cannot be Type Bool")
    if isinstance(t, int | float):
        return Tensor(t, hint_type)
    if isinstance(t, list | tuple | np.ndarray):
        return Tensor(np.asarray(t), hint_type)
    raise ArgumentError(f"Unable to convert input of type {type(t)} to a Tensor of type "
                        f"{hint_type}")


def check_greater_zero(value, name):
    greater_zero(value, name)


def check_greater_equal_zero(value, name):
    if value is None or isinstance(value, Parameter):
        return
    values = value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)
    if not np.all(values >= 0):
        raise ArgumentValueError(f"{name} must be greater than or equal to zero.")


def check_prob(p):
    """0 < p < 1 everywhere."""
    probability(p)


class CheckTuple:
    """`CheckTuple()(x, name)`: `x` when it is a tuple, TypeError otherwise (in construct too)."""

    def __call__(self, x, name):
        if isinstance(x, tuple):
            return x
        raise ArgumentError(f"For {name}, input type must be a tuple.")


class CheckTensor:
    """`CheckTensor()(x, name)`: `x` when it is a Tensor (or None), TypeError otherwise (in
    construct too)."""

    def __call__(self, x, name):
        if x is None or is_tensor(x):
            return x
        raise ArgumentError(f"For {name}, input type must be a Tensor or Parameter.")
