"""mindspore.dataset.core.config (also `mindspore.dataset.config`): the pipeline's seed,
prefetch depth, worker count, the handling of rows a map fails on, and the settings MindSpore's
C++ engine takes (each kept and returned, and validated with MindSpore's errors)."""
from __future__ import annotations

import enum
import json
import os
import random
import warnings

import numpy as np

from cellgraph.mindrecord.checks import pipeline_error

from .validator_helpers import check_independent_mode, type_check

__all__ = [
    "ErrorSamplesMode",
    "get_auto_num_workers",
    "get_auto_offload",
    "get_autotune_interval",
    "get_callback_timeout",
    "get_debug_mode",
    "get_dynamic_shape",
    "get_enable_autotune",
    "get_enable_shared_mem",
    "get_enable_watchdog",
    "get_error_samples_mode",
    "get_fast_recovery",
    "get_iterator_mode",
    "get_monitor_sampling_interval",
    "get_multiprocessing_start_method",
    "get_multiprocessing_timeout_interval",
    "get_num_parallel_workers",
    "get_numa_enable",
    "get_prefetch_size",
    "get_seed",
    "get_video_backend",
    "load",
    "set_auto_num_workers",
    "set_auto_offload",
    "set_autotune_interval",
    "set_callback_timeout",
    "set_debug_mode",
    "set_dynamic_shape",
    "set_enable_autotune",
    "set_enable_shared_mem",
    "set_enable_watchdog",
    "set_error_samples_mode",
    "set_fast_recovery",
    "set_iterator_mode",
    "set_monitor_sampling_interval",
    "set_multiprocessing_start_method",
    "set_multiprocessing_timeout_interval",
    "set_num_parallel_workers",
    "set_numa_enable",
    "set_prefetch_size",
    "set_seed",
    "set_sending_batches",
    "set_video_backend",
]

_DEFAULT_SEED = 5489  # MindSpore's default (the mt19937 default seed)
# MindSpore's default worker count: 8, or the machine's CPU count where that is smaller
_state = {"seed": _DEFAULT_SEED, "seeded": False, "prefetch_size": 16,
          "num_parallel_workers": min(8, os.cpu_count() or 8), "callback_timeout": 60,
          "autotune": False, "autotune_interval": 0, "debug_mode": False, "shared_mem": True,
          "debug_hook_list": None, "monitor_sampling_interval": 1000, "auto_num_workers": False,
          "auto_offload": False, "enable_watchdog": True, "multiprocessing_timeout_interval": 300,
          "dynamic_shape": False, "fast_recovery": True, "error_samples_mode": 0,
          "iterator_mode": {"do_copy": False, "parallel_convert": False},
          "start_method": "fork", "video_backend": "CPU", "numa_enable": False,
          "sending_batches": 0, "worker_connector_size": 16}
_INT32_MAX = 2 ** 31 - 1
_UINT32_MAX = 2 ** 32 - 1


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(value, name: str, what: str, closing: str = "]") -> int:
    """MindSpore's check of an int setting in (0, INT32_MAX]."""
    if not _is_int(value):
        raise TypeError(f"{name} isn't of type int.")
    if value <= 0 or value > _INT32_MAX:
        raise ValueError(f"{what} not within the required range (0, INT32_MAX(2147483647)"
                         f"{closing}.")
    return value


def _check_workers(num: int) -> int:
    """MindSpore's engine takes at most as many workers as the machine has CPU threads."""
    cpus = os.cpu_count() or 1
    if num > cpus or num < 1:
        rule = "-" * 66
        raise RuntimeError(f"Syntax error. \n\n{rule}\n- Dataset Pipeline Error Message: \n"
                           f"{rule}\n[ERROR] Invalid Parameter, num_parallel_workers exceeds "
                           f"the boundary between 1 and {cpus}, as got {num}.\n")
    return num


def set_seed(seed) -> None:
    """Seed shuffles, random samplers and random transforms, so pipelines repeat exactly; as
    MindSpore's set_seed, it seeds Python's `random` and `numpy.random` with it too."""
    if not _is_int(seed):
        raise TypeError("seed isn't of type int.")
    if seed < 0 or seed > _UINT32_MAX:
        raise ValueError("seed given is not within the required range [0, "
                         "UINT32_MAX(4294967295)].")
    _seed_pipelines(seed)
    random.seed(seed)
    np.random.seed(seed)


def _seed_pipelines(seed: int) -> None:
    _state.update(seed=int(seed), seeded=True, seed_uses=0,
                  seedings=_state.get("seedings", 0) + 1)


def seeding() -> int:
    """How many times the seed was set (by set_seed or load): what draws made before tell
    their generator is stale by."""
    return _state.get("seedings", 0)


def get_seed() -> int:
    return _state["seed"]


def set_prefetch_size(size) -> None:
    """How many batches (or rows) the worker thread prepares ahead of the training loop."""
    _state["prefetch_size"] = _in_range(size, "size", "size is")


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_num_parallel_workers(num) -> None:
    """The default worker count of maps and sources, checked as MindSpore checks it (at most the
    machine's CPU threads)."""
    if not _is_int(num):
        raise TypeError("num isn't of type int.")
    if num <= 0 or num > _INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range "
                         "(0, INT32_MAX(2147483647)].")
    _state["num_parallel_workers"] = _check_workers(num)


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


def pass_rng(number: int) -> np.random.Generator:
    """The generator of the `number`-th node (or random transform) to draw in a pass over a
    pipeline: after set_seed the same in every pass (MindSpore seeds a pipeline's random
    operations from the seed each time an iterator builds it, so iterators over a seeded
    pipeline repeat one another); fresh otherwise (MindSpore's default seed, 5489, counts as
    none there)."""
    seed = mindspore_seed()
    if seed is not None:
        return np.random.default_rng([seed, 0, number])
    return np.random.default_rng()


def set_callback_timeout(timeout) -> None:
    """Seconds a `sync_wait` waits for its `sync_update` before it gives up blocking."""
    if not _is_int(timeout):
        raise TypeError("timeout isn't of type int.")
    if timeout <= 0 or timeout > _INT32_MAX:
        raise ValueError("Timeout given is not within the required range.")
    _state["callback_timeout"] = timeout


def get_callback_timeout() -> int:
    return _state["callback_timeout"]


def set_enable_autotune(enable, filepath_prefix=None) -> None:
    """Dataset AutoTune, checked as MindSpore checks it. Enabling it changes no setting here:
    cellgraph's pipeline runs in one prefetch thread, with no worker counts or queue sizes to
    tune. With `filepath_prefix`, the pipeline an iterator ran is written, when its first
    epoch ends, to `<filepath_prefix>_<RANK_ID>.json` as MindSpore's AutoTune writes it
    (remark, summary, tree), saying that no configuration changes were made."""
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    check_independent_mode("Dataset AutoTune", enable)
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
    _state["autotune"] = enable
    _state["autotune_filepath"] = filepath_prefix if enable else None


def autotune_file() -> str | None:
    """Where AutoTune writes the pipeline it ran: `<filepath_prefix>_<RANK_ID>.json`, or None
    when it writes nothing."""
    prefix = _state.get("autotune_filepath") if _state["autotune"] else None
    if prefix is None:
        return None
    return f"{prefix}_{int(os.environ.get('RANK_ID', '0') or 0)}.json"


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
    from ..debug import DebugHook, PrintMetaDataHook

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
        _seed_pipelines(1)


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


def set_monitor_sampling_interval(interval) -> None:
    """The interval (milliseconds) of MindSpore's performance monitor, kept and returned. It
    changes no result here: cellgraph's pipeline has no sampling monitor."""
    _state["monitor_sampling_interval"] = _in_range(interval, "interval", "Interval given is")


def get_monitor_sampling_interval() -> int:
    return _state["monitor_sampling_interval"]


def set_auto_num_workers(enable) -> None:
    """Whether MindSpore's engine picks each operation's worker count itself, kept and
    returned. It changes no result here: the count of workers does not change the rows or their
    order."""
    if not isinstance(enable, bool):
        raise TypeError("enable must be of type bool.")
    _state["auto_num_workers"] = enable


def get_auto_num_workers() -> bool:
    return _state["auto_num_workers"]


def set_auto_offload(offload) -> None:
    """MindSpore's automatic offload of the last map operations to the device, kept and
    returned. It changes no result here: offloaded or not, the operations compute the same
    values."""
    if not isinstance(offload, bool):
        raise TypeError("offload must be a bool dtype")
    check_independent_mode("Dataset Offload", offload)
    _state["auto_offload"] = offload


def get_auto_offload() -> bool:
    return _state["auto_offload"]


def set_enable_watchdog(enable) -> None:
    """Whether MindSpore runs a thread that ends hung worker processes, kept and returned. It
    changes no result here: cellgraph's workers are threads of the one process."""
    if not isinstance(enable, bool):
        raise TypeError("enable must be a boolean dtype.")
    _state["enable_watchdog"] = enable


def get_enable_watchdog() -> bool:
    return _state["enable_watchdog"]


def set_multiprocessing_timeout_interval(interval) -> None:
    """Seconds between MindSpore's warnings while the main process waits on a worker process,
    kept and returned. It changes no result here (a log interval)."""
    _state["multiprocessing_timeout_interval"] = _in_range(interval, "interval",
                                                           "Interval given is", ")")


def get_multiprocessing_timeout_interval() -> int:
    return _state["multiprocessing_timeout_interval"]


def set_sending_batches(batch_num) -> None:
    """The most batches MindSpore's host sends to an Ascend device in sink mode (0: no limit),
    kept. It changes no result here: cellgraph has no Ascend sink queue."""
    if not _is_int(batch_num):
        raise TypeError("batch_num must be an int dtype.")
    _state["sending_batches"] = batch_num


def set_dynamic_shape(is_dynamic) -> None:
    """Whether MindSpore's sink mode expects rows of changing shapes, kept and returned. It
    changes no result here: cellgraph's dataset feed takes each row's own shape."""
    if not isinstance(is_dynamic, bool):
        raise TypeError("is_dynamic must be a boolean dtype.")
    _state["dynamic_shape"] = is_dynamic


def get_dynamic_shape() -> bool:
    return _state["dynamic_shape"]


def set_fast_recovery(fast_recovery) -> None:
    """Whether MindSpore restarts a failed-over pipeline without replaying its random
    augmentations, kept and returned. It changes no result here: cellgraph has no failover
    recovery to run either way."""
    if not isinstance(fast_recovery, bool):
        raise TypeError("fast_recovery must be a boolean dtype.")
    _state["fast_recovery"] = fast_recovery


def get_fast_recovery() -> bool:
    return _state["fast_recovery"]


def set_numa_enable(numa_enable) -> None:
    """Whether MindSpore binds its workers to NUMA nodes, kept and returned. It changes no
    result here (where threads run)."""
    if not isinstance(numa_enable, bool):
        raise TypeError("numa_enable must be a boolean dtype.")
    _state["numa_enable"] = numa_enable


def get_numa_enable() -> bool:
    return _state["numa_enable"]


def set_iterator_mode(do_copy=False, parallel_convert=False) -> None:
    """How MindSpore's iterator builds its Tensors (copying or not, in a thread or not), kept
    and returned. It changes no result here: the rows' values are the same either way."""
    type_check(do_copy, (bool,), "do_copy")
    type_check(parallel_convert, (bool,), "parallel_convert")
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode() -> dict:
    return dict(_state["iterator_mode"])


def set_multiprocessing_start_method(start_method="fork") -> None:
    """How MindSpore starts worker processes ('fork' or 'spawn'), kept and returned. It changes
    no result here: cellgraph's workers are threads."""
    type_check(start_method, (str,), "start_method")
    if start_method not in ("fork", "spawn"):
        raise ValueError("Input start_method is not within the valid set of ['fork', 'spawn'].")
    _state["start_method"] = start_method


def get_multiprocessing_start_method() -> str:
    return _state["start_method"]


def set_video_backend(backend) -> None:
    """Where MindSpore decodes video ('CPU' or 'Ascend'), kept and returned. cellgraph decodes
    no video, so it changes no result here."""
    type_check(backend, (str,), "backend")
    if backend not in ("CPU", "Ascend"):
        raise ValueError("Input backend is not within the valid set of ['CPU', 'Ascend'].")
    _state["video_backend"] = backend


def get_video_backend() -> str:
    return _state["video_backend"]


class ErrorSamplesMode(enum.IntEnum):
    """What a map does with a row its operations fail on: RETURN raises the error, REPLACE
    sends a copy of an earlier good row in its place, SKIP drops it."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


def set_error_samples_mode(error_samples_mode) -> None:
    """How maps handle the rows their operations fail on (an ErrorSamplesMode), from the next
    iterator on."""
    type_check(error_samples_mode, (ErrorSamplesMode,), "error_samples_mode")
    _state["error_samples_mode"] = int(error_samples_mode)


def get_error_samples_mode() -> ErrorSamplesMode:
    return ErrorSamplesMode(_state["error_samples_mode"])


# the keys of a configuration file MindSpore's `load` reads, with the settings they set (in its
# order); the cache-server keys it reads are kept as read
_LOAD_KEYS = (("numParallelWorkers", "num_parallel_workers"),
              ("workerConnectorSize", "worker_connector_size"),
              ("opConnectorSize", "prefetch_size"), ("seed", "seed"),
              ("monitorSamplingInterval", "monitor_sampling_interval"),
              ("fast_recovery", "fast_recovery"), ("error_samples_mode", "error_samples_mode"),
              ("debug_mode_flag", "debug_mode"), ("start_method", "start_method"))
_LOAD_TYPES = {"fast_recovery": bool, "debug_mode": bool, "start_method": str}


def _json_kind(value) -> str:
    """The name the JSON reader MindSpore uses gives a value's type."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), "null")


def load(file) -> None:
    """Set the configuration from a JSON file with MindSpore's keys (numParallelWorkers,
    workerConnectorSize, opConnectorSize, seed, monitorSamplingInterval, fast_recovery,
    error_samples_mode, debug_mode_flag, start_method); keys it does not know are ignored, as
    MindSpore ignores them."""
    path = os.fspath(file)
    if not os.path.exists(path):
        raise pipeline_error(f"Invalid file: settings file:{path} is not exist, check input "
                             f"path of config 'load' API.")
    try:
        with open(path, encoding="utf-8") as handle:
            settings = json.load(handle)
    except (OSError, ValueError) as error:
        raise pipeline_error("Client file failed to load.") from error
    if not isinstance(settings, dict):
        raise pipeline_error("Client file failed to load.")
    updates = {}
    for key, name in _LOAD_KEYS:
        if key not in settings:
            continue
        value = settings[key]
        kind = _LOAD_TYPES.get(name, int)
        if _json_kind(value) != _json_kind(kind()):
            raise pipeline_error(f"Client file failed to load:\n[json.exception.type_error.302] "
                                 f"type must be {_json_kind(kind())}, but is "
                                 f"{_json_kind(value)}")
        if name == "num_parallel_workers":
            _check_workers(int(value))
        if kind is int:
            value = int(value)
            if name == "seed":  # MindSpore stores it as a uint32
                value %= 2 ** 32
        updates[name] = value
    if "seed" in updates:
        _state.update(seeded=True, seed_uses=0, seedings=_state.get("seedings", 0) + 1)
    _state.update(updates)
