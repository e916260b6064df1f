"""The global random generator: `cellgraph.set_seed` resets it; parameter initializers and the
`uniform_real` kernel (dropout masks) draw from it."""
from __future__ import annotations

import numpy as np

from .numpy_backend import numpy_backend

_state = {"seed": None, "rng": np.random.default_rng()}


def seed_generator(seed: int) -> None:
    _state["seed"] = seed
    _state["rng"] = np.random.default_rng(seed)


def current_seed() -> int | None:
    return _state["seed"]


def generator() -> np.random.Generator:
    return _state["rng"]


@numpy_backend.register("uniform_real")
def _uniform_real(shape, dtype):
    return generator().random(shape).astype(dtype.np)
