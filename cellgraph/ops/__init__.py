"""cellgraph.ops: MindSpore's `mindspore.ops`, the API layer over the op core.

The functional ops, MindSpore's primitive classes (ops/operations/*_ops.py), the compositions
(ops/function/*_func) and the transforms (`GradOperation`, `grad`, `jvp`, `vjp`, `vmap`, ...).
The primitives themselves are the core's (cellgraph.primitives), which never imports this
package.
"""
from cellgraph._lazy import lazy_names as _lazy_names

# Names composed of other operations come first, so that a primitive of the same name imported
# below replaces the composition.
from .function.array_func import *
from .function.clip_func import *
from .function.debug_func import *
from .function.fft_func import *
from .function.image_func import *
from .function.math_func import *
from .function.math_func import all, any  # noqa: F401  (shadow builtins on purpose, as MindSpore)
from .function.method_forms import *
from .function.nn_func import *
from .function.random_func import *
from .function.sparse_func import *
from .function.sparse_unary_func import *

# isort: split
from cellgraph.primitives import (  # noqa: F401  (the core's modules, as attributes of ops)
    array_ops,
    check_ops,
    comm_ops,
    complex_ops,
    conv_ops,
    core,
    dynamic_ops,
    errors,
    gamma_ops,
    linalg_ops,
    math_ops,
    nn_functional,
    nn_ops,
    norm_ops,
    random_ops,
    rounding_ops,
    scatter_ops,
    shape_ops,
    sort_ops,
    special_ops,
)
from cellgraph.primitives.core import PRIMITIVES, TensorType, bind  # noqa: F401
from cellgraph.primitives.tensor_methods import TensorMethods as _TensorMethods

from . import inplace, operations, tensor_method

tensor_method.install_registered(_TensorMethods)  # the compositions' wrappers that are methods
tensor_method.install(_TensorMethods)
inplace.install(_TensorMethods)
globals().update({name: getattr(inplace, name) for name in inplace.OPS_FUNCTIONS})

from cellgraph.primitives.floor_division import *
from cellgraph.primitives.nn_functional import *
from cellgraph.primitives.random_ops import (  # noqa: F401
    Randperm,
    randperm,
)

from .function import _namespace
from .functional import *
from .functional import abs, pow, sum  # noqa: F401  (shadow builtins, as MindSpore does)
from .operations import *
from .operations import PrimitiveClass  # noqa: F401

# MindSpore's base classes for primitives defined in Python (the core's declarations are
# cellgraph.primitives.core.Primitive)
from .primitive import (  # noqa: F401
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    prim_arg_register,
    prim_attr_register,
)

# isort: split
# The transforms and the operations that need the compiler (it sits on the core, below this
# package): MindSpore's `ops` holds them too.
from cellgraph.autograd import GradOperation, get_grad  # noqa: F401
from cellgraph.common.apply_ops import *  # the in-place update classes: ops.ApplyMomentum(), ...
from cellgraph.common.assign import *  # Parameter updates: ops.assign, ops.Assign, ...
from cellgraph.common.sparse_apply_ops import *  # their sparse forms: ops.FusedSparseAdam(), ...
from cellgraph.gradient_hooks import HookBackward, InsertGradientOf  # noqa: F401
from cellgraph.loops import ForiLoop, Scan, WhileLoop  # noqa: F401
from cellgraph.runtime.tensor import Tensor  # noqa: F401  (MindSpore's ops re-exports it)

# the higher-order operations (`ops.composite`, C), the compile-time helpers and `ops.Custom`
from . import composite  # noqa: F401
from .composite import (  # noqa: F401
    HyperMap,
    Map,
    MultitypeFuncGraph,
    Partial,
    add_flags,
    augassign_add,
    augassign_div,
    augassign_floordiv,
    augassign_mod,
    augassign_mul,
    augassign_sub,
    clip_by_global_norm,
    hyper_add,
    partial,
    tail,
    zip_operation,
)
from .custom_ops import Custom, kernel, ms_kernel  # noqa: F401

# ops.dtype(x) is a Tensor's dtype, as MindSpore's (its DType primitive); the dtypes are
# cellgraph.float32, ... (mindspore.common.dtype)
from .function.array_func.attributes import dtype, identity, shape  # noqa: F401
from .function.other_func import (  # noqa: F401
    mixed_precision_cast,
    switch_layer,
    tuple_div,
    tuple_len,
    typeof,
)
from .functional import (  # noqa: F401  (primitive instances and aliases, as in MindSpore)
    reshape_,
    shape_,
    tensor_add,
    tensor_div,
    tensor_exp,
    tensor_floordiv,
    tensor_ge,
    tensor_gt,
    tensor_le,
    tensor_lt,
    tensor_mod,
    tensor_mul,
    tensor_pow,
    tensor_slice,
    tensor_sub,
)
from .op_info_register import (  # noqa: F401  (the registration builders ops.Custom reads)
    AiCPURegOp,
    AkgAscendRegOp,
    AkgGpuRegOp,
    CpuRegOp,
    CustomRegOp,
    DataType,
    TBERegOp,
    custom_info_register,
    op_info_register,
)
from .operations.debug_ops import Print  # noqa: F401

# the operations on a graph's Python values that ops.functional defines (F.scalar_add,
# F.tuple_getitem, ...): MindSpore's ops takes every name of its functional
globals().update({name: getattr(_namespace, name) for name in _namespace.OPS_FROM_FUNCTIONAL})
from .primitive import constexpr  # noqa: F401
from .vm_impl_registry import get_vm_impl_fn, vm_impl_registry  # noqa: F401

# the Tensor methods that are functional ops of the same name, now that ops has them all
tensor_method.install_functional_methods(_TensorMethods)
# the methods MindSpore dispatches among overloads take each of its forms (over the one form the
# core or the compositions gave them)
from . import tensor_overloads

tensor_overloads.install(_TensorMethods)

# ops.communication's process groups and collectives, which MindSpore's ops re-exports (the same
# objects; its `gather` and `scatter` stay the array operations)
COMMUNICATION = (
    "P2POp", "TCPStore", "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven",
    "all_gather_object", "all_reduce", "all_to_all", "all_to_all_single", "all_to_all_v_c",
    "barrier", "batch_isend_irecv", "broadcast", "broadcast_object_list",
    "destroy_process_group", "gather_into_tensor", "gather_object", "get_backend",
    "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
    "get_world_size", "init_process_group", "irecv", "is_available", "is_initialized", "isend",
    "new_group", "recv", "recv_object_list", "reduce", "reduce_scatter", "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven", "scatter_object_list", "scatter_tensor", "send",
    "send_object_list", "set_comm_ops_inplace")

# loaded on first use: the summary operations (they load train), Morph, `ops.auto_generate`,
# `ops.communication` (and its collectives) and the one sequence primitive MindSpore's ops holds
__getattr__, __dir__ = _lazy_names(globals(), {
    **{name: ("cellgraph.ops.communication", name) for name in COMMUNICATION},
    **operations.LAZY_OPERATIONS, "auto_generate": ("cellgraph.ops.auto_generate", None),
    "communication": ("cellgraph.ops.communication", None),
    "functional_overload": ("cellgraph.ops.functional_overload", None),
    "TensorToTuple": ("cellgraph.ops.operations._sequence_ops", "TensorToTuple")})
