"""How `ops.function` and its `*_func` modules answer for the functional operations they do not
define: the packages (`ops.function`, `array_func`, `math_func`, `nn_func`) for every name of
`ops.functional` (ops/function/_namespace.py gathers them, below the packages' modules); the
modules that gathering reads (`clip_func`, `image_func`, `random_func`) for the core's
functional operations, the primitives', which sit below them all."""
from __future__ import annotations

import types

from cellgraph.primitives import functional as _core_functional


def grad_functions() -> dict:
    """The differentiation functions of `ops.function.grad.grad_func`, by name."""
    from .grad import grad_func

    return {name: getattr(grad_func, name) for name in grad_func.__all__}


def _public(module) -> dict:
    names = {k: getattr(module, k) for k in dir(module) if not k.startswith("_")}
    return {k: v for k, v in names.items() if not isinstance(v, types.ModuleType)}


def functional_fallback(namespace: dict, grad: bool = False, functional=None):
    """(`__getattr__`, `__dir__`) for a module whose globals are `namespace`: a public name it
    does not define is that of the names `functional()` gives (ops.functional's, for a
    package), or the core's functional operations' when none is given (with `grad`, first the
    gradient functions')."""
    module_name = namespace["__name__"]

    def source() -> dict:
        return _public(_core_functional) if functional is None else functional()

    def names() -> dict:
        return {**source(), **(grad_functions() if grad else {})}

    def __getattr__(name: str):
        if name == "__all__":
            return sorted(names())
        value = None
        if not name.startswith("_"):
            functions = grad_functions() if grad else {}
            value = functions[name] if name in functions else source().get(name)
        if value is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return value

    def __dir__():
        return sorted(set(namespace) | set(names()))

    return __getattr__, __dir__

