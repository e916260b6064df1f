"""Reverse-mode automatic differentiation as a graph transform.

A `grad` node marks "differentiate this graph here":

    %1, %2 = grad(%x, %y, %z) {graph=@construct, wrt=(0,)}   # forward output, d/dx

`expand_grad` replaces it by the forward nodes of @construct followed by their adjoints. Each
primitive's bprop rule is written with ops and runs under the graph builder, so the adjoint is
made of ordinary primitives and a `grad` node around it expands the same way: that is how second,
third and fourth order come for free. Nested `grad` nodes are expanded innermost first.

Worked example. For `out = matmul(x * z, y)` with respect to x, the expansion emits

    %1 = mul(%x, %z)                                  # forward
    %2 = matmul(%1, %y)
    %3 = ones_like(%2)                                # seed (no sens given)
    %4 = matmul(%3, %y) {transpose_b=True}            # bprop of matmul, for %1
    %5 = mul(%4, %z)                                  # bprop of mul, for x
    %6 = reduce_sum(%5, ...) / reshape                # only when z broadcast x

J(g) is thus closure-converted at transform time: the "bprop closure" of the textbook J is the
second half of this straight-line code, reading forward values directly, so no closures or tuple
packing are left for the optimiser to remove. Gradients that no output reaches stay symbolic
zeros (absent from the adjoint map) and cost nothing; a requested gradient that is zero is
materialised once, at the end.

As in MindSpore, integer values carry gradients too (d(w*x)/dx = w for int32 tensors), and a
boolean input asked for gets its gradient cast to bool (`x + y` with bool y: `sens != 0`);
booleans an operation moves (a scatter, a reshape) carry them on, while values computed as
booleans and nondifferentiable primitives stop them. Every gradient takes
its primal's dtype.

Structural nodes with their own bprop (a Cell's custom `bprop`, compiler/custom.py) register an
EXPAND_RULES entry: while a graph is about to be differentiated the node stays, so that vjp uses
its rule; everywhere else `expand_grad` replaces it by ordinary nodes.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import replace

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import (
    Primitive,
    TensorType,
    abstract_of,
    fmt_shape,
    prims,
    set_decomposition_vjp,
    shapes_agree,
)
from cellgraph.primitives.errors import ArgumentError, CompileError

from .builder import Builder, build_graph, compile_context, current_builder
from .compile_context import CompileContext
from .ir import Apply, Constant, Graph, Var, copy_graph
from .optimize import optimize
from .separable import RowSplit, split_rows


def _grad_type(*avals, graph: Graph, wrt: tuple, has_sens: bool):
    n_in = len(graph.params)
    inputs, sens = avals[:n_in], avals[n_in:]
    if len(inputs) != n_in:
        raise ArgumentError(f"expected {n_in} inputs for {graph!r}, got {len(inputs)}")
    for p, a in zip(graph.params, inputs):
        if p.aval.shape != a.shape:
            raise ArgumentError(f"input of shape {a.shape} where {graph!r} takes {p.aval}")
    if has_sens:
        if len(sens) != len(graph.outputs):
            raise ArgumentError(f"expected {len(graph.outputs)} sens values (one per output of "
                                f"{graph!r}), got {len(sens)}")
        for o, s in zip(graph.outputs, sens):
            if not shapes_agree(o.aval.shape, s.shape):
                raise ArgumentError(f"sens of shape {s.shape} for an output of shape "
                                    f"{o.aval.shape}")
    return tuple(graph.out_avals()) + tuple(graph.params[i].aval for i in wrt)


grad_p = Primitive("grad", _grad_type, label="Grad", multiple_results=True, structural=True)


def emit_grad(graph: Graph, inputs: list, wrt: tuple, sens: list | None):
    """Emit a grad node in the current builder; returns (forward outputs, gradients)."""
    outs = grad_p(*inputs, *(sens or ()), graph=graph, wrt=tuple(wrt),
                  has_sens=sens is not None)
    n_out = len(graph.outputs)
    return list(outs[:n_out]), list(outs[n_out:])


# ----- expansion -------------------------------------------------------------------------------

# How to replace a structural node by ordinary ones when it is not differentiated (a custom_vjp
# node becomes the inlined forward graph): primitive -> rule(*inputs, **params) -> outputs.
EXPAND_RULES: dict[Primitive, Callable] = {}

# How a structural node runs in the forward half of a VJP when it must record residuals for
# its bprop (a loop stacks what its backward loop reads; an ops primitive declares its own
# with `def_recording`): primitive ->
# rule(*inputs, **params) -> (outputs, residuals); the bprop then gets `residuals=`. A rule
# marked `takes_active` also gets `active=`, whether each input has a gradient wanted; one with
# a `before_backward(residuals, **params)` has the residuals it returns, in forward order,
# before the backward pass begins.
RECORDING_RULES: dict[Primitive, Callable] = {}

# graph -> {keep_structural: its expansion}; held by the graph, freed with it
_expanded: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def expand_grad(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """Replace every grad node (in this graph and the graphs nested in it) by its expansion, and
    every node with an EXPAND_RULES entry by its expansion (unless about to be differentiated:
    `ctx.keep_structural`). `ctx`: the compile's context; when None, that of the graph being
    built now (an expansion inside an expansion keeps its setting).

    Before:  %1, %2 = grad(%x) {graph=@f, wrt=(0,)}      @f: %1 = sin(%x); return %1
    After:   %1 = sin(%x); %2 = ones_like(%1); %3 = cos(%x); %4 = mul(%2, %3)
    """
    ctx = compile_context() if ctx is None else ctx
    keep = ctx.keep_structural
    hit = _expanded.get(graph, {}).get(keep)
    if hit is not None:
        return hit
    if not _needs_expansion(graph, keep):
        return graph
    builder = Builder(graph.name, graph.loc)
    builder.context = ctx  # what replay and the expansions inside it read
    with builder.active():
        args = [builder.add_param(p.aval, p.hint) for p in graph.params]
        outs = inline(graph, args)
        new, captured = builder.finish(list(outs))
    assert not captured
    new.params = new.params[:len(graph.params)]  # weights stay ordinary parameters here
    new.weights, new.out_tree, new.updates = graph.weights, graph.out_tree, graph.updates
    new.host_writes = graph.host_writes
    new.weight_splits = graph.weight_splits
    assert len(new.params) == len(graph.params)
    _expanded.setdefault(graph, {})[keep] = new
    return new



def _needs_expansion(graph: Graph, keep: bool, seen: set | None = None) -> bool:
    seen = set() if seen is None else seen
    seen.add(id(graph))  # a recursive graph calls itself
    return any(n.callee is grad_p or (not keep and n.callee in EXPAND_RULES)
               or any(_needs_expansion(g, keep, seen) for g in n.subgraphs()
                      if id(g) not in seen) for n in graph.nodes)


def _read(env: dict, atom):
    return atom.value if isinstance(atom, Constant) else env[id(atom)]


def replay(node: Apply, ins: list) -> list:
    """Emit `node` on `ins` into the current builder, expanding it if it is a grad node (or has
    an EXPAND_RULES entry and is not about to be differentiated); returns its output values."""
    if node.callee is grad_p:
        return _expand_grad_node(node, ins)
    expand = EXPAND_RULES.get(node.callee)
    if expand is not None and not compile_context().keep_structural:
        return list(expand(*ins, **node.params))
    params = {k: expand_grad(v) if isinstance(v, Graph) else v for k, v in node.params.items()}
    res = node.callee(*ins, **params)
    return list(res) if node.callee.multiple_results else [res]


def _replay_nodes(graph: Graph, args: list, after_node=None, emit=replay) -> dict:
    """Replay `graph`'s nodes into the current builder; returns the value of every var."""
    env = {id(p): a for p, a in zip(graph.params, args)}
    builder = current_builder()
    for node in graph.nodes:
        ins = [_read(env, a) for a in node.inputs]
        with builder.at(node.loc):
            outs = emit(node, ins)
        for o, v in zip(node.outputs, outs):
            env[id(o)] = v
        if after_node is not None:
            after_node(node)
    return env


def inline(graph: Graph, args: list) -> list:
    """Replay `graph` into the current builder on `args`, expanding grad nodes on the way."""
    env = _replay_nodes(graph, args)
    return [_read(env, o) for o in graph.outputs]


def _expand_grad_node(node: Apply, ins: list) -> list:
    graph, wrt = node.params["graph"], node.params["wrt"]
    n_in = len(graph.params)
    sens = ins[n_in:] if node.params["has_sens"] else None
    # a graph about to be differentiated keeps its EXPAND_RULES nodes, so that vjp sees them
    # (and uses their own bprop rule instead of their expansion)
    target = expand_grad(graph, replace(compile_context(), keep_structural=True))
    if target is not graph:  # simplified before it is differentiated again
        target = _optimized(graph, target)
    outs, grads = gradient(target, ins[:n_in], wrt, sens)
    return outs + grads


def _optimized(graph: Graph, expanded: Graph) -> Graph:
    """`expanded` (graph's expansion) optimised for differentiation, once per graph: on a copy,
    so the expansion kept for `graph` stays as it was built."""
    cached = _expanded.setdefault(graph, {})
    if "optimized" not in cached:
        cached["optimized"] = optimize(copy_graph(expanded), differentiable=True)
    return cached["optimized"]


def vjp(graph: Graph, args: list, wrt: tuple, sens: list | None) -> tuple[list, list]:
    """Forward outputs of `graph` on `args` and the gradients for params `wrt`, emitted into
    the current builder. Without `sens` every output is seeded with ones."""
    active = {id(graph.params[i]) for i in wrt}

    def mark_active(node):
        inputs = [a for a in node.inputs if isinstance(a, Var) and id(a) in active]
        if not node.callee.nondifferentiable and inputs:
            # integer values carry gradients too (MindSpore differentiates integer networks);
            # a boolean result carries one only where an active boolean went in (booleans
            # moved, as SparseToDense scatters boolean values), not where one was computed
            moves_bools = any(a.aval.dtype.is_bool for a in inputs)
            active.update(id(o) for o in node.outputs
                          if moves_bools or not o.aval.dtype.is_bool)

    residuals: dict[int, object] = {}

    def emit(node, ins):
        record = RECORDING_RULES.get(node.callee) or node.callee.recording_rule
        if record is None or not any(isinstance(a, Var) and id(a) in active for a in node.inputs):
            return replay(node, ins)
        params = {k: expand_grad(v) if isinstance(v, Graph) else v
                  for k, v in node.params.items()}
        if getattr(record, "takes_active", False):  # which inputs have gradients wanted
            params["active"] = tuple(isinstance(a, Var) and id(a) in active
                                     for a in node.inputs)
        outs, residuals[id(node)] = record(*ins, **params)
        return list(outs)

    env = _replay_nodes(graph, args, mark_active, emit)
    builder = current_builder()
    outputs = [_read(env, o) for o in graph.outputs]

    for node in graph.nodes:  # what a recording rule does with its residuals first
        prepare = getattr(RECORDING_RULES.get(node.callee), "before_backward", None)
        if prepare is not None and id(node) in residuals:
            with builder.at(node.loc):
                residuals[id(node)] = prepare(residuals[id(node)], **node.params)

    adjoint: dict[int, object] = {}

    def accumulate(var, g):
        key = id(var)
        adjoint[key] = g if key not in adjoint else F.add(adjoint[key], g)

    for i, (o, value) in enumerate(zip(graph.outputs, outputs)):
        if isinstance(o, Var) and id(o) in active:
            accumulate(o, sens[i] if sens is not None else F.ones_like(value))
    for node in reversed(graph.nodes):
        douts = [adjoint.get(id(o)) for o in node.outputs]
        if all(d is None for d in douts) or node.callee.nondifferentiable:
            continue
        rule = node.callee.bprop_rule
        if rule is None:
            raise CompileError(f"{node.callee.label} has no gradient rule", node.loc)
        ins = [_read(env, a) for a in node.inputs]
        outs = [env[id(o)] for o in node.outputs]
        params = dict(node.params)
        if id(node) in residuals:
            params["residuals"] = residuals[id(node)]
        with builder.at(node.loc):  # adjoint nodes, sums included, point at the forward op
            dins = _apply_bprop(node, rule, ins, outs, douts, params)
            for a, d in zip(node.inputs, dins):
                if d is not None and isinstance(a, Var) and id(a) in active:
                    accumulate(a, _conform(d, a, node))
    grads = []
    for i in wrt:
        g = adjoint.get(id(graph.params[i]))
        grads.append(g if g is not None else F.zeros_like(args[i]))
    return outputs, grads


def _apply_bprop(node: Apply, rule, ins, outs, douts, params) -> tuple:
    """The input gradients from `node`'s bprop rule. A rule written for real numbers gives
    g * f'(z); on complex values the convention (ops/complex_ops.py) wants g * conj(f'(z)),
    which is conj(rule(conj(g))): so the cotangents go in and the gradients come out
    conjugated, unless the rule follows the convention itself: the complex primitives, and
    rules made of VJPs (branches, loops, custom bprops, a fused primitive's decomposition)."""
    callee = node.callee
    own_convention = (callee.complex_bprop or callee.structural
                      or hasattr(rule, "decomposition"))
    conjugate = not own_convention and any(
        v.aval.dtype.is_complex for v in (*node.inputs, *node.outputs) if isinstance(v, Var))
    if conjugate:
        douts = [None if d is None else _conj(d) for d in douts]
    if node.callee.multiple_results:
        dins = rule(*ins, out=tuple(outs), dout=tuple(douts), **params)
    else:
        dins = rule(*ins, out=outs[0], dout=douts[0], **params)
    return tuple(None if d is None else _conj(d) for d in dins) if conjugate else dins


def _conj(value):
    return prims.conj(value) if abstract_of(value).dtype.is_complex else value


def gradient(graph: Graph, args: list, wrt: tuple, sens: list | None) -> tuple[list, list]:
    """What `vjp` returns, in forward mode where that is exact and no dearer: for one input
    whose elements each sit in their own row, over the part of the graph that keeps the rows
    apart (compiler/separable.py); reverse mode for the rest and everywhere else."""
    split = split_rows(graph, wrt[0]) if len(wrt) == 1 else None
    if split is None or not all(v.aval.dtype.is_float or v.aval.dtype.is_bool
                                for v, _ in split.boundary):
        return vjp(graph, args, wrt, sens)
    return _row_separable_vjp(split, args, sens)


def _row_separable_vjp(split: RowSplit, args: list, sens: list | None) -> tuple[list, list]:
    """The gradient of a row-separable cut (see compiler/separable.py): the tangents T of the
    boundary values along x' = 1 (forward mode over the separable nodes), their cotangents C
    (reverse mode over the mixed nodes, seeded with `sens`), and the gradient as the sum over
    each row of C * T. For u(x) = reduce_sum(tanh(x @ w)), x: f32[N,1], this emits

        %t = matmul(ones, w) * (1 - tanh(x @ w)^2)      # T, forward mode
        %c = ones                                       # C: the adjoint of the final sum
        %g = reshape(reduce_sum(%c * %t, axis=(1,)))    # f32[N,1]
    """
    graph, index = split.graph, split.index
    x = graph.params[index]
    boundary = [(v, axis) for v, axis in split.boundary if v.aval.dtype.is_float]
    separable = Graph(graph.name, graph.params, split.separable, [v for v, _ in boundary])
    env = _replay_nodes(separable, args)
    tangents = _forward_tangents(separable, args, index)
    mixed_params = _free_values(split.mixed, graph.outputs)
    mixed = Graph(graph.name, mixed_params, split.mixed, graph.outputs)
    position = {id(v): i for i, v in enumerate(mixed_params)}
    wrt = tuple(position[id(v)] for v, _ in boundary)
    outs, cotangents = vjp(mixed, [env[id(v)] for v in mixed_params], wrt, sens)
    total = None
    for (value, axis), tangent, cotangent in zip(boundary, tangents, cotangents):
        others = tuple(i for i in range(value.aval.ndim) if i != axis)
        rows = F.mul(cotangent, tangent)
        if others:
            rows = F.reduce_sum(rows, others)
        total = rows if total is None else F.add(total, rows)
    if total is None:
        total = F.zeros_like(args[index])
    total = F.reshape(total, x.aval.shape)
    dtype = abstract_of(total).dtype
    return outs, [total if dtype == x.aval.dtype else F.cast(total, x.aval.dtype)]


def _free_values(nodes: list, outputs: list) -> list:
    """The Vars `nodes` read but do not compute, and the `outputs` none of them computes."""
    made = {id(o) for n in nodes for o in n.outputs}
    free, seen = [], set()
    for atom in [a for n in nodes for a in n.inputs] + list(outputs):
        if isinstance(atom, Var) and id(atom) not in made and id(atom) not in seen:
            seen.add(id(atom))
            free.append(atom)
    return free


def _forward_tangents(graph: Graph, args: list, index: int) -> list:
    """J·1 for every output of `graph` with respect to params[index], by transposing reverse
    mode as cellgraph.forward does: the VJP u -> Jᵀu is linear in u, and its own VJP with the
    cotangent 1 (taken at u = 0) is J·1."""
    n_params = len(graph.params)
    out_avals = [o.aval.strong() for o in graph.outputs]

    def pullback(*values):
        _, grads = vjp(graph, list(values[:n_params]), (index,), list(values[n_params:]))
        return grads

    linear, captured = build_graph(f"{graph.name}_pullback", pullback,
                                   [p.aval for p in graph.params] + out_avals)
    assert not captured, "the pullback reads only its parameters"
    zeros = [zero_of(a) for a in out_avals]
    wrt = tuple(range(n_params, n_params + len(zeros)))
    _, tangents = vjp(linear, list(args) + zeros, wrt, [F.ones_like(args[index])])
    return tangents


def _conform(grad, var: Var, node: Apply):
    """A gradient in its primal's dtype (promotion in the forward pass, e.g. an f32 input times
    an f64 constant, must not leak into the input's gradient); a shape mismatch is a bug in the
    primitive's bprop rule (a size known on one side only is checked at run time)."""
    aval = abstract_of(grad)
    if not shapes_agree(aval.shape, var.aval.shape):
        raise CompileError(f"the bprop rule of {node.callee.label} returned a gradient of shape "
                           f"{fmt_shape(aval.shape)} for an input of shape "
                           f"{fmt_shape(var.aval.shape)}", node.loc)
    return grad if aval.dtype == var.aval.dtype else F.cast(grad, var.aval.dtype)


def zero_of(aval: TensorType):
    return F.fill(aval.dtype, aval.shape, 0)


# ----- fused primitives ------------------------------------------------------------------------

def _vjp_of_decomposition(decompose: Callable, inputs, out, dout, params) -> list:
    """Input gradients of a fused primitive (ops.core.bprop_by_decomposition): its
    decomposition traced into a graph over the inputs' types, then that graph's VJP emitted
    here; float inputs only, absent output gradients as zeros."""
    avals = [abstract_of(v).strong() for v in inputs]
    graph, captured = build_graph("decomposition", lambda *v: list(decompose(*v, **params)),
                                  avals)
    assert not captured, "a decomposition reads only its inputs"
    outs = out if isinstance(out, tuple) else (out,)
    douts = dout if isinstance(dout, tuple) else (dout,)
    sens = [d if d is not None else F.zeros_like(o) for d, o in zip(douts, outs)]
    wrt = tuple(i for i, a in enumerate(avals) if a.dtype.is_inexact)
    _, grads = vjp(expand_grad(graph), list(inputs), wrt, sens)
    result = [None] * len(inputs)
    for i, g in zip(wrt, grads):
        result[i] = g
    return result


set_decomposition_vjp(_vjp_of_decomposition)
