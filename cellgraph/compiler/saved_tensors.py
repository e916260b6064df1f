"""Hooks on the tensors a backward pass saves (MindSpore's `saved_tensors_hooks`).

An operation's bprop rule reads some of its inputs and outputs (mul its two inputs, exp its
output, add none): those are the tensors the forward pass saves for the backward pass. Inside a
hooks region, each saved tensor is handed to `pack(tensor)` when the forward pass computes it,
and the backward pass reads `unpack(packed)` in its place:

    with saved_tensors_hooks(pack, unpack):        %2 = saved_tensor_hooks(%x, %y)
        out = x * y                                       {op=mul, op_params={}, hooks=H}

While the region is open, the builder records each differentiable operation as one
`saved_tensor_hooks` node around the operation (`SavedTensorHooks.emit`). Not differentiated,
the node is the operation (EXPAND_RULES). Differentiated, the forward pass runs the operation
and then packs, in the order `hooks.order` gives, the saved tensors that the gradients wanted
read (RECORDING_RULES; which ones the bprop rule reads is found by tracing it); the backward
pass unpacks them, in the same order, and runs the operation's bprop rule on them:

    %2 = mul(%x, %y)                   # forward
    %3 = <pack %x>, %4 = <pack %y>
    ...
    %7 = <unpack %3>, %8 = <unpack %4> # backward, in reverse order of the operations
    %9 = mul(%dout, %8), %10 = mul(%dout, %7)

What pack and unpack emit is the hooks object's (`SavedTensorHooks.pack` and `.unpack`): the
API layer's PyNative hooks call Python on the host when the graph runs, its graph-mode hooks
are parsed into the graph (graph/api.py).
"""
from __future__ import annotations

import threading

from cellgraph.primitives.core import Primitive, abstract_of

from .autodiff import EXPAND_RULES, RECORDING_RULES, _conj
from .builder import Tracer, build_graph
from .ir import Var
from .optimize import optimize


def _hooked_type(*avals, op, op_params, hooks):
    out = op.abstract_eval(list(avals), op_params)
    return tuple(out) if op.multiple_results else (out,)


saved_tensor_hooks_p = Primitive("saved_tensor_hooks", _hooked_type, label="SavedTensorHooks",
                                 multiple_results=True, structural=True)


class SavedTensorHooks:
    """A region's pack and unpack hooks, as the compiler uses them. Subclasses say how a value
    is packed and unpacked in the graph being built."""

    # "inputs": inputs then outputs, each by position (MindSpore's PyNative); "use": the order
    # the bprop rule first reads them (its graph mode)
    order = "inputs"
    # pack only what the wanted gradients read (graph mode), or all the bprop rule reads
    # (PyNative, which saves them whichever gradients are wanted)
    needed_only = False
    # unpack them all as the backward pass begins, in the order they were packed (graph mode),
    # or each operation's as its gradient is computed (PyNative)
    unpack_first = False

    def pack(self, value):
        """The packed form of `value`, a graph value (emitted into the current builder)."""
        raise NotImplementedError

    def unpack(self, packed, aval):
        """The value of type `aval` that `packed` stands for (emitted into the current
        builder)."""
        raise NotImplementedError

    def emit(self, prim, args: tuple, params: dict):
        """`prim(*args, **params)` recorded under these hooks where it is differentiable and
        reads a graph value; None where the builder records it as it is."""
        if not _hookable(prim) or not any(isinstance(a, Tracer) for a in args):
            return None
        outs = saved_tensor_hooks_p(*args, op=prim, op_params=params, hooks=self)
        return tuple(outs) if prim.multiple_results else outs[0]


def _hookable(prim: Primitive) -> bool:
    return (prim.bprop_rule is not None and not prim.nondifferentiable and not prim.structural
            and not prim.effectful and prim.recording_rule is None and prim.name != "cast")


def _expand(*ins, op, op_params, hooks):
    out = op(*ins, **op_params)
    return list(out) if op.multiple_results else [out]


EXPAND_RULES[saved_tensor_hooks_p] = _expand


def _record(*ins, op, op_params, hooks, active):
    """The forward half: the operation, then the saved values packed."""
    outs = _expand(*ins, op=op, op_params=op_params, hooks=hooks)
    needed = active if hooks.needed_only else (True,) * len(ins)
    saved = []
    for position in saved_positions(op, op_params, ins, outs, needed, hooks.order):
        value = ins[position] if position < len(ins) else outs[position - len(ins)]
        if isinstance(value, Tracer):  # a constant (a Python number) is not saved
            saved.append((position, hooks.pack(value), abstract_of(value), False))
    return outs, tuple(saved)


def _unpack_before_backward(saved, *, op, op_params, hooks):
    """Graph mode unpacks every saved tensor as the backward pass begins, in the order they
    were packed (MindSpore's graphs run them first); PyNative as each operation's turn comes."""
    if not hooks.unpack_first:
        return saved
    return tuple((position, hooks.unpack(value, aval), aval, True)
                 for position, value, aval, _ in saved)


_record.takes_active = True  # vjp passes which inputs have gradients wanted
_record.before_backward = _unpack_before_backward
RECORDING_RULES[saved_tensor_hooks_p] = _record


@saved_tensor_hooks_p.def_bprop
def _hooked_bprop(*ins, out, dout, op, op_params, hooks, residuals=()):
    """The backward half: the saved values unpacked, then the operation's bprop rule on them."""
    values = list(ins) + list(out)
    for position, value, aval, unpacked in residuals:
        values[position] = value if unpacked else hooks.unpack(value, aval)
    ins, outs = values[:len(ins)], values[len(ins):]
    # the operation's rule, conjugated on complex values as autodiff applies a rule of its own
    conjugate = not op.complex_bprop and any(
        abstract_of(v).dtype.is_complex for v in values if hasattr(v, "aval"))
    if conjugate:
        dout = [None if d is None else _conj(d) for d in dout]
    if op.multiple_results:
        grads = op.bprop_rule(*ins, out=tuple(outs), dout=tuple(dout), **op_params)
    else:
        grads = op.bprop_rule(*ins, out=outs[0], dout=dout[0], **op_params)
    return tuple(None if g is None else _conj(g) for g in grads) if conjugate else grads


def saved_positions(prim, params, ins, outs, needed, order: str) -> list[int]:
    """The positions (inputs, then outputs) of the values `prim`'s bprop rule reads to compute
    the gradients of the inputs `needed` marks: its rule traced on stand-ins and optimised, so
    that a value read only for its shape, or for a gradient nobody wants, is not counted."""
    n_in = len(ins)
    avals = [abstract_of(v).strong() for v in (*ins, *outs)]

    def rule(*values):
        ins_, outs_, douts = values[:n_in], values[n_in:n_in + len(outs)], values[n_in + len(
            outs):]
        if prim.multiple_results:
            grads = prim.bprop_rule(*ins_, out=tuple(outs_), dout=tuple(douts), **params)
        else:
            grads = prim.bprop_rule(*ins_, out=outs_[0], dout=douts[0], **params)
        return [g for g, want in zip(grads, needed) if want and g is not None]

    graph, captured = build_graph("saved_tensors", rule, avals + avals[n_in:])
    assert not captured, "a bprop rule reads only its arguments"
    optimize(graph)
    position = {id(p): i for i, p in enumerate(graph.params[:len(avals)])}
    reads = [a for node in graph.nodes for a in node.inputs] + list(graph.outputs)
    found = []
    for atom in reads:
        if isinstance(atom, Var) and id(atom) in position and position[id(atom)] not in found:
            found.append(position[id(atom)])
    return found if order == "use" else sorted(found)


# ----- regions opened in Python, around the gradient calls they hold ----------------------------

class _EagerRegions(threading.local):
    """The hooks of the regions this thread has open outside any graph, innermost last: a
    gradient called from Python inside them is compiled under them (transform.py)."""

    def __init__(self):
        self.hooks: list = []


EAGER_REGIONS = _EagerRegions()

