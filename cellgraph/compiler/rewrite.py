"""What rewrite rules are written with: `E(...)` for a replacement built from existing values,
and questions about the values a rule sees (`ctx.producer`, `ctx.uses`, `ctx.scalar`, ...),
answered by the sweep that runs the rule and hands itself to it as `ctx` (a RewriteContext)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

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

class RewriteContext:
    """What a rule may ask about the values it sees, answered by the sweep that runs it: a rule
    is `rule(node, ctx)`, and the optimiser's sweep (optimize._Sweep) is the `ctx`. A sweep
    fills `producers` (value id -> the kept node making it), `n_uses` (value id -> readers when
    the sweep began), `readers` (value id -> the names of the nodes reading it, "" for an
    output), `ranks` (value id -> a stable order) and `scalars` (a cache for `scalar`), and
    says whether the graph is to be `differentiable` again."""

    differentiable: bool = False

    def __init__(self):
        self.producers: dict[int, Apply] = {}
        self.n_uses: dict[int, int] = {}
        self.readers: dict[int, list] = {}
        self.ranks: dict[int, int] = {}
        self.scalars: dict[int, tuple] = {}

    def lookup(self, prim: str, inputs, params=None):
        """The output of a kept node that computes prim(*inputs, **params), else None."""
        raise NotImplementedError  # the sweep, which keeps the nodes, answers

    def producer(self, atom) -> Apply | None:
        """The node (kept in this sweep) whose output `atom` is, or None for params and
        constants."""
        return self.producers.get(id(atom)) if isinstance(atom, Var) else None

    def uses(self, atom) -> int:
        """How many nodes (and graph outputs) read `atom`, counted when the sweep began; a
        value made during the sweep counts as used once (it was made for one reader)."""
        return self.n_uses.get(id(atom), 1)

    def differentiating(self) -> bool:
        """True while optimising a graph that is to be differentiated again."""
        return self.differentiable

    def rank(self, atom) -> int | None:
        """A stable order of values: params first, then node outputs as the sweep keeps them."""
        return self.ranks.get(id(atom))

    def is_root(self, atom, kinds: tuple) -> bool:
        """False when `atom` is read once, by a node of one of `kinds` (it is inside a larger
        expression of them) or was made in this sweep; True otherwise."""
        readers = self.readers.get(id(atom))
        return readers is not None and not (len(readers) == 1 and readers[0] in kinds)

    def existing_product(self, a, b):
        """The output of a kept node that computes mul(a, b) or mul(b, a), else None."""
        return self.lookup("mul", (a, b)) or self.lookup("mul", (b, a))

    def produced_by(self, atom, prim: str) -> Apply | None:
        """producer(atom) when it is a `prim` node, else None."""
        node = self.producer(atom)
        return node if node is not None and node.callee.name == prim else None

    def scalar(self, atom):
        """The number a constant holds in every element (a Python int or float), else None."""
        if not isinstance(atom, Constant):
            return None
        v = atom.value
        if type(v) in (int, float):
            return v
        if (not isinstance(v, (np.ndarray, np.generic)) or v.dtype.kind not in "iuf"
                or v.size == 0):
            return None
        hit = self.scalars.get(id(v))
        if hit is None:
            first = v.flat[0] if isinstance(v, np.ndarray) else v
            hit = self.scalars[id(v)] = (v, first.item() if bool(np.all(v == first)) else None)
        return hit[1]  # the entry holds v, so its id is not reused while the sweep runs

    def number(self, node: Apply, atom):
        """`atom` as a Python number when it is a uniform constant and the node's result is a
        float (the constant then only scales), else None."""
        value = self.scalar(atom)
        return value if value is not None and is_float(node) else None

    def scaled(self, atom):
        """(x, c) when `atom` is mul(x, c) with a constant number c, else (atom, None)."""
        node = self.produced_by(atom, "mul")
        if node is not None and isinstance(node.inputs[1], Constant):
            c = self.number(node, node.inputs[1])
            if c is not None and same_type(node.inputs[0].aval, out_type(node)):
                return node.inputs[0], c
        return atom, None


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
