"""A graph's dicts, as MindSpore's graphs have them.

Keys are what MindSpore's graphs take: a string, a number, a dtype, None, a
constant Tensor, or a tuple of constants. A value computed in the graph is refused as a key,
alone or inside a tuple, and so is any other object (a list, a function, a Python class):

    {"a": 1, 2.5: x, None: y, ms.float32: z}   # fine
    {x: 1}                                    # x a Tensor argument: RuntimeError
    {(1, x): 1}                               # RuntimeError (a tuple holding a variable)

`d.keys()` and `d.values()` are tuples, `d.items()` a list of (key, value) tuples (so they
index, and a graph can return them). `d.fromkeys(keys, value)` reads the keys from a list, a
tuple, a dict or a string (its characters); any other object is a RuntimeError, a variable key
a TypeError.
"""
from __future__ import annotations

import numbers
from collections.abc import ItemsView, KeysView, ValuesView

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import CompileError, DTypeError

from .builder import Tracer, is_tensor_like
from .dynamic_sequence import RuntimeSequence

_TYPES = (dt.DType, dt.TensorType, dt._ObjectType)  # MindSpore's type objects


def _variable(value) -> bool:
    return isinstance(value, (Tracer, RuntimeSequence))


def _contains_variable(value) -> bool:
    if isinstance(value, (tuple, list)):
        return any(_contains_variable(item) for item in value)
    return _variable(value)


def _shown(value) -> str:
    if isinstance(value, Tracer):
        return f"a variable Tensor(shape={list(value.shape)}, dtype={value.dtype})"
    if isinstance(value, RuntimeSequence):
        return f"a variable {type(value).__name__}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_shown(item) for item in value) + ("," * (len(value) == 1)) + ")"
    if isinstance(value, type):
        return f"class '{value.__name__}'"
    if isinstance(value, (list, str, numbers.Number)) or value is None:
        return repr(value)
    return f"{type(value).__name__} {value!r}"


def check_key(key, operation: str = "make_dict") -> None:
    """MindSpore's check of a dict key (`operation`: make_dict builds a dict, dict_setitem
    stores an item, where a list is Python's TypeError, unhashable)."""
    if operation == "dict_setitem" and isinstance(key, list):
        raise DTypeError("unhashable type: 'list'")
    if isinstance(key, tuple):
        if _contains_variable(key):
            raise CompileError(f"{operation} evaluator key should not be tuple that contains "
                               f"variables, but got {_shown(key)}")
        return
    constant = key is None or isinstance(key, (str, numbers.Number, *_TYPES)) or (
        is_tensor_like(key) and not _variable(key))
    if not constant or _variable(key):
        raise CompileError(f"{operation} evaluator key only supports string, number, type, "
                           f"none, constant tensor and tuple, but got {_shown(key)}")


# MindSpore's names of the types of Python constants in its messages
_SCALAR_NAMES = {bool: "Bool", int: "Int64", float: "Float32", type(None): "None"}


def _keys_of(source) -> list:
    if isinstance(source, (list, tuple, dict, KeysView, ValuesView, ItemsView)):
        return list(source)  # (a dict's views are the tuples MindSpore's graphs give)
    if isinstance(source, str):
        return list(source)
    kind = f"Tensor[{source.dtype}]" if is_tensor_like(source) else \
        _SCALAR_NAMES.get(type(source), type(source).__name__)
    raise CompileError(f"{kind} object is not iterable")


def fromkeys(keys, value=None) -> dict:
    """`d.fromkeys(keys, value)` in a graph: a new dict of `keys`, each mapped to `value`."""
    keys = _keys_of(keys)
    for key in keys:
        if _contains_variable(key):
            raise DTypeError(f"dict.fromkeys can not has variable key input but got key "
                             f"{_shown(key)}")
        check_key(key)
    return dict.fromkeys(keys, value)


def _keys(mapping) -> tuple:
    return tuple(mapping.keys())


def _values(mapping) -> tuple:
    return tuple(mapping.values())


def _items(mapping) -> list:
    return list(mapping.items())


METHODS = {"keys": _keys, "values": _values, "items": _items, "fromkeys": None}


def method(mapping: dict, name: str):
    """The graph's `mapping.<name>`: one of METHODS."""
    if name == "fromkeys":
        return fromkeys
    view = METHODS[name]
    return lambda: view(mapping)
