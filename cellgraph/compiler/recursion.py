"""Recursive functions whose recursion depends on Tensor values.

The front end inlines every call. A function that calls itself on Python values unrolls like
any Python recursion; one that calls itself under a Tensor condition would inline forever, so
that call becomes a graph that calls itself:

    def f(x):                          graph @f(%x: i32[1]) -> i32[1] {
        if x > 0:                        %1 = greater(%x, 0)
            return f(x - 1) + 1   ->     %2 = switch(%1, %x) {then_graph=@f_then, ...}
        return ONE                       return %2 }
                                       graph @f_then(%x) { %3 = sub(%x, 1)
                                                           %4 = call_graph(%3) {graph=@f, ...}
                                                           ... }

The call that finds itself already being traced, with the same argument types, under a Tensor
branch, unwinds to the outermost such call (RecursiveCall). That call then traces the function
twice: a probe, where the recursive calls end their branch (like a `raise`), which gives the
result type from the paths that do not recurse; and the graph itself, where the recursive calls
are `call_graph` nodes of that type. A function that recurses on every path never returns: that
is an error at compile time, as in MindSpore.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass

from cellgraph.primitives.core import Primitive, abstract_of
from cellgraph.primitives.errors import CompileError

from . import codegen
from .builder import Builder, compile_context, current_builder, is_tensor_like
from .effects import RaiseSignal
from .ir import Graph
from .pytree import flatten, unflatten


def _call_type(*avals, graph: Graph, out_types: tuple):
    return out_types


call_graph_p = Primitive("call_graph", _call_type, label="Call", multiple_results=True,
                         structural=True)


@call_graph_p.def_bprop
def _call_graph_bprop(*args, out, dout, graph, out_types):
    raise CompileError(f"differentiating `{graph.name}`, a function that calls itself under a "
                       f"Tensor condition, is not supported; write the recursion as a `while` "
                       f"loop to differentiate it")


def _call_code(ctx, node, args, outs):
    call = f"{ctx.graph(node.params['graph'])}({', '.join(args)})"
    if not outs:
        return [call]
    return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]


codegen.CODEGEN_RULES["call_graph"] = _call_code


class RecursiveCall(Exception):
    """A call reached itself under a Tensor condition; unwinds to the outer call of `key`."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


@dataclass
class _Frame:
    key: object
    builder: Builder | None
    mode: str  # "inline", "probe" (recursive calls end their branch) or "build"
    graph: Graph | None = None
    out_types: tuple = ()
    out_tree: object = None


@contextlib.contextmanager
def _frame(frame: _Frame):
    """`frame` on the compile's stack of calls (CompileContext.calls) while the block runs."""
    calls = compile_context().calls
    calls.append(frame)
    try:
        yield frame
    finally:
        calls.pop()


def _signature(node, closure, args, kwargs):
    """What makes two calls the same function (its code and its closure) on the same kind of
    values, or None."""
    leaves, tree = flatten((tuple(args), dict(kwargs)), is_tensor_like)
    key = (id(node), closure, tree, tuple(abstract_of(v).strong() for v in leaves))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def call(node, closure, name: str, args, kwargs, run_body):
    """`run_body(args, kwargs)`, the function `node` (with free values `closure`, hashable)
    interpreted; see the module docstring."""
    key = _signature(node, closure, args, kwargs)
    calls = compile_context().calls
    active = next((f for f in reversed(calls) if f.key == key), None) if key else None
    if active is not None:
        if active.mode == "probe":
            raise RaiseSignal()  # this path recurses: it gives no result type
        if active.mode == "build":
            return _emit_call(active, args, kwargs)
        if current_builder() is not active.builder:
            raise RecursiveCall(key)
    with _frame(_Frame(key, current_builder(), "inline")):
        try:
            return run_body(args, kwargs)
        except RecursiveCall as signal:
            if signal.key != key:
                raise
    return _recursive_graph_call(key, name, args, kwargs, run_body)


def _emit_call(frame: _Frame, args, kwargs):
    leaves, _ = flatten((tuple(args), dict(kwargs)), is_tensor_like)
    outs = call_graph_p(*leaves, graph=frame.graph, out_types=frame.out_types)
    return unflatten(frame.out_tree, list(outs))


def _trace(frame: _Frame, args, kwargs, run_body):
    """Run the body in `frame.builder` on parameters standing for the Tensors in the args."""
    builder = frame.builder
    leaves, tree = flatten((tuple(args), dict(kwargs)), is_tensor_like)
    with _frame(frame), builder.active():
        params = [builder.add_param(abstract_of(v).strong()) for v in leaves]
        traced_args, traced_kwargs = unflatten(tree, params)
        return run_body(list(traced_args), traced_kwargs)


def _recursive_graph_call(key, name: str, args, kwargs, run_body):
    short = name.rsplit(".", 1)[-1]
    probe = Builder(short + "_probe", None)
    probe.runs_conditionally = True  # a branch whose paths all recurse ends the probe
    try:
        result = _trace(_Frame(key, probe, "probe"), args, kwargs, run_body)
    except RaiseSignal:
        raise CompileError(f"`{short}` calls itself on every path, so it never returns (an "
                           f"endless loop of recursive calls); give it a path that returns "
                           f"without recursing") from None
    out_leaves, out_tree = flatten(result, is_tensor_like)
    out_types = tuple(abstract_of(v).strong() for v in out_leaves)
    builder = Builder(short, None)
    frame = _Frame(key, builder, "build", builder.graph, out_types, out_tree)
    result = _trace(frame, args, kwargs, run_body)
    with builder.active():
        graph, captured = builder.finish(result)
    if captured or graph.weights or graph.updates:
        raise CompileError(f"`{short}` calls itself under a Tensor condition and reads Tensors "
                           f"or Parameters from outside its arguments; pass them as arguments")
    got = tuple(o.aval for o in graph.outputs)
    if got != out_types or graph.out_tree != out_tree:
        raise CompileError(f"`{short}` returns {_types(got)} on a path that recurses and "
                           f"{_types(out_types)} on one that does not; both must agree")
    return _emit_call(frame, args, kwargs)


def _types(avals) -> str:
    return "(" + ", ".join(str(a) for a in avals) + ")"
