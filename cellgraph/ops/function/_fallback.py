"""How `ops.function` and its `*_func` modules answer for the functional operations they do not
define: through `ops.functional`, which holds every one."""
from __future__ import annotations

import types


def grad_functions() -> dict:
    """The differentiation functions of `ops.function.grad.grad_func`, by name."""
    from .grad import grad_func

    return {name: getattr(grad_func, name) for name in grad_func.__all__}


def _functional_names() -> dict:
    from cellgraph.ops import functional

    names = {k: getattr(functional, k) for k in dir(functional) if not k.startswith("_")}
    return {k: v for k, v in names.items() if not isinstance(v, types.ModuleType)}


def _functional_value(name: str):
    """`ops.functional.<name>`, or None where it has none (or only a module of that name)."""
    from cellgraph.ops import functional

    value = getattr(functional, name, None)
    return None if isinstance(value, types.ModuleType) else value


def functional_fallback(namespace: dict, grad: bool = False):
    """(`__getattr__`, `__dir__`) for a module whose globals are `namespace`: a public name it
    does not define is `ops.functional`'s (with `grad`, first the gradient functions')."""
    module_name = namespace["__name__"]

    def names() -> dict:
        return {**_functional_names(), **(grad_functions() if grad else {})}

    def __getattr__(name: str):
        if name == "__all__":
            return sorted(names())
        value = None
        if not name.startswith("_"):
            functions = grad_functions() if grad else {}
            value = functions[name] if name in functions else _functional_value(name)
        if value is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return value

    def __dir__():
        return sorted(set(namespace) | set(names()))

    return __getattr__, __dir__
