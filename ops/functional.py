"""MindSpore's `ops.functional`: every functional op. It starts as the core's (the primitives
and their argument-normalising wrappers, cellgraph/primitives/functional.py); the compositions'
wrappers join it when `cellgraph.ops` loads (derive.install)."""
from cellgraph.primitives.functional import *  # noqa: F403
from cellgraph.primitives.functional import __all__ as _core_names
from cellgraph.primitives.functional import abs, pow, sum  # noqa: F401  (shadow builtins)

__all__ = list(_core_names)
