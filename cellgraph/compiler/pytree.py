"""Nested tuples/lists of values <-> a flat list of leaves plus a structure description."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tree:
    kind: str  # "leaf", "tuple" (static: a namedtuple's class), "list", "dict" (static: its
    # keys), "text" (a string known at run time: its parts), "repr" (a part written as its
    # value's repr), "sparse" (static: the class and dense shape of a COOTensor, CSRTensor or
    # RowTensor), "optional" (a value or None, known at run time: its flag and value), "static"
    children: tuple = ()
    static: Any = None
    mutable: bool = False  # a tuple, list or dict `mutable()` made (rebuilt as one)


LEAF = Tree("leaf")


class MutableTuple(tuple):
    """A tuple `mutable(...)` made outside a graph (MindSpore's `_Tuple`): a graph takes it as
    a plain tuple, and a gradient with respect to it is one of the same structure (a plain
    tuple of Tensors gets none)."""

    __ms_mutable__ = True


class MutableList(list):
    """The list counterpart of MutableTuple (MindSpore's `_List`)."""

    __ms_mutable__ = True


class MutableDict(dict):
    """The dict counterpart of MutableTuple (MindSpore's `_Dict`)."""

    __ms_mutable__ = True


class MutableInt(int):
    """An int `mutable(...)` made outside a graph (MindSpore's `_Int`): a number to Python, and
    to a graph it is passed to a variable scalar (an int64 input, not a constant the graph is
    specialised on)."""

    __ms_mutable__ = True

    @property
    def __ms_origin_object__(self):
        return int(self)


class MutableFloat(float):
    """The float counterpart of MutableInt (MindSpore's `_Float`; a float32 input)."""

    __ms_mutable__ = True

    @property
    def __ms_origin_object__(self):
        return float(self)


class MutableBool(int):
    """The bool counterpart of MutableInt (MindSpore's `_Bool`: bool cannot be subclassed, so
    an int that says its class is bool (`isinstance(x, bool)`), prints as a bool and gives
    bools from `&`, `|` and `^` with bools)."""

    __ms_mutable__ = True

    @property
    def __class__(self):
        return bool

    def __repr__(self) -> str:
        return repr(bool(self))

    __str__ = __repr__

    def __and__(self, other):
        return bool(self) & other

    def __rand__(self, other):
        return other & bool(self)

    def __or__(self, other):
        return bool(self) | other

    def __ror__(self, other):
        return other | bool(self)

    def __xor__(self, other):
        return bool(self) ^ other

    def __rxor__(self, other):
        return other ^ bool(self)

    @property
    def __ms_origin_object__(self):
        return bool(self)


def mutable_number(value):
    """`value` (a bool, int or float) as mutable's number of its type."""
    if isinstance(value, bool):
        return MutableBool(value)
    return MutableInt(value) if isinstance(value, int) else MutableFloat(value)


def is_plain_dict(value) -> bool:
    """A dict whose values a graph takes as inputs: a dict, or a mutable one (not another
    mapping class, which is a constant)."""
    return type(value) in (dict, MutableDict)


def flatten(value, is_leaf: Callable[[Any], bool],
            kept: Callable[[Any], bool] | None = None) -> tuple[list, Tree]:
    """Leaves in order, and the Tree that `unflatten` needs; non-leaf scalars stay static.
    `kept(v)`: whether a sequence is given back as that very object (a static part), not
    rebuilt from its items."""
    leaves: list = []
    return leaves, _walk(value, is_leaf, leaves, kept)


def is_static(tree: Tree) -> bool:
    """Whether `tree` holds no run-time value: only constants, in tuples, lists and dicts."""
    return tree.kind == "static" or tree.kind in ("tuple", "list", "dict") and all(
        is_static(c) for c in tree.children)


def _walk(v, is_leaf, leaves: list, kept=None) -> Tree:
    # Module-level for the same reason as _build: no self-referencing closure holding values.
    if kept is not None and kept(v):
        return Tree("static", static=v)
    if isinstance(v, (tuple, list)) and not is_leaf(v):
        return Tree("list" if isinstance(v, list) else "tuple",
                    tuple(_walk(c, is_leaf, leaves, kept) for c in v), namedtuple_class(v),
                    isinstance(v, (MutableTuple, MutableList)))
    if is_plain_dict(v):
        return Tree("dict", tuple(_walk(c, is_leaf, leaves, kept) for c in v.values()),
                    static=tuple(v), mutable=isinstance(v, MutableDict))
    parts = sparse_parts(v)  # a COOTensor, CSRTensor or RowTensor: its arrays are leaves
    if parts is not None:
        return Tree("sparse", tuple(_walk(p, is_leaf, leaves, kept) for p in parts),
                    static=(type(v), getattr(v, type(v)._shape_name)))
    sequence = getattr(v, "runtime_sequence", None)  # a dynamic-length tuple or list
    if sequence is not None:
        children = () if sequence.data is None else (_walk(sequence.data, is_leaf, leaves,
                                                           kept),)
        return Tree("dynseq", children, static=(type(sequence).rebuild, sequence.kind,
                                                sequence.element))
    optional = getattr(v, "runtime_optional", None)  # a value or None (runtime_optional.py)
    if optional is not None:
        return Tree("optional", tuple(_walk(p, is_leaf, leaves) for p in optional),
                    static=(type(v).rebuild,))
    if is_leaf(v):
        scalar = getattr(v, "python_type", None)  # a variable scalar
        leaves.append(v)
        return LEAF if scalar is None else Tree("scalar", (LEAF,),
                                                static=(type(v).rebuild, scalar))
    if isinstance(v, ReprPart):
        return Tree("repr", (_walk(v.repr_value, is_leaf, leaves, kept),))
    parts = getattr(v, "runtime_parts", None)  # an f-string or format() with Tensor parts
    if parts is not None:
        return Tree("text", tuple(_walk(p, is_leaf, leaves, kept) for p in parts))
    return Tree("static", static=v)


def sparse_parts(value) -> list | None:
    """The arrays of a sparse tensor (its class's `_part_names`), else None."""
    names = getattr(type(value), "_part_names", None)
    return None if names is None else [getattr(value, n) for n in names]


def rebuild_sparse(static: tuple, parts) -> Any:
    """The sparse tensor of class and dense shape `static` around `parts` (checked when the
    one they came from was made)."""
    cls, shape = static
    sparse = cls.__new__(cls)
    for name, part in zip(cls._part_names, parts):
        setattr(sparse, name, part)
    setattr(sparse, cls._shape_name, shape)
    return sparse


def namedtuple_class(value) -> type | None:
    """The class of a namedtuple (rebuilt with its items), else None."""
    cls = type(value)
    return cls if issubclass(cls, tuple) and hasattr(cls, "_fields") else None


class RuntimeString:
    """An f-string with Tensor parts: known only at run time, so it can be printed only there.

    print(f"loss {x}")   ->   print(%x) {template=('loss ', 0), sep=''}
    """

    def __init__(self, parts: list):
        self.parts = parts  # strings and graph values, in order

    @property
    def runtime_parts(self) -> list:
        """The parts, for the argument and result trees (pytree's "text" kind)."""
        return self.parts

    def __str__(self) -> str:
        return "".join(p if isinstance(p, str) else f"<{type(p).__name__}>" for p in self.parts)


class ReprPart:
    """A part of a RuntimeString that is written as its value's repr (a Tensor inside a
    formatted tuple or list: `Tensor(shape=[1], dtype=Int64, value= [1])`)."""

    def __init__(self, value):
        self.repr_value = value


def _repr_text(value):
    """The repr of a value known now; a ReprPart again around a graph value."""
    if hasattr(value, "asnumpy") or not hasattr(value, "aval"):
        return repr(value)
    return ReprPart(value)


def join_text(parts: list):
    """A run-time string from its parts: the text, once every part has a value (a Tensor is
    written as print writes it); otherwise, inside a graph being built, a RuntimeString."""
    if all(isinstance(p, str) or hasattr(p, "asnumpy") for p in parts):
        return "".join(p if isinstance(p, str) else str(p) for p in parts)
    return RuntimeString(list(parts))


def unflatten(tree: Tree, leaves) -> Any:
    return _build(tree, iter(leaves))


def _build(t: Tree, it):
    # Module-level, not a closure: a closure that calls itself is a reference cycle, which kept
    # the leaves (a compiled call's result arrays) alive until the cyclic GC ran, so every call
    # allocated its outputs from fresh pages.
    if t.kind == "leaf":
        return next(it)
    if t.kind == "static":
        return t.static
    items = [_build(c, it) for c in t.children]
    if t.kind in ("dynseq", "scalar", "optional"):
        return runtime_value(t, items)
    if t.kind == "text":
        return join_text(items)
    if t.kind == "repr":
        return _repr_text(items[0])
    if t.kind == "sparse":
        return rebuild_sparse(t.static, items)
    if t.kind == "dict":
        return (MutableDict if t.mutable else dict)(zip(t.static, items))
    if t.kind == "list":
        return MutableList(items) if t.mutable else items
    if t.static is not None:
        return t.static(*items)
    return MutableTuple(items) if t.mutable else tuple(items)


def runtime_value(t: Tree, items: list):
    """A dynamic-length sequence or variable scalar: again one while a graph is built (its
    leaves graph values), else the Python list, tuple or number the caller gets. Its class
    rebuilds it (`static` holds its `rebuild` and what that needs)."""
    rebuild, *static = t.static
    return rebuild(static, items)


def count_leaves(tree: Tree) -> int:
    if tree.kind == "leaf":
        return 1
    return sum(count_leaves(c) for c in tree.children)
