"""What a primitive's declaration gives besides the primitive itself.

A `public` primitive *is* MindSpore's functional op (`ops.exp(x)` binds it), and from the same
declaration come MindSpore's primitive class (`ops.Exp()(x)`, configured by the declared static
params: `ops.Softmax(axis=0)`) and, with `method=True`, the Tensor method (`x.exp()`).
`install` runs once per primitive when `cellgraph.ops` is imported; a hand-written wrapper of the
same name (one that normalises its arguments) takes precedence over the derived one.
"""
from __future__ import annotations

import sys
from types import MappingProxyType

from .core import Primitive


class PrimitiveClass:
    """A MindSpore primitive class: `__init__` takes the static params (remembered for repr),
    `__call__` the operands. Instances are constants in a graph (`self.mul = ops.Mul()`)."""

    _fn = None
    _init_names: tuple = ()
    _defaults: MappingProxyType = MappingProxyType({})

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
        inner = ", ".join(f"{k}={v!r}" for k, v in self._attrs.items())
        return f"{type(self).__name__}({inner})"


def define_class(name: str, fn, init: dict | None = None, module: str = __name__) -> type:
    """A PrimitiveClass named `name` that calls `fn(*operands, **init attrs)`."""
    init = dict(init or {})
    return type(name, (PrimitiveClass,), {
        "_fn": staticmethod(fn), "_init_names": tuple(init), "_defaults": init,
        "__doc__": f"ops.{name}", "__module__": module})


def _method(prim: Primitive):
    def method(self, *args, **params):
        return prim(self, *args, **params)

    method.__name__ = prim.name
    method.__doc__ = f"`{prim.name}(self, ...)`: the primitive {prim.label}."
    return method


def _add(module, name: str, value) -> None:
    """`module.name = value` unless the module defines `name` itself; listed in `__all__`."""
    if name in vars(module):
        return
    setattr(module, name, value)
    module.__all__.append(name)


def install(prim: Primitive) -> None:
    """The functional op, the class(es) and the Tensor method of a public primitive."""
    if not prim.public:
        return
    from .tensor_methods import TensorMethods

    functional = sys.modules[f"{__package__}.functional"]
    operations = sys.modules[f"{__package__}.operations"]
    _add(functional, prim.name, prim)
    cls = define_class(prim.label, prim, prim.params, operations.__name__)
    for name in (prim.label, *prim.aliases):
        _add(operations, name, cls)
    if prim.method and not hasattr(TensorMethods, prim.name):
        setattr(TensorMethods, prim.name, _method(prim))


_EXPORTS: list = []  # (kind, name, value, method), installed once every module is loaded


def export(fn, *, method: bool = False, name: str | None = None):
    """A hand-written functional op (one with MindSpore's positional signature in front of a
    primitive's keyword params) as `ops.name` and, with `method=True`, as `Tensor.name`; it
    takes precedence over what a declaration of the same name would derive. Installed by
    `install_exports` when `cellgraph.ops` has loaded, so declaring modules may import each
    other in any order."""
    _EXPORTS.append(("function", name or fn.__name__, fn, method))
    return fn


def export_class(name: str, fn, init: dict | None = None) -> None:
    """MindSpore's primitive class `name` (`ops.Name`, `ops.operations.Name`) over the
    functional op `fn`, configured by `init`'s params and defaults."""
    _EXPORTS.append(("class", name, (fn, dict(init or {})), False))


def install_exports() -> None:
    """Put the exported functions and classes in place (before the derived names, so that
    they win over a declaration of the same name)."""
    from .tensor_methods import TensorMethods

    functional = sys.modules[f"{__package__}.functional"]
    operations = sys.modules[f"{__package__}.operations"]
    for kind, name, value, method in _EXPORTS:
        if kind == "class":
            _add(operations, name, define_class(name, *value, operations.__name__))
            continue
        _add(functional, name, value)
        if method and not hasattr(TensorMethods, name):
            setattr(TensorMethods, name, value)
