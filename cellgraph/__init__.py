"""cellgraph: a graph-mode compiler for MindSpore-style nn.Cell programs.

`import cellgraph as ms` gives the MindSpore names: Tensor, Parameter, ParameterTuple, dtypes,
context/set_context, nn, ops, grad, value_and_grad, jit and numpy.
"""
from cellgraph import runtime as _runtime  # noqa: F401  (registers the eager runtime)
from cellgraph.ops import dtype
from cellgraph.ops.dtype import (
    bfloat16,
    bool_,
    double,
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
)
from cellgraph.ops.errors import CellgraphError, CompileError  # noqa: F401
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from . import amp, context, dataset, nn, numpy, ops, train
from . import loops as _loops
from .autograd import GradOperation, get_grad, grad, value_and_grad
from .common import assign as _assign
from .common.seed import get_seed, set_seed
from .context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
from .forward import jvp, vjp
from .inspect_ir import dump_ir
from .jit import jit, ms_function
from .train import (
    Callback,
    CheckpointConfig,
    DynamicLossScaleManager,
    EarlyStopping,
    FixedLossScaleManager,
    History,
    LambdaCallback,
    LossMonitor,
    LossScaleManager,
    Model,
    ModelCheckpoint,
    RunContext,
    TimeMonitor,
    data_sink,
)
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
ops.vmap = ops.functional.vmap = vmap
ops.jacrev = ops.functional.jacrev = jacrev
ops.jacfwd = ops.functional.jacfwd = jacfwd
ops.hessian = ops.functional.hessian = hessian
# So do MindSpore's functional loops, which trace their functions into loop graphs.
ops.WhileLoop, ops.ForiLoop, ops.Scan = _loops.WhileLoop, _loops.ForiLoop, _loops.Scan
# Parameter updates need the graph builder too (an assignment inside a graph is recorded there).
for _name in _assign.__all__:
    setattr(ops, _name, getattr(_assign, _name))
    setattr(ops.functional, _name, getattr(_assign, _name))
del _name

__version__ = "0.1.0"
__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "Callback",
    "CheckpointConfig",
    "DynamicLossScaleManager",
    "EarlyStopping",
    "FixedLossScaleManager",
    "GradOperation",
    "History",
    "LambdaCallback",
    "LossMonitor",
    "LossScaleManager",
    "Model",
    "ModelCheckpoint",
    "Parameter",
    "ParameterTuple",
    "RunContext",
    "Tensor",
    "TimeMonitor",
    "amp",
    "bfloat16",
    "bool_",
    "context",
    "data_sink",
    "dataset",
    "double",
    "dtype",
    "dump_ir",
    "float16",
    "float32",
    "float64",
    "float_",
    "get_context",
    "get_grad",
    "get_seed",
    "grad",
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
    "jvp",
    "load_checkpoint",
    "load_param_into_net",
    "ms_function",
    "nn",
    "numpy",
    "ops",
    "save_checkpoint",
    "set_context",
    "set_seed",
    "single",
    "train",
    "uint8",
    "value_and_grad",
    "vjp",
    "vmap",
]
