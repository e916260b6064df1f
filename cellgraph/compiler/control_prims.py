"""The structural primitives of control flow: `switch` and `while_loop`, with their type rules;
`switch`'s gradient, code generation and batching (the loops' are in loop_prims.py).

    %3 = switch(%p, %x, %y) {then_graph=@f_then, else_graph=@f_else}
    %4, %5 = while_loop(%i, %x, %w) {cond_graph=@loop_cond, body_graph=@loop_body, n_carried=2}

Branch and loop graphs are closed: all take the same parameters (for `while_loop`: the
carried values, then the loop-invariant ones). A loop body may return values beyond the carried
ones: the node then also outputs the trip count and those values stacked over the trips.

Gradients. The bprop of `switch` is a `switch` over the branches' VJP graphs (each recomputes
its branch's forward values), so it differentiates again.
"""
from __future__ import annotations

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import Primitive, TensorType, abstract_of, fmt_shape
from cellgraph.primitives.dtype import int64 as _I64
from cellgraph.primitives.errors import DTypeError, ShapeError

from . import codegen
from .autodiff import expand_grad, vjp
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


def _while_type(*args, cond_graph: Graph, body_graph: Graph, n_carried: int,
                checkpoint: int = 0):
    _check_inputs(cond_graph, args, "the loop condition")
    _check_inputs(body_graph, args, "the loop body")
    _check_condition(cond_graph.outputs[0].aval, "a `while`")
    carried = tuple(a.strong() for a in args[:n_carried])
    per_trip = body_graph.outputs[n_carried:]
    if not per_trip:
        return carried
    return carried + (TensorType((), _I64),) + tuple(
        TensorType((None,) + y.aval.shape, y.aval.dtype) for y in per_trip)


switch_p = Primitive("switch", _switch_type, label="Switch", multiple_results=True,
                     structural=True)
while_p = Primitive("while_loop", _while_type, label="While", multiple_results=True,
                    structural=True)


# ----- gradients -------------------------------------------------------------------------------

def _carries_grad(value) -> bool:
    """Integers carry gradients too (MindSpore differentiates integer networks); bools not."""
    return not abstract_of(value).dtype.is_bool


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
    wrt = tuple(i for i, a in enumerate(args) if _carries_grad(a))
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


# ----- code generation -------------------------------------------------------------------------

def _unpack(outs) -> str:
    return ", ".join(outs) + ("," if len(outs) == 1 else "")


def _switch_code(ctx, node, args, outs):
    pred, rest = args[0], ", ".join(args[1:])
    lhs = _unpack(outs) + " = " if outs else ""  # no outputs: a branch run for its effects
    then_fn, else_fn = ctx.graph(node.params["then_graph"]), ctx.graph(node.params["else_graph"])
    return [f"if {pred}:", f"    {lhs}{then_fn}({rest})",
            "else:", f"    {lhs}{else_fn}({rest})"]


codegen.CODEGEN_RULES["switch"] = _switch_code


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
    from cellgraph.primitives.batching import to_front

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
    from cellgraph.primitives.batching import batch_size, to_front

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


def _drop_stacks(node, body: Graph, used: set) -> bool:
    """Drop the per-trip stacks of a while_loop that nothing reads (and the trip count with
    the last of them, unless something reads it)."""
    m = node.params["n_carried"]
    stacks = node.outputs[m + 1:]
    if not stacks:
        return False
    keep = [j for j, o in enumerate(stacks) if id(o) in used]
    trips_read = id(node.outputs[m]) in used
    if not keep and trips_read:
        keep = [0]  # the trip count alone is read: one stack stays, it makes the count
    if len(keep) == len(stacks):
        return False
    body.outputs = body.outputs[:m] + [body.outputs[m + j] for j in keep]
    node.outputs = node.outputs[:m] + ([node.outputs[m]] if keep else []) + [
        stacks[j] for j in keep]
    return True


# primitive -> rule(node, used ids) -> bool: how other structural nodes (scan, loop_prims.py)
# drop what nothing reads
PRUNE_RULES: dict = {}


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
                changed |= _drop_stacks(node, graphs[1], used)
                changed |= _drop_inputs(node, graphs, node.params["n_carried"])
            elif node.callee in PRUNE_RULES:
                changed |= PRUNE_RULES[node.callee](node, used)
    return changed
