"""Loops: the `scan` primitive, reverse mode of `while_loop` and `scan` in O(n), checkpointing,
batching and pruning (the code loops run as is in loop_codegen.py).

    %4 = while_loop(%x, %w) {cond_graph=@cond, body_graph=@body, n_carried=1}
    %5, %6 = scan(%n, %dx, %xs, %w) {body_graph=@step, n_carry=1, n_xs=1, reverse=True}

`scan(length, carry..., xs..., consts...)` runs `carry, y = body(carry, xs[k], consts)` for
k in range(length) (from the last k down when `reverse`) and stacks y into ys[k]; it returns
the last carry, then ys. A while_loop whose body returns values beyond the carried ones stacks
them the same way over its trips, and outputs the trip count before the stacks (compiler/
control_prims.py has its type rule).

Reverse mode is a tape. In the forward half of a VJP a while_loop runs in its recording form
(autodiff.RECORDING_RULES): its body also returns what the backward step will read of that
trip (the residuals: `sin(x)` and `cos(x)` for `x = sin(x) * w`, or the state itself; see
loop_tape.py), so the loop stacks them per trip into buffers that double when full. The bprop
is a reverse scan over those stacks: step k applies the rest of the body's VJP to the cotangent
of state k+1 and sums the gradients of the loop-invariant inputs. n trips cost n stacked
residuals and no more body evaluations than the forward and backward pass need, never n²/2.
A scan's VJP is built the same way, recording its carries (a recording forward scan, a backward
scan the other way that emits the gradients of xs as its ys), and every rule emits only
while_loop, scan and ordinary primitives, so orders 2 and 3 come from the same rules.

Checkpointing (`set_context(loop_checkpoint=s)`, s > 1) trades time for memory on long loops:
the loop is recorded as an outer loop over segments of at most s trips, each an inner
while_loop, so only the n/s segment starts are stacked; the backward step of a segment replays
it once, recording its s states, and walks them back. Memory falls from n states to n/s + s
(least at s = sqrt(n)); the body runs once more per trip.

A JAX backend can lower `scan` to `lax.scan` (its length a static int or a `fori_loop` bound)
and a while_loop without stacks to `lax.while_loop`; a stacking while_loop has no static shape
there and would need a trip bound, or the loop rewritten as a scan when its count is known.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import Primitive, TensorType, abstract_of
from cellgraph.primitives.dtype import int64 as _I64
from cellgraph.primitives.errors import DTypeError

from . import loop_codegen  # noqa: F401  (how loops run: registered with codegen)
from .autodiff import RECORDING_RULES, inline
from .builder import compile_context
from .compile_context import LOOP_SETTINGS
from .control_prims import (
    PRUNE_RULES,
    _carries_grad,
    _check_inputs,
    _per_example,
    _to_front_all,
    loop_graph,
    while_p,
)
from .guards import record_guard
from .ir import Graph
from .loop_tape import state_tape, step_graph, tape_of


def loop_options() -> dict:
    """The params a new while_loop node takes from the compile's context (none by default);
    the graph holds while the setting it came from stays (a guard)."""
    s = compile_context().loop_checkpoint
    record_guard(LOOP_SETTINGS, "checkpoint", s)
    return {"checkpoint": s} if s else {}


# ----- scan ------------------------------------------------------------------------------------

def _scan_type(length, *args, body_graph: Graph, n_carry: int, n_xs: int, reverse: bool):
    if length.shape != () or not length.dtype.is_int:
        raise DTypeError(f"the length of a scan must be an integer scalar, got {length}")
    carry, xs = args[:n_carry], args[n_carry:n_carry + n_xs]
    slices = [TensorType(x.shape[1:], x.dtype) for x in xs]
    _check_inputs(body_graph, [c.strong() for c in carry] + slices + list(args[n_carry + n_xs:]),
                  "the scan body")
    steps = xs[0].shape[0] if xs else None
    return tuple(c.strong() for c in carry) + tuple(
        TensorType((steps,) + y.aval.shape, y.aval.dtype) for y in body_graph.outputs[n_carry:])


scan_p = Primitive("scan", _scan_type, label="Scan", multiple_results=True, structural=True)


def scan(length, carry: list, xs: list, consts: list, body_graph: Graph, reverse=False) -> list:
    """Emit a scan node; returns the last carry, then the stacked per-step outputs."""
    return list(scan_p(length, *carry, *xs, *consts, body_graph=body_graph,
                       n_carry=len(carry), n_xs=len(xs), reverse=reverse))


# ----- recording forms -------------------------------------------------------------------------

def _segmented(cond_graph: Graph, body_graph: Graph, m: int, segment: int) -> Graph:
    """An outer-loop body that runs up to `segment` trips of the loop as an inner while_loop."""
    avals = [p.aval for p in body_graph.params]
    hints = [p.hint for p in body_graph.params]
    inner_avals = avals[:m] + [TensorType((), _I64)] + avals[m:]
    inner_hints = hints[:m] + ["trip"] + hints[m:]

    def cond(*v):
        (go,) = inline(cond_graph, list(v[:m]) + list(v[m + 1:]))
        go = go if abstract_of(go).dtype.is_bool else F.cast(go, dt.bool_)
        return [F.logical_and(go, F.less(v[m], segment))]

    def body(*v):
        return inline(body_graph, list(v[:m]) + list(v[m + 1:])) + [v[m] + 1]

    inner_cond = loop_graph(cond_graph.name + "_segment", cond, inner_avals, inner_hints)
    inner_body = loop_graph(body_graph.name + "_segment", body, inner_avals, inner_hints)

    def outer(*v):
        outs = while_p(*v[:m], np.asarray(0, np.int64), *v[m:], cond_graph=inner_cond, body_graph=inner_body,
                       n_carried=m + 1)
        return list(outs[:m])

    return loop_graph(body_graph.name + "_segments", outer, avals, hints)


def _recording(body_graph: Graph, tape) -> Graph:
    """`body_graph` also returning what `tape` records of the step (stacked by the loop)."""
    def body(*values):
        return inline(body_graph, list(values)) + inline(tape.record, list(values))

    return loop_graph(body_graph.name + "_record", body, [p.aval for p in body_graph.params],
                      [p.hint for p in body_graph.params])


def _layout(ins, body_graph: Graph, m: int):
    """Which carried values (fs) and consts (fc) carry gradients (integers too, as in
    MindSpore), and which per-trip outputs (fy) are floats."""
    return (_differentiable(ins[:m]), _differentiable(ins[m:]),
            [j for j, y in enumerate(body_graph.outputs[m:]) if y.aval.dtype.is_float])


def _while_tape(cond_graph, body_graph, m: int, layout, checkpoint: int):
    """(the body a trip of the recording loop runs, the tape it records)."""
    fs, fc, fy = layout
    n_front = len(fs) + len(fc)
    if checkpoint > 1 and len(body_graph.outputs) == m:  # a trip is a segment of the loop
        segments = _segmented(cond_graph, body_graph, m, checkpoint)
        return segments, state_tape(step_graph(segments, m, m, fs, [], fc, []), n_front, m)
    step = step_graph(body_graph, m, m, fs, [], fc, fy)
    return body_graph, tape_of(step, n_front, m, len(fy))


def _record_while(*ins, cond_graph, body_graph, n_carried, checkpoint=0):
    """The forward loop of a VJP: the loop, also stacking per trip what the backward step
    reads (loop_tape.py). Residuals: (trip count, the stacks, the backward step graph)."""
    m, k = n_carried, len(body_graph.outputs) - n_carried
    layout = _layout(ins, body_graph, m)
    trip, tape = _while_tape(cond_graph, body_graph, m, layout, checkpoint)
    outs = while_p(*ins, cond_graph=cond_graph, body_graph=_recording(trip, tape),
                   n_carried=m)
    n_own = m + (1 + k if k else 0)
    if not k and not tape.record.outputs:  # nothing carried or stacked: no gradient to give
        return outs[:n_own], None
    return outs[:n_own], (outs[m], list(outs[m + 1 + k:]), tape.step)


def _scan_layout(ins, body_graph: Graph, nc: int, nx: int):
    """Differentiable carries (fs), slices of xs (fx), consts (fc) and float per-step outputs
    (fy)."""
    return (_differentiable(ins[:nc]), _differentiable(ins[nc:nc + nx]),
            _differentiable(ins[nc + nx:]),
            [j for j, y in enumerate(body_graph.outputs[nc:]) if y.aval.dtype.is_float])


def _record_scan(length, *ins, body_graph, n_carry, n_xs, reverse):
    """The forward scan of a VJP, also stacking per step what the backward step reads.
    Residuals: (the stacks, the backward step graph)."""
    nc, nx = n_carry, n_xs
    fs, fx, fc, fy = _scan_layout(ins, body_graph, nc, nx)
    step = step_graph(body_graph, nc + nx, nc, fs, fx, fc, fy)
    tape = tape_of(step, len(fs) + len(fc), nc + nx, len(fy))
    outs = scan_p(length, *ins, body_graph=_recording(body_graph, tape), n_carry=nc, n_xs=nx,
                  reverse=reverse)
    n_own = len(body_graph.outputs)
    return outs[:n_own], (list(outs[n_own:]), tape.step)


RECORDING_RULES[while_p] = _record_while
RECORDING_RULES[scan_p] = _record_scan


# ----- gradients -------------------------------------------------------------------------------

def _differentiable(values) -> list[int]:
    return [i for i, v in enumerate(values) if _carries_grad(v)]


def _sens(douts, outs) -> list:
    return [d if d is not None else F.zeros_like(o) for d, o in zip(douts, outs)]


@while_p.def_bprop
def _while_bprop(*ins, out, dout, cond_graph, body_graph, n_carried, checkpoint=0,
                 residuals=None):
    m = n_carried
    fs, fc, fy = _layout(ins, body_graph, m)
    if not fs and not fc:
        return (None,) * len(ins)
    if residuals is None:  # the rule called outside a VJP's forward half: record now
        out, residuals = _record_while(*ins, cond_graph=cond_graph, body_graph=body_graph,
                                       n_carried=m, checkpoint=checkpoint)
    trips, stacks, step = residuals
    consts = list(ins[m:])
    carry0 = _sens([dout[i] for i in fs], [out[i] for i in fs]) + [
        F.zeros_like(consts[j]) for j in fc]
    dys = _sens([dout[m + 1 + j] for j in fy], [out[m + 1 + j] for j in fy])
    outs = scan(trips, carry0, stacks + dys, consts, step, reverse=True)
    result = [None] * len(ins)
    for slot, i in enumerate(fs):
        result[i] = outs[slot]
    for slot, j in enumerate(fc):
        result[m + j] = outs[len(fs) + slot]
    return tuple(result)


@scan_p.def_bprop
def _scan_bprop(length, *ins, out, dout, body_graph, n_carry, n_xs, reverse, residuals=None):
    nc, nx = n_carry, n_xs
    fs, fx, fc, fy = _scan_layout(ins, body_graph, nc, nx)
    if not (fs or fx or fc):
        return (None,) * (len(ins) + 1)
    if residuals is None:  # the rule called outside a VJP's forward half: record now
        out, residuals = _record_scan(length, *ins, body_graph=body_graph, n_carry=nc,
                                      n_xs=nx, reverse=reverse)
    stacks, step = residuals
    consts = list(ins[nc + nx:])
    carry0 = _sens([dout[i] for i in fs], [out[i] for i in fs]) + [
        F.zeros_like(consts[j]) for j in fc]
    dys = _sens([dout[nc + j] for j in fy], [out[nc + j] for j in fy])
    outs = scan(length, carry0, stacks + dys, consts, step, reverse=not reverse)
    result = [None] * (len(ins) + 1)
    for slot, i in enumerate(fs):
        result[1 + i] = outs[slot]
    for slot, j in enumerate(fc):
        result[1 + nc + nx + j] = outs[len(fs) + slot]
    for slot, i in enumerate(fx):
        result[1 + nc + i] = outs[len(fs) + len(fc) + slot]
    return tuple(result)


# ----- batching (vmap) -------------------------------------------------------------------------
# Examples run in one loop: a while_loop goes on while any example's condition holds, and an
# example whose condition failed keeps its state and stops counting its trips; a scan whose
# length differs per example runs the longest and keeps each example's carry past its length.

def _batched_types(avals, in_dims, size: int) -> list:
    return [TensorType((size,) + a.shape, a.dtype) if d == 0 else a
            for a, d in zip(avals, in_dims)]


def _keep_where(mask, new, old, size: int) -> list:
    """Per example: `new` where `mask` holds, else `old` (all batched along axis 0)."""
    return [F.select(_per_example(mask, size, abstract_of(o).ndim - 1), n, o)
            for n, o in zip(new, old)]


@while_p.def_batch
def _while_batch(args, dims, cond_graph, body_graph, n_carried, checkpoint=0):
    from cellgraph.primitives.batching import batch_size

    from .batching import batch_graph, move_batch

    m, size = n_carried, batch_size(args, dims)
    k = len(body_graph.outputs) - m
    carry = [move_batch((v, d), size, 0) for v, d in zip(args[:m], dims[:m])]
    consts, const_dims = _to_front_all(args[m:], dims[m:])
    in_dims = [0] * m + const_dims
    n_count = 1 if k else 0  # per-example trip counts, when the trips are stacked
    avals = _batched_types([p.aval for p in body_graph.params], in_dims, size)
    avals = avals[:m] + [TensorType((size,), _I64)] * n_count + avals[m:]
    hints = [p.hint for p in body_graph.params]
    hints = hints[:m] + ["trips"] * n_count + hints[m:]

    def running(values):
        state, cs = list(values[:m]), list(values[m + n_count:])
        entry = batch_graph(cond_graph, list(zip(state + cs, in_dims)))[0]
        return F.reshape(move_batch(entry, size, 0), (size,))

    def cond(*values):
        return [F.greater(F.reduce_max(F.cast(running(values), _I64)), 0)]

    def body(*values):
        go = running(values)
        state, cs = list(values[:m]), list(values[m + n_count:])
        entries = batch_graph(body_graph, list(zip(state + cs, in_dims)))
        new = _keep_where(go, [move_batch(e, size, 0) for e in entries[:m]], state, size)
        counts = [F.add(values[m], F.cast(go, _I64))] if n_count else []
        return new + counts + [move_batch(e, size, 0) for e in entries[m:]]

    outs = while_p(*carry, *[F.zeros((size,), _I64)] * n_count, *consts,
                   cond_graph=loop_graph("while_cond_vmap", cond, avals, hints),
                   body_graph=loop_graph("while_body_vmap", body, avals, hints),
                   n_carried=m + n_count)
    if not k:
        return tuple(outs), (0,) * m
    return tuple(outs[:m + 1]) + tuple(outs[m + 2:]), (0,) * (m + 1) + (1,) * k


@scan_p.def_batch
def _scan_batch(args, dims, body_graph, n_carry, n_xs, reverse):
    from cellgraph.primitives.batching import batch_size, move_axis

    from .batching import batch_graph, move_batch

    nc, nx, size = n_carry, n_xs, batch_size(args, dims)
    length, per_example = args[0], dims[0] is not None
    carry = [move_batch((v, d), size, 0) for v, d in zip(args[1:1 + nc], dims[1:1 + nc])]
    xs = [x if d is None else move_axis(x, d, 1) for x, d in zip(args[1 + nc:1 + nc + nx],
                                                                 dims[1 + nc:1 + nc + nx])]
    x_dims = [None if d is None else 0 for d in dims[1 + nc:1 + nc + nx]]
    consts, const_dims = _to_front_all(args[1 + nc + nx:], dims[1 + nc + nx:])
    in_dims = [0] * nc + x_dims + const_dims
    avals = _batched_types([p.aval for p in body_graph.params], in_dims, size)
    extra = [TensorType((), _I64), TensorType((size,), _I64)] if per_example else []

    def step(*values):
        state, rest = list(values[:nc]), list(values[nc + len(extra):])
        entries = batch_graph(body_graph, list(zip(state + rest, in_dims)))
        new = [move_batch(e, size, 0) for e in entries]
        if not per_example:
            return new
        k, lengths = values[nc], values[nc + 1]
        valid = F.less(k, lengths)
        ys = [F.select(_per_example(valid, size, abstract_of(y).ndim - 1), y, F.zeros_like(y))
              for y in new[nc:]]
        nxt = F.sub(k, 1) if reverse else F.add(k, 1)
        return _keep_where(valid, new[:nc], state, size) + [nxt, lengths] + ys

    body = loop_graph(body_graph.name + "_vmap", step, avals[:nc] + extra + avals[nc:])
    if per_example:
        lengths = F.cast(F.reshape(move_batch((length, dims[0]), size, 0), (size,)), _I64)
        steps = F.reduce_max(lengths)
        start = F.sub(steps, 1) if reverse else F.zeros((), _I64)
        outs = scan(steps, carry + [start, lengths], xs, consts, body, reverse)
        outs = outs[:nc] + outs[nc + 2:]
    else:
        outs = scan(length, carry, xs, consts, body, reverse)
    return tuple(outs), (0,) * nc + (1,) * (len(outs) - nc)


# ----- pruning ---------------------------------------------------------------------------------

def _dependencies(graph: Graph) -> list[set]:
    """For each output of `graph`, the indices of the params it is computed from."""
    deps = {id(p): {i} for i, p in enumerate(graph.params)}
    for node in graph.nodes:
        found = set().union(*(deps.get(id(a), set()) for a in node.inputs))
        for o in node.outputs:
            deps[id(o)] = found
    return [deps.get(id(o), set()) for o in graph.outputs]


def _prune_scan(node, used: set) -> bool:
    """Drop a scan's carries whose last value nothing reads and that nothing kept is computed
    from (the gradient of an input nobody asked for), its unread ys, and the xs and consts its
    body no longer reads.

    Before:  %5, %6 = scan(%n, %dw, %dxs, %xs, %w) {...}   (%6 unread; @step's dw needs no dxs)
    After:   %5 = scan(%n, %dw, %xs, %w) {...}
    """
    from .optimize import dce

    nc, nx = node.params["n_carry"], node.params["n_xs"]
    body = node.params["body_graph"]
    read = [id(o) in used for o in node.outputs]
    deps = _dependencies(body)
    dropped = {j for j in range(nc) if not read[j]}
    while True:
        needed = set().union(*(deps[i] for i in range(len(read))
                               if (read[i] if i >= nc else i not in dropped)))
        if not dropped & needed:
            break
        dropped -= needed
    keep_out = [i for i in range(len(read)) if (i not in dropped if i < nc else read[i])]
    body.outputs = [body.outputs[i] for i in keep_out]
    dce(body)
    reads = {id(a) for n in body.nodes for a in n.inputs} | {id(o) for o in body.outputs}
    ys_kept = any(i >= nc for i in keep_out)
    keep_in = [i for i in range(nc) if i not in dropped] + [
        i for i in range(nc, len(body.params)) if id(body.params[i]) in reads
        or i == nc < nc + nx and ys_kept]  # the first xs gives the ys their length
    if len(keep_out) == len(read) and len(keep_in) == len(body.params):
        return False
    node.outputs = [node.outputs[i] for i in keep_out]
    node.inputs = [node.inputs[0]] + [node.inputs[1 + i] for i in keep_in]
    body.params = [body.params[i] for i in keep_in]
    node.params["n_carry"] = sum(1 for i in keep_in if i < nc)
    node.params["n_xs"] = sum(1 for i in keep_in if nc <= i < nc + nx)
    return True


PRUNE_RULES[scan_p] = _prune_scan
