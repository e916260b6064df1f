"""`Generator`: MindSpore's random-state object, a seed and an offset held as int64 Parameters.

A random function given a Generator asks it for a (seed, offset) pair with `_step(n)`, which
returns the current pair and moves the offset on by `n`, so that the same seed and offset give
the same draws. `get_state` packs the pair into 16 bytes (seed, then offset, each little-endian
int64) and `set_state` unpacks such a state. The methods are jit_class methods: `_step` runs
inside construct as well, its offset update an assignment the graph carries out.

The module functions act on `default_generator`, from which `mint`'s draws take their pairs
(mint/_tensor_ops.generator_stream), so that `manual_seed` and `set_rng_state` make them repeat.
`manual_seed` also restarts the draws of the global generator that cellgraph's random kernels
take from without a seed (runtime/rng.py).
"""
from __future__ import annotations

import numbers
import secrets

import numpy as np

from cellgraph.common import dtype as mstype
from cellgraph.common.parameter import Parameter
from cellgraph.common.tensor import Tensor
from cellgraph.jit_decorators import jit_class
from cellgraph.ops import assign, assign_add
from cellgraph.primitives.errors import DTypeError, RunError
from cellgraph.runtime import rng as _rng

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed",
           "seed", "set_rng_state"]

STATE_SIZE = 16  # bytes: the seed and the offset, each an int64


@jit_class
class Generator:
    """A seed and an offset from which random functions draw; the same pair, the same draws.

    >>> generator = Generator()
    >>> generator.manual_seed(5).initial_seed()
    5
    """

    def __init__(self):
        self._seed = Parameter(Tensor(0, mstype.int64), requires_grad=False)
        self._offset = Parameter(Tensor(0, mstype.int64), requires_grad=False)

    def set_state(self, state):
        """Take the seed and offset packed in `state` (16 uint8 values, from get_state)."""
        if not isinstance(state, Tensor):
            raise RunError("Invalid tensor input: State")
        if state.dtype != mstype.uint8:
            raise RunError(f"State data type must be UInt8, but got {state.dtype}")
        data = np.ascontiguousarray(state.asnumpy())
        if data.nbytes != STATE_SIZE:
            raise RunError(f"State data size must be {STATE_SIZE}, but got {data.nbytes}")
        seed, offset = np.frombuffer(data.tobytes(), "<i8")
        self._write(int(seed), int(offset))

    def get_state(self):
        """The seed and the offset packed into a uint8 Tensor of 16 values."""
        pair = np.array([int(self._seed.asnumpy()), int(self._offset.asnumpy())], "<i8")
        return Tensor(np.frombuffer(pair.tobytes(), np.uint8).copy(), mstype.uint8)

    def seed(self):
        """Seed the generator with a random number (offset 0) and return that number."""
        value = secrets.randbits(32)
        self._write(value, 0)
        return value

    def manual_seed(self, seed):  # pylint: disable=redefined-outer-name
        """Set the seed (the offset back to 0); returns the generator."""
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise DTypeError("Seed must be an integer.")
        self._write(int(seed), 0)
        return self

    def initial_seed(self):
        """The seed, a Python int."""
        return int(self._seed.asnumpy())

    def _write(self, seed, offset):
        assign(self._seed, Tensor(seed, mstype.int64))
        assign(self._offset, Tensor(offset, mstype.int64))

    def _step(self, step):
        """The current seed and offset (int64 Tensors); the offset then moves on by `step`."""
        current = (self._seed + 0, self._offset + 0)
        assign_add(self._offset, step)
        return current


default_generator = Generator()  # seed 0, offset 0 when MindSpore 2.10 loads, too


def seed():  # pylint: disable=redefined-outer-name
    """Seed the default generator with a random number, and return it."""
    return default_generator.seed()


def manual_seed(seed):  # pylint: disable=redefined-outer-name
    """Seed the default generator, and the draws of the global generator that cellgraph's random
    kernels use (not NumPy's, nor `get_seed`'s, as in MindSpore); returns the default
    generator."""
    default_generator.manual_seed(seed)
    _rng.seed_draws(seed)
    return default_generator


def initial_seed():
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state (16 uint8 values)."""
    return default_generator.get_state()


def set_rng_state(state):  # pylint: disable=redefined-outer-name
    """Restore a state that get_rng_state returned into the default generator."""
    default_generator.set_state(state)
