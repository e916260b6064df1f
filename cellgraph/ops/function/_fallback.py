"""How `ops.function` and its `*_func` modules answer for the functional operations they do not
define: through `ops.functional`, which holds every one."""
from __future__ import annotations

import types

# MindSpore's ops.function.grad.grad_func: the differentiation functions.
GRAD_FUNC_NAMES = ("grad", "value_and_grad", "get_grad", "jvp", "vjp", "linearize", "jet",
                   "derivative", "jacfwd", "jacrev", "stop_gradient", "custom_vjp")


def grad_functions() -> dict:
    """The differentiation functions of `ops.function.grad.grad_func`, by name."""
    from cellgraph import ops
    from cellgraph.custom_vjp import custom_vjp

    names = {name: getattr(ops, name) for name in GRAD_FUNC_NAMES if name != "custom_vjp"}
    names["custom_vjp"] = custom_vjp
    return names


def _functional_names() -> dict:
    from cellgraph.ops import functional

    return {k: v for k, v in vars(functional).items()
            if not k.startswith("_") and not isinstance(v, types.ModuleType)}


def _functional_value(name: str):
    """`ops.functional.<name>`, or None where it has none (or only a module of that name)."""
    from cellgraph.ops import functional

    value = vars(functional).get(name)
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
            value = grad_functions()[name] if grad and name in GRAD_FUNC_NAMES else \
                _functional_value(name)
        if value is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        return value

    def __dir__():
        return sorted(set(namespace) | set(names()))

    return __getattr__, __dir__
