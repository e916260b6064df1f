"""MindSpore's `ops.functional`: every functional op. It starts as the core's (the primitives
and their argument-normalising wrappers, cellgraph/primitives/functional.py); the compositions'
wrappers join it when `cellgraph.ops` loads (derive.install)."""
from cellgraph.primitives.functional import *
from cellgraph.primitives.functional import __all__ as _core_names
from cellgraph.primitives.functional import abs, pow, sum  # noqa: F401  (shadow builtins)

__all__ = list(_core_names)

# The transforms (they need the compiler, which sits on the core alone)
from cellgraph.autograd import grad, value_and_grad
from cellgraph.compiler.choice import switch
from cellgraph.forward import jvp, linearize, vjp
from cellgraph.taylor import derivative, jet
from cellgraph.vectorize import hessian, jacfwd, jacrev, vmap

__all__ += [
            "derivative",
            "grad",
            "hessian",
            "jacfwd",
            "jacrev",
            "jet",
            "jvp",
            "linearize",
            "switch",
            "value_and_grad",
            "vjp",
            "vmap",
]
