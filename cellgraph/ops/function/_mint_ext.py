"""The `_ext` names of MindSpore's `ops.function` modules (`math_func.amax_ext`,
`nn_func.softmax_ext`, `random_func.rand_ext`): mint's functions under the names its own code
and docstrings call them by. Each calls mint's function of the base name, looked up when called
(mint sits above ops)."""
from __future__ import annotations

import importlib


def _delegate(name: str, module: str, target: str):
    def ext(*args, **kwargs):
        return getattr(importlib.import_module(module), target)(*args, **kwargs)

    ext.__name__ = ext.__qualname__ = name
    ext.__doc__ = f"`{module}.{target}`, as MindSpore's {name}."
    return ext


def ext_functions(module: str, names: str) -> dict:
    """{name_ext: the function calling `module`'s name} for each of `names`."""
    return {f"{n}_ext": _delegate(f"{n}_ext", module, n) for n in names.split()}


def _alpha_delegate(name: str, module: str, target: str):
    def ext(input, other, alpha=1):
        return getattr(importlib.import_module(module), target)(input, other, alpha=alpha)

    ext.__name__ = ext.__qualname__ = name
    ext.__doc__ = (f"`{module}.{target}`, as MindSpore's {name}, whose `alpha` may be passed "
                   f"by position.")
    return ext


def alpha_ext_functions(module: str, names: str) -> dict:
    """{name_ext: `name_ext(input, other, alpha=1)` calling `module`'s name} for each of
    `names` (MindSpore's add_ext and sub_ext take `alpha` by position, mint's by keyword)."""
    return {f"{n}_ext": _alpha_delegate(f"{n}_ext", module, n) for n in names.split()}
