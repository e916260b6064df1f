"""The global random generator: `cellgraph.set_seed` resets it; parameter initializers and the
`uniform_real` kernel (dropout masks) draw from it."""
from __future__ import annotations

import numpy as np

from .numpy_backend import numpy_backend

_state = {"seed": None, "rng": np.random.default_rng(), "streams": {}}


def seed_generator(seed: int) -> None:
    _state["seed"] = seed
    _state["rng"] = np.random.default_rng(seed)
    _state["streams"] = {}  # the op seeds' streams start again, combined with the new seed


def stream(key: tuple) -> np.random.Generator:
    """The generator of an op-level seed `key`: the same numbers in every process, started
    again by set_seed (and combined with its seed)."""
    streams = _state["streams"]
    if key not in streams:
        entropy = list(key) if _state["seed"] is None else [*key, int(_state["seed"])]
        streams[key] = np.random.default_rng(entropy)
    return streams[key]


def current_seed() -> int | None:
    return _state["seed"]


def generator() -> np.random.Generator:
    return _state["rng"]


@numpy_backend.register("uniform_real")
def _uniform_real(shape, dtype, seed=None):
    rng = generator() if seed is None else stream(tuple(seed))
    return rng.random(shape).astype(dtype.np)
