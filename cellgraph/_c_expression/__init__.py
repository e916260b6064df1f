"""`mindspore._c_expression`: the parts of MindSpore's native module that programs and tests
call directly: `TensorPy`, the class every Tensor (and Parameter) is an instance of, and the
monad classes behind `mindspore.common._monad`, and `CreationType`, the kinds of view Tensor
MindSpore's eager autograd tells apart (its values as MindSpore numbers them).

`security.enable_security()` says whether the build leaves out the debugging features (dump,
summary); cellgraph's never does. `_random_normal`, `_random_uniform` and `_truncated_normal`
fill a float32 NumPy array in place with MindSpore's random initial values from a seed (its
Philox generator and transforms, reproduced in common/_random_init.py)."""
from __future__ import annotations

import enum

import numpy as np

from cellgraph.common._monad import IOMonad, UMonad
from cellgraph.runtime.tensor import Tensor as TensorPy

from . import security

__all__ = ["CreationType", "IOMonad", "TensorPy", "UMonad", "_random_normal", "_random_uniform",
           "_truncated_normal", "security"]


class CreationType(enum.IntEnum):
    """How a view Tensor was made: by an ordinary operation, with gradients off, as one output
    of a multi-output operation, or as the output of a Cell with its own bprop."""

    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3


def _fill(arr, values) -> None:
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray to fill, got {type(arr).__name__}")
    arr[...] = values


def _random_normal(seed, arr, mean, sigma) -> None:
    """Fill `arr` with N(mean, sigma^2) values drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.normal(int(seed), arr.shape, mean, sigma))


def _random_uniform(seed, arr, a, b) -> None:
    """Fill `arr` with U(a, b) values drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.uniform(int(seed), arr.shape, a, b))


def _truncated_normal(seed, arr, a, b, mean, sigma) -> None:
    """Fill `arr` with N(mean, sigma^2) values cut to [a, b], drawn from `seed`."""
    from cellgraph.common import _random_init

    _fill(arr, _random_init.truncated_normal(int(seed), arr.shape, a, b, mean, sigma))
