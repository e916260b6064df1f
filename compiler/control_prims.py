"""The structural primitives of control flow: `switch` and `while_loop`, with their type rules,
gradient rules and code generation.

    %3 = switch(%p, %x, %y) {then_graph=@f_then, else_graph=@f_else}
    %4, %5 = while_loop(%i, %x, %w) {cond_graph=@loop_cond, body_graph=@loop_body, n_carried=2}

Branch and loop graphs are closed: all take the same parameters (for `while_loop`: the
carried values, then the loop-invariant ones).

Gradients. The bprop of `switch` is a `switch` over the branches' VJP graphs (each recomputes
its branch's forward values), so it differentiates again. The bprop of `while_loop` counts the
trip count n with a second loop, then runs a backward loop for k = n-1 .. 0 that recomputes the
k-th state from the initial one and applies the body's VJP. That costs O(n²) body evaluations
but uses only closed graphs of ordinary primitives, so second and third order work the same way.
"""
from __future__ import annotations

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.core import Primitive, TensorType, abstract_of, fmt_shape
from cellgraph.ops.dtype import int64 as _I64
from cellgraph.ops.errors import DTypeError, ShapeError

from . import codegen
from .autodiff import expand_grad, inline, vjp
from .builder import build_graph
from .ir import Graph


def _check_inputs(graph: Graph, avals, what: str) -> None:
    if len(avals) != len(graph.params):
        raise ShapeError(f"{what} takes {len(graph.params)} values, got {len(avals)}")
    for p, a in zip(graph.params, avals):
        if p.aval.shape != a.shape or p.aval.dtype != a.dtype:
            raise DTypeError(f"{what} expects {p.aval}, got {a}")


def _check_condition(pred: TensorType, what: str) -> None:
    if pred.size is not None and pred.size != 1:
        raise ShapeError(f"the condition of {what} must be a single value, got a tensor of "
                         f"shape {fmt_shape(pred.shape)}; reduce it with .all() or .any()")


def _switch_type(pred, *args, then_graph: Graph, else_graph: Graph):
    _check_condition(pred, "an `if`")
    _check_inputs(then_graph, args, "the if-branch")
    _check_inputs(else_graph, args, "the else-branch")
    return tuple(then_graph.out_avals())


def _while_type(*args, cond_graph: Graph, body_graph: Graph, n_carried: int):
    _check_inputs(cond_graph, args, "the loop condition")
    _check_inputs(body_graph, args, "the loop body")
    _check_condition(cond_graph.outputs[0].aval, "a `while`")
    return tuple(a.strong() for a in args[:n_carried])


switch_p = Primitive("switch", _switch_type, label="Switch", multiple_results=True,
                     structural=True)
while_p = Primitive("while_loop", _while_type, label="While", multiple_results=True,
                    structural=True)


# ----- gradients -------------------------------------------------------------------------------

def _is_float(value) -> bool:
    return abstract_of(value).dtype.is_float


def _vjp_graph(graph: Graph, wrt: tuple, name: str) -> Graph:
    """A closed graph (inputs..., sens...) -> gradients of inputs `wrt`."""
    n = len(graph.params)
    avals = [p.aval for p in graph.params] + graph.out_avals()
    hints = [p.hint for p in graph.params] + ["sens"] * len(graph.outputs)

    def body(*values):
        _, grads = vjp(expand_grad(graph), list(values[:n]), wrt, list(values[n:]))
        return grads

    vjp_graph, captured = build_graph(name, body, avals, hints)
    assert not captured
    return vjp_graph


def _zeros_for(douts, outs) -> list:
    return [d if d is not None else F.zeros_like(o) for d, o in zip(douts, outs)]


@switch_p.def_bprop
def _switch_bprop(pred, *args, out, dout, then_graph, else_graph):
    wrt = tuple(i for i, a in enumerate(args) if _is_float(a))
    if not wrt:
        return (None,) * (len(args) + 1)
    grads = switch_p(pred, *args, *_zeros_for(dout, out),
                     then_graph=_vjp_graph(then_graph, wrt, then_graph.name + "_bprop"),
                     else_graph=_vjp_graph(else_graph, wrt, else_graph.name + "_bprop"))
    result = [None] * len(args)
    for k, i in enumerate(wrt):
        result[i] = grads[k]
    return (None, *result)


def loop_graph(name, fn, avals, hints=None) -> Graph:
    graph, captured = build_graph(name, fn, avals, hints)
    assert not captured, "loop graphs are closed"
    return graph


def _int_scalar(value: int):
    return np.asarray(value, np.int64)


def _trip_count(init, consts, cond_graph, body_graph):
    """How many times the loop body runs, as an int64 scalar, by running the loop again."""
    m = len(init)
    avals = [abstract_of(v).strong() for v in init] + [TensorType((), _I64)] + [
        abstract_of(c).strong() for c in consts]

    def cond(*v):
        return inline(cond_graph, list(v[:m]) + list(v[m + 1:]))

    def body(*v):
        return inline(body_graph, list(v[:m]) + list(v[m + 1:])) + [v[m] + 1]

    hints = _hints(body_graph, m, ["trips"])
    outs = while_p(*init, _int_scalar(0), *consts, n_carried=m + 1,
                   cond_graph=loop_graph("count_cond", cond, avals, hints),
                   body_graph=loop_graph("count_body", body, avals, hints))
    return outs[m]


def _hints(graph: Graph, m: int, extra: list) -> list:
    """Readable parameter names for a derived loop graph: the loop's own, plus `extra`."""
    names = [p.hint for p in graph.params]
    return names[:m] + extra + names[m:]


def _state_at(k, init, consts, body_graph):
    """The loop state after k iterations, recomputed from the initial state."""
    m = len(init)
    avals = [TensorType((), _I64)] + [abstract_of(v).strong() for v in init] + [
        TensorType((), _I64)] + [abstract_of(c).strong() for c in consts]

    def cond(j, *v):
        return [F.less(j, v[m])]

    def body(j, *v):
        return [j + 1] + inline(body_graph, list(v[:m]) + list(v[m + 1:]))

    hints = ["j"] + _hints(body_graph, m, ["k"])
    outs = while_p(_int_scalar(0), *init, k, *consts, n_carried=m + 1,
                   cond_graph=loop_graph("replay_cond", cond, avals, hints),
                   body_graph=loop_graph("replay_body", body, avals, hints))
    return list(outs[1:])


@while_p.def_bprop
def _while_bprop(*ins, out, dout, cond_graph, body_graph, n_carried):
    m = n_carried
    init, consts = list(ins[:m]), list(ins[m:])
    fs = [i for i in range(m) if _is_float(init[i])]
    fc = [j for j in range(len(consts)) if _is_float(consts[j])]
    if not fs and not fc:
        return (None,) * len(ins)
    n = _trip_count(init, consts, cond_graph, body_graph)
    n_s, n_c = len(fs), len(fc)
    wrt = tuple(fs) + tuple(m + j for j in fc)
    avals = [TensorType((), _I64)] + [abstract_of(out[i]).strong() for i in fs] + [
        abstract_of(consts[j]).strong() for j in fc] + [abstract_of(v).strong() for v in ins]

    def cond(k, *v):
        return [F.greater_equal(k, 0)]

    def body(k, *v):
        ds, dc = list(v[:n_s]), list(v[n_s:n_s + n_c])
        start, rest = list(v[n_s + n_c:n_s + n_c + m]), list(v[n_s + n_c + m:])
        state = _state_at(k, start, rest, body_graph)
        sens = [F.zeros_like(s) for s in state]
        for slot, i in enumerate(fs):
            sens[i] = ds[slot]
        _, grads = vjp(expand_grad(body_graph), state + rest, wrt, sens)
        return [k - 1] + grads[:n_s] + [F.add(a, b) for a, b in zip(dc, grads[n_s:])]

    d_state = [dout[i] if dout[i] is not None else F.zeros_like(out[i]) for i in fs]
    d_const = [F.zeros_like(consts[j]) for j in fc]
    names = [p.hint for p in body_graph.params]
    hints = ["k"] + [f"d{names[i]}" for i in fs] + [f"d{names[m + j]}" for j in fc] + names
    outs = while_p(n - 1, *d_state, *d_const, *ins, n_carried=1 + n_s + n_c,
                   cond_graph=loop_graph("while_bprop_cond", cond, avals, hints),
                   body_graph=loop_graph("while_bprop_body", body, avals, hints))
    result = [None] * len(ins)
    for slot, i in enumerate(fs):
        result[i] = outs[1 + slot]
    for slot, j in enumerate(fc):
        result[m + j] = outs[1 + n_s + slot]
    return tuple(result)



# ----- code generation -------------------------------------------------------------------------

def _unpack(outs) -> str:
    return ", ".join(outs) + ("," if len(outs) == 1 else "")


def _switch_code(ctx, node, args, outs):
    pred, rest = args[0], ", ".join(args[1:])
    lhs = _unpack(outs)
    then_fn, else_fn = ctx.graph(node.params["then_graph"]), ctx.graph(node.params["else_graph"])
    return [f"if {pred}:", f"    {lhs} = {then_fn}({rest})",
            "else:", f"    {lhs} = {else_fn}({rest})"]


def _while_code(ctx, node, args, outs):
    m = node.params["n_carried"]
    state = f"state_{outs[0]}"
    consts = "".join(", " + a for a in args[m:])
    cond_fn, body_fn = ctx.graph(node.params["cond_graph"]), ctx.graph(node.params["body_graph"])
    return [f"{state} = ({_unpack(args[:m])})",
            f"while {cond_fn}(*{state}{consts})[0]:",
            f"    {state} = {body_fn}(*{state}{consts})",
            f"{_unpack(outs)} = {state}"]


codegen.CODEGEN_RULES["switch"] = _switch_code
codegen.CODEGEN_RULES["while_loop"] = _while_code


# ----- batching (vmap) -------------------------------------------------------------------------

def _batched_graph(graph: Graph, in_dims: list, size: int, name: str, finish) -> Graph:
    """`graph` batched over inputs whose batch axes are `in_dims` (0 or None); `finish` turns
    the batched output entries into the new graph's outputs."""
    from .batching import batch_graph

    def body(*values):
        return finish(batch_graph(graph, list(zip(values, in_dims))), values)

    avals = [p.aval for p in graph.params]
    avals = [TensorType((size,) + a.shape, a.dtype) if d == 0 else a
             for a, d in zip(avals, in_dims)]
    return loop_graph(name, body, avals, [p.hint for p in graph.params])


def _to_front_all(args, dims):
    from cellgraph.ops.batching import to_front

    return [to_front(v, d) for v, d in zip(args, dims)], [None if d is None else 0 for d in dims]


def _front_outputs(size):
    from .batching import move_batch

    return lambda entries, values: [move_batch(e, size, 0) for e in entries]


def _per_example(pred, size: int, example_ndim: int):
    """A batched scalar condition shaped to broadcast against a batch-first example."""
    return F.reshape(pred, (size,) + (1,) * example_ndim)


@switch_p.def_batch
def _switch_batch(args, dims, then_graph, else_graph):
    """An unbatched condition stays one switch over batched branches; a batched condition
    runs both branches batched and selects per example (as any vectorised `where` does)."""
    from cellgraph.ops.batching import batch_size, to_front

    from .batching import batch_graph, move_batch

    size = batch_size(args, dims)
    values, in_dims = _to_front_all(args[1:], dims[1:])
    if dims[0] is None:
        finish = _front_outputs(size)
        outs = switch_p(args[0], *values,
                        then_graph=_batched_graph(then_graph, in_dims, size,
                                                  then_graph.name + "_vmap", finish),
                        else_graph=_batched_graph(else_graph, in_dims, size,
                                                  else_graph.name + "_vmap", finish))
        return tuple(outs), (0,) * len(outs)
    entries = list(zip(values, in_dims))
    then_outs = batch_graph(then_graph, entries)
    else_outs = batch_graph(else_graph, entries)
    pred = F.reshape(to_front(args[0], dims[0]), (size,))
    results = []
    for t, e, o in zip(then_outs, else_outs, then_graph.outputs):
        cond = _per_example(pred, size, o.aval.ndim)
        results.append(F.select(cond, move_batch(t, size, 0), move_batch(e, size, 0)))
    return tuple(results), (0,) * len(results)


@while_p.def_batch
def _while_batch(args, dims, cond_graph, body_graph, n_carried):
    """Every example runs until its own condition fails: the loop goes on while any example's
    holds, and an example whose condition failed keeps its state."""
    from cellgraph.ops.batching import batch_size

    from .batching import batch_graph, move_batch

    m, size = n_carried, batch_size(args, dims)
    carry = [move_batch((v, d), size, 0) for v, d in zip(args[:m], dims[:m])]
    consts, const_dims = _to_front_all(args[m:], dims[m:])
    in_dims = [0] * m + const_dims

    def pred_of(values):
        entry = batch_graph(cond_graph, list(zip(values, in_dims)))[0]
        return F.reshape(move_batch(entry, size, 0), (size,))

    def any_example(entries, values):
        return [F.greater(F.reduce_max(F.cast(pred_of(values), _I64)), 0)]

    def step_running(entries, values):
        pred = pred_of(values)
        return [F.select(_per_example(pred, size, o.aval.ndim), move_batch(e, size, 0), old)
                for e, old, o in zip(entries, values[:m], body_graph.outputs)]

    outs = while_p(*carry, *consts, n_carried=m,
                   cond_graph=_batched_graph(cond_graph, in_dims, size, "while_cond_vmap",
                                             any_example),
                   body_graph=_batched_graph(body_graph, in_dims, size, "while_body_vmap",
                                             step_running))
    return tuple(outs), (0,) * m


# ----- unused inputs ---------------------------------------------------------------------------

def _used(graph: Graph) -> set:
    used = {id(a) for node in graph.nodes for a in node.inputs}
    return used | {id(o) for o in graph.outputs}


def _drop_inputs(node, graphs, first: int) -> bool:
    """Drop inputs (from position `first` on) that no graph of the node reads."""
    offset = len(node.inputs) - len(graphs[0].params)  # the switch's condition has no param
    read = [_used(g) for g in graphs]
    keep = [i for i in range(len(node.inputs)) if i < first or any(
        id(g.params[i - offset]) in used for g, used in zip(graphs, read))]
    if len(keep) == len(node.inputs):
        return False
    for g in graphs:
        g.params = [g.params[i - offset] for i in keep if i >= offset]
    node.inputs = [node.inputs[i] for i in keep]
    return True


def _drop_outputs(node, graphs, used: set) -> bool:
    """Drop the outputs of a switch that nothing after it reads (from every branch)."""
    keep = [i for i, o in enumerate(node.outputs) if id(o) in used]
    if len(keep) == len(node.outputs) or not keep:
        return False
    node.outputs = [node.outputs[i] for i in keep]
    for g in graphs:
        g.outputs = [g.outputs[i] for i in keep]
    return True


def prune_unused_inputs(graph: Graph) -> bool:
    """Remove the inputs of switch and while_loop nodes that none of their graphs reads, and
    the outputs of switch nodes that nothing reads.

    Before:  %3 = switch(%p, %x, %y) {then_graph=@t, else_graph=@e}   (@t, @e never read %y)
    After:   %3 = switch(%p, %x)     {then_graph=@t, else_graph=@e}
    Loop-carried values stay (they are outputs too); loop-invariant ones can go.
    """
    from .ir import all_graphs

    graphs_of = {}
    for g in all_graphs(graph):
        for node in g.nodes:
            for sub in node.subgraphs():
                graphs_of[id(sub)] = graphs_of.get(id(sub), 0) + 1
    changed = False
    for g in all_graphs(graph):
        used = _used(g)
        for node in g.nodes:
            if any(graphs_of[id(sub)] > 1 for sub in node.subgraphs()):
                continue  # a graph another node also runs must keep its signature
            if node.callee is switch_p:
                graphs = [node.params["then_graph"], node.params["else_graph"]]
                changed |= _drop_outputs(node, graphs, used)
                changed |= _drop_inputs(node, graphs, 1)
            elif node.callee is while_p:
                graphs = [node.params["cond_graph"], node.params["body_graph"]]
                changed |= _drop_inputs(node, graphs, node.params["n_carried"])
    return changed
