"""mindspore.dataset.config: the pipeline's seed, prefetch depth and worker count."""
from __future__ import annotations

import numbers
import os
import warnings

import numpy as np

from cellgraph.primitives.errors import UnsupportedError

__all__ = [
    "get_autotune_interval",
    "get_callback_timeout",
    "get_debug_mode",
    "get_enable_autotune",
    "get_enable_shared_mem",
    "get_num_parallel_workers",
    "get_prefetch_size",
    "get_seed",
    "set_autotune_interval",
    "set_callback_timeout",
    "set_debug_mode",
    "set_enable_autotune",
    "set_enable_shared_mem",
    "set_num_parallel_workers",
    "set_prefetch_size",
    "set_seed",
]

_DEFAULT_SEED = 5489  # MindSpore's default (the mt19937 default seed)
# MindSpore's default worker count: 8, or the machine's CPU count where that is smaller
_state = {"seed": _DEFAULT_SEED, "seeded": False, "prefetch_size": 16,
          "num_parallel_workers": min(8, os.cpu_count() or 8), "callback_timeout": 60,
          "autotune": False, "autotune_interval": 0, "debug_mode": False, "shared_mem": True,
          "debug_hook_list": None}
_INT32_MAX = 2 ** 31 - 1


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


def set_enable_autotune(enable, filepath_prefix=None) -> None:
    """Dataset AutoTune, checked as MindSpore checks it. Enabling it changes nothing here:
    cellgraph's pipeline runs in one prefetch thread, with no worker counts or queue sizes to
    tune. With `filepath_prefix`, MindSpore writes the tuned pipeline as JSON; cellgraph has
    no pipeline serializer to write it, so it raises UnsupportedError (after MindSpore's checks
    of the path)."""
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    if filepath_prefix and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix}.")
    if enable and filepath_prefix == "":
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    if not enable and filepath_prefix is not None:
        warnings.warn("The value of json_filepath is ignored when enable is False.",
                      stacklevel=2)
    if enable and filepath_prefix is not None:
        folder = os.path.dirname(os.path.abspath(filepath_prefix))
        if os.path.isdir(filepath_prefix):
            raise RuntimeError(f"Invalid json_filepath: {filepath_prefix} is a directory")
        if not os.path.isdir(folder):
            raise RuntimeError(f"Invalid json_filepath: the directory {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise RuntimeError(f"Invalid json_filepath: no write permission on {folder}")
        raise UnsupportedError("dataset.config.set_enable_autotune: cellgraph cannot write the "
                               "tuned pipeline (it has no dataset serializer); enable AutoTune "
                               "without filepath_prefix")
    _state["autotune"] = enable


def get_enable_autotune() -> bool:
    return _state["autotune"]


def set_autotune_interval(interval) -> None:
    """The steps between AutoTune's looks at the pipeline (0: each epoch), as MindSpore keeps
    it."""
    if not isinstance(interval, int) or isinstance(interval, bool):
        raise TypeError("interval must be of type int.")
    if interval < 0 or interval > _INT32_MAX:
        raise ValueError("Interval given is not within the required range [0, "
                         "INT32_MAX(2147483647)].")
    _state["autotune_interval"] = interval


def get_autotune_interval() -> int:
    return _state["autotune_interval"]


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list | None = None) -> None:
    """Debug mode: each `map` made while it is on runs the hooks of `debug_hook_list` (by
    default one PrintMetaDataHook) before its first operation and after each operation, each
    a copy of the hook told the operation's name, and a pipeline started with no seed set is
    seeded with 1. cellgraph's pipeline runs its operations in one thread either way. An empty
    list keeps the hooks set before."""
    from .debug import DebugHook, PrintMetaDataHook

    if not isinstance(debug_mode_flag, bool):
        raise TypeError("debug_mode_flag isn't of type boolean.")
    if debug_hook_list is None:
        debug_hook_list = [PrintMetaDataHook()]
    if not isinstance(debug_hook_list, list):
        raise TypeError("debug_hook_list is not a list.")
    for hook in debug_hook_list:
        if not isinstance(hook, DebugHook):
            raise TypeError("All items in debug_hook_list must be of type DebugHook.")
    if debug_mode_flag:
        warnings.warn("Dataset pipeline debug mode is enabled. Performance will be impacted "
                      "because the pipeline will be running in a single thread.", stacklevel=2)
    if debug_hook_list:
        _state["debug_hook_list"] = debug_hook_list
    _state["debug_mode"] = debug_mode_flag


def _seed_for_debug_mode() -> None:
    """A pipeline started in debug mode with no seed set is seeded with 1, as MindSpore seeds
    it, so that its runs repeat."""
    if _state["debug_mode"] and not _state["seeded"]:
        set_seed(1)


def get_debug_mode() -> bool:
    """Whether debug mode is on."""
    return _state["debug_mode"]


def _get_debug_hook_list():
    """The hooks debug mode puts around each operation of a map (None before any was set)."""
    return _state["debug_hook_list"]


def set_enable_shared_mem(enable) -> None:
    """Whether worker processes would hand rows over through shared memory (MindSpore's
    default: on; deprecated since MindSpore 2.8). cellgraph's map and generator workers are
    threads of one process, which share the rows' memory whatever the setting."""
    warnings.warn("'set_enable_shared_mem' is deprecated from version 2.8.0 and will be removed "
                  "in a future version.", DeprecationWarning, stacklevel=2)
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _state["shared_mem"] = enable


def get_enable_shared_mem() -> bool:
    """The setting of set_enable_shared_mem (deprecated since MindSpore 2.8)."""
    warnings.warn("'get_enable_shared_mem' is deprecated from version 2.8.0 and will be removed "
                  "in a future version.", DeprecationWarning, stacklevel=2)
    return _state["shared_mem"]
