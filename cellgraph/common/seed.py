"""The global random seed: `cellgraph.set_seed(seed)` makes parameter initialisation and dropout
masks reproducible, as `mindspore.set_seed` does."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime import rng as _rng


def set_seed(seed: int) -> None:
    """Reset the global random generator to `seed` (a non-negative int), and NumPy's, as
    MindSpore does (its initializers draw from NumPy's generator, and so do cellgraph's)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise DTypeError(f"set_seed: `seed` must be an int, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ArgumentValueError(f"set_seed: `seed` must be >= 0, got {seed}")
    np.random.seed(int(seed))
    _rng.seed_generator(int(seed))
    from cellgraph.dataset import config as dataset_config  # MindSpore's set_seed sets it too

    dataset_config.set_seed(int(seed) & 0xFFFFFFFF)


def get_seed() -> int | None:
    """The seed given to set_seed, or None when none was set."""
    return _rng.current_seed()


def global_rng() -> np.random.Generator:
    """The generator every initializer and dropout mask draws from."""
    return _rng.generator()


def manual_seed(seed: int) -> None:
    """`mindspore.manual_seed`: the same as set_seed."""
    set_seed(seed)


def get_rng_state():
    """The global generator's state, for set_rng_state to restore."""
    return _rng.generator().bit_generator.state


def set_rng_state(state) -> None:
    """Restore a state that get_rng_state returned."""
    if not isinstance(state, dict) or "bit_generator" not in state:
        raise DTypeError(f"set_rng_state: expected a state from get_rng_state, got "
                         f"{type(state).__name__}")
    _rng.generator().bit_generator.state = state
