"""The optimiser: local rewrites as data, constant folding, CSE and DCE, run to a fixpoint.

A rewrite is one entry in REWRITES: the primitive it applies to and a function `rule(node, ctx)`
from the node (inputs already substituted) and the sweep running it (a RewriteContext) to a
replacement, or None to leave it. A replacement is an existing
value, a constant, or an `Expr` built from existing values (`E("mul", x, 2.0)`), whose new nodes
go through the same rewrites, folding and CSE before they are kept. A replacement must have the
node's shape and dtype, or it is not taken. Rules look at the nodes that made their inputs with
`ctx.producer(atom)` and read uniform constants as numbers with `ctx.scalar(atom)`.

    Before:  %1 = ones_like(%x); %2 = mul(%1, %y); %3 = reshape(%2) {shape=(2, 3)}
    After:   (%2 is %y, %3 is %y when %y already has shape (2, 3))

    Before:  %2 = neg(%1); %3 = add(%2, %2); %4 = mul(%3, %t)
    After:   %5 = mul(%1, %t); %6 = mul(%5, -2.0)

The arithmetic rules (algebra.py) bring products and negations into one form, `mul(x, c)` with
the constant last and signs folded into it, and collect like terms, so that the n-th derivative
of a function (where each order multiplies the last by -1, 2 and the like) stays small; the
rule helpers (`E`, RewriteContext's `producer`, `scalar`, ...) are in rewrite.py.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cellgraph.primitives.core import PRIMITIVES, abstract_of, evaluate

from . import algebra
from .ir import Apply, Constant, Graph, Var, has_effects
from .rewrite import (
    E,
    Expr,
    RewriteContext,
    is_all,
    is_float,
    out_type,
    passes_through,
    same_type,
    zeros_of,
)

__all__ = ["REWRITES", "E", "Expr", "dce", "node_count", "optimize", "simplify"]

FOLD_LIMIT = 1 << 16  # fold constant expressions up to this many elements
# Primitives that are the identity on values but not on derivatives: kept (not rewritten) in a
# graph that is optimised before it is differentiated again.
GRADIENT_BARRIERS = frozenset({"stop_gradient", "assigned_read"})
MAX_DEPTH = 16  # how deep the replacement of a replacement may nest within one sweep


# ----- rules -----------------------------------------------------------------------------------

def _binary_identity(unit: float, sides: tuple[int, ...]):
    def rule(node: Apply, ctx: RewriteContext):
        for side in sides:
            if is_all(node.inputs[side], unit):
                return passes_through(node, node.inputs[1 - side])
        return None
    return rule


def _mul_zero(node: Apply, ctx: RewriteContext):
    """mul(x, 0) -> zeros where that is exact: an integer or bool product. A float x may hold
    an infinity or a NaN, whose product with 0 is NaN (IEEE's, and MindSpore's), so a float
    product by a zero constant stays."""
    if not is_float(node) and not out_type(node).dtype.is_complex and any(
            is_all(a, 0) for a in node.inputs):
        return zeros_of(node)
    return _binary_identity(1, (0, 1))(node, ctx)


def _same_shape(node: Apply, ctx: RewriteContext):
    return passes_through(node, node.inputs[0])


def _filled(number):
    def rule(node: Apply, ctx: RewriteContext):
        out = out_type(node)
        if out.size is None or out.size > FOLD_LIMIT:
            return None
        return Constant(np.full(out.shape, number, out.dtype.np), out)
    return rule


def _conj_of_conj(node: Apply, ctx: RewriteContext):
    """conj(conj(x)) -> x: the complex convention (ops/complex_ops.py) conjugates a holomorphic
    rule's cotangents and results, so adjacent rules meet in such pairs."""
    inner = ctx.producer(node.inputs[0])
    return inner.inputs[0] if inner is not None and inner.callee.name == "conj" else None


REWRITES: dict[str, list[Callable]] = {
    "ones_like": [_filled(1)],
    "zeros_like": [_filled(0)],
    "add": [_binary_identity(0, (0, 1)), algebra.add_collect, algebra.linear_combination,
            algebra.polynomial, algebra.unbroadcast],
    "sub": [_binary_identity(0, (1,)), algebra.sub_fold, algebra.linear_combination,
            algebra.polynomial, algebra.unbroadcast],
    "mul": [_mul_zero, algebra.mul_constant_last, algebra.mul_by_constant, algebra.mul_pull_out,
            algebra.mul_broadcast_constant, algebra.mul_mask, algebra.mul_reuse,
            algebra.mul_into_matmul,
            algebra.polynomial, algebra.unbroadcast],
    "neg": [algebra.neg_fold],
    "conj": [_conj_of_conj],
    "div": [_binary_identity(1, (1,)), algebra.unbroadcast],
    "matmul": [algebra.matmul_outer, algebra.matmul_scaled],
    "reduce_sum": [algebra.reduce_unit_axes, algebra.reduce_scaled, algebra.reduce_dot],
    "reduce_mean": [algebra.reduce_unit_axes, algebra.reduce_scaled],
    "reduce_max": [algebra.reduce_unit_axes],
    "reduce_min": [algebra.reduce_unit_axes],
    "reduce_prod": [algebra.reduce_unit_axes],
    "reshape": [_same_shape, algebra.reshape_of_reshape],
    "broadcast_to": [_same_shape],
    "cast": [_same_shape],
    "stop_gradient": [lambda n, ctx: n.inputs[0]],
    "assigned_read": [lambda n, ctx: passes_through(n, n.inputs[1])],
    "transpose": [lambda n, ctx: n.inputs[0] if n.params["perm"] == tuple(range(len(
        n.params["perm"]))) else None, algebra.transpose_as_reshape],
    "squeeze": [_same_shape],
    "expand_dims": [_same_shape],
    "select": [lambda n, ctx: n.inputs[1] if is_all(n.inputs[0], True) and passes_through(
        n, n.inputs[1]) is not None else None],
}


# ----- the driver ------------------------------------------------------------------------------

def _foldable(node: Apply) -> bool:
    if node.subgraphs() or node.callee.multiple_results or has_effects(node):
        return False  # effects (printing, random draws) happen when the graph runs
    out = out_type(node)
    return out.size is not None and out.size <= FOLD_LIMIT and all(
        isinstance(a, Constant) for a in node.inputs)


def _fold(node: Apply):
    value = evaluate(node.callee, *[a.value for a in node.inputs], **node.params).asnumpy()
    return Constant(value, out_type(node))


def _param_key(value):
    if isinstance(value, Graph):
        return ("graph", id(value))
    if isinstance(value, (list, tuple)):
        return tuple(_param_key(v) for v in value)
    try:
        hash(value)
        return value
    except TypeError:
        return ("id", id(value))


def _atom_key(atom):
    if isinstance(atom, Constant):
        v = atom.value
        if isinstance(v, (bool, int, float)):
            return ("c", type(v), v)
        return ("a", id(v))
    return id(atom)


# Operations whose operands may swap places: CSE finds a*b where b*a was computed (forward mode
# over forward mode meets the same products with their factors in either order).
COMMUTATIVE = frozenset({"add", "mul", "maximum", "minimum", "equal", "not_equal",
                         "logical_and", "logical_or"})


def _node_key(prim: str, inputs, params: dict) -> tuple:
    """What makes two nodes compute the same value (CSE)."""
    operands = tuple(_atom_key(a) for a in inputs)
    if prim in COMMUTATIVE:
        operands = tuple(sorted(operands, key=repr))
    return (prim, operands, tuple(sorted((k, _param_key(v)) for k, v in params.items())))


def _expr_type(expr):
    """The abstract value `expr` would have, or None when a type rule rejects it."""
    if not isinstance(expr, Expr):
        return _as_atom(expr).aval
    avals = [_expr_type(a) for a in expr.inputs]
    if any(a is None for a in avals):
        return None
    prim = PRIMITIVES[expr.prim]
    try:
        return prim.abstract_eval(avals, expr.params)
    except Exception:  # noqa: BLE001 - a rule proposed something ill-typed: not taken
        return None


def _as_atom(value):
    """Rules may write numbers where they mean constants: E("mul", x, 2.0)."""
    if isinstance(value, (Var, Constant, Expr)):
        return value
    return Constant(value, abstract_of(value))


class _Sweep(RewriteContext):
    """One pass over a graph's nodes: substitute, fold, rewrite, CSE; new nodes are visited
    as they are made, so a rewrite's result is simplified in the same sweep. It is the
    context its rules are handed (`rule(node, sweep)`): what they ask, it answers."""

    def __init__(self, differentiable: bool = False, rewrites: dict | None = None):
        super().__init__()  # producers, n_uses, readers, ranks, scalars: see RewriteContext
        self.differentiable = differentiable
        self.rewrites = REWRITES if rewrites is None else rewrites
        self.subst: dict[int, object] = {}
        self.seen: dict[tuple, Apply] = {}
        self.kept: list[Apply] = []
        self.made: list[Apply] = []  # every node built here stays alive: the maps key on ids
        self.changed = False

    def visit(self, node: Apply, depth: int = 0):
        """Simplify `node` and keep it (or what replaces it); returns its output's value."""
        inputs = [self.subst.get(id(a), a) for a in node.inputs]
        if any(n is not o for n, o in zip(inputs, node.inputs)):
            node.inputs = inputs
        replacement = self.replacement(node, depth)
        if replacement is not None:
            self.subst[id(node.outputs[0])] = replacement
            # A rewrite that rebuilt the node as it was (a canonical form already reached)
            # changes nothing; nodes built for a rewrite are judged by the rewrite they serve.
            self.changed |= depth == 0 and not self._rebuilt_as_is(node, replacement)
            if isinstance(replacement, Var):  # its readers now read the replacement
                self.n_uses[id(replacement)] = self.n_uses.get(id(replacement), 0) + (
                    self.n_uses.get(id(node.outputs[0]), 1))
            return replacement
        if has_effects(node) or not node.outputs:
            self.kept.append(node)  # effects (printing) are never merged or dropped
            return node.outputs[0] if node.outputs else None
        key = _node_key(node.callee.name, node.inputs, node.params)
        twin = self.seen.get(key)
        if twin is not None:
            for o, t in zip(node.outputs, twin.outputs):
                self.subst[id(o)] = t
            self.changed |= depth == 0
            return twin.outputs[0]
        self.seen[key] = node
        self.kept.append(node)
        for o in node.outputs:
            self.producers[id(o)] = node
            self.ranks[id(o)] = len(self.ranks)
        return node.outputs[0]

    def _rebuilt_as_is(self, node: Apply, replacement) -> bool:
        twin = self.producers.get(id(replacement)) if isinstance(replacement, Var) else None
        return (twin is not None and twin is not node and twin.callee is node.callee
                and len(twin.inputs) == len(node.inputs)
                and all(a is b for a, b in zip(twin.inputs, node.inputs))
                and twin.params == node.params)

    def lookup(self, prim: str, inputs, params=None):
        """The output of the kept node that computes prim(*inputs, **params), else None."""
        twin = self.seen.get(_node_key(prim, inputs, params or {}))
        return twin.outputs[0] if twin is not None else None

    def replacement(self, node: Apply, depth: int):
        if _foldable(node):
            return _fold(node)
        if depth > MAX_DEPTH or self.differentiable and node.callee.name in GRADIENT_BARRIERS:
            return None
        for rule in self.rewrites.get(node.callee.name, ()):
            found = rule(node, self)
            if found is None:
                continue
            if isinstance(found, Expr):
                aval = _expr_type(found)
                if aval is None or not same_type(aval, out_type(node)):
                    continue
                return self.build(found, node, depth + 1)
            return found
        return None

    def build(self, expr, origin: Apply, depth: int):
        """Make the nodes of `expr` (stamped with the origin's location) and visit them."""
        if not isinstance(expr, Expr):
            return expr
        inputs = [self.build(_as_atom(a), origin, depth) for a in expr.inputs]
        prim = PRIMITIVES[expr.prim]
        aval = prim.abstract_eval([a.aval for a in inputs], expr.params)
        node = Apply(prim, inputs, dict(expr.params), [Var(aval)], origin.loc)
        self.made.append(node)
        for a in inputs:  # existing values gain a reader
            if isinstance(a, Var) and id(a) in self.n_uses:
                self.n_uses[id(a)] += 1
        return self.visit(node, depth)


def simplify(graph: Graph, differentiable: bool = False, rewrites: dict | None = None) -> bool:
    """One sweep of rewrites, folding and CSE, in place; returns True when anything changed.
    `differentiable`: the graph will be differentiated again (GRADIENT_BARRIERS stay);
    `rewrites`: the rule table (REWRITES unless given). passes.simplify_pass is the pass."""
    sweep = _Sweep(differentiable, rewrites)
    for node in graph.nodes:
        for a in node.inputs:
            sweep.n_uses[id(a)] = sweep.n_uses.get(id(a), 0) + 1
            sweep.readers.setdefault(id(a), []).append(node.callee.name)
    for o in graph.outputs:
        sweep.n_uses[id(o)] = sweep.n_uses.get(id(o), 0) + 1
        sweep.readers.setdefault(id(o), []).append("")
    for p in graph.params:
        sweep.ranks[id(p)] = len(sweep.ranks)
    for node in list(graph.nodes):
        sweep.visit(node)
    graph.nodes = sweep.kept
    graph.outputs = [sweep.subst.get(id(o), o) for o in graph.outputs]
    return sweep.changed


def dce(graph: Graph) -> bool:
    """Drop nodes whose outputs nothing uses (all primitives here are pure); a fused node with
    one result read becomes that result's own primitive where it declares one (`def_narrow`).
    """
    live = {id(o) for o in graph.outputs if isinstance(o, Var)}
    kept, narrowed = [], False
    for node in reversed(graph.nodes):
        read = tuple(id(o) in live for o in node.outputs)
        if any(read) or has_effects(node):
            if not all(read) and node.callee.narrow_rule is not None:
                single = _narrowed(node, read)
                narrowed |= single is not node
                node = single
            kept.append(node)
            live.update(id(a) for a in node.inputs if isinstance(a, Var))
    changed = narrowed or len(kept) != len(graph.nodes)
    graph.nodes = kept[::-1]
    return changed


def _narrowed(node: Apply, read: tuple) -> Apply:
    """   (dx, dw) = conv2d_grad(x, w, y)   with dx unread
    -> dw = conv2d_backprop_filter(x, y)"""
    found = node.callee.narrow_rule(read, *[a.aval for a in node.inputs], **node.params)
    if found is None:
        return node
    prim, positions, params = found
    return Apply(prim, [node.inputs[i] for i in positions], params,
                 [node.outputs[read.index(True)]], node.loc)


def optimize(graph: Graph, max_rounds: int = 50, differentiable: bool = False,
             rewrites: dict | None = None) -> Graph:
    """Rewrites, folding, CSE and DCE to a fixpoint, in place, in this graph and every nested
    graph. `differentiable`: the graph will be differentiated again, so stop_gradient and the
    like stay; `rewrites`: the rule table (REWRITES unless given). passes.optimize_pass is the
    pass."""
    from .ir import all_graphs

    for g in all_graphs(graph):
        for _ in range(max_rounds):
            if not (simplify(g, differentiable, rewrites) | dce(g)):
                break
    return graph


def node_count(graph: Graph) -> int:
    from .ir import all_graphs

    return sum(len(g.nodes) for g in all_graphs(graph))
