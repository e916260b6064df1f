"""MindSpore's `ops.function.math_func`: arithmetic, reductions, statistics, products and
`einsum`, `stft`, as compositions of the core's operations (no kernel and no rule of their own:
their gradients and batching come from the operations they are made of), one module a topic:
`elementwise`, `reduction`, `linalg`, `creation`, `spectral`. The math operations that are
primitives, and the others of `ops.functional`, are reached here too."""
# MindSpore's math_func binds ops.function as F, and programs import it from there
from cellgraph.ops import function as F  # noqa: F401
from cellgraph.ops.function import _functional_namespace
from cellgraph.ops.function._fallback import functional_fallback as _functional_fallback

from . import creation, elementwise, linalg, matrices, reduction, spectral, statistics
from .creation import *
from .elementwise import *
from .linalg import *
from .matrices import *
from .reduction import *
from .reduction import all, any  # noqa: F401  (MindSpore's, over the builtins)
from .spectral import *
from .statistics import *

__all__: list[str] = []
for _module in (creation, elementwise, linalg, matrices, reduction, spectral, statistics):
    __all__ += _module.__all__


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = _functional_fallback(globals(), functional=_functional_namespace)


# mint's functions under the `_ext` names MindSpore's own code calls them by
from cellgraph.ops.function._mint_ext import alpha_ext_functions as _alpha_ext_functions
from cellgraph.ops.function._mint_ext import ext_functions as _ext_functions

globals().update(_ext_functions(
    "cellgraph.mint",
    "acos acosh addbmm addcmul addmm addmv amax amin arccos arccosh arcsin "
    "arcsinh arctan2 arctan argmax asin asinh atan2 atan bincount bitwise_and "
    "bitwise_or bitwise_xor bmm frac histc inverse linspace mean median mul norm pow "
    "remainder std std_mean var var_mean"))
globals().update(_alpha_ext_functions("cellgraph.mint", "add sub"))
globals().update(_ext_functions(
    "cellgraph.mint.linalg",
    "vector_norm"))
