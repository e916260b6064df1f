"""Cells with a user-defined `bprop`: the `custom_vjp` node.

A Cell may define `bprop(self, *inputs, out, dout)`, returning one gradient per input of
`construct`; differentiating a program that calls the Cell then uses it instead of
differentiating `construct`. Calling such a Cell inside a graph emits one node

    %3 = custom_vjp(%x, %y, %z) {fwd=@MulAdd_construct, bprop=@MulAdd_bprop, n_in=2, ...}

@MulAdd_construct is construct traced on the inputs (closed as usual: inputs, captured values,
weights); @MulAdd_bprop is bprop traced on (inputs, out, dout) plus its own captured values and
weights, with one output per input leaf. The node's inputs are @MulAdd_construct's parameters
followed by @MulAdd_bprop's extra (captured, weight) parameters.

* Differentiated: the node's bprop rule inlines @MulAdd_bprop on (inputs, out, dout). That graph
  is made of ordinary nodes, so a second differentiation goes through the user's bprop, and
  higher orders work whenever the user's bprop is itself differentiable. Weights read by
  construct get no gradient through the node (as in MindSpore: bprop speaks for the inputs).
* Not differentiated: `expand_grad` replaces the node by the inlined @MulAdd_construct
  (EXPAND_RULES), so the optimiser and code generation never see it.

bprop is checked when it is traced: one gradient per input (extra ones are left unread, as in
MindSpore), each a Tensor of its input's shape
and dtype; a mistake names the Cell, what bprop returned, what was expected, and bprop's line.
"""
from __future__ import annotations

import inspect

import gast

from cellgraph.primitives import functional as F
from cellgraph.primitives.core import Primitive, abstract_of, fmt_shape
from cellgraph.primitives.errors import (
    ArgumentError,
    CellgraphError,
    CompileError,
    DTypeError,
    GradValueError,
    ShapeError,
    SourceLoc,
)

from .autodiff import EXPAND_RULES, inline
from .builder import Builder, current_builder, describe_value, is_tensor_like
from .ir import Graph
from .pytree import Tree, flatten, unflatten
from .source import function_ast


def _custom_vjp_type(*avals, fwd: Graph, bprop: Graph, n_in: int, cell: str):
    n_out = len(fwd.outputs)
    expected = len(fwd.params) + len(bprop.params) - n_in - 2 * n_out
    if len(avals) != expected:
        raise ArgumentError(f"{cell}: expected {expected} operands, got {len(avals)}")
    for p, a in zip(fwd.params, avals):
        if p.aval.shape != a.shape or p.aval.dtype != a.dtype:
            raise ArgumentError(f"{cell}: operand {a} where construct takes {p.aval}")
    return tuple(fwd.out_avals())


custom_vjp_p = Primitive("custom_vjp", _custom_vjp_type, label="CustomVjp",
                         multiple_results=True, structural=True)


@custom_vjp_p.def_bprop
def _custom_vjp_bprop(*ins, out, dout, fwd: Graph, bprop: Graph, n_in: int, cell: str):
    """Inline the user's bprop graph on (inputs, out, dout, its captured values and weights)."""
    douts = [d if d is not None else F.zeros_like(o) for d, o in zip(dout, out)]
    extra = ins[len(fwd.params):]
    grads = inline(bprop, [*ins[:n_in], *out, *douts, *extra])
    return tuple(grads) + (None,) * (len(ins) - n_in)


def _expand_forward(*ins, fwd: Graph, bprop: Graph, n_in: int, cell: str):
    return inline(fwd, list(ins[:len(fwd.params)]))


EXPAND_RULES[custom_vjp_p] = _expand_forward


# ----- emitting the node -----------------------------------------------------------------------

def custom_vjp_call(cell, args, kwargs=None):
    """`cell(*args)` inside a graph, for a Cell that defines bprop: emit a custom_vjp node."""
    construct = _unwrap(type(cell).construct)
    args = _positional(construct, type(cell).__name__, tuple(args), kwargs or {})
    return emit_custom_vjp(type(cell).__name__, construct, _unwrap(type(cell).bprop), args,
                           bound=(cell,))


def custom_vjp_function_call(name, fn, bprop_fn, args, kwargs=None):
    """`fn(*args)` inside a graph, for a function given a bprop (`ops.custom_vjp`): the same
    custom_vjp node as for a Cell, with `bprop_fn(*inputs, out, dout)` as its backward."""
    fn, bprop_fn = _unwrap(fn), _unwrap(bprop_fn)
    args = _positional(fn, name, tuple(args), kwargs or {}, bound=())
    return emit_custom_vjp(name, fn, bprop_fn, args, bound=())


def emit_custom_vjp(name, forward_fn, bprop_fn, args: tuple, bound: tuple):
    """Trace `forward_fn(*bound, *args)` and `bprop_fn(*bound, *args, out, dout)` and emit the
    custom_vjp node joining them (`bound` is the Cell for methods, empty for functions)."""
    leaves, in_tree = flatten(args, is_tensor_like)
    hints = _hints(forward_fn, in_tree, skip=len(bound))

    def forward(*tracers):
        return _call(forward_fn, (*bound, *unflatten(in_tree, tracers)))

    fwd, fwd_captured = _trace(f"{name}_construct", forward, [abstract_of(x) for x in leaves],
                               hints, _def_loc(forward_fn), accepts_updates=True)
    if fwd.updates:
        what = "a Cell that defines bprop" if bound else "a function given a bprop"
        raise CompileError(f"{name}: {what} cannot assign Parameters in "
                           f"{'construct' if bound else 'its body'} (it assigns "
                           f"{', '.join(p.name for p in fwd.updates)}); assign them in the "
                           f"caller", current_builder().loc)
    bprop, bprop_captured = _trace_bprop(bprop_fn, bound, name, args, leaves, in_tree, hints,
                                         fwd)
    operands = [*leaves, *fwd_captured, *fwd.weights, *bprop_captured, *bprop.weights]
    outs = custom_vjp_p(*operands, fwd=fwd, bprop=bprop, n_in=len(leaves), cell=name)
    return unflatten(fwd.out_tree, list(outs))


def _call(fn, args: tuple):
    """Parse and inline a user's method; library code runs as Python over graph values."""
    from .frontend import Interpreter
    from .scope import is_user_function

    if is_user_function(fn):
        return Interpreter.call_function(fn, args, {})
    return fn(*args)


def _trace(name, fn, avals, hints, loc, accepts_updates=False) -> tuple[Graph, list]:
    builder = Builder(name, loc)
    builder.accepts_updates = accepts_updates  # to say below why assignments are refused
    with builder.active():
        tracers = [builder.add_param(a, h) for a, h in zip(avals, hints)]
        return builder.finish(fn(*tracers))


def _trace_bprop(bprop_fn, bound, name, args, leaves, in_tree, hints, fwd: Graph):
    return_loc = _return_loc(bprop_fn)
    out_avals = fwd.out_avals()
    n_in, n_out = len(leaves), len(out_avals)

    def backward(*tracers):
        inputs = unflatten(in_tree, tracers[:n_in])
        out = unflatten(fwd.out_tree, tracers[n_in:n_in + n_out])
        dout = unflatten(fwd.out_tree, tracers[n_in + n_out:])
        returned = _call(bprop_fn, (*bound, *inputs, out, dout))
        return _check_returned(name, args, in_tree, returned, return_loc)

    avals = [abstract_of(x) for x in leaves] + out_avals + out_avals
    names = hints + ["out"] * n_out + ["dout"] * n_out
    try:
        return _trace(f"{name}_bprop", backward, avals, names, _def_loc(bprop_fn))
    except CellgraphError as e:
        raise e.with_loc(return_loc)


def _check_returned(name, args, in_tree: Tree, returned, loc) -> list:
    """The gradient leaves bprop returned, one per input leaf; a mistake is a clear error."""
    n_args = len(args)
    expected = f"{n_args} gradient{'s' if n_args != 1 else ''} (one per input of construct: " \
               f"{describe_value(args)})"
    if not isinstance(returned, (tuple, list)):  # a lone gradient too, as MindSpore refuses it
        raise DTypeError(f"For bprop function, output should be a tuple: {name}.bprop must "
                         f"return a tuple of gradients, got {describe_value(returned)}; "
                         f"expected {expected}", loc)
    if len(returned) > n_args:  # MindSpore reads the first gradients and leaves the rest
        returned = returned[:n_args]
    if len(returned) < n_args:
        raise GradValueError(f"{name}.bprop returned {len(returned)} gradient"
                             f"{'s' if len(returned) != 1 else ''} {describe_value(returned)}, "
                             f"expected {expected}", loc)
    grads: list = []
    for i, (arg, tree, g) in enumerate(zip(args, in_tree.children, returned)):
        _collect(name, i, arg, tree, g, grads, loc)
    return grads


def _collect(name, i, arg, tree: Tree, g, grads: list, loc) -> None:
    """Check gradient `g` against input `arg` (a leaf, a nested tuple or a static value)."""
    if tree.kind == "static":
        return  # a Python value: its gradient, whatever bprop says, is not used
    if tree.kind in ("tuple", "list"):
        if not isinstance(g, (tuple, list)) or len(g) != len(tree.children):
            raise DTypeError(f"{name}.bprop returned {describe_value(g)} as the gradient of input "
                             f"{i}, expected a tuple matching {describe_value(arg)}", loc)
        for sub_arg, sub_tree, sub_g in zip(arg, tree.children, g):
            _collect(name, i, sub_arg, sub_tree, sub_g, grads, loc)
        return
    want = abstract_of(arg)
    if not is_tensor_like(g):
        raise DTypeError(f"{name}.bprop returned {describe_value(g)} as the gradient of input {i}, "
                         f"expected a Tensor {want} like the input", loc)
    got = abstract_of(g)
    if got.shape != want.shape:
        raise ShapeError(f"{name}.bprop returned a gradient of shape {fmt_shape(got.shape)} "
                         f"for input {i} of shape {fmt_shape(want.shape)}; expected the input's "
                         f"shape", loc)
    if got.dtype != want.dtype:
        raise DTypeError(f"{name}.bprop returned a gradient of dtype {got.dtype} for input {i} "
                         f"of dtype {want.dtype}; expected the input's dtype", loc)
    grads.append(g)


# ----- source helpers --------------------------------------------------------------------------

def _unwrap(fn):
    while getattr(fn, "__wrapped__", None) is not None:
        fn = fn.__wrapped__
    return fn


def _positional(fn, name, args: tuple, kwargs: dict, bound: tuple = (None,)) -> tuple:
    """`args` and `kwargs` as positional arguments of `fn` (after its `bound` ones: self)."""
    if not kwargs:
        return args
    try:
        binding = inspect.signature(fn).bind(*bound, *args, **kwargs)
    except TypeError as e:
        raise ArgumentError(f"{name}: {e}", current_builder().loc) from None
    binding.apply_defaults()
    return tuple(binding.arguments.values())[len(bound):]


def _hints(fn, in_tree: Tree, skip: int) -> list:
    try:
        names = list(inspect.signature(fn).parameters)[skip:]
    except (TypeError, ValueError):
        names = []
    hints = []
    for i, child in enumerate(in_tree.children):
        base = names[i] if i < len(names) else None
        count = _count(child)
        hints.extend([base] * count if count == 1 else [None] * count)
    return hints


def _count(tree: Tree) -> int:
    if tree.kind == "leaf":
        return 1
    return sum(_count(c) for c in tree.children)


def _def_loc(fn) -> SourceLoc | None:
    try:
        node, info = function_ast(fn)
    except (CompileError, AttributeError, TypeError):
        return None
    return info.loc(node)


def _return_loc(fn) -> SourceLoc | None:
    """The line of bprop's (last) return statement, else its def line."""
    try:
        node, info = function_ast(fn)
    except (CompileError, AttributeError, TypeError):
        return None
    returns = [n for n in gast.walk(node) if isinstance(n, gast.Return)]
    return info.loc(returns[-1] if returns else node)
