"""`mindspore.common.api`: the compilation decorators."""
from cellgraph.jit import jit, jit_class, ms_class, ms_function

__all__ = ["jit", "jit_class", "ms_class", "ms_function"]
