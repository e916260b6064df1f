"""Tensor `if`, `while` and `print` as MindSpore writes them in MindIR.

A branch is a function graph; MindSpore picks one closure and calls it:

    %out = switch(%c, %a, %b) {then_graph, else_graph}
        ->  p1 = Partial(then_1, a, b); p2 = Partial(else_2, a, b)
            s = Switch(c, p1, p2); out = REF::s()          (then_1, else_2 in `functions`)

A loop is a header graph that tests the condition and either runs the body, which calls the
header again (a tail call), or returns the carried values:

    %x = while_loop(%x0, %k) {cond_graph, body_graph, n_carried=1}
        ->  header(x, k) = REF::Switch(cond(x, k), Partial(body, x, k), Partial(after, x))()
            body(x, k) = REF::header(body_graph(x, k), k);  after(x) = x
            x = REF::header(x0, k)

A recursive function's `call_graph` calls its function graph by name (which calls itself).
"""
from __future__ import annotations

from .mindir_export import NodeWriter, _reject, exports


def _check_avals(node, graph, avals, what: str):
    for atom, aval in zip(graph.outputs, avals):
        if atom.aval.dtype != aval.dtype or tuple(atom.aval.shape) != tuple(aval.shape):
            _reject(node, f"whose {what} gives {atom.aval} where {aval} is carried has no "
                          f"MindIR form here")


def _function(w: NodeWriter, hint: str, graph, avals) -> str:
    child = w.writer.function(hint)
    outs = NodeWriter(child).inline(graph, child.add_inputs(avals))
    child.finish(outs)
    return child.name


def _pick(w: NodeWriter, cond: str, first: tuple, second: tuple) -> str:
    """Switch(cond, Partial(*first), Partial(*second)) called: the chosen graph's result."""
    writer = w.writer
    p1 = writer.call("Partial", list(first), attrs={})
    p2 = writer.call("Partial", list(second), attrs={})
    return writer.call_value(writer.call("Switch", [cond, p1, p2], attrs={}), [])


def _outputs(w: NodeWriter, out: str, count: int):
    return [out] if count == 1 else [w.writer.item(out, i) for i in range(count)]


@exports("switch")
def _switch(w: NodeWriter, node):
    if not node.outputs:
        _reject(node, "without results has no MindIR form here")
    avals = [a.aval for a in node.inputs[1:]]
    out_avals = [o.aval for o in node.outputs]
    names = [w.name_of(a) for a in node.inputs]
    branches = []
    for key in ("then_graph", "else_graph"):
        _check_avals(node, node.params[key], out_avals, key.replace("_graph", " branch"))
        branches.append(_function(w, key.replace("_graph", ""), node.params[key], avals))
    out = _pick(w, names[0], (branches[0], *names[1:]), (branches[1], *names[1:]))
    return _outputs(w, out, len(node.outputs))


@exports("while_loop")
def _while_loop(w: NodeWriter, node):
    m = node.params["n_carried"]
    cond_graph, body_graph = node.params["cond_graph"], node.params["body_graph"]
    if len(node.outputs) != m:
        _reject(node, "with per-trip outputs has no MindIR form here")
    avals = [a.aval for a in node.inputs]
    carried = [o.aval for o in node.outputs]
    _check_avals(node, body_graph, carried, "body")
    header = w.writer.function("while_header")
    body = w.writer.function("while_body")
    after = w.writer.function("while_after")
    state = header.add_inputs(avals)
    head = NodeWriter(header)
    cond = head.inline(cond_graph, state)[0]
    header.finish([_pick(head, cond, (body.name, *state), (after.name, *state[:m]))])
    body_state = body.add_inputs(avals)
    new = NodeWriter(body).inline(body_graph, body_state)[:m]
    body.finish([body.call_graph(header.name, new + body_state[m:])])
    after.finish(after.add_inputs(carried))
    out = w.writer.call_graph(header.name, [w.name_of(a) for a in node.inputs])
    return _outputs(w, out, m)


@exports("print")
def _print(w: NodeWriter, node):
    inputs = []
    for line in node.params["lines"]:
        for part in line:
            if isinstance(part, str):
                inputs.append(w.writer.const(part))
            elif isinstance(part, tuple) and part[:1] == ("t",) and isinstance(part[1], int):
                inputs.append(w.name_of(node.inputs[part[1]]))
            else:
                _reject(node, f"of {part!r} has no MindSpore Print form here")
    w.writer.effect("Print", inputs, {"side_effect_io": True})
    return []


@exports("call_graph")
def _call_graph(w: NodeWriter, node):
    """A recursive function's call: its graph is written once (named before its body, so
    that the body's own calls find it) and called by name."""
    graph = node.params["graph"]
    written = w.writer.shared.setdefault("called", {})
    if id(graph) not in written:
        child = w.writer.function("call")
        written[id(graph)] = child.name
        outs = NodeWriter(child).inline(graph, child.add_inputs([p.aval for p in graph.params]))
        child.finish(outs)
    out = w.writer.call_graph(written[id(graph)], [w.name_of(a) for a in node.inputs])
    return _outputs(w, out, len(node.outputs))
