"""cellgraph: a graph-mode compiler for MindSpore-style nn.Cell programs.

`import cellgraph as ms` gives the MindSpore names: Tensor, Parameter, ParameterTuple, dtypes,
context/set_context, nn, ops, grad, value_and_grad, jit and numpy.

Importing the package loads only the dtypes and the errors. Every other name loads its module
on first use (`__getattr__` below), so `import cellgraph` stays fast however large the API
grows, and importing the op core (cellgraph.primitives, .compiler, .runtime) never loads the
API layer.
"""
import importlib as _importlib

from cellgraph.primitives import dtype
from cellgraph.primitives.dtype import (
    bfloat16,
    bool_,
    complex64,
    complex128,
    double,
    float8_e4m3fn,
    float8_e5m2,
    float16,
    float32,
    float64,
    float_,
    half,
    int8,
    int16,
    int32,
    int64,
    int_,
    single,
    uint8,
    uint16,
    uint32,
    uint64,
)
from cellgraph.primitives.errors import CellgraphError, CompileError  # noqa: F401

Type = dtype.DType

# name -> (module, attribute in it; None for the module itself)
_LAZY = {
    **{name: (f"cellgraph.{name}", None) for name in (
        "amp", "boost", "common", "communication", "context", "dataset", "experimental", "hal",
        "log", "mindrecord", "mint", "nn", "numpy", "onnx", "ops", "parallel", "profiler",
        "train")},
    **{name: ("cellgraph.runtime.tensor", name) for name in (
        "Parameter", "ParameterTuple", "Tensor", "tensor")},
    **{name: ("cellgraph.auto_parallel", name) for name in (
        "ParallelMode", "get_auto_parallel_context", "reset_auto_parallel_context",
        "set_auto_parallel_context")},
    **{name: ("cellgraph.autograd", name) for name in (
        "GradOperation", "get_grad", "grad", "value_and_grad")},
    "mutable": ("cellgraph.common.mutable", "mutable"),
    **{name: ("cellgraph.common.dtype", name) for name in (
        "dtype_to_nptype", "dtype_to_pytype", "get_py_obj_dtype", "pytype_to_dtype")},
    **{name: ("cellgraph.common.seed", name) for name in (
        "get_rng_state", "get_seed", "manual_seed", "set_rng_state", "set_seed")},
    **{name: ("cellgraph.context", name) for name in (
        "COMPATIBLE", "GRAPH_MODE", "LAX", "PYNATIVE_MODE", "STRICT", "get_context",
        "set_context")},
    **{name: ("cellgraph.device", name) for name in (
        "export", "get_current_device", "load", "set_device")},
    **{name: ("cellgraph.forward", name) for name in ("jvp", "linearize", "vjp")},
    **{name: ("cellgraph.gradient_hooks", name) for name in ("HookBackward", "InsertGradientOf")},
    "dump_ir": ("cellgraph.inspect_ir", "dump_ir"),
    **{name: ("cellgraph.jit_decorators", name) for name in (
        "JitConfig", "jit", "jit_class", "lazy_inline", "ms_class", "ms_function")},
    "COOTensor": ("cellgraph.sparse", "COOTensor"),
    **{name: ("cellgraph.taylor", name) for name in ("derivative", "jet")},
    **{name: ("cellgraph.train", name) for name in (
        "Callback", "CheckpointConfig", "DynamicLossScaleManager", "EarlyStopping",
        "FixedLossScaleManager", "History", "LambdaCallback", "LearningRateScheduler",
        "LossMonitor", "LossScaleManager", "Model", "ModelCheckpoint", "ReduceLROnPlateau",
        "RunContext", "SummaryCollector", "SummaryRecord", "TimeMonitor", "data_sink")},
    "load_distributed_checkpoint": ("cellgraph.train.distributed_checkpoint",
                                    "load_distributed_checkpoint"),
    **{name: ("cellgraph.train.safetensors", name) for name in (
        "ckpt_to_safetensors", "safetensors_to_ckpt")},
    **{name: ("cellgraph.train.serialization", name) for name in (
        "load_checkpoint", "load_param_into_net", "save_checkpoint")},
    **{name: ("cellgraph.vectorize", name) for name in ("hessian", "jacfwd", "jacrev", "vmap")},
    "Layout": ("cellgraph.parallel", "Layout"),
    "build_train_network": ("cellgraph.amp", "build_train_network"),
    "Profiler": ("cellgraph.profiler", "Profiler"),
}


def __getattr__(name: str):
    """Load a public name's module on first use; the name is then a plain attribute."""
    if name == "from_numpy":
        value = __getattr__("Tensor").from_numpy
    elif name in _LAZY:
        module, attr = _LAZY[name]
        value = _importlib.import_module(module)
        if attr is not None:
            value = getattr(value, attr)
    else:
        raise AttributeError(f"module 'cellgraph' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"from_numpy"})


__version__ = "0.1.0"
__all__ = [
    "COMPATIBLE",
    "GRAPH_MODE",
    "LAX",
    "PYNATIVE_MODE",
    "STRICT",
    "COOTensor",
    "Callback",
    "CheckpointConfig",
    "DynamicLossScaleManager",
    "EarlyStopping",
    "FixedLossScaleManager",
    "GradOperation",
    "History",
    "JitConfig",
    "LambdaCallback",
    "Layout",
    "LearningRateScheduler",
    "LossMonitor",
    "LossScaleManager",
    "Model",
    "ModelCheckpoint",
    "ParallelMode",
    "Parameter",
    "ParameterTuple",
    "Profiler",
    "ReduceLROnPlateau",
    "RunContext",
    "SummaryCollector",
    "SummaryRecord",
    "Tensor",
    "TimeMonitor",
    "amp",
    "bfloat16",
    "bool_",
    "boost",
    "build_train_network",
    "ckpt_to_safetensors",
    "common",
    "communication",
    "complex64",
    "complex128",
    "context",
    "data_sink",
    "dataset",
    "double",
    "dtype",
    "dtype_to_nptype",
    "dtype_to_pytype",
    "dump_ir",
    "experimental",
    "export",
    "float8_e4m3fn",
    "float8_e5m2",
    "float16",
    "float32",
    "float64",
    "float_",
    "from_numpy",
    "get_auto_parallel_context",
    "get_context",
    "get_current_device",
    "get_grad",
    "get_py_obj_dtype",
    "get_rng_state",
    "get_seed",
    "grad",
    "hal",
    "half",
    "hessian",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "jacfwd",
    "jacrev",
    "jit",
    "jit_class",
    "jvp",
    "lazy_inline",
    "load",
    "load_checkpoint",
    "load_distributed_checkpoint",
    "load_param_into_net",
    "log",
    "manual_seed",
    "mindrecord",
    "mint",
    "ms_class",
    "ms_function",
    "mutable",
    "nn",
    "numpy",
    "ops",
    "parallel",
    "profiler",
    "pytype_to_dtype",
    "reset_auto_parallel_context",
    "safetensors_to_ckpt",
    "save_checkpoint",
    "set_auto_parallel_context",
    "set_context",
    "set_device",
    "set_rng_state",
    "set_seed",
    "single",
    "tensor",
    "train",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "value_and_grad",
    "vjp",
    "vmap",
]
