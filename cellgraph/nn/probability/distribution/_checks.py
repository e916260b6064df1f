"""The checks MindSpore's distributions make on the parameters given at construction (those
given as Parameters are left to the call, as MindSpore's)."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter


def _values(value):
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    return np.asarray(value, np.float64)


def not_scalar(value, name):
    """MindSpore's Gamma, Beta and Poisson take their parameters as lists or Tensors only."""
    if isinstance(value, (int, float)):
        raise ArgumentError(f"Input {name} can't be scalar")


def greater_zero(value, name):
    if value is None or isinstance(value, Parameter):
        return
    if not np.all(_values(value) > 0):
        raise ArgumentValueError(f"{name} must be greater than zero.")


def probability(value):
    """0 < p < 1 everywhere."""
    if value is None or isinstance(value, Parameter):
        return
    values = _values(value)
    if not np.all(values > 0):
        raise ArgumentValueError("Probabilities must be greater than zero")
    if not np.all(values < 1):
        raise ArgumentValueError("Probabilities must be less than one")


def float_dtype(dtype, cls):
    """A continuous distribution's dtype is a float type."""
    if not isinstance(dtype, dt.DType) or not dtype.is_float:
        raise DTypeError(f"For '{cls}', the 'dtype' should be a float type (float16, float32, "
                         f"float64), but got {dtype}.")


def discrete_dtype(dtype, cls):
    """A discrete distribution samples in an int, uint or float dtype (not bool)."""
    if not isinstance(dtype, dt.DType) or not (dtype.is_float or dtype.is_int):
        raise DTypeError(f"For '{cls}', the 'dtype' should be an int, uint or float type, but "
                         f"got {dtype}.")


def undefined(what, cls):
    raise ArgumentValueError(f"{what} is undefined for {cls} distribution.")
