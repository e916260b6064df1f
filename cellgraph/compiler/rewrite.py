"""What rewrite rules are written with: `E(...)` for a replacement built from existing values,
and questions about the values a rule sees (`producer`, `uses`, `scalar`, their types), answered
from the optimiser's sweep that is running."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cellgraph.primitives.core import ThreadLocalStack

from .ir import Apply, Constant, Var


@dataclass(eq=False)
class Expr:
    """A replacement to build: `prim(*inputs, **params)`; inputs are atoms or other Exprs."""

    prim: str
    inputs: tuple
    params: dict = field(default_factory=dict)


def E(prim: str, *inputs, **params) -> Expr:
    return Expr(prim, inputs, params)


# ----- what rules may ask ----------------------------------------------------------------------

# the sweep running now in this thread (rules read its producers and constants)
_sweeps = ThreadLocalStack()


def producer(atom) -> Apply | None:
    """The node (kept in this sweep) whose output `atom` is, or None for params and constants."""
    return _sweeps[-1].producers.get(id(atom)) if isinstance(atom, Var) and _sweeps else None


def uses(atom) -> int:
    """How many nodes (and graph outputs) read `atom`, counted when the sweep began; a value
    made during the sweep counts as used once (it was made for one reader)."""
    return _sweeps[-1].uses.get(id(atom), 1) if _sweeps else 2


def differentiating() -> bool:
    """True while optimising a graph that is to be differentiated again."""
    return bool(_sweeps) and _sweeps[-1].differentiable


def rank(atom) -> int | None:
    """A stable order of values: params first, then node outputs as the sweep keeps them."""
    return _sweeps[-1].ranks.get(id(atom)) if _sweeps else None


def is_root(atom, kinds: tuple) -> bool:
    """False when `atom` is read once, by a node of one of `kinds` (it is inside a larger
    expression of them) or was made in this sweep; True otherwise."""
    if not _sweeps:
        return False
    readers = _sweeps[-1].readers.get(id(atom))
    return readers is not None and not (len(readers) == 1 and readers[0] in kinds)


def existing_product(a, b):
    """The output of a kept node that computes mul(a, b) or mul(b, a), else None."""
    if not _sweeps:
        return None
    return _sweeps[-1].lookup("mul", (a, b)) or _sweeps[-1].lookup("mul", (b, a))


def produced_by(atom, prim: str) -> Apply | None:
    """producer(atom) when it is a `prim` node, else None."""
    node = producer(atom)
    return node if node is not None and node.callee.name == prim else None


def scalar(atom):
    """The number a constant holds in every element (a Python int or float), else None."""
    if not isinstance(atom, Constant):
        return None
    v = atom.value
    if type(v) in (int, float):
        return v
    if not isinstance(v, (np.ndarray, np.generic)) or v.dtype.kind not in "iuf" or v.size == 0:
        return None
    cache = _sweeps[-1].scalars if _sweeps else {}
    hit = cache.get(id(v))
    if hit is None:
        first = v.flat[0] if isinstance(v, np.ndarray) else v
        hit = cache[id(v)] = (v, first.item() if bool(np.all(v == first)) else None)
    return hit[1]  # the entry holds v, so its id is not reused while the sweep runs


def is_all(atom, number) -> bool:
    if not isinstance(atom, Constant):
        return False
    v = atom.value
    if isinstance(v, (bool, int, float)):
        return v == number
    arr = np.asarray(v)
    return arr.size > 0 and bool(np.all(arr == number))


def out_type(node: Apply):
    return node.outputs[0].aval


def same_type(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def passes_through(node: Apply, atom):
    """`atom` if the node's output is exactly it (same type), else None."""
    return atom if same_type(atom.aval, out_type(node)) else None


def zeros_of(node: Apply):
    out = out_type(node)
    return Constant(np.zeros(out.shape, out.dtype.np), out)


def is_float(node: Apply) -> bool:
    return out_type(node).dtype.is_float


def number(node: Apply, atom):
    """`atom` as a Python number when it is a uniform constant and the node's result is a
    float (the constant then only scales), else None."""
    value = scalar(atom)
    return value if value is not None and is_float(node) else None


def scaled(atom):
    """(x, c) when `atom` is mul(x, c) with a constant number c, else (atom, None)."""
    node = produced_by(atom, "mul")
    if node is not None and isinstance(node.inputs[1], Constant):
        c = number(node, node.inputs[1])
        if c is not None and same_type(node.inputs[0].aval, out_type(node)):
            return node.inputs[0], c
    return atom, None
