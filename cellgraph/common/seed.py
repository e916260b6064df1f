"""The global random seed: `cellgraph.set_seed(seed)` makes parameter initialisation and dropout
masks reproducible, as `mindspore.set_seed` does."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.errors import ArgumentValueError, DTypeError
from cellgraph.runtime import rng as _rng


def set_seed(seed: int) -> None:
    """Reset the global random generator to `seed` (a non-negative int)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise DTypeError(f"set_seed: `seed` must be an int, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ArgumentValueError(f"set_seed: `seed` must be >= 0, got {seed}")
    _rng.seed_generator(int(seed))


def get_seed() -> int | None:
    """The seed given to set_seed, or None when none was set."""
    return _rng.current_seed()


def global_rng() -> np.random.Generator:
    """The generator every initializer and dropout mask draws from."""
    return _rng.generator()
