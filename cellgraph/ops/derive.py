"""MindSpore's primitive classes, and the API layer's share of the spellings registry.

The core gives each public primitive its functional op and Tensor method
(cellgraph/primitives/exports.py). From the same declarations come MindSpore's primitive classes
(`ops.Exp()(x)`, configured by the declared static params: `ops.Softmax(axis=0)`), all of one
base, `PrimitiveClass`. Each `ops.operations` submodule (`math_ops`, `array_ops`, `nn_ops`)
ends with `generate_classes`, which defines there the classes MindSpore files there; `install`
runs once, when `cellgraph.ops` is imported: it makes the classes filed nowhere else in
`ops.operations` and puts the API layer's hand-written wrappers (the compositions' `export`s)
in place; a wrapper takes precedence over a derived name of the same spelling.
"""
from __future__ import annotations

import inspect
from types import MappingProxyType

from cellgraph.primitives import exports
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.primitives.exports import export, export_class  # noqa: F401  (for compositions)
from cellgraph.primitives.tensor_methods import TensorMethods


class PrimitiveClass:
    """A MindSpore primitive class: `__init__` takes the static params (remembered for repr),
    `__call__` the operands. Instances are constants in a graph (`self.mul = ops.Mul()`)."""

    _fn = None
    _init_names: tuple = ()
    _defaults: MappingProxyType = MappingProxyType({})

    def __init_subclass__(cls, **kwargs):
        """A class configured by `_init_names` shows them as its signature (`Flatten()` takes
        none); one that writes its own `__init__` shows that."""
        super().__init_subclass__(**kwargs)
        if cls.__init__ is PrimitiveClass.__init__ and "__signature__" not in vars(cls):
            cls.__signature__ = inspect.Signature([
                inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
                for k, v in cls._defaults.items()])

    def __init__(self, *args, **kwargs):
        names = self._init_names
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments, got "
                            f"{len(args)}")
        values = dict(self._defaults)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"'{k}'")
            values[k] = v
        self.__dict__.update(values)
        self._attrs = values

    def __call__(self, *args, **kwargs):
        return type(self)._fn(*args, **kwargs, **self._attrs)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({inner})"


def _init(**defaults) -> tuple:
    """A class's `__init__` argument names, in order, and their defaults (read-only)."""
    return tuple(defaults), MappingProxyType(defaults)


def define_class(name: str, fn, init: dict | None = None, module: str = __name__,
                 doc: str | None = None) -> type:
    """A PrimitiveClass named `name` that calls `fn(*operands, **init attrs)`."""
    init = dict(init or {})
    return type(name, (PrimitiveClass,), {
        "_fn": staticmethod(fn), "_init_names": tuple(init), "_defaults": init,
        "__doc__": doc or f"ops.{name}", "__module__": module})


def function_class(name: str, fn, doc: str | None = None) -> type:
    """The primitive class `name` without attributes: `Cls()(*args)` is `fn(*args)`."""
    return define_class(name, fn, None, "cellgraph.ops", doc or f"`ops.{name}()(...)`")


def _primitive_class(prim, module: str) -> type:
    cls = define_class(prim.label, prim, prim.params, module)
    if prim.operands is not None:  # MindSpore's class takes the static params
        cls.__signature__ = inspect.Signature([
            inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
            for k, v in prim.params.items()])
    return cls


def generate_classes(namespace: dict) -> None:
    """Define in the module whose globals are `namespace` (`ops.operations.math_ops`, ...) the
    classes derived from declarations that MindSpore files there, after the module's own: the
    core's `export_class` registrations, then the public primitives' classes (label and
    aliases). A name the module defines itself is kept; each new name joins `__all__`."""
    module = namespace["__name__"]
    short = module.rsplit(".", 1)[-1]
    for kind, name, value, _ in exports.EXPORTS:
        if kind == "class" and name not in namespace and value[2] == short:
            namespace[name] = define_class(name, value[0], value[1], module)
            namespace["__all__"].append(name)
    for prim in list(PRIMITIVES.values()):
        if not (prim.public and prim.primitive_class) or prim.ops_module != short:
            continue
        names = [n for n in (prim.label, *prim.aliases) if n not in namespace]
        if names:
            cls = _primitive_class(prim, module)
            for name in names:
                namespace[name] = cls
                namespace["__all__"].append(name)


def _from_core(kind_value) -> bool:
    value = kind_value[2][0] if kind_value[0] == "class" else kind_value[2]
    return getattr(value, "__module__", "").startswith("cellgraph.primitives")


def install(functional, operations) -> None:
    """The classes MindSpore files in no submodule, in `operations`; the API layer's wrappers
    in `functional` (the API's, which started as a copy of the core's) and on Tensor.
    Registrations from the compositions come before the core's, and the first of a name
    wins."""
    replaced_functions, replaced_methods = set(), set()
    for kind, name, value, method in sorted(exports.EXPORTS, key=_from_core):
        if kind == "class":
            if name not in vars(operations):
                fn, init, _ = value
                exports.add(operations, name, define_class(name, fn, init, operations.__name__))
            continue
        if name in exports.INSTALLED_FUNCTIONS and name not in replaced_functions:
            replaced_functions.add(name)
            setattr(functional, name, value)
        else:
            exports.add(functional, name, value)
        if method and name in exports.INSTALLED_METHODS and name not in replaced_methods:
            replaced_methods.add(name)
            setattr(TensorMethods, name, value)
        elif method:
            exports.add_method(TensorMethods, name, value)
    for prim in list(PRIMITIVES.values()):
        install_primitive(prim, functional, operations)


def install_primitive(prim, functional, operations) -> None:
    """Every spelling of a public primitive: the functional op, the method, and the class(es)
    where no `ops.operations` submodule has made them."""
    if not prim.public:
        return
    exports.add(functional, prim.name, prim)
    if prim.method:
        exports.add_method(TensorMethods, prim.name, exports.method_of(prim))
    if not prim.primitive_class:
        return
    names = [n for n in (prim.label, *prim.aliases) if n not in vars(operations)]
    if names:
        cls = _primitive_class(prim, operations.__name__)
        for name in names:
            exports.add(operations, name, cls)
