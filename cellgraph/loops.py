"""MindSpore's functional loops: `ops.WhileLoop`, `ops.ForiLoop` and `ops.Scan`.

    ops.WhileLoop()(cond_func, loop_func, init_val)
    ops.ForiLoop()(lower, upper, loop_func, init_val, unroll=True)
    ops.Scan()(loop_func, init, xs, length=None, unroll=True)   # -> (carry, [y per element])

Outside a graph they run as the Python loops their documentation gives. Inside one, `unroll`
(where the trip count is known) unrolls them while the graph is traced; otherwise they lower onto
the loop primitives: WhileLoop onto `while_loop`, ForiLoop and Scan onto `scan`, so reverse mode
through them keeps residuals per trip (compiler/loop_prims.py) and higher orders work.
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.compiler.builder import Tracer, build_graph, current_builder, is_tensor_like
from cellgraph.compiler.control_flow import unify_params
from cellgraph.compiler.control_prims import while_p
from cellgraph.compiler.frontend import Interpreter
from cellgraph.compiler.loop_prims import loop_options, scan
from cellgraph.compiler.pytree import flatten, unflatten
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import TensorType, abstract_of
from cellgraph.primitives.dtype import int64 as _I64
from cellgraph.primitives.errors import ArgumentError, ShapeError

__all__ = ["ForiLoop", "Scan", "WhileLoop", "scan_steps"]


def _is_leaf(x) -> bool:
    return is_tensor_like(x) or isinstance(x, numbers.Number) and not isinstance(x, bool)


def _strong(value, like=None):
    """A loop-carried leaf as a graph value: Python numbers become 0-d arrays."""
    if isinstance(value, numbers.Number):
        dtype = abstract_of(like).dtype.np if like is not None else (
            np.int64 if isinstance(value, numbers.Integral) else np.float32)
        return np.asarray(value, dtype)
    return value


def _call(fn, *args):
    return Interpreter.call(fn, args, {})


def _check_callable(op: str, name: str, fn) -> None:
    if not callable(fn):
        raise ArgumentError(f"{op}: expected `{name}` to be a function, got "
                            f"{type(fn).__name__}")


class _State:
    """The flat leaves of a loop-carried value and how they nest."""

    def __init__(self, op: str, value):
        self.op = op
        leaves, self.tree = flatten(value, _is_leaf)
        self.leaves = [_strong(v) for v in leaves]
        self.avals = [abstract_of(v).strong() for v in self.leaves]

    def rebuild(self, leaves):
        return unflatten(self.tree, list(leaves))

    def leaves_of(self, value, what: str) -> list:
        """The leaves of a new value of the state, which must keep its structure and types."""
        leaves, tree = flatten(value, _is_leaf)
        if tree != self.tree:
            raise ShapeError(f"{self.op}: {what} must have the structure of the initial value, "
                             f"got {value!r:.80}")
        out = []
        for leaf, aval in zip(leaves, self.avals):
            leaf = _strong(leaf, aval)
            got = abstract_of(leaf).strong()
            if got != aval:
                raise ShapeError(f"{self.op}: {what} must keep the shape and dtype of the "
                                 f"initial value, expected {aval}, got {got}")
            out.append(leaf)
        return out


def _closed_graphs(named_fns: list, avals: list, n_explicit: int):
    """Trace each (name, fn) over params of `avals` into graphs that share one parameter list;
    returns the graphs and the outer values their extra parameters stand for."""
    closed = [build_graph(name, fn, avals) for name, fn in named_fns]
    externals = unify_params(closed, n_explicit)
    return [g for g, _ in closed], externals


class WhileLoop:
    """`ops.WhileLoop()(cond_func, loop_func, init_val)`: `while cond_func(val): val =
    loop_func(val)`; a Tensor loop (the `while_loop` primitive) inside a graph."""

    def __call__(self, cond_func, loop_func, init_val):
        _check_callable("WhileLoop", "cond_func", cond_func)
        _check_callable("WhileLoop", "loop_func", loop_func)
        if current_builder() is None:
            value = init_val
            while cond_func(value):
                value = loop_func(value)
            return value
        state = _State("WhileLoop", init_val)

        def cond(*leaves):
            return [_call(cond_func, state.rebuild(leaves))]

        def body(*leaves):
            return state.leaves_of(_call(loop_func, state.rebuild(leaves)), "loop_func's result")

        (cond_graph, body_graph), externals = _closed_graphs(
            [("while_cond", cond), ("while_body", body)], state.avals, len(state.avals))
        outs = while_p(*state.leaves, *externals, cond_graph=cond_graph, body_graph=body_graph,
                       n_carried=len(state.avals), **loop_options())
        return state.rebuild(outs)


def _is_index(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) or (
        is_tensor_like(value) and abstract_of(value).dtype.is_int)


class ForiLoop:
    """`ops.ForiLoop()(lower, upper, loop_func, init_val, unroll=True)`: `for i in
    range(lower, upper): val = loop_func(i, val)`. Unrolled when both bounds are Python ints and
    `unroll`; otherwise a `scan` of max(upper - lower, 0) steps carrying i."""

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        for name, bound in (("lower", lower), ("upper", upper)):
            if not _is_index(bound):
                raise ArgumentError(f"ForiLoop: expected `{name}` to be an int or an integer "
                                    f"Tensor, got {type(bound).__name__} {bound!r:.40}")
        _check_callable("ForiLoop", "loop_func", loop_func)
        static = not any(isinstance(b, Tracer) or is_tensor_like(b) for b in (lower, upper))
        if current_builder() is None or static and unroll:
            value = init_val
            for i in range(int(lower), int(upper)):
                value = _call(loop_func, i, value) if current_builder() else loop_func(i, value)
            return value
        state = _State("ForiLoop", init_val)
        start = F.cast(lower, _I64) if is_tensor_like(lower) else np.asarray(lower, np.int64)
        steps = F.maximum(F.sub(upper, lower), 0) if not static else np.asarray(
            max(int(upper) - int(lower), 0), np.int64)

        def step(i, *leaves):
            new = _call(loop_func, i, state.rebuild(leaves))
            return [F.add(i, 1)] + state.leaves_of(new, "loop_func's result")

        avals = [abstract_of(start).strong()] + state.avals
        (body,), externals = _closed_graphs([("fori_body", step)], avals, len(avals))
        outs = scan(F.cast(steps, _I64) if not static else steps,
                    [start] + state.leaves, [], externals, body)
        return state.rebuild(outs[1:])


class Scan:
    """`ops.Scan()(loop_func, init, xs, length=None, unroll=True)`: `carry, y =
    loop_func(carry, x)` for each x of `xs` (or `length` times with x None); returns
    (carry, [y, ...]). Not unrolled, the elements of xs are stacked and run by one `scan`."""

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        _check_callable("Scan", "loop_func", loop_func)
        if xs is not None and not isinstance(xs, (tuple, list)):
            raise ArgumentError(f"Scan: expected `xs` to be a tuple, a list or None, got "
                                f"{type(xs).__name__}")
        if length is not None and (not isinstance(length, int) or isinstance(length, bool)):
            raise ArgumentError(f"Scan: expected `length` to be an int or None, got "
                                f"{type(length).__name__} {length!r:.40}")
        if not isinstance(unroll, bool):
            raise ArgumentError(f"Scan: expected `unroll` to be a bool, got "
                                f"{type(unroll).__name__}")
        elements = list(xs) if xs is not None else [None] * (length or 0)
        if current_builder() is None or unroll or not elements:
            carry, ys = init, []
            for x in elements:
                call = _call if current_builder() else (lambda f, *a: f(*a))
                carry, y = _pair(call(loop_func, carry, x))
                ys.append(y)
            return carry, ys
        return _scan_graph(loop_func, init, elements)


def scan_steps(name: str, step, carry: list, xs: list, reverse: bool = False) -> list:
    """One `scan` node, in the graph being built, running `step(*carry, *slices) -> new carry
    + ys` over the first axis of each of `xs` (from the last slice down when `reverse`); the
    step is traced once, whatever the length, and the values it reads from outside are the
    scan's constants. Returns the last carry, then the stacked ys."""
    avals = [abstract_of(c).strong() for c in carry]
    avals += [TensorType(tuple(abstract_of(x).shape[1:]), abstract_of(x).dtype) for x in xs]
    (body,), externals = _closed_graphs([(name, step)], avals, len(avals))
    length = np.asarray(abstract_of(xs[0]).shape[0], np.int64)
    return scan(length, list(carry), list(xs), externals, body, reverse=reverse)


def _pair(result):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise ShapeError(f"Scan: loop_func must return a pair (carry, y), got {result!r:.80}")
    return result


def _scan_graph(loop_func, init, elements: list):
    """Scan lowered onto the scan primitive: xs stacked per leaf, ys split back per step."""
    state = _State("Scan", init)
    x_leaves, x_tree = flatten(elements[0], _is_leaf)
    columns = [[] for _ in x_leaves]
    for x in elements:
        leaves, tree = flatten(x, _is_leaf)
        if tree != x_tree:
            raise ShapeError("Scan: every element of xs must have the same structure")
        for column, leaf in zip(columns, leaves):
            column.append(_strong(leaf))
    stacked = [F.stack(column) for column in columns]
    if not stacked:  # the steps' indices: the stacked ys take their (static) length from them
        stacked = [np.arange(len(elements), dtype=np.int64)]
    y_trees = []

    def step(*values):
        n = len(state.avals)
        carry = state.rebuild(values[:n])
        x = unflatten(x_tree, list(values[n:n + len(x_leaves)]))
        new, y = _pair(_call(loop_func, carry, x))
        y_leaves, y_tree = flatten(y, _is_leaf)
        y_trees.append(y_tree)
        return state.leaves_of(new, "the carry loop_func returns") + [_strong(v) for v in y_leaves]

    n = len(state.avals)
    outs = scan_steps("scan_body", step, state.leaves, stacked)
    carry, ys = state.rebuild(outs[:n]), outs[n:]
    return carry, [unflatten(y_trees[0], [y[k] for y in ys]) for k in range(len(elements))]
