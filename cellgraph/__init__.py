"""cellgraph: a graph-mode compiler for MindSpore-style nn.Cell programs.

`import cellgraph as ms` gives the MindSpore names: Tensor, Parameter, ParameterTuple, dtypes,
context/set_context, nn, ops, grad, value_and_grad, jit and numpy.
"""
from cellgraph import runtime as _runtime  # noqa: F401  (registers the eager runtime)
from cellgraph.compiler import choice as _choice
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
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor, tensor

from . import amp, common, communication, context, dataset, log, nn, numpy, ops, train
from . import loops as _loops
from .amp import build_train_network
from .auto_parallel import (
    ParallelMode,
    get_auto_parallel_context,
    reset_auto_parallel_context,
    set_auto_parallel_context,
)
from .autograd import GradOperation, get_grad, grad, value_and_grad
from .common import apply_ops as _apply_ops
from .common import assign as _assign
from .common.mutable import mutable
from .common.seed import get_rng_state, get_seed, manual_seed, set_rng_state, set_seed
from .context import COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, get_context, set_context
from .device import export, get_current_device, load, set_device
from .forward import jvp, linearize, vjp
from .gradient_hooks import HookBackward, InsertGradientOf
from .inspect_ir import dump_ir
from .jit import JitConfig, jit, jit_class, lazy_inline, ms_class, ms_function
from .sparse import COOTensor
from .taylor import derivative, jet
from .train import (
    Callback,
    CheckpointConfig,
    DynamicLossScaleManager,
    EarlyStopping,
    FixedLossScaleManager,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    LossScaleManager,
    Model,
    ModelCheckpoint,
    ReduceLROnPlateau,
    RunContext,
    SummaryCollector,
    SummaryRecord,
    TimeMonitor,
    data_sink,
)
from .train.distributed_checkpoint import load_distributed_checkpoint
from .train.safetensors import ckpt_to_safetensors, safetensors_to_ckpt
from .train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from .vmap import hessian, jacfwd, jacrev, vmap

# The differentiation APIs belong to `ops` in MindSpore but need the compiler, which sits above
# the ops package; they join its namespace here, once everything is importable.
ops.GradOperation = GradOperation
ops.grad = grad
ops.value_and_grad = value_and_grad
ops.get_grad = get_grad
ops.functional.grad = grad
ops.functional.value_and_grad = value_and_grad
ops.jvp = ops.functional.jvp = jvp
ops.vjp = ops.functional.vjp = vjp
ops.linearize = ops.functional.linearize = linearize
ops.jet = ops.functional.jet = jet
ops.derivative = ops.functional.derivative = derivative
ops.vmap = ops.functional.vmap = vmap
ops.jacrev = ops.functional.jacrev = jacrev
ops.jacfwd = ops.functional.jacfwd = jacfwd
ops.hessian = ops.functional.hessian = hessian
ops.InsertGradientOf, ops.HookBackward = InsertGradientOf, HookBackward
ops.switch = ops.functional.switch = _choice.switch  # a run-time choice needs the compiler
# So do MindSpore's functional loops, which trace their functions into loop graphs.
ops.WhileLoop, ops.ForiLoop, ops.Scan = _loops.WhileLoop, _loops.ForiLoop, _loops.Scan
# Parameter updates need the graph builder too (an assignment inside a graph is recorded there).
for _name in _assign.__all__:
    setattr(ops, _name, getattr(_assign, _name))
    setattr(ops.functional, _name, getattr(_assign, _name))
for _name in _apply_ops.__all__:  # the in-place update classes: ops.ApplyMomentum(), ...
    setattr(ops, _name, getattr(_apply_ops, _name))
del _name
ops.Tensor = Tensor  # MindSpore's ops package re-exports the Tensor class
# The summary operations keep values for train.SummaryRecord, which sits above the ops package.
for _name in ("ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary"):
    setattr(ops, _name, getattr(train.summary, _name))
    setattr(ops.operations, _name, getattr(train.summary, _name))
del _name
# ops.composite, ops.function and the composite functional names (HyperMap, partial, ...) sit
# above the compiler for the same reason; ops_surface mounts them into the ops namespace.
from . import ops_surface as _ops_surface

_ops_surface.mount()
# MindSpore's `ops.operations` (`P.Assign()`, `P.AddN()`) holds every primitive class `ops` has,
# wherever it is defined (declarations, composites, the state and loop operations above).
for _name, _value in list(vars(ops).items()):
    if _name[:1].isupper() and isinstance(_value, type) and not hasattr(ops.operations, _name):
        setattr(ops.operations, _name, _value)
del _name, _value
from . import ops_paths as _ops_paths

_ops_paths.mount()  # ops.operations.math_ops, .array_ops, .nn_ops
from . import boost, experimental, hal, mindrecord, mint, parallel, profiler
from .parallel import Layout
from .profiler import Profiler

Type = dtype.DType
from_numpy = Tensor.from_numpy

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
