"""MindSpore's functional loops: `ops.WhileLoop()(cond, body, init)`,
`ops.ForiLoop()(lower, upper, body, init)` and `ops.Scan()(body, init, xs, length)`.

Outside a graph they are Python loops. Inside one, a loop whose condition is a compile-time
constant (numbers, static bounds, a Python list to scan) is unrolled, each call of the body
parsed and inlined like any call; a condition on a Tensor becomes a while_loop node.
"""
from __future__ import annotations

from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.compiler.control_flow import function_while
from cellgraph.ops import functional as F

from .composite import apply

__all__ = ["ForiLoop", "Scan", "WhileLoop", "fori_loop", "scan", "while_loop"]

MAX_UNROLL = 100_000


def while_loop(cond_func, loop_func, init_val):
    """Apply loop_func to the value while cond_func holds; returns the last value."""
    value = init_val
    for _ in range(MAX_UNROLL):
        keep_going = apply(cond_func, value)
        if isinstance(keep_going, Tracer):
            return function_while(cond_func, loop_func, value)
        if not keep_going:
            return value
        value = apply(loop_func, value)
    raise RuntimeError(f"WhileLoop: the condition still held after {MAX_UNROLL} steps")


def fori_loop(lower, upper, loop_func, init_val, unroll=True):
    """val = loop_func(i, val) for i in [lower, upper); returns val."""
    static = not any(isinstance(b, Tracer) or (current_builder() is not None and hasattr(
        b, "aval")) for b in (lower, upper))
    if static:
        value = init_val
        for index in range(int(lower), int(upper)):
            value = apply(loop_func, index, value)
        return value

    def cond(state):
        return F.less(state[0], upper)

    def body(state):
        return (state[0] + 1, apply(loop_func, state[0], state[1]))

    return function_while(cond, body, (lower, init_val))[1]


def scan(loop_func, init, xs, length=None, unroll=True):
    """carry, y = loop_func(carry, x) over xs (or `length` times with x None); returns
    (carry, [y, ...])."""
    if xs is None:
        items = [None] * int(length)
    elif isinstance(xs, (list, tuple)):
        items = list(xs)
    else:  # a Tensor: its slices along axis 0
        items = [xs[i] for i in range(xs.shape[0] if length is None else int(length))]
    carry, ys = init, []
    for item in items:
        carry, y = apply(loop_func, carry, item)
        ys.append(y)
    return carry, ys


class _Loop:
    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class WhileLoop(_Loop):
    def __call__(self, cond_func, loop_func, init_val):
        return while_loop(cond_func, loop_func, init_val)


class ForiLoop(_Loop):
    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        return fori_loop(lower, upper, loop_func, init_val, unroll)


class Scan(_Loop):
    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        return scan(loop_func, init, xs, length, unroll)
