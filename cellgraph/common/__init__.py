"""`mindspore.common`: Tensor, Parameter, dtypes, initializers, seeds and the jit decorators."""
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from . import dtype, initializer, np_dtype, parameter, tensor
from .api import jit, jit_class, ms_class, ms_function
from .dtype import *
from .mutable import mutable
from .seed import get_seed, set_seed

__all__ = ["Parameter", "ParameterTuple", "Tensor", "dtype", "get_seed", "initializer", "jit",
           "jit_class", "ms_class", "ms_function", "mutable", "np_dtype", "parameter", "set_seed",
           "tensor"]
