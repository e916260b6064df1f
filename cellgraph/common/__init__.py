"""`mindspore.common`: Tensor, Parameter, dtypes, initializers, seeds and the jit decorators.

The dtypes load with the package; every other name loads its module on first use, so the
operations that live here (`assign`, the in-place updates) load without the rest."""
from cellgraph._lazy import lazy_names as _lazy_names

from . import dtype
from .dtype import *
from .dtype import dtype_to_nptype, dtype_to_pytype, get_py_obj_dtype, pytype_to_dtype
from .mutable import mutable  # the function, not its module (it loads with the compiler)

_LAZY = {
    **{name: ("cellgraph.runtime.tensor", name) for name in (
        "Parameter", "ParameterTuple", "Tensor")},
    **{name: (f"cellgraph.common.{name}", None) for name in (
        "initializer", "np_dtype", "parameter", "tensor")},
    **{name: ("cellgraph.common.api", name) for name in (
        "jit", "jit_class", "ms_class", "ms_function")},
    **{name: ("cellgraph.common.seed", name) for name in ("get_seed", "set_seed")},
}


__getattr__, __dir__ = _lazy_names(globals(), _LAZY)

__all__ = ["Parameter", "ParameterTuple", "Tensor", "dtype", "dtype_to_nptype",
           "dtype_to_pytype", "get_py_obj_dtype", "get_seed", "initializer", "jit",
           "jit_class", "ms_class", "ms_function", "mutable", "np_dtype", "parameter",
           "pytype_to_dtype", "set_seed", "tensor"]
