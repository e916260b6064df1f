"""Module attributes that load on first use, for a package's `__init__`:

    __getattr__, __dir__ = lazy_names(globals(), {"Tensor": ("cellgraph.runtime.tensor",
                                                             "Tensor"), ...})

maps each name to (the module that defines it, the attribute path in it, or None for the module
itself); a name is imported when first read and is then a plain attribute."""
from __future__ import annotations

import importlib


def lazy_names(namespace: dict, table: dict):
    """(`__getattr__`, `__dir__`) for the module whose globals are `namespace`."""
    module_name = namespace["__name__"]

    def __getattr__(name: str):
        if name not in table:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        module, path = table[name]
        value = importlib.import_module(module)
        for part in path.split(".") if path else ():
            value = getattr(value, part)
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
