"""MindSpore's primitive classes, and the API layer's share of the spellings registry.

The core gives each public primitive its functional op and Tensor method
(cellgraph/primitives/exports.py). From the same declarations come MindSpore's primitive classes
(`ops.Exp()(x)`, configured by the declared static params: `ops.Softmax(axis=0)`). `install`
runs once, when `cellgraph.ops` is imported: it makes the classes and puts the API layer's
hand-written wrappers (the compositions' `export`s) in place; a wrapper takes precedence over a
derived name of the same spelling.
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


def define_class(name: str, fn, init: dict | None = None, module: str = __name__) -> type:
    """A PrimitiveClass named `name` that calls `fn(*operands, **init attrs)`."""
    init = dict(init or {})
    return type(name, (PrimitiveClass,), {
        "_fn": staticmethod(fn), "_init_names": tuple(init), "_defaults": init,
        "__doc__": f"ops.{name}", "__module__": module})


def _from_core(kind_value) -> bool:
    value = kind_value[2][0] if kind_value[0] == "class" else kind_value[2]
    return getattr(value, "__module__", "").startswith("cellgraph.primitives")


def install(functional, operations) -> None:
    """The primitive classes in `operations`; the API layer's wrappers in `functional` (the
    API's, which started as a copy of the core's) and on Tensor. Registrations from the
    compositions come before the core's, and the first of a name wins."""
    replaced_functions, replaced_methods = set(), set()
    for kind, name, value, method in sorted(exports.EXPORTS, key=_from_core):
        if kind == "class":
            exports.add(operations, name, define_class(name, *value, operations.__name__))
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
    """Every spelling of a public primitive: the functional op, the class(es), the method."""
    if not prim.public:
        return
    exports.add(functional, prim.name, prim)
    if prim.method:
        exports.add_method(TensorMethods, prim.name, exports.method_of(prim))
    cls = define_class(prim.label, prim, prim.params, operations.__name__)
    if prim.operands is not None:  # MindSpore's class takes the static params
        cls.__signature__ = inspect.Signature([
            inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
            for k, v in prim.params.items()])
    for name in (prim.label, *prim.aliases):
        exports.add(operations, name, cls)
