"""MindSpore's `_check_jit_forbidden_api`: the functions, classes and methods that a graph
(`construct`, a `@jit` function) may not call, and the words of the error it raises.

A function or method is forbidden by `@jit_forbidden_register` (Cell.trainable_params,
Parameter.set_data, ...); a whole module by `add_jit_forbidden_module` (the initializers, the
context, the logger): everything defined there. The compiler asks `forbidden_call(fn)` for each
callee and `forbidden_method(kind, name)` for a method read from a Tensor or Parameter. A class
whose instances a graph may not create is marked by `@jit_forbidden_instances` (Parameter,
MultitypeFuncGraph); the compiler asks `forbidden_instance(cls)`."""
from __future__ import annotations

import types

_jit_forbidden_module: set = set()
_jit_forbidden_method: set = set()
# the methods a Tensor or a Parameter in a graph refuses (MindSpore's decorated ones, and the
# Parameter's own that its graphs have no method for)
_FORBIDDEN_VALUE_METHODS = {"Tensor": frozenset({"set_const_arg", "assign_value"}),
                            "Parameter": frozenset({"set_data", "set_dtype", "init_data"})}
_DOCS = "https://www.mindspore.cn/docs/zh-CN/master/features/program_form/overview.html"
_STATIC_GRAPH_DOCS = "https://www.mindspore.cn/tutorials/zh-CN/master/compile/static_graph.html"


def jit_forbidden_register(fn):
    """Mark `fn` as not callable inside a graph."""
    fn.__jit_forbidden__ = True
    if isinstance(fn, types.FunctionType):
        add_jit_forbidden_method(fn.__module__ + "." + fn.__qualname__)
    return fn


def add_jit_forbidden_module(jit_forbidden_module: str) -> None:
    _jit_forbidden_module.add(jit_forbidden_module)


def remove_jit_forbidden_module(jit_forbidden_module: str) -> None:
    _jit_forbidden_module.remove(jit_forbidden_module)


def get_jit_forbidden_module() -> set:
    return _jit_forbidden_module


def add_jit_forbidden_method(jit_forbidden_method: str) -> None:
    _jit_forbidden_method.add(jit_forbidden_method)


def remove_jit_forbidden_method(jit_forbidden_method: str) -> None:
    _jit_forbidden_method.remove(jit_forbidden_method)


def get_jit_forbidden_method() -> set:
    return _jit_forbidden_method


def get_obj_module_and_name_info(obj):
    """(module, name, kind) describing a class, function or method; None for an object
    without a module."""
    if not hasattr(obj, "__module__"):
        return None
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        return obj.__module__, obj.__qualname__, "method or function"
    if isinstance(obj, types.BuiltinMethodType):
        return obj.__qualname__.split(".")[0], obj.__qualname__, "method or function"
    return obj.__module__, getattr(obj, "__name__", type(obj).__name__), "class"


def is_jit_forbidden_module(obj_module) -> bool:
    return obj_module in _jit_forbidden_module


def forbidden_call(obj) -> str | None:
    """The error message for calling `obj` inside a graph, or None when a graph may call it."""
    forbidden = getattr(obj, "__jit_forbidden__", False) is True
    if not forbidden and not (isinstance(obj, (type, types.FunctionType, types.MethodType))
                              and getattr(obj, "__module__", None) in _jit_forbidden_module):
        return None
    info = get_obj_module_and_name_info(obj)
    if info is None:
        return None
    module, name, kind = info
    return (f"Failed to compile in GRAPH_MODE because the {kind} '{module}.{name}' is not "
            f"supported in 'construct' or function with @jit decorator. Try to use the {kind} "
            f"'{module}.{name}' externally such as initialized in the method '__init__' before "
            f"assigning.\nFor more details, please refer to {_DOCS} \n")


def jit_forbidden_instances(cls):
    """Mark class `cls` (and its subclasses) as not instantiable inside a graph, as MindSpore's
    graphs refuse to create Parameters and MultitypeFuncGraphs."""
    cls.__jit_forbidden_instances__ = True
    return cls


def forbidden_instance(obj) -> str | None:
    """The error message (a ValueError's) for creating an instance of class `obj` inside a
    graph, or None when a graph may."""
    if not isinstance(obj, type) or getattr(obj, "__jit_forbidden_instances__", False) is not True:
        return None
    name = f"class '{obj.__module__}.{obj.__qualname__}'"
    return (f"Failed to compile in GRAPH_MODE because creating {name} instances is not "
            f"supported in 'construct' or @jit decorated function. Try to create {name} "
            f"instances external such as initialized in the method '__init__' before assigning. "
            f"For more details, please refer to {_STATIC_GRAPH_DOCS} \n")


def forbidden_method(value, name: str) -> str | None:
    """The error message for reading method `name` of `value` (a Tensor or Parameter) in a
    graph, or None when graphs have it."""
    if not any(name in names for names in _FORBIDDEN_VALUE_METHODS.values()):
        return None
    from cellgraph.compiler.builder import is_parameter, is_tensor_like

    if not is_tensor_like(value):
        return None
    kind = "Parameter" if is_parameter(value) else "Tensor"
    if name not in _FORBIDDEN_VALUE_METHODS[kind]:
        return None
    return (f"Failed to compile in GRAPH_MODE because the '{kind}' object's method '{name}' is "
            f"not supported in 'construct' or function with @jit decorator. Try to use the "
            f"'{kind}.{name}' externally such as initialized in the method '__init__' before "
            f"assigning.\nFor more details, please refer to {_STATIC_GRAPH_DOCS} \n")


add_jit_forbidden_module("cellgraph.common.initializer")
add_jit_forbidden_module("cellgraph.context")
add_jit_forbidden_module("cellgraph.log")
