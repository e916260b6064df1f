"""What a while_loop's forward pass records for its backward pass: the tape.

The backward step of a loop is the VJP of its body at one trip's state. Written out, that graph
has two kinds of nodes: those that read only the state and the loop-invariant inputs (the trip's
forward values, `sin(x)`, `cos(x)`, an LSTM's gates) and those that read a cotangent. The
first kind can run in the forward loop instead, where most of it is computed anyway (CSE merges
it with the body); what the second kind reads of it is stacked per trip, the residuals. The
backward step is then the second kind alone:

    body:  x' = sin(x) * w + 0.5 * x
    step:  (dx, dw, x, w) -> (dx * (cos(x) * w + 0.5), dw + dx * sin(x))
    tape:  forward stacks sin(x), cos(x); backward step (dx, dw, sin_x, cos_x, w) -> ...

Values that depend on neither (functions of the loop-invariant inputs alone) stay in the step,
so they are not stacked once per trip; the forward loop computes them as well, for its own
nodes that read them (`param * 2` feeding a branch on the state). Where a residual has no static shape (a nested loop's
stacks), where the step reads none (a linear body; the stacks also count the trips), or where
checkpointing asks for it, the tape holds the states instead and the step recomputes the trip's
forward values.
"""
from __future__ import annotations

from dataclasses import dataclass

from cellgraph.primitives import functional as F

from .autodiff import expand_grad, vjp
from .control_prims import loop_graph
from .ir import Graph, Var
from .optimize import optimize


@dataclass
class Tape:
    """`record`: (state..., consts...) -> the values stacked per trip. `step`: (d carried...,
    d consts..., recorded slices..., dy slices..., consts...) -> (d carried..., d consts...)."""

    record: Graph
    step: Graph


def step_graph(body: Graph, n_state: int, n_carry: int, fs: list, fx: list, fc: list,
               fy: list) -> Graph:
    """The backward step of a loop whose body takes `n_state` per-step inputs (the carried
    values, then for a scan the slices of xs) and then the consts: the VJP at one step's inputs,
    given the cotangents of the float carried values `fs` and per-step outputs `fy`, for the
    carried values `fs`, the slices `fx` and the consts `fc`. The consts' gradients accumulate:

        (d carried fs..., d consts fc..., state..., dy fy..., consts...)
            -> (d carried fs..., d consts fc..., d slices fx...)
    """
    params = body.params
    n_s, n_c, n_y = len(fs), len(fc), len(fy)
    avals = ([params[i].aval for i in fs] + [params[n_state + j].aval for j in fc]
             + [p.aval for p in params[:n_state]]
             + [body.outputs[n_carry + j].aval for j in fy]
             + [p.aval for p in params[n_state:]])
    names = [p.hint or "v" for p in params]
    hints = ([f"d{names[i]}" for i in fs] + [f"d{names[n_state + j]}" for j in fc]
             + names[:n_state] + [f"dy{j}" for j in fy] + names[n_state:])
    wrt = tuple(fs) + tuple(n_carry + i for i in fx) + tuple(n_state + j for j in fc)

    def step(*values):
        ds, dc = values[:n_s], values[n_s:n_s + n_c]
        rest = values[n_s + n_c:]
        state, dy, consts = rest[:n_state], rest[n_state:n_state + n_y], rest[n_state + n_y:]
        sens = [F.fill(o.aval.dtype, o.aval.shape, 0) for o in body.outputs]
        for i, d in zip(fs, ds):
            sens[i] = d
        for j, d in zip(fy, dy):
            sens[n_carry + j] = d
        _, grads = vjp(expand_grad(body), list(state) + list(consts), wrt, sens)
        n_x = len(fx)
        return (grads[:n_s] + [F.add(a, b) for a, b in zip(dc, grads[n_s + n_x:])]
                + grads[n_s:n_s + n_x])

    return optimize(loop_graph(body.name + "_bprop", step, avals, hints), differentiable=True)


def tape_of(step: Graph, n_front: int, n_state: int, n_dy: int) -> Tape:
    """The residual tape of `step`, or the state tape where residuals cannot be stacked."""
    return residual_tape(step, n_front, n_state, n_dy) or state_tape(step, n_front, n_state)


def state_tape(step: Graph, n_front: int, m: int) -> Tape:
    """A tape of the states: the step recomputes each trip's forward values."""
    states = step.params[n_front:n_front + m]
    consts = step.params[n_front + m:]
    record = Graph("record_states", list(states) + [Var(p.aval, p.hint) for p in consts],
                   [], list(states))
    return Tape(record, step)


def residual_tape(step: Graph, n_front: int, m: int, n_dy: int) -> Tape | None:
    """Split `step` into what the forward loop computes and stacks and what the backward step
    still does; None when a residual has no static shape, or when there is none."""
    params = step.params
    cotangents = {id(p) for p in params[:n_front] + params[n_front + m:n_front + m + n_dy]}
    states = {id(p) for p in params[n_front:n_front + m]}
    forward, backward = [], []
    for node in step.nodes:
        reads = {id(a) for a in node.inputs if isinstance(a, Var)}
        if reads & cotangents:
            cotangents.update(id(o) for o in node.outputs)
            backward.append(node)
        elif reads & states:
            states.update(id(o) for o in node.outputs)
            forward.append(node)
        else:  # loop-invariant: never stacked per trip; the forward nodes may read it too
            forward.append(node)
            backward.append(node)
    read_back = [a for n in backward for a in n.inputs] + list(step.outputs)
    residuals, seen = [], set()
    for a in read_back:
        if isinstance(a, Var) and id(a) in states and id(a) not in seen:
            seen.add(id(a))
            residuals.append(a)
    if not residuals or any(r.aval.size is None for r in residuals):
        return None  # the states then: the stacks also give the loop its trip count
    state_params = list(params[n_front:n_front + m])
    consts = list(params[n_front + m + n_dy:])
    record = Graph("record_residuals", state_params + consts, forward, residuals)
    back = Graph(step.name, list(params[:n_front]) + residuals
                 + list(params[n_front + m:n_front + m + n_dy]) + consts, backward,
                 list(step.outputs))
    return Tape(record, back)
