"""Execution context: mode, device target, backend, graph dumps (`set_context(mode=GRAPH_MODE)`).

The mode starts as PYNATIVE_MODE, as MindSpore's does: a Cell's `construct` runs as Python, op by
op; GRAPH_MODE (or `jit`) compiles it. Transforms (`grad`, `value_and_grad`, `vmap`, ...)
compile the function they are given in both modes, keeping PyNative's semantics in PyNative.

`device_target="GPU"` picks a GPU backend that is installed and sees a device (PyTorch on CUDA,
then CuPy, then JAX); without one it warns once, naming what is missing, and runs on the CPU with
NumPy. `backend=` names one directly: "numpy", "torch" (PyTorch on the CPU), "torch_cuda",
"cupy", "jax" (each compiled graph as one XLA program, on JAX's default device).
"""
from __future__ import annotations

import warnings

from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, UnsupportedError

from .auto_parallel import (  # noqa: F401  (mindspore.context's names)
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)

GRAPH_MODE = 0
PYNATIVE_MODE = 1
# jit_syntax_level: how much Python MindSpore's graph compiler accepts (STRICT: its static
# graph syntax only; COMPATIBLE: also its interpreted fallbacks; LAX: as much Python as it
# can). cellgraph's front end compiles the same way at every level (constant Python evaluated
# when the graph is built, Tensor operations traced), except where MindSpore's levels give a
# program different results: below LAX `Tensor.asnumpy` in a graph is an AttributeError, and
# at STRICT a dict a construct returns comes back as the tuple of its values.
STRICT, COMPATIBLE, LAX = 0, 1, 2
SYNTAX_LEVELS = {"STRICT": STRICT, "COMPATIBLE": COMPATIBLE, "LAX": LAX}

_DEVICE_BACKENDS = {"CPU": ("numpy",), "GPU": ("torch", "cupy", "jax"), "Ascend": ()}
_state = {"mode": PYNATIVE_MODE, "device_target": "CPU", "save_graphs": False,
          "save_graphs_path": ".", "device_id": 0, "backend": "numpy",
          "loop_checkpoint": 0, "jit_syntax_level": LAX,
          # MindSpore's defaults for options programs read back with get_context
          "max_call_depth": 1000, "enable_graph_kernel": False, "deterministic": "OFF",
          "pynative_synchronize": False, "check_bprop": False, "print_file_path": ""}
_warned: set = set()
# MindSpore options that tune its own Ascend/GE back end or memory pools; they are stored (so
# get_context returns them) and a warning says once that they change nothing here.
_NO_EFFECT = frozenset({
    "ascend_config", "enable_graph_kernel", "graph_kernel_flags", "op_timeout",
    "variable_memory_max_size", "max_device_memory", "mempool_block_size",
    "enable_reduce_precision", "auto_tune_mode", "memory_offload", "memory_optimize_level",
    "precompile_only", "disable_format_transform", "jit_level", "enable_compile_cache",
    "compile_cache_path", "inter_op_parallel_num", "runtime_num_threads", "aoe_tune_mode",
    "aoe_config", "gpu_config", "enable_auto_mixed_precision",
})


# Every key MindSpore 2.10's set_context accepts (checked against it). A key outside them is
# refused, as MindSpore refuses it: a misspelt option must not be kept and silently do nothing.
_MINDSPORE_KEYS = frozenset({
    "aoe_config", "aoe_job_type", "aoe_tune_mode", "ascend_config", "auto_tune_mode",
    "bias_add_comm_swap", "check_bprop", "compile_cache_path",
    "compute_communicate_fusion_level", "conv_allow_tf32", "conv_dgrad_algo",
    "conv_fprop_algo", "conv_wgrad_algo", "cur_step_num", "dataset_broadcast_opt_level",
    "debug_level", "deterministic", "device_id", "device_target", "disable_format_transform",
    "enable_allreduce_slice_to_reducescatter", "enable_auto_mixed_precision",
    "enable_begin_end_inline_opt", "enable_compile_cache", "enable_concat_eliminate_opt",
    "enable_debug_runtime", "enable_flash_attention_load_balance", "enable_fused_cast_add_opt",
    "enable_ge", "enable_grad_comm_opt", "enable_graph_kernel",
    "enable_interleave_parallel_branch", "enable_interleave_split_concat_branch",
    "enable_offloading_packed_experts", "enable_opt_shard_comm_opt", "enable_parallel_split",
    "enable_profiling", "enable_reduce_precision", "enable_sparse", "enable_task_opt",
    "env_config_path", "exec_order", "gpu_config", "graph_kernel_flags", "hccl_watchdog",
    "infer_boost", "inter_op_parallel_num", "interleaved_layernorm_comm",
    "interleaved_matmul_comm", "jit_config", "jit_level", "jit_syntax_level",
    "last_triggered_step", "matmul_allow_tf32", "matmul_grad_comm_overlap", "max_call_depth",
    "max_device_memory", "memory_optimize_level", "mempool_block_size", "mode", "need_ckpt",
    "op_timeout", "pp_1f1b_overlap", "print_file_path", "profiling_options",
    "pynative_synchronize", "recompute_allgather_overlap_fagrad", "recompute_comm_overlap",
    "reserve_class_name_in_scope", "runtime_num_threads", "save_checkpoint_steps",
    "save_graphs", "save_graphs_path", "support_binary", "topo_order",
    "variable_memory_max_size", "memory_offload", "precompile_only",
})
# MindSpore's keys that it asks for inside ascend_config instead
_ASCEND_CONFIG_KEYS = frozenset({
    "precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32",
    "conv_allow_hf32", "op_precision_mode", "host_scheduling_max_threshold", "ge_options",
    "op_debug_option"})
# cellgraph's own keys
_OWN_KEYS = frozenset({"backend", "loop_checkpoint"})


# The types MindSpore's set_context checks before anything else (its args_type_check), with
# its TypeError; bool passes for int, as it does there.
_ARG_TYPES = {"device_id": int, "variable_memory_max_size": str, "max_device_memory": str,
              "deterministic": str, "jit_config": dict, "device_target": str,
              "print_file_path": str, "mempool_block_size": str,
              "enable_compile_cache": bool, "compile_cache_path": str,
              "inter_op_parallel_num": int, "runtime_num_threads": int}
_JIT_CONFIG_VALUES = {"jit_level": ["O0", "O1", "O2"], "infer_boost": ["on", "off"]}


def _checked_types(func):
    """set_context with MindSpore's type checks in front; `__wrapped__` is the function
    without them, as MindSpore's decorator leaves it."""
    import functools

    @functools.wraps(func)
    def wrapper(**kwargs):
        for key, value in kwargs.items():
            expected = _ARG_TYPES.get(key)
            if expected is not None and not isinstance(value, expected):
                raise ArgumentError(f"The parameter '{key}' must be {expected}, but got "
                                    f"{type(value)}")
        return func(**kwargs)

    return wrapper


def _set_deterministic_mode(value: str) -> None:
    """'ON' or 'OFF'; 'ON' sets the environment variables MindSpore sets for deterministic
    collectives and kernel compiles (HCCL_DETERMINISTIC, TE_PARALLEL_COMPILER), 'OFF'
    removes them."""
    import os

    if value not in ("ON", "OFF"):
        raise ArgumentValueError(f"For 'context.set_context', the argument 'deterministic' must "
                                 f"be one of ['ON', 'OFF'], but got {value}.")
    if value == "ON":
        os.environ["HCCL_DETERMINISTIC"] = "true"
        os.environ["TE_PARALLEL_COMPILER"] = "1"
    else:
        os.environ.pop("HCCL_DETERMINISTIC", None)
        os.environ.pop("TE_PARALLEL_COMPILER", None)


def _check_jit_config(config: dict) -> dict:
    for key, value in config.items():
        if key not in _JIT_CONFIG_VALUES:
            raise ArgumentValueError(f"For 'context.set_context', the key of argument "
                                     f"'jit_config' must be one of {_JIT_CONFIG_VALUES}, but "
                                     f"got {key}.")
        if value not in _JIT_CONFIG_VALUES[key]:
            raise ArgumentValueError(f"For 'jit_config', the value of argument {key} must be "
                                     f"one of {_JIT_CONFIG_VALUES[key]}, but got {value}.")
    if config.get("infer_boost") == "on" and config.get("jit_level", "O0") != "O0":
        raise ArgumentValueError("Only jit_level set O0 can set infer_boost to on.")
    return dict(config)


def get_jit_config() -> dict:
    """The jit_config last given to set_context ({} when none was)."""
    return dict(_state.get("jit_config") or {})


@_checked_types
def set_context(**kwargs) -> None:
    """Set mode, device_target, backend, save_graphs, save_graphs_path, loop_checkpoint (others
    are kept)."""
    for key in kwargs:
        if key in _ASCEND_CONFIG_KEYS:
            raise ArgumentValueError(f"Please set '{key}' through parameter ascend_config")
        if key not in _MINDSPORE_KEYS and key not in _OWN_KEYS:
            raise ArgumentValueError(f"For 'context.set_context', the keyword argument {key} is "
                                     f"not recognized!")
    if "device_target" in kwargs and "backend" in kwargs:  # the backend decides, so it goes last
        kwargs = dict(kwargs, backend=kwargs.pop("backend"))
    for key, value in kwargs.items():
        if key == "mode":
            if not isinstance(value, int):  # MindSpore's check: the type, then the value
                raise ArgumentError(f"The parameter 'mode' must be <class 'int'>, but got "
                                    f"{type(value)}")
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ArgumentValueError(f"For 'context.set_context', the argument 'mode' should "
                                         f"be context.GRAPH_MODE (0) or context.PYNATIVE_MODE "
                                         f"(1), but got {value!r}.")
            from cellgraph.runtime.tensor_format import PRINT_STYLE

            # print in graphs writes as MindSpore's does once the program asks for graph mode
            # (a grad function compiles in PyNative mode too, where MindSpore runs Python)
            PRINT_STYLE["graph"] = value == GRAPH_MODE
        elif key == "device_target":
            _select_device(value)
            continue
        elif key == "backend":
            _select_backend(value, kwargs.get("device_target"))
            continue
        elif key == "save_graphs":
            value = bool(value)
        elif key == "save_graphs_path":
            value = _check_dump_path(value)
        elif key == "loop_checkpoint":
            _set_loop_checkpoint(value)
        elif key == "max_call_depth":
            _set_call_depth(value)
        elif key == "jit_syntax_level":
            check_syntax_level(value, "set_context", SYNTAX_LEVELS.values())
            from cellgraph.compiler.compile_context import SYNTAX_SETTINGS

            SYNTAX_SETTINGS.level = value
        elif key == "device_id":
            if not 0 <= value <= 4095:
                raise ArgumentValueError(f"For 'context.set_context', the argument 'device_id' "
                                         f"must be in range [0, 4095], but got {value}.")
        elif key == "deterministic":
            _set_deterministic_mode(value)
        elif key == "jit_config":
            value = _check_jit_config(value)
        elif key in _NO_EFFECT and key not in _warned:
            _warned.add(key)
            warnings.warn(f"set_context({key}=...): a MindSpore compiler, memory or Ascend "
                          f"option; cellgraph has no such setting and keeps the value only for "
                          f"get_context", RuntimeWarning, stacklevel=3)
        _state[key] = value


def _set_call_depth(value) -> None:
    from cellgraph import _checkparam as validator
    from cellgraph.compiler.compile_context import CALL_DEPTH

    CALL_DEPTH.limit = validator.check_positive_int(value)


def set_recursion_limit(recursion_limit=1000) -> None:
    """How deep calls may nest while a graph is compiled (MindSpore's default 1000): deeper,
    and the compile fails with a CompileError (a RuntimeError) naming the limit. As
    MindSpore's, this leaves get_context('max_call_depth') as it was."""
    _set_call_depth(recursion_limit)


def check_syntax_level(value, where: str, allowed) -> None:
    if isinstance(value, bool) or value not in tuple(allowed):
        raise ArgumentValueError(f"{where}: jit_syntax_level must be one of "
                                 f"{', '.join(map(repr, allowed))}, got {value!r}")


def _check_dump_path(value) -> str:
    """The dump folder as an absolute path, made if missing; a bad one fails here, not at the
    first compile."""
    import os

    from cellgraph.compiler.pipeline import check_dump_dir

    if not isinstance(value, (str, os.PathLike)):
        raise ArgumentError(f"set_context: save_graphs_path must be a path, got "
                            f"{type(value).__name__} {value!r:.60}")
    path = check_dump_dir(value)
    os.makedirs(path, exist_ok=True)  # made now and kept absolute, as MindSpore does
    return path


def _set_loop_checkpoint(segment) -> None:
    """Reverse mode through Tensor `while` loops stores the state of every trip (memory: n
    states). With `loop_checkpoint=s` (s > 1) it stores one state per segment of s trips and
    replays a segment while walking it back: memory n/s + s states (least at s = sqrt(n)), for
    one more run of the loop body per trip. 0 turns it off. Graphs recompile when it changes."""
    from cellgraph.compiler.compile_context import LOOP_SETTINGS

    if isinstance(segment, bool) or not isinstance(segment, int) or segment < 0:
        raise ArgumentError(f"set_context: loop_checkpoint must be an int >= 0 (the trips per "
                            f"recorded segment; 0 = record every trip), got {segment!r}")
    LOOP_SETTINGS.checkpoint = segment if segment > 1 else 0


class _Context:
    """MindSpore's context object (`context._context()`, kept in `K_CONTEXT`): get_param and
    set_param read and write the settings get_context and set_context do."""

    def get_param(self, attr_key):
        return get_context(attr_key)

    def set_param(self, attr_key, value):
        set_context(**{attr_key: value})


K_CONTEXT = None


def _context() -> _Context:
    """The context object, made on first use."""
    global K_CONTEXT
    if K_CONTEXT is None:
        K_CONTEXT = _Context()
    return K_CONTEXT


def get_context(attr_key: str):
    if attr_key not in _state:
        # MindSpore's ValueError for it
        raise ArgumentValueError(f"For 'context.get_context', the argument {attr_key} is not "
                                 f"recognized! Known keys: " + ", ".join(sorted(_state)))
    return _state[attr_key]


# ----- parameter-server context (MindSpore's keys and defaults) ---------------------------------

_PS_DEFAULTS = {"server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0,
                "server_num": 0, "scheduler_ip": "127.0.0.1", "scheduler_port": 6667,
                "enable_ssl": False, "config_file_path": ""}
_PS_WRITE_ONLY = ("client_password", "server_password")
_ps_state = dict(_PS_DEFAULTS)


def set_ps_context(**kwargs) -> None:
    """MindSpore's parameter-server settings. cellgraph trains without parameter servers, so
    `enable_ps=True` is refused; the other keys are kept and read back by get_ps_context."""
    for key in kwargs:
        if key not in _PS_DEFAULTS and key not in _PS_WRITE_ONLY:
            raise ArgumentValueError(f"Set PS context keyword {key} is not recognized!")
    if kwargs.get("enable_ps"):
        raise UnsupportedError("set_ps_context: parameter-server training (enable_ps=True) is "
                               "not supported; train data-parallel instead")
    _ps_state.update({k: v for k, v in kwargs.items() if k in _PS_DEFAULTS})


def get_ps_context(attr_key):
    """A parameter-server setting (see set_ps_context)."""
    if attr_key not in _PS_DEFAULTS:
        raise ArgumentValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _ps_state[attr_key]


def reset_ps_context() -> None:
    """The parameter-server settings back to MindSpore's defaults."""
    _ps_state.clear()
    _ps_state.update(_PS_DEFAULTS)


def _select_device(target: str) -> None:
    from cellgraph.runtime import backend as rb
    from cellgraph.runtime import gpu

    if target not in _DEVICE_BACKENDS:
        raise ArgumentError(f"set_context: device_target must be one of CPU, GPU, Ascend, "
                            f"got {target!r}")
    _state["device_target"] = target
    if target == "Ascend":
        if target not in _warned:
            _warned.add(target)
            warnings.warn("device_target='Ascend': cellgraph has no Ascend back end; running on "
                          "the CPU with NumPy (device_target='GPU' uses PyTorch or CuPy when a "
                          "GPU is present)", RuntimeWarning, stacklevel=4)
        target = "CPU"
    if target == "CPU":
        rb.set_backend("numpy")
        _state["backend"] = "numpy"
        return
    name, reason = gpu.find_gpu_backend()
    if name is None:
        if target not in _warned:
            _warned.add(target)
            warnings.warn(f"device_target={target!r}: {reason}; running on the CPU with NumPy",
                          RuntimeWarning, stacklevel=4)
        rb.set_backend("numpy")
        _state["backend"] = "numpy"
    else:
        rb.set_backend(name)
        _state["backend"] = name


def _select_backend(name: str, device_target: str | None) -> None:
    from cellgraph.runtime import backend as rb

    try:
        backend = rb.set_backend(name)
    except (KeyError, ImportError) as e:
        raise ArgumentError(f"set_context: backend {name!r} cannot run: {e.args[0]}") from None
    if device_target is not None and device_target != backend.device:
        rb.set_backend(_state["backend"])
        raise ArgumentError(f"set_context: backend {name!r} runs on {backend.device}, got "
                            f"device_target={device_target!r}")
    _state["backend"], _state["device_target"] = name, backend.device


def is_graph_mode() -> bool:
    return _state["mode"] == GRAPH_MODE


def dump_dir() -> str | None:
    return _state["save_graphs_path"] if _state["save_graphs"] else None
