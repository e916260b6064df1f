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
    _reset_op_seed()
    from cellgraph.dataset import config as dataset_config  # MindSpore's set_seed sets it too

    dataset_config.set_seed(int(seed) & 0xFFFFFFFF)


def get_seed() -> int | None:
    """The seed given to set_seed, or None when none was set."""
    return _rng.current_seed()


def global_rng() -> np.random.Generator:
    """The generator every initializer and dropout mask draws from."""
    return _rng.generator()


def get_rng_state():
    """The global generator's state, for set_rng_state to restore."""
    return _rng.generator().bit_generator.state


def set_rng_state(state) -> None:
    """Restore a state that get_rng_state returned."""
    if not isinstance(state, dict) or "bit_generator" not in state:
        raise DTypeError(f"set_rng_state: expected a state from get_rng_state, got "
                         f"{type(state).__name__}")
    _rng.generator().bit_generator.state = state


# ----- MindSpore's op seeds --------------------------------------------------------------------
# A random primitive made with no seed of its own (nn.Dropout's, ops.dropout's) takes a
# (global, op) seed pair when it is made: the global seed, and a per-kernel-name counter that
# every such primitive moves on, so that two of them draw differently and the same program
# draws the same. Their kernels mix the pair into their own generator's seed
# (runtime/rng.kernel_seed). (0, 0), with no global seed set: the kernel seeds itself at random.

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_SEED_STEP = 3528531795 ^ 3449720151  # how far each use moves a kernel's op seed
_KERNEL_SEED: dict = {}  # (kernel name, op seed) -> its current op seed


def _reset_op_seed() -> None:
    """Every kernel's op seed back to where it started (set_seed does this)."""
    for key in _KERNEL_SEED:
        _KERNEL_SEED[key] = key[1]


def _truncate_seed(seed: int) -> int:
    return seed % _MAXINT32


def _update_seeds(op_seed, kernel_name: str) -> None:
    if op_seed is not None:
        _KERNEL_SEED[(kernel_name, op_seed)] = _KERNEL_SEED.get(
            (kernel_name, op_seed)) + _SEED_STEP


def _get_op_seed(op_seed, kernel_name: str) -> int:
    if (kernel_name, op_seed) not in _KERNEL_SEED:
        _KERNEL_SEED[(kernel_name, op_seed)] = op_seed
    return _KERNEL_SEED[(kernel_name, op_seed)]


def _get_graph_seed(op_seed, kernel_name: str) -> tuple[int, int]:
    """The (global, op) seed pair of a new random primitive of `kernel_name` whose own seed is
    `op_seed` (0 or None: none), as MindSpore hands them out."""
    global_seed = get_seed()
    if global_seed == 0:
        global_seed = DEFAULT_GRAPH_SEED
    elif global_seed is None:
        global_seed = 0
    if op_seed is None:
        op_seed = 0
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    if isinstance(op_seed, bool) or not isinstance(op_seed, numbers.Integral) or op_seed < 0:
        raise ArgumentValueError(f"{kernel_name}: `seed` must be an int >= 0, got {op_seed!r}")
    seeds = _truncate_seed(global_seed), _truncate_seed(_get_op_seed(op_seed, kernel_name))
    _update_seeds(op_seed, kernel_name)
    return seeds
