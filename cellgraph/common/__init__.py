"""`mindspore.common`: Tensor, Parameter, dtypes, initializers, seeds and the jit decorators.

The dtypes load with the package; every other name loads its module on first use, so the
operations that live here (`assign`, the in-place updates) load without the rest."""
import importlib as _importlib

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


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _LAZY[name]
    value = _importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["Parameter", "ParameterTuple", "Tensor", "dtype", "dtype_to_nptype",
           "dtype_to_pytype", "get_py_obj_dtype", "get_seed", "initializer", "jit",
           "jit_class", "ms_class", "ms_function", "mutable", "np_dtype", "parameter",
           "pytype_to_dtype", "set_seed", "tensor"]
