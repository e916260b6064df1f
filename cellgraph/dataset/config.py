"""mindspore.dataset.config: the pipeline's seed, prefetch depth and worker count."""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["get_callback_timeout", "get_num_parallel_workers", "get_prefetch_size", "get_seed",
           "set_callback_timeout", "set_num_parallel_workers", "set_prefetch_size", "set_seed"]

_DEFAULT_SEED = 5489  # MindSpore's default (the mt19937 default seed)
_state = {"seed": _DEFAULT_SEED, "seeded": False, "prefetch_size": 16, "num_parallel_workers": 8,
          "callback_timeout": 60}


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"dataset.config.set_{name}: expected a positive int, got {value!r}")
    return int(value)


def set_seed(seed) -> None:
    """Seed shuffles, random samplers and random transforms, so pipelines repeat exactly."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not (
            0 <= seed <= 2 ** 32 - 1):
        raise ValueError(f"dataset.config.set_seed: expected an int in [0, 2**32 - 1], got "
                         f"{seed!r}")
    _state.update(seed=int(seed), seeded=True, seed_uses=0)


def get_seed() -> int:
    return _state["seed"]


def set_prefetch_size(size) -> None:
    """How many batches (or rows) the worker thread prepares ahead of the training loop."""
    _state["prefetch_size"] = _positive_int(size, "prefetch_size")


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_num_parallel_workers(num) -> None:
    """Kept for programs that set it: transforms run in the one prefetch thread."""
    _state["num_parallel_workers"] = _positive_int(num, "num_parallel_workers")


def get_num_parallel_workers() -> int:
    return _state["num_parallel_workers"]


def mindspore_seed() -> int | None:
    """The seed MindSpore's random samplers would shuffle with: the dataset seed once set (the
    default one, 5489, counts as unset there), else None (MindSpore takes one from the system)."""
    if _state["seeded"] and _state["seed"] != _DEFAULT_SEED:
        return _state["seed"]
    return None


def new_rng() -> np.random.Generator:
    """A generator for one iterator or transform: reproducible after set_seed, fresh
    otherwise (each pipeline gets its own stream either way)."""
    if _state["seeded"]:
        _state["seed_uses"] = _state.get("seed_uses", 0) + 1
        return np.random.default_rng([_state["seed"], _state["seed_uses"]])
    return np.random.default_rng()


def set_callback_timeout(timeout) -> None:
    """Seconds a `sync_wait` waits for its `sync_update` before it gives up blocking."""
    _state["callback_timeout"] = _positive_int(timeout, "callback_timeout")


def get_callback_timeout() -> int:
    return _state["callback_timeout"]
