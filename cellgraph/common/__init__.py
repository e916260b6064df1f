"""`mindspore.common`: Tensor, Parameter, dtypes, initializers, seeds and the jit decorators.

The dtypes load with the package; every other name loads its module on first use, so the
operations that live here (`assign`, the in-place updates) load without the rest."""
from cellgraph._lazy import lazy_names as _lazy_names

from . import dtype
from .dtype import *
from .dtype import (
    TensorType,
    dtype_to_nptype,
    dtype_to_pytype,
    get_py_obj_dtype,
    list_,
    pytype_to_dtype,
    string,
    tensor_type,
    tuple_,
    type_none,
)
from .mutable import mutable  # the function, not its module (it loads with the compiler)

_LAZY = {
    "Tensor": ("cellgraph.common.tensor", "Tensor"),
    **{name: ("cellgraph.common.parameter", name) for name in ("Parameter", "ParameterTuple")},
    **{name: (f"cellgraph.common.{name}", None) for name in (
        "initializer", "np_dtype", "parameter", "tensor")},
    **{name: ("cellgraph.common.api", name) for name in (
        "jit", "jit_class", "ms_class", "ms_function")},
    **{name: ("cellgraph.common.seed", name) for name in ("get_seed", "set_seed")},
    **{name: ("cellgraph.common.generator", name) for name in (
        "Generator", "default_generator", "initial_seed", "manual_seed")},
    "generator": ("cellgraph.common.generator", None),
    "recompute": ("cellgraph.common.recompute", "recompute"),
    **{name: ("cellgraph.common.file_system", name) for name in (
        "mindio_preload", "set_mindio_server_info")},
    "file_system": ("cellgraph.common.file_system", None),
    **{name: ("cellgraph.jit_decorators", name) for name in ("JitConfig", "lazy_inline")},
    **{name: ("cellgraph.graph.api", name) for name in (
        "ms_memory_recycle", "register_saved_tensors_hooks", "saved_tensors_hooks")},
}


__getattr__, __dir__ = _lazy_names(globals(), _LAZY)

__all__ = [
    "Generator",
    "JitConfig",
    "Parameter",
    "ParameterTuple",
    "Tensor",
    "TensorType",
    "default_generator",
    "dtype",
    "dtype_to_nptype",
    "dtype_to_pytype",
    "generator",
    "get_py_obj_dtype",
    "get_seed",
    "initial_seed",
    "initializer",
    "jit",
    "jit_class",
    "lazy_inline",
    "list_",
    "manual_seed",
    "mindio_preload",
    "ms_class",
    "ms_function",
    "ms_memory_recycle",
    "mutable",
    "np_dtype",
    "parameter",
    "pytype_to_dtype",
    "recompute",
    "register_saved_tensors_hooks",
    "saved_tensors_hooks",
    "set_mindio_server_info",
    "set_seed",
    "string",
    "tensor",
    "tensor_type",
    "tuple_",
    "type_none",
]
