"""Branches and loops in ONNX: `switch` as If, `while_loop` and `scan` as Loop.

    %5 = switch(%p, %x) {then_graph=@t, else_graph=@e}   ->  If(p) {then: @t(x), else: @e(x)}
    %1, %2 = while_loop(%x, %i, %w) {cond_graph=@c, body_graph=@b, n_carried=2}
        ->  Loop("", @c(x, i, w), x, i) {body(k, _, x, i): x', i' = @b(x, i, w); @c(x', i', w)}

The subgraphs read the values of the graph around them (the loop-invariant inputs, the
constants) by name, as ONNX allows. A while_loop's per-trip outputs are the Loop's scan
outputs; its trip count is a carried int64 counter. A scan is a Loop of `length` trips that
reads xs[k] (xs[length - 1 - k] in reverse) and whose stacked outputs are reversed back.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import TensorType

from .convert_map import converts
from .converter import inline_graph, tensor_type


def _value_info(name: str, aval):
    from onnx import helper

    return helper.make_tensor_value_info(name, tensor_type(aval.dtype.np), list(aval.shape))


def _as_outputs(builder, names: list[str]) -> list[str]:
    """Fresh names made inside the subgraph for its outputs (an output may be an outer value
    or a constant, which a subgraph cannot list as its own)."""
    return [builder.op("Identity", [n]) for n in names]


def _scalar_bool(b, name: str, dtype) -> str:
    flat = b.op("Reshape", [name, b.ints([])])
    return b.cast(flat, dtype, np.bool_)


def _subgraph(builder, name: str, inputs: list, outputs: list[str], out_avals):
    from onnx import helper

    return helper.make_graph(builder.nodes, name, inputs,
                             [_value_info(n, a) for n, a in zip(outputs, out_avals)])


BOOL_SCALAR = TensorType((), dt.bool_)
INT64_SCALAR = TensorType((), dt.int64)


@converts("switch")
def _switch(b, node, inputs):
    pred, args = inputs[0], inputs[1:]
    out_avals = [o.aval for o in node.outputs]
    branches = {}
    for key in ("then_graph", "else_graph"):
        graph = node.params[key]
        child = b.child()
        outs = _as_outputs(child, inline_graph(child, graph, args))
        outs = [child.cast(n, o.aval.dtype.np, a.dtype.np)
                for n, o, a in zip(outs, graph.outputs, out_avals)]
        branches[key.replace("_graph", "_branch")] = _subgraph(child, graph.name, [], outs,
                                                               out_avals)
    cond = _scalar_bool(b, pred, node.inputs[0].aval.dtype.np)
    if not out_avals:
        return []
    return b.op("If", [cond], n_out=len(out_avals), **branches) if len(out_avals) > 1 else [
        b.op("If", [cond], **branches)]


@converts("while_loop")
def _while_loop(b, node, inputs):
    m = node.params["n_carried"]
    cond_graph, body_graph = node.params["cond_graph"], node.params["body_graph"]
    carried_avals = [o.aval for o in node.outputs[:m]]
    init = [b.cast(name, a.aval.dtype.np, c.dtype.np)
            for name, a, c in zip(inputs[:m], node.inputs[:m], carried_avals)]
    consts = inputs[m:]
    first = inline_graph(b, cond_graph, init + consts)[0]
    cond0 = _scalar_bool(b, first, cond_graph.outputs[0].aval.dtype.np)

    body = b.child()
    iteration, cond_in = body.fresh("iter"), body.fresh("cond")
    state = [body.fresh("carried") for _ in range(m)]
    trips = body.fresh("trips")
    new = inline_graph(body, body_graph, state + consts)
    new_state = [body.cast(n, o.aval.dtype.np, c.dtype.np)
                 for n, o, c in zip(new[:m], body_graph.outputs[:m], carried_avals)]
    again = inline_graph(body, cond_graph, new_state + consts)[0]
    cond_out = _scalar_bool(body, again, cond_graph.outputs[0].aval.dtype.np)
    trips_out = body.op("Add", [trips, body.const(1, np.int64)])
    per_trip = body_graph.outputs[m:]
    body_outs = _as_outputs(body, [cond_out] + new_state + [trips_out] + new[m:])
    from onnx import TensorProto, helper

    body_inputs = ([helper.make_tensor_value_info(iteration, TensorProto.INT64, []),
                    helper.make_tensor_value_info(cond_in, TensorProto.BOOL, [])]
                   + [_value_info(n, a) for n, a in zip(state, carried_avals)]
                   + [helper.make_tensor_value_info(trips, TensorProto.INT64, [])])
    out_avals = ([BOOL_SCALAR] + carried_avals + [INT64_SCALAR]
                 + [y.aval for y in per_trip])
    body_graph_proto = _subgraph(body, body_graph.name, body_inputs, body_outs, out_avals)
    loop_outs = b.op("Loop", ["", cond0] + init + [b.const(0, np.int64)],
                     n_out=m + 1 + len(per_trip), body=body_graph_proto)
    loop_outs = [loop_outs] if isinstance(loop_outs, str) else loop_outs
    loop_outs[:m + 1] = _reshaped(b, loop_outs[:m + 1], carried_avals + [INT64_SCALAR])
    return loop_outs if per_trip else loop_outs[:m]


def _reshaped(b, names: list[str], avals) -> list[str]:
    """Loop's final carried values in their static shapes (onnxruntime hands a carried
    scalar back as a one-element vector)."""
    return [b.op("Reshape", [n, b.ints(a.shape)]) if None not in a.shape else n
            for n, a in zip(names, avals)]


@converts("scan")
def _scan(b, node, inputs):
    nc, nx = node.params["n_carry"], node.params["n_xs"]
    body_graph, reverse = node.params["body_graph"], node.params["reverse"]
    length = b.cast(inputs[0], node.inputs[0].aval.dtype.np, np.int64)
    carry_avals = [o.aval for o in node.outputs[:nc]]
    init = [b.cast(name, a.aval.dtype.np, c.dtype.np)
            for name, a, c in zip(inputs[1:1 + nc], node.inputs[1:1 + nc], carry_avals)]
    xs, consts = inputs[1 + nc:1 + nc + nx], inputs[1 + nc + nx:]

    body = b.child()
    iteration, cond_in = body.fresh("iter"), body.fresh("cond")
    state = [body.fresh("carry") for _ in range(nc)]
    k = body.op("Sub", [body.op("Sub", [length, body.const(1, np.int64)]), iteration]) \
        if reverse else iteration
    k = body.op("Reshape", [k, body.ints([])])  # a 0-d index: each slice drops the axis
    slices = [body.op("Gather", [x, k], axis=0) for x in xs]
    new = inline_graph(body, body_graph, state + slices + consts)
    new_state = [body.cast(n, o.aval.dtype.np, c.dtype.np)
                 for n, o, c in zip(new[:nc], body_graph.outputs[:nc], carry_avals)]
    body_outs = _as_outputs(body, [cond_in] + new_state + new[nc:])
    from onnx import TensorProto, helper

    body_inputs = ([helper.make_tensor_value_info(iteration, TensorProto.INT64, []),
                    helper.make_tensor_value_info(cond_in, TensorProto.BOOL, [])]
                   + [_value_info(n, a) for n, a in zip(state, carry_avals)])
    ys = [o.aval for o in body_graph.outputs[nc:]]
    body_proto = _subgraph(body, body_graph.name, body_inputs, body_outs,
                           [BOOL_SCALAR] + carry_avals + ys)
    outs = b.op("Loop", [length, ""] + init, n_out=nc + len(ys), body=body_proto)
    outs = [outs] if isinstance(outs, str) else list(outs)
    outs[:nc] = _reshaped(b, outs[:nc], carry_avals)
    if reverse:  # trip k wrote step length - 1 - k: put the steps back in order
        outs[nc:] = [b.op("Slice", [y, b.ints([-1]), b.ints([-(2 ** 63)]), b.ints([0]),
                                    b.ints([-1])]) for y in outs[nc:]]
    return outs
