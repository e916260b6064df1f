"""MindSpore's `ops.functional` (`F`): every functional op.

Its names are made when it is imported, or answered by its module `__getattr__`; nothing is
added to it from outside: the core's functional ops (the primitives under each of their `ops`
spellings and the core's argument-normalising wrappers, cellgraph/primitives/functional.py),
the transforms, the Parameter updates and the scalar operations `F` alone has
(ops/function/_namespace.py gathers them); then, when first read, the compositions' registered
wrappers (the `export`s of ops/function/) and any other functional op of `ops` (the compositions of
ops/function/, ...)."""
from cellgraph.primitives.functional import abs, pow, sum  # noqa: F401  (shadow builtins)

from .function import _namespace
from .function._namespace import *


def __getattr__(name: str):
    if name == "__all__":  # the core's names, the transforms, the registered wrappers
        names = [*_namespace.CORE_NAMES, *_namespace.TRANSFORMS]
        return names + [n for n in _namespace.registered(globals()) if n not in names]
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = _namespace.functional_value(name, globals())
    if value is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # found once: a plain attribute from now on
    return value


def __dir__():
    return sorted(_namespace.functional_names(globals()))
