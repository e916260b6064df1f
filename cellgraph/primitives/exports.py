"""The functional spellings the core's declarations give.

A public primitive *is* its functional op (`functional.exp` is the primitive `exp`); with
`method=True` it is also a Tensor method (`x.exp()`). A hand-written wrapper registered with
`export` (one that normalises MindSpore's positional arguments in front of a primitive's
keyword params) takes precedence over the derived name. `export_class` registers MindSpore's
primitive class over a functional op; classes are made by the API layer (cellgraph/ops/primitive_class.py),
which reads the same registry.
"""
from __future__ import annotations

import inspect

from .errors import DTypeError
from .method_overloads import OVERLOADS
from .overload_errors import overload_message

EXPORTS: list = []  # (kind, name, value, method), in registration order
# an `export_class` init argument without a default: MindSpore's class requires it
REQUIRED = inspect.Parameter.empty
# what `install` put in place (not defined by hand where it put them): a wrapper the API layer
# registers may take a derived name's place (cellgraph/ops/primitive_class.py)
INSTALLED_FUNCTIONS: set = set()
INSTALLED_METHODS: set = set()


def export(fn, *, method: bool = False, name: str | None = None):
    """Register `fn` as the functional op `name` (and, with `method=True`, Tensor method)."""
    EXPORTS.append(("function", name or fn.__name__, fn, method))
    return fn


def export_class(name: str, fn, init: dict | None = None, *,
                 ops_module: str | None = None) -> None:
    """Register MindSpore's primitive class `name` over the functional op `fn`, configured by
    `init`'s params and defaults (REQUIRED: none, the class requires it), and filed in the `ops.operations` submodule `ops_module`
    ("math_ops", ...; None: `ops.operations` itself)."""
    EXPORTS.append(("class", name, (fn, dict(init or {}), ops_module), False))


def add(module, name: str, value) -> bool:
    """`module.name = value` unless the module has `name` already; listed in `__all__`."""
    if name in vars(module):
        return False
    setattr(module, name, value)
    module.__all__.append(name)
    return True


def add_method(methods: type, name: str, fn) -> None:
    """`Tensor.name` is `fn` unless `methods` (TensorMethods) has a member of that name."""
    if not hasattr(methods, name):
        setattr(methods, name, fn)
        INSTALLED_METHODS.add(name)


def method_of(prim):
    def method(self, *args, **params):
        _check_method_arguments(prim, args, params)
        return prim(self, *args, **params)

    method.__name__ = prim.name
    method.__doc__ = f"`{prim.name}(self, ...)`: the primitive {prim.label}."
    if prim.operands is not None:
        from .core import signature_of

        method.__signature__ = signature_of(prim.operands, prim.params, first="self")
    return method


def _check_method_arguments(prim, args: tuple, params: dict) -> None:
    """Arguments the method does not take: for a method MindSpore overloads, its error listing
    the overloads; else Python's TypeError for the method, as MindSpore words it (`x.abs(1)`,
    `x.less()`)."""
    known = set(prim.params) | set(prim.operands or ())
    unknown = [k for k in params if k not in known]
    counts = prim.operand_counts()
    if counts is None and not unknown:
        return
    least, most = (counts[0] - 1, counts[1] - 1) if counts is not None else (0, len(args))
    given = len(args)
    if (unknown or not least <= given <= most) and prim.name in OVERLOADS:
        raise DTypeError(overload_message(prim.name, OVERLOADS[prim.name], args, params))
    if params:
        return  # keywords may name operands: the call binds them
    if given > most:
        raise DTypeError(f"{prim.name}() takes {most} positional argument"
                         f"{'' if most == 1 else 's'} but {given} "
                         f"{'was' if given == 1 else 'were'} given.")
    if given < least:
        missing = least - given
        raise DTypeError(f"{prim.name}() missing {missing} required positional argument"
                         f"{'' if missing == 1 else 's'}")


def install(functional, methods: type) -> None:
    """`functional` gets the registered functions, then every public primitive under each of
    its `ops` spellings (so a wrapper wins over the derived name); `methods` (TensorMethods,
    Tensor's base) their methods."""
    from .core import PRIMITIVES

    for kind, name, value, method in EXPORTS:
        if kind == "function":
            if add(functional, name, value):
                INSTALLED_FUNCTIONS.add(name)
            if method:
                add_method(methods, name, value)
    for prim in list(PRIMITIVES.values()):
        if prim.public:
            for name, spelled in prim.spelled("ops").items():
                if add(functional, name, spelled):
                    INSTALLED_FUNCTIONS.add(name)
            if prim.method:
                add_method(methods, prim.name, method_of(prim))
