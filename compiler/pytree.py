"""Nested tuples/lists of values <-> a flat list of leaves plus a structure description."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Tree:
    kind: str  # "leaf", "tuple", "list", "static"
    children: tuple = ()
    static: Any = None


LEAF = Tree("leaf")


def flatten(value, is_leaf: Callable[[Any], bool]) -> tuple[list, Tree]:
    """Leaves in order, and the Tree that `unflatten` needs; non-leaf scalars stay static."""
    leaves: list = []

    def walk(v) -> Tree:
        if isinstance(v, (tuple, list)) and not is_leaf(v):
            return Tree(type(v).__name__ if type(v) in (tuple, list) else "tuple",
                        tuple(walk(c) for c in v))
        if is_leaf(v):
            leaves.append(v)
            return LEAF
        return Tree("static", static=v)

    return leaves, walk(value)


def unflatten(tree: Tree, leaves) -> Any:
    it = iter(leaves)

    def build(t: Tree):
        if t.kind == "leaf":
            return next(it)
        if t.kind == "static":
            return t.static
        items = [build(c) for c in t.children]
        return tuple(items) if t.kind == "tuple" else items

    return build(tree)


def count_leaves(tree: Tree) -> int:
    if tree.kind == "leaf":
        return 1
    return sum(count_leaves(c) for c in tree.children)
