"""The optimiser: local rewrites as data, constant folding, CSE and DCE, run to a fixpoint.

A rewrite is one entry in REWRITES: the primitive it applies to and a function from the node
(inputs already substituted) to a replacement value, or None to leave it. Replacements are
existing values or constants, so a rewrite only ever removes work.

    Before:  %1 = ones_like(%x); %2 = mul(%1, %y); %3 = reshape(%2) {shape=(2, 3)}
    After:   (%2 is %y, %3 is %y when %y already has shape (2, 3))
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .ir import Apply, Constant, Graph, Var

FOLD_LIMIT = 1 << 16  # fold constant expressions up to this many elements


def _const(atom):
    return atom.value if isinstance(atom, Constant) else None


def _is_all(atom, number) -> bool:
    if not isinstance(atom, Constant):
        return False
    v = atom.value
    if isinstance(v, (bool, int, float)):
        return v == number
    arr = np.asarray(v)
    return arr.size > 0 and bool(np.all(arr == number))


def _passes_through(node: Apply, atom):
    """`atom` if the node's output is exactly it (same type), else None."""
    out = node.outputs[0].aval
    return atom if atom.aval.shape == out.shape and atom.aval.dtype == out.dtype else None


def _zeros(node: Apply):
    out = node.outputs[0].aval
    return Constant(np.zeros(out.shape, out.dtype.np), out)


def _binary_identity(unit: float, sides: tuple[int, ...]):
    def rule(node: Apply):
        for side in sides:
            if _is_all(node.inputs[side], unit):
                return _passes_through(node, node.inputs[1 - side])
        return None
    return rule


def _mul_zero(node: Apply):
    if any(_is_all(a, 0) for a in node.inputs):
        return _zeros(node)
    return _binary_identity(1, (0, 1))(node)


def _same_shape(node: Apply):
    return _passes_through(node, node.inputs[0])


def _filled(number):
    def rule(node: Apply):
        out = node.outputs[0].aval
        if out.size is None or out.size > FOLD_LIMIT:
            return None
        return Constant(np.full(out.shape, number, out.dtype.np), out)
    return rule


REWRITES: dict[str, list[Callable]] = {
    "ones_like": [_filled(1)],
    "zeros_like": [_filled(0)],
    "add": [_binary_identity(0, (0, 1))],
    "sub": [_binary_identity(0, (1,))],
    "mul": [_mul_zero],
    "div": [_binary_identity(1, (1,))],
    "reshape": [_same_shape],
    "broadcast_to": [_same_shape],
    "cast": [_same_shape],
    "stop_gradient": [lambda n: n.inputs[0]],
    "transpose": [lambda n: n.inputs[0] if n.params["perm"] == tuple(range(len(
        n.params["perm"]))) else None],
    "squeeze": [_same_shape],
    "expand_dims": [_same_shape],
    "select": [lambda n: n.inputs[1] if _is_all(n.inputs[0], True) and _passes_through(
        n, n.inputs[1]) is not None else None],
}


def _foldable(node: Apply) -> bool:
    if node.subgraphs() or node.callee.multiple_results or getattr(node.callee, "effectful",
                                                                      False):
        return False  # effects (printing, random draws) happen when the graph runs
    out = node.outputs[0].aval
    return out.size is not None and out.size <= FOLD_LIMIT and all(
        isinstance(a, Constant) for a in node.inputs)


def _fold(node: Apply):
    from cellgraph.ops.core import _trace_stack

    result = _trace_stack[0].process(node.callee, [a.value for a in node.inputs], node.params)
    value = result.asnumpy()
    return Constant(value, node.outputs[0].aval)


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


def simplify(graph: Graph) -> bool:
    """One sweep of rewrites, folding and CSE; returns True when anything changed."""
    subst: dict[int, object] = {}
    seen: dict[tuple, Apply] = {}
    kept: list[Apply] = []
    changed = False
    for node in graph.nodes:
        new_inputs = [subst.get(id(a), a) for a in node.inputs]
        if any(n is not o for n, o in zip(new_inputs, node.inputs)):
            node.inputs = new_inputs
        replacement = None
        if _foldable(node):
            replacement = _fold(node)
        else:
            for rule in REWRITES.get(node.callee.name, ()):
                replacement = rule(node)
                if replacement is not None:
                    break
        if replacement is not None:
            subst[id(node.outputs[0])] = replacement
            changed = True
            continue
        if getattr(node.callee, "effectful", False):
            kept.append(node)  # effects (printing) are never merged or dropped
            continue
        key = (node.callee.name, tuple(_atom_key(a) for a in node.inputs),
               tuple(sorted((k, _param_key(v)) for k, v in node.params.items())))
        twin = seen.get(key)
        if twin is not None:
            for o, t in zip(node.outputs, twin.outputs):
                subst[id(o)] = t
            changed = True
            continue
        seen[key] = node
        kept.append(node)
    graph.nodes = kept
    graph.outputs = [subst.get(id(o), o) for o in graph.outputs]
    return changed


def dce(graph: Graph) -> bool:
    """Drop nodes whose outputs nothing uses (all primitives here are pure)."""
    live = {id(o) for o in graph.outputs if isinstance(o, Var)}
    kept = []
    for node in reversed(graph.nodes):
        if any(id(o) in live for o in node.outputs) or getattr(node.callee, "effectful", False):
            kept.append(node)
            live.update(id(a) for a in node.inputs if isinstance(a, Var))
    changed = len(kept) != len(graph.nodes)
    graph.nodes = kept[::-1]
    return changed


def optimize(graph: Graph, max_rounds: int = 50) -> Graph:
    """Rewrites, folding, CSE and DCE to a fixpoint, in this graph and every nested graph."""
    from .ir import all_graphs

    for g in all_graphs(graph):
        for _ in range(max_rounds):
            if not (simplify(g) | dce(g)):
                break
    return graph


def node_count(graph: Graph) -> int:
    from .ir import all_graphs

    return sum(len(g.nodes) for g in all_graphs(graph))

