"""Row separability: which values of a graph depend on each row of one input through that row
alone, so that the graph's gradient with respect to the input can be taken in forward mode.

Take an input x whose elements each sit in their own row (shape (N, 1), (N,), (1, N)...: one
axis, the row axis, is the only one longer than 1). A value y is *row separable* along its axis
a when y[..., i, ...] (index i on axis a) depends on row i of x and on nothing else that
depends on x. Elementwise operations, matrix products of such a value by an x-independent
matrix (and of an x-independent matrix by one, along its columns), reductions over other axes,
reshapes and transposes that keep the rows apart all give separable values again. Where a value
mixes rows (a reduction over the row axis, a product that contracts it, an operation the
analysis does not know) it is *mixed*, and so is everything computed from it.

Why it matters: the Jacobian of the separable values Y with respect to x is then block
diagonal, one one-element column per row, so for any cotangent c of Y

    (Jᵀc)_i = Σ_j c_ij · (J·1)_ij        (j runs over the non-row axes of y)

i.e. the reverse-mode gradient is the forward-mode tangent along ones, weighted by c and summed
across each row. compiler/autodiff.py uses this: the separable part of a graph is differentiated
in forward mode, the mixed rest (typically a final sum) in reverse mode. For nested derivatives
this matters: forward over forward with one shared tangent collapses (CSE) to one tangent per
derivative order and layer, where reverse over reverse doubles its products at every order.

    @f(%x: f32[4096,1], %w: f32[1,64], %v: f32[64,64]):    row axis of each value:
      %1 = matmul(%x, %w)           : f32[4096,64]            0
      %2 = tanh(%1)                 : f32[4096,64]            0
      %3 = matmul(%2, %v)           : f32[4096,64]            0
      %4 = reduce_sum(%3) {axis=(1,)} : f32[4096]             0
      %5 = reduce_sum(%4) {axis=(0,)} : f32[]                 mixed (sums the rows)

The rules come in two tables: by primitive name (ROW_RULES) for the shape operations and
matmul, and by the kind of the primitive's batching rule (KIND_RULES: elementwise, broadcasting,
reduction, one axis), which already says how the primitive treats its axes.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from cellgraph.primitives.core import normalize_axes, normalize_axis

from .ir import Apply, Graph, Var, has_effects

MIXED = "mixed"  # a value that depends on x but not row by row


def row_axis(shape: tuple) -> int | None:
    """The axis an input of `shape` keeps its rows along: the only axis longer than 1 (axis 0
    when there is none); None when several are longer than 1 or the input is a scalar."""
    long_axes = [i for i, d in enumerate(shape) if d != 1]
    if not shape or len(long_axes) > 1 or None in shape:
        return None
    return long_axes[0] if long_axes else 0


# ----- rules: (node, states of its inputs, ranks) -> states of its outputs ---------------------
# A state is None (does not depend on x), an int (row separable along that axis) or MIXED. Rules
# are called when at least one input is separable and none is mixed.

def _elementwise(node: Apply, states: list) -> tuple:
    return (states[0],)


def _independent(node: Apply, states: list) -> tuple:
    """zeros_like / ones_like: the shape of x's value, not the value."""
    return (None,) * len(node.outputs)


def _broadcasting(node: Apply, states: list) -> tuple:
    out_shape = node.outputs[0].aval.shape
    aligned = set()
    for atom, state in zip(node.inputs, states):
        if state is None:
            continue
        shape = atom.aval.shape
        axis = state + len(out_shape) - len(shape)
        if out_shape[axis] != shape[state]:  # a row broadcast across others mixes rows
            return (MIXED,)
        aligned.add(axis)
    return (aligned.pop(),) if len(aligned) == 1 else (MIXED,)


def _reduction(node: Apply, states: list) -> tuple:
    (state,), x = states, node.inputs[0]
    axes = normalize_axes(node.params.get("axis", ()), x.aval.ndim)
    if state in axes:
        return (MIXED,)
    if node.params.get("keep_dims", False):
        return (state,)
    return (state - sum(a < state for a in axes),)


def _along_axis(node: Apply, states: list) -> tuple:
    (state,), x = states, node.inputs[0]
    axis = normalize_axis(node.params.get("axis", -1), x.aval.ndim)
    return (MIXED,) if axis == state else (state,)


def _matmul(node: Apply, states: list) -> tuple:
    """x-dependent rows times an x-independent matrix, or an x-independent matrix times
    x-dependent columns; on a batch axis, any operand."""
    x, y = node.inputs
    sx, sy = states
    if x.aval.ndim < 2 or y.aval.ndim < 2:
        return (MIXED,)
    out_rank = node.outputs[0].aval.ndim
    rows_x = x.aval.ndim - (1 if node.params.get("transpose_a", False) else 2)
    cols_y = y.aval.ndim - (2 if node.params.get("transpose_b", False) else 1)
    results = set()
    for state, operand, own_axis, out_axis in ((sx, x, rows_x, out_rank - 2),
                                              (sy, y, cols_y, out_rank - 1)):
        if state is None:
            continue
        if state < operand.aval.ndim - 2:  # a batch axis: aligned to the right
            results.add(state + out_rank - operand.aval.ndim)
        elif state == own_axis and (sx is None or sy is None):
            results.add(out_axis)
        else:
            return (MIXED,)  # the contracted axis
    return (results.pop(),) if len(results) == 1 else (MIXED,)


def _reshape(node: Apply, states: list) -> tuple:
    """Rows stay apart when the elements before the row axis, and the row count, are the same
    in both shapes (row-major order keeps each row's elements together)."""
    (state,), shape = states, node.inputs[0].aval.shape
    new_shape = node.outputs[0].aval.shape
    before = math.prod(shape[:state])
    for axis, size in enumerate(new_shape):
        if math.prod(new_shape[:axis]) == before and size == shape[state]:
            return (axis,)
    return (MIXED,)


def _transpose(node: Apply, states: list) -> tuple:
    return (tuple(node.params["perm"]).index(states[0]),)


def _expand_dims(node: Apply, states: list) -> tuple:
    axis = normalize_axis(node.params["axis"], node.outputs[0].aval.ndim)
    return (states[0] + (axis <= states[0]),)


def _squeeze(node: Apply, states: list) -> tuple:
    shape = node.inputs[0].aval.shape
    axis = node.params.get("axis", ())
    removed = normalize_axes(axis, len(shape)) if axis != () else tuple(
        i for i, d in enumerate(shape) if d == 1)
    if states[0] in removed:
        return (MIXED,)
    return (states[0] - sum(a < states[0] for a in removed),)


ROW_RULES: dict[str, Callable] = {
    "matmul": _matmul, "reshape": _reshape, "transpose": _transpose,
    "expand_dims": _expand_dims, "squeeze": _squeeze, "broadcast_to": _broadcasting,
    "zeros_like": _independent, "ones_like": _independent,
}

# the kind a batching rule factory in ops/batching.py stamps on its rules -> the row rule
KIND_RULES: dict[str, Callable] = {
    "elementwise": _elementwise, "broadcasting": _broadcasting, "reduction": _reduction,
    "along_axis": _along_axis,
}


def _rule_of(node: Apply) -> Callable | None:
    if node.subgraphs() or node.callee.effectful:
        return None
    rule = ROW_RULES.get(node.callee.name)
    if rule is None:
        rule = KIND_RULES.get(getattr(node.callee.batch_rule, "kind", None))
    return rule


# ----- the analysis ----------------------------------------------------------------------------

@dataclass
class RowSplit:
    """`graph` cut for a gradient with respect to params[index]: `separable` nodes (every
    output row separable or independent of x), then the `mixed` ones; `boundary` lists the
    separable x-dependent values that mixed nodes read or the graph returns, with their row
    axes."""

    graph: Graph
    index: int
    separable: list
    mixed: list
    boundary: list  # (Var, row axis)


def row_states(graph: Graph, index: int, axis: int) -> dict[int, object]:
    """id(value) -> None / row axis / MIXED, for every value of `graph` that depends on
    params[index] (rows along `axis`); independent values are absent."""
    states: dict[int, object] = {id(graph.params[index]): axis}
    for node in graph.nodes:
        ins = [states.get(id(a)) if isinstance(a, Var) else None for a in node.inputs]
        if all(s is None for s in ins):
            continue
        rule = None if MIXED in ins else _rule_of(node)
        outs = rule(node, ins) if rule is not None else (MIXED,) * len(node.outputs)
        for var, state in zip(node.outputs, outs):
            if state is not None:
                states[id(var)] = state
    return states


def split_rows(graph: Graph, index: int) -> RowSplit | None:
    """The separable/mixed cut of `graph` for its gradient with respect to params[index], or
    None when forward mode has nothing to do: the input is not one element per row, or no
    operation on it is separable."""
    x = graph.params[index]
    axis = row_axis(x.aval.shape)
    if axis is None or not x.aval.dtype.is_float or any(map(has_effects, graph.nodes)):
        return None  # (forward mode replays the forward pass: a random draw must happen once)
    states = row_states(graph, index, axis)
    separable, mixed = [], []
    for node in graph.nodes:
        is_mixed = any(states.get(id(o)) == MIXED for o in node.outputs)
        (mixed if is_mixed else separable).append(node)
    if not any(id(o) in states for n in separable for o in n.outputs):
        return None
    read_by_mixed = {id(a) for n in mixed for a in n.inputs} | {id(o) for o in graph.outputs}
    values = [x] + [o for n in separable for o in n.outputs]
    boundary = [(v, states[id(v)]) for v in values
                if id(v) in read_by_mixed and states.get(id(v)) not in (None, MIXED)]
    return RowSplit(graph, index, separable, mixed, boundary)
