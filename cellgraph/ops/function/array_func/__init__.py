"""MindSpore's `ops.function.array_func`: creating, reshaping, indexing, padding and segmenting
Tensors, as compositions of the core's operations (no kernel and no rule of their own: their
gradients and batching come from the operations they are made of), one module a topic:
`attributes`, `creation`, `shape`, `indexing`, `matrix`, `padding`, `segment`. The array
operations that are primitives, and the others of `ops.functional`, are reached here too."""
from cellgraph.ops.function import _functional_namespace
from cellgraph.ops.function._fallback import functional_fallback as _functional_fallback

from . import attributes, creation, indexing, matrix, padding, segment, shape, stacking

# the modules, before `padding` the function takes the name of `padding` the module
_MODULES = (attributes, creation, indexing, matrix, padding, segment, shape, stacking)
from .attributes import *
from .creation import *
from .indexing import *
from .matrix import *
from .padding import *
from .segment import *
from .shape import *
from .stacking import *

__all__: list[str] = []
for _module in _MODULES:
    __all__ += _module.__all__

# mint's forms under their `_ext` names: this package's names, not in its __all__ (ops has none)
from .ext import *

# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = _functional_fallback(globals(), functional=_functional_namespace)
