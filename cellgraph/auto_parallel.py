"""The auto-parallel context: `set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL,
gradients_mean=True)` makes TrainOneStepCell (and DistributedGradReducer) all-reduce gradients
across the processes of the job. `parallel_mode=ParallelMode.SEMI_AUTO_PARALLEL` splits the
operators the program shards (`Primitive.shard`) across the processes (the compiler's
shard_operators pass); every process reads the whole batch (MindSpore's `full_batch=True`).

`AUTO_PARALLEL` (strategy search), `search_mode`, `pipeline_stages` and
`enable_parallel_optimizer` are accepted with MindSpore's checks and read back, and a network
compiled under them is refused (compiler/sharding.check_parallel_job): after MindSpore's own
check that the `device_num` set is the number of processes the job has, which raises
RuntimeError as MindSpore's does. `HYBRID_PARALLEL` is refused when set.
"""
from __future__ import annotations

import copy
import numbers

from cellgraph.primitives.errors import ArgumentValueError, DTypeError


class ParallelMode:
    """`mindspore.ParallelMode` / `mindspore.context.ParallelMode`."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = (STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL)


SUPPORTED_MODES = (ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL,
                   ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
SEARCH_MODES = ("recursive_programming", "dynamic_programming", "sharding_propagation")
DEFAULT_BUCKET_MB = 25.0
FUSION_KINDS = ("allreduce", "allgather", "reducescatter")


def _default_comm_fusion() -> dict:
    return {"openstate": True, **{kind: {"mode": "auto", "config": None}
                                  for kind in FUSION_KINDS}}


_DEFAULTS = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False,
             "full_batch": False,
             "device_num": None, "global_rank": None, "parameter_broadcast": False,
             "comm_fusion": _default_comm_fusion(), "all_reduce_fusion_config": [],
             "strategy_ckpt_save_file": "", "dataset_strategy": "data_parallel",
             "search_mode": "recursive_programming", "pipeline_stages": 1,
             "enable_parallel_optimizer": False, "enable_all_reduce_fusion": True,
             "enable_all_gather_fusion": False, "enable_reduce_scatter_fusion": False,
             "strategy_ckpt_config": {"load_file": "", "save_file": "",
                                      "only_trainable_params": True},
             "gradient_fp32_sync": True, "communi_parallel_mode": "all_group_parallel",
             "optimizer_weight_shard_aggregated_save": False,
             "pipeline_config": {"pipeline_interleave": False, "pipeline_scheduler": "1f1b"},
             "parameter_broadcast_is_set": False,
             # parallel_optimizer_config's settings (read back one by one, as MindSpore's)
             "gradient_accumulation_shard": False, "parallel_optimizer_threshold": -1,
             "optimizer_weight_shard_size": -1, "optimizer_level": "level1",
             # set_op_strategy_config's (mode, path, kind): where strategy search would save or
             # load the operators' strategies (auto_parallel, refused at compile)
             "ops_strategy_json_config": None}
_state = dict(_DEFAULTS)


def _parallel_mode(value):
    if not isinstance(value, str) or value not in ParallelMode.MODE_LIST:
        raise ArgumentValueError(f"set_auto_parallel_context: parallel_mode must be one of "
                                 f"{', '.join(ParallelMode.MODE_LIST)}, got {value!r}")
    if value not in SUPPORTED_MODES:
        raise ArgumentValueError(f"set_auto_parallel_context: parallel_mode {value!r} is not "
                                 f"supported; cellgraph runs {' and '.join(SUPPORTED_MODES)}")
    return value


def _flag(key):
    def check(value):
        if not isinstance(value, bool):
            raise DTypeError(f"set_auto_parallel_context: {key} must be a bool, got {value!r}")
        return value
    return check


def _count(key, low):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise DTypeError(f"set_auto_parallel_context: {key} must be an int, got {value!r}")
        if value < low:
            raise ArgumentValueError(f"set_auto_parallel_context: {key} must be >= {low}, "
                                     f"got {value}")
        return int(value)
    return check


def _global_rank(value):
    rank = _count("global_rank", 0)(value)
    if rank > 4095:
        raise ArgumentValueError(f"The context configuration parameter 'global_rank' must be in "
                                 f"[0, 4095], but got the value of global_rank : {rank}.")
    return rank


def _dataset_strategy(value):
    """"full_batch" (every process reads the whole batch), "data_parallel" (its share), one
    parallel.Layout per input (kept as given; none may use interleaved_parallel), or one split
    per input (a tuple of tuples of ints), kept as MindSpore keeps it: lists.
    MindSpore's checks in its order and words."""
    if isinstance(value, str):
        if value not in ("full_batch", "data_parallel"):
            raise ArgumentValueError(f"For 'set_auto_parallel_context', the argument "
                                     f"'dataset_strategy' must be 'full_batch' or "
                                     f"'data_parallel', but got the value : {value}.")
        return value
    if not isinstance(value, tuple):
        raise DTypeError(f"For 'set_auto_parallel_context', the argument 'dataset_strategy' "
                         f"must be str or tuple type, but got the type : {type(value)}.")
    from cellgraph.parallel.shard import Layout

    if value and isinstance(value[0], Layout):
        for layout in value:
            if not isinstance(layout, Layout):
                raise DTypeError(f"All the dataset_strategy elements should be Layout, but got "
                                 f"{type(layout)}")
            if layout.to_dict()["interleaved_parallel"]:
                raise ArgumentValueError("For dataset_strategy, layout does not support "
                                         "interleaved_parallel")
        return value
    for split in value:
        if not isinstance(split, tuple):
            raise DTypeError(f"For 'set_auto_parallel_context', the element of argument "
                             f"'dataset_strategy' must be tuple, but got the type : "
                             f"{type(split)} .")
        for dim in split:
            if not isinstance(dim, int):
                raise DTypeError(f"For 'set_auto_parallel_context', the element of argument "
                                 f"'dataset_strategy' must be int type, but got the type : "
                                 f"{type(dim)} .")
    return [list(v) for v in value]


def _typed(key, kind):
    """MindSpore's argument type check of set_auto_parallel_context (args_type_check)."""
    def check(value):
        if not isinstance(value, kind):
            raise DTypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
        return value
    return check


COMMUNI_PARALLEL_MODES = ("all_group_parallel", "same_server_group_parallel",
                          "no_group_parallel")
PIPELINE_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _communi_parallel_mode(value):
    """How Ascend's streams run the communications of different groups; one order of every
    collective in program order, as cellgraph runs them, gives the same values."""
    _typed("communi_parallel_mode", str)(value)
    if value not in COMMUNI_PARALLEL_MODES:
        raise ArgumentValueError(f"For 'set_auto_parallel_context().set_communi_parallel_mode', "
                                 f"the argument 'communi_parallel_mode' only support "
                                 f"'ALL_GROUP_PARALLEL', 'SAME_SEVER_GROUP_PARALLEL' and "
                                 f"'NO_GROUP_PARALLEL', but got the value : {value}.")
    return value


def _pipeline_config(value):
    """{"pipeline_interleave": bool, "pipeline_scheduler": name}: the schedule of pipeline
    stages (pipeline_stages > 1, which a compile refuses)."""
    _typed("pipeline_config", dict)(value)
    unknown = [k for k in value if k not in ("pipeline_interleave", "pipeline_scheduler")]
    if unknown:
        raise ArgumentValueError(f"Unknown config: {unknown}")
    interleave, scheduler = value["pipeline_interleave"], value["pipeline_scheduler"]
    if not isinstance(interleave, bool):
        raise DTypeError(f"For 'pipeline_interleave', the 'pipeline_interleave' must be a bool, "
                         f"but got {type(interleave).__name__}.")
    if scheduler not in PIPELINE_SCHEDULERS:
        raise ArgumentValueError(f"The 'parameter' must be str and must be in "
                                 f"'{list(PIPELINE_SCHEDULERS)}', but got '{scheduler}'.")
    if not interleave and scheduler != "1f1b":
        raise DTypeError(f"When pipeline_interleave is False, {scheduler!r} is not supported, "
                         f"only '1f1b' is allowed.")
    return {"pipeline_interleave": interleave, "pipeline_scheduler": scheduler}


def _parallel_optimizer_config(value) -> dict:
    """The parallel optimizer's settings (gradient_accumulation_shard,
    parallel_optimizer_threshold, optimizer_weight_shard_size, optimizer_level) with MindSpore's
    checks; read back, since the parallel optimizer itself is refused (nn.Optimizer, and the
    compile in semi_auto/auto parallel)."""
    _typed("parallel_optimizer_config", dict)(value)
    known = ("gradient_accumulation_shard", "parallel_optimizer_threshold",
             "optimizer_weight_shard_size", "optimizer_level")
    unknown = [k for k in value if k not in known]
    if unknown:
        raise ArgumentValueError(f"Unknown config: {unknown}")
    updates = {}
    level = value.get("optimizer_level")
    if "gradient_accumulation_shard" in value:
        shard = value["gradient_accumulation_shard"]
        if not isinstance(shard, bool):
            raise DTypeError(f"For 'gradient_accumulation_shard', the "
                             f"'gradient_accumulation_shard' must be a bool, but got "
                             f"{type(shard).__name__}.")
        if level is not None and level != "level2":
            raise ArgumentValueError(f"The optimizer_level is set as {level}, thus cannot set "
                                     f"grad_accumulation_shard as True.")
        updates["gradient_accumulation_shard"] = shard
    for key, low in (("parallel_optimizer_threshold", 0), ("optimizer_weight_shard_size", 1)):
        if key not in value or (key == "optimizer_weight_shard_size" and value[key] == -1):
            continue
        number = value[key]
        if isinstance(number, bool) or not isinstance(number, int):
            raise DTypeError(f"For '{key}', the input value must be int, but got "
                             f"'{type(number).__name__}'")
        if number < low:
            raise ArgumentValueError(f"For '{key}', the input value must be int and must "
                                     f"{'>=' if low == 0 else '>'} 0, but got '{number}' with "
                                     f"type 'int'.")
        updates[key] = number
    if level is not None:
        if level not in ("level1", "level2", "level3"):
            raise ArgumentValueError(f"Optimizer level should in ['level1', 'level2', "
                                     f"'level3'], but got {level}")
        if updates.get("gradient_accumulation_shard", _state["gradient_accumulation_shard"]) \
                and level != "level2":
            raise ArgumentValueError("The grad_accumulation shard is set, thus cannot set "
                                     "optimizer_level != 'level2'")
        if level == "level2":
            updates["gradient_accumulation_shard"] = True
        updates["optimizer_level"] = level
    return updates


def _search_mode(value):
    if value not in SEARCH_MODES:
        raise ArgumentValueError(f"The context configuration parameter "
                                 f"'auto_parallel_search_mode' only support "
                                 f"'recursive_programming', 'dynamic_programming' and "
                                 f"'sharding_propagation', but got the value: {value}.")
    return value


def _pipeline_stages(value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"For 'set_auto_parallel_context', the argument 'pipeline_stages' "
                         f"must be int, but got the type : {type(value)}.")
    if value < 1:
        raise ArgumentValueError(f"For 'set_auto_parallel_context', the argument "
                                 f"'pipeline_stages' should be greater or equal 1, but got the "
                                 f"value of stages : {value}.")
    return int(value)


def _fusion_threshold(value):
    """A size mode's config: a whole number of MB, at least 0 (MindSpore's context takes an
    int there)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"For 'comm_fusion', the 'size' mode's config must be an int (MB), "
                         f"but got the type : {type(value)}.")
    if value < 0:
        raise ArgumentValueError(f"fusion threshold must be larger than 0, but got {value}")
    return int(value)


def _fusion_kind(kind: str, setting) -> dict:
    """One kind's {"mode", "config"}: auto or size for all three, index (the parameter
    indices where a bucket closes, all_reduce_fusion_config) for allreduce too."""
    if not isinstance(setting, dict):
        raise DTypeError(f"For 'comm_fusion', the '{kind}' config must be dict, but got the "
                         f"type : {type(setting)}.")
    for key in ("mode", "config"):
        if key not in setting:
            raise KeyError(f"For 'comm_fusion', the key '{key}' should be contained.")
    modes = ("auto", "index", "size") if kind == "allreduce" else ("auto", "size")
    if setting["mode"] not in modes:
        raise KeyError(f"fusion method mode must be {', '.join(modes[:-1])} or {modes[-1]}, "
                       f"but got {setting['mode']}")
    if setting["mode"] == "size":
        _fusion_threshold(setting["config"])
    elif setting["mode"] == "index":
        _split_indices(setting["config"])
    return setting


def _comm_fusion(value) -> dict:
    """The context's state after setting comm_fusion: its kinds are taken in the order given
    ("openstate" last when missing, True); each one set replaces that kind of the whole
    setting, which get_auto_parallel_context reads back with all four keys. Setting a kind
    turns its fusion on, openstate False turns all three off, and allreduce's index mode sets
    all_reduce_fusion_config."""
    if not isinstance(value, dict):
        raise DTypeError(f"The parameter 'comm_fusion' must be {dict}, but got {type(value)}")
    config = copy.deepcopy(_state["comm_fusion"])
    switches = {kind: f"enable_{name}_fusion" for kind, name in zip(
        FUSION_KINDS, ("all_reduce", "all_gather", "reduce_scatter"))}
    updates = {key: _state[key] for key in switches.values()}
    for kind, setting in {**value, "openstate": value.get("openstate", True)}.items():
        if kind == "openstate":
            if not isinstance(setting, bool):
                raise DTypeError(f"For 'comm_fusion', the 'openstate' must be bool, but got "
                                 f"the type : {type(setting)}.")
            if not setting:
                updates.update(dict.fromkeys(switches.values(), False))
        elif kind in FUSION_KINDS:
            _fusion_kind(kind, setting)
            updates[switches[kind]] = True
            if kind == "allreduce" and setting["mode"] == "index":
                updates["all_reduce_fusion_config"] = list(setting["config"])
        else:
            raise KeyError(f"comm fusion type must be openstate,allreduce, allgather or "
                           f"reducescatter, but got {kind}")
        config[kind] = copy.deepcopy(setting)
    return {**updates, "comm_fusion": config}


def _split_indices(value):
    """all_reduce_fusion_config: ascending parameter indices where a new bucket starts."""
    where = "For 'set_auto_parallel_context().set_all_reduce_fusion_split_indices', the argument"
    if not value:
        raise ArgumentValueError(f"{where} 'indices' can not be empty")
    if not isinstance(value, list):
        raise DTypeError(f"{where} 'indices' must be list, but got the type : {type(value)} .")
    for index in value:
        if isinstance(index, bool) or not isinstance(index, int):
            raise DTypeError(f"{where} 'index' must be int, but got the type : {type(index)} .")
    if len(set(value)) != len(value):
        raise ArgumentValueError("The indices has duplicate elements")
    if sorted(value) != value:
        raise ArgumentValueError(f"{where.replace(' the argument', '')}, the elements in "
                                 f"argument 'indices' must be sorted in ascending order")
    return list(value)


def _save_file(value):
    if not isinstance(value, str):
        raise DTypeError(f"set_auto_parallel_context: strategy_ckpt_save_file must be str, "
                         f"got {type(value).__name__}")
    return value


def _strategy_ckpt_config(value):
    """MindSpore's {"load_file", "save_file", "only_trainable_params"}; a load_file (running
    the operators with the strategies of another run) is not supported."""
    if not isinstance(value, dict):
        raise DTypeError(f"For 'set_auto_parallel_context', the argument 'strategy_ckpt_config' "
                         f"must be dict, but got the type : {type(value)}.")
    unknown = [k for k in value if k not in ("load_file", "save_file", "only_trainable_params")]
    if unknown:
        raise ArgumentValueError(f"Unknown config: {unknown}")
    config = dict(_state["strategy_ckpt_config"])
    for key in ("load_file", "save_file"):
        if key in value and not isinstance(value[key], str):
            raise DTypeError(f"For 'set_auto_parallel_context().set_strategy_ckpt_config', the "
                             f"argument '{key}' must be str, but got the type : "
                             f"{type(value[key])} .")
    if "only_trainable_params" in value and not isinstance(value["only_trainable_params"], bool):
        raise DTypeError("For 'set_auto_parallel_context().set_strategy_ckpt_config', the "
                         "argument 'only_trainable_params' must be bool, but got the type : "
                         f"{type(value['only_trainable_params'])} .")
    if value.get("load_file"):
        raise ArgumentValueError("set_auto_parallel_context: strategy_ckpt_config's load_file "
                                 "(operators run with a saved run's strategies) is not "
                                 "supported; give the strategies with Primitive.shard")
    config.update(value)
    return config


_CHECKS = {"parallel_mode": _parallel_mode, "gradients_mean": _flag("gradients_mean"),
           "device_num": _count("device_num", 1), "global_rank": _global_rank,
           "parameter_broadcast": _flag("parameter_broadcast"), "comm_fusion": _comm_fusion,
           "full_batch": _flag("full_batch"), "dataset_strategy": _dataset_strategy,
           "search_mode": _search_mode, "pipeline_stages": _pipeline_stages,
           "enable_parallel_optimizer": _flag("enable_parallel_optimizer"),
           "all_reduce_fusion_config": _split_indices,
           "strategy_ckpt_save_file": _save_file, "strategy_ckpt_config": _strategy_ckpt_config,
           "gradient_fp32_sync": _typed("gradient_fp32_sync", bool),
           "communi_parallel_mode": _communi_parallel_mode,
           "optimizer_weight_shard_aggregated_save": _typed(
               "optimizer_weight_shard_aggregated_save", bool),
           "pipeline_config": _pipeline_config,
           "parallel_optimizer_config": _parallel_optimizer_config}
# keys whose setting changes other keys too: the check returns every key's new value
_SETTINGS_OF_ONE_KEY = {"comm_fusion": _comm_fusion,
                        "parallel_optimizer_config": _parallel_optimizer_config}


def set_auto_parallel_context(**kwargs) -> None:
    """Set parallel_mode, gradients_mean, device_num, global_rank, parameter_broadcast,
    comm_fusion (bucket size), all_reduce_fusion_config (bucket boundaries), full_batch
    (in semi_auto_parallel every process reads the whole batch, whatever it says) and
    strategy_ckpt_save_file / strategy_ckpt_config (the file a sharded run writes its
    parameters' layouts to: train/strategy_file.py), dataset_strategy (full_batch's other
    spelling), gradient_fp32_sync (in semi_auto_parallel, half-precision gradients are
    all-reduced in float32), communi_parallel_mode (read back: how Ascend's streams overlap
    groups' communications, no effect on values), and search_mode, pipeline_stages,
    pipeline_config, enable_parallel_optimizer, optimizer_weight_shard_aggregated_save (read
    back; a network compiled in semi_auto/auto parallel under pipeline stages or the parallel
    optimizer is refused); MindSpore's other keys configure modes cellgraph does not run."""
    for key in kwargs:
        if key not in _CHECKS:
            raise ArgumentValueError(f"set_auto_parallel_context: {key!r} is not supported; "
                                     f"cellgraph supports {', '.join(sorted(_CHECKS))}")
    updates = {}
    for key, value in kwargs.items():
        if key in _SETTINGS_OF_ONE_KEY:
            updates.update(_SETTINGS_OF_ONE_KEY[key](value))
        else:
            updates[key] = _CHECKS[key](value)
    _state.update(updates)
    if "parameter_broadcast" in kwargs:
        _state["parameter_broadcast_is_set"] = True
    if "strategy_ckpt_save_file" in kwargs:  # the two spellings of one setting
        _state["strategy_ckpt_config"] = {**_state["strategy_ckpt_config"],
                                          "save_file": _state["strategy_ckpt_save_file"]}
    elif "strategy_ckpt_config" in kwargs:
        _state["strategy_ckpt_save_file"] = _state["strategy_ckpt_config"]["save_file"]
    if "dataset_strategy" in kwargs:  # full_batch is the str spelling's other name
        _state["full_batch"] = _state["dataset_strategy"] == "full_batch"
    elif "full_batch" in kwargs:
        _state["dataset_strategy"] = "full_batch" if _state["full_batch"] else "data_parallel"
    _sync_sharding_settings()
    _install_strategy_writer()


def set_ops_strategy_json_config(mode: str, path: str, kind: str) -> None:
    _state["ops_strategy_json_config"] = (mode, path, kind)


def set_enable_fusion(name: str, enable: bool) -> None:
    """Whether the collectives `name` ("all_reduce", "all_gather", "reduce_scatter") are fused:
    all_reduce's decides whether data parallelism packs the gradients into buckets
    (comm_fusion's size) or all-reduces each on its own; the other two are read back
    (cellgraph's sharding issues each all-gather and reduce-scatter on its own)."""
    if not isinstance(enable, bool):
        raise DTypeError(f"For 'set_auto_parallel_context().set_enable_{name}_fusion', the "
                         f"argument 'enable_fusion' must be bool, but got the type : "
                         f"{type(enable)}.")
    _state[f"enable_{name}_fusion"] = enable


def enable_fusion(name: str) -> bool:
    return _state[f"enable_{name}_fusion"]


def _sync_sharding_settings() -> None:
    settings = _sharding_settings()
    settings.semi_auto = _state["parallel_mode"] == ParallelMode.SEMI_AUTO_PARALLEL
    settings.parallel_mode = _state["parallel_mode"]
    settings.device_num = _state["device_num"]
    settings.pipeline_stages = _state["pipeline_stages"]
    settings.parallel_optimizer = _state["enable_parallel_optimizer"]
    settings.full_batch = _state["full_batch"]
    settings.dataset_strategy_set = not isinstance(_state["dataset_strategy"], str)
    settings.gradient_fp32_sync = _state["gradient_fp32_sync"]


def _write_strategy_file(layouts: dict) -> None:
    """Write the strategy file a sharded graph's layouts go to (strategy_ckpt_save_file)."""
    config = _state["strategy_ckpt_config"]
    if config["save_file"]:
        from cellgraph.train import strategy_file

        strategy_file.save(config["save_file"], layouts, config["only_trainable_params"])


def _install_strategy_writer() -> None:
    from cellgraph.runtime import sharded_parameters

    if _write_strategy_file not in sharded_parameters.ON_NEW_LAYOUTS:
        sharded_parameters.ON_NEW_LAYOUTS.append(_write_strategy_file)
    if _state["strategy_ckpt_config"]["save_file"] and sharded_parameters.LAYOUTS:
        _write_strategy_file(dict(sharded_parameters.LAYOUTS))


def _sharding_settings():
    from cellgraph.compiler.sharding import SETTINGS

    return SETTINGS


def get_auto_parallel_context(attr_key: str):
    """The value of one key; device_num and global_rank default to the job's size and rank."""
    if attr_key not in _CHECKS:
        raise ArgumentValueError(f"get_auto_parallel_context: unknown key {attr_key!r}; known "
                                 f"keys: {', '.join(sorted(_CHECKS))}")
    if attr_key not in _state:  # set only; its settings are read back one by one
        raise ArgumentValueError(f"Get context keyword {attr_key} is not recognized!")
    value = _state[attr_key]
    if value is None and attr_key in ("device_num", "global_rank"):
        return _from_job(attr_key)
    return value


def _from_job(key: str) -> int:
    from cellgraph.runtime import distributed

    if not distributed.is_initialized():
        return 1 if key == "device_num" else 0
    rank, size = distributed.group_rank_and_size(distributed.WORLD_NAMES[0])
    return size if key == "device_num" else rank


def reset_auto_parallel_context() -> None:
    """Back to stand-alone training with the defaults."""
    _state.clear()
    _state.update(_DEFAULTS)
    _state["strategy_ckpt_config"] = dict(_DEFAULTS["strategy_ckpt_config"])
    _state["comm_fusion"] = _default_comm_fusion()
    _state["pipeline_config"] = dict(_DEFAULTS["pipeline_config"])
    _sync_sharding_settings()


def is_data_parallel() -> bool:
    return _state["parallel_mode"] == ParallelMode.DATA_PARALLEL


def bucket_bytes() -> int:
    """The gradient bucket size comm_fusion asks for (25 MB unless set; 0, one gradient a
    bucket, when all-reduce fusion is off)."""
    if not _state["enable_all_reduce_fusion"]:
        return 0
    setting = _state["comm_fusion"]["allreduce"]
    mb = setting["config"] if setting["mode"] == "size" else DEFAULT_BUCKET_MB
    return int(mb * 2**20)
