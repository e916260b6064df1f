"""How loops run: code generation for `while_loop` and `scan` (compiler/loop_prims.py).

Loop bodies are inlined into the function that runs the loop: the state lives in locals, a trip
costs no call and builds no tuple, and a comparison that ends the loop is a Python comparison on
its operands, not a kernel call that makes a 0-d array. Per-trip outputs go into a stack that
is allocated for 16 trips and doubles when full; after the loop it is cut to the trip count (a
view, not a copy).

    v1, v2 = x, c0                          # while_loop(%x, 0) with one per-trip stack
    v5 = 0
    v6 = 16
    v7 = k_fill(dtype=p1, shape=(v6,) + (64,), value=0)
    while True:
        if not (v2 < n):
            break
        v8 = k_sin(v1)
        ...
        v7[v5] = v1
        v5 += 1
        v1, v2 = v11, v12
"""
from __future__ import annotations

from cellgraph.primitives.core import TensorType
from cellgraph.primitives.dtype import int64 as _I64

from . import codegen
from .ir import Graph

STACK_CAPACITY = 16  # first capacity of a per-trip stack; it doubles when full
_COMPARISONS = {"less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
                "equal": "==", "not_equal": "!="}


def _tuple(names) -> str:
    return ", ".join(names) + ("," if len(names) == 1 else "")


def _indent(lines) -> list[str]:
    return ["    " + line for line in lines]


def _alloc(ctx, aval: TensorType, steps: str) -> str:
    """A zero-filled stack of `steps` values of type `aval`."""
    shape = f"({steps},) + {tuple(aval.shape)!r}"
    return (f"{ctx.kernel_fn('fill')}(dtype={ctx.literal(aval.dtype)}, shape={shape}, "
            f"value=0)")


def _exit_test(ctx, cond: Graph, args: list, bounds: dict) -> list[str]:
    """Lines that leave the loop when the condition graph says false; `bounds` maps the index
    of a loop-invariant parameter to the Python int it holds (see _int_bounds)."""
    last = cond.nodes[-1] if cond.nodes else None
    op = _COMPARISONS.get(last.callee.name) if last is not None else None
    if op is None or last.outputs[0] is not cond.outputs[0] or any(
            a.aval.size != 1 for a in last.inputs):
        lines, (pred,) = ctx.inline(cond, args)
        return lines + [f"if not {pred}:", "    break"]
    head = Graph(cond.name, cond.params, cond.nodes[:-1], list(last.inputs))
    lines, (a, b) = ctx.inline(head, args)
    if bounds and all(_signed_int(x) for x in last.inputs):
        params = {id(p): k for k, p in enumerate(cond.params)}
        a, b = (bounds.get(params.get(id(x)), name) for x, name in zip(last.inputs, (a, b)))
    return lines + [f"if not ({a} {op} {b}):", "    break"]


def _signed_int(atom) -> bool:
    return atom.aval.shape == () and atom.aval.dtype.np.kind == "i"


def _int_bounds(ctx, cond: Graph, args: list, m: int) -> tuple[list[str], dict]:
    """The loop-invariant signed-integer scalars the condition compares with (a trip count
    `n` in `while i < n`), each converted to a Python int once before the loop: comparing a
    NumPy integer with a 0-d array makes a 0-d array per trip, with a Python int it does not,
    and two integers compare the same either way."""
    last = cond.nodes[-1] if cond.nodes else None
    if last is None or last.callee.name not in _COMPARISONS or not all(
            _signed_int(x) for x in last.inputs):
        return [], {}
    lines, bounds = [], {}
    for k, p in enumerate(cond.params[m:], m):
        if any(x is p for x in last.inputs):
            bounds[k] = ctx.fresh()
            lines.append(f"{bounds[k]} = int({args[k]})")
    return lines, bounds


def _while_code(ctx, node, args, outs):
    m = node.params["n_carried"]
    cond, body = node.params["cond_graph"], node.params["body_graph"]
    per_trip = body.outputs[m:]
    state, consts = outs[:m], args[m:]
    lines = [f"{_tuple(state)} = {_tuple(args[:m])}"]
    trips, cap = ctx.fresh(), ctx.fresh()
    stacks = [ctx.fresh() for _ in per_trip]
    if per_trip:
        lines += [f"{trips} = 0", f"{cap} = {STACK_CAPACITY}"]
        lines += [f"{s} = {_alloc(ctx, y.aval, cap)}" for s, y in zip(stacks, per_trip)]
    body_lines, new = ctx.inline(body, state + consts)
    bound_lines, bounds = _int_bounds(ctx, cond, state + consts, m)
    lines += bound_lines
    lines.append("while True:")
    lines += _indent(_exit_test(ctx, cond, state + consts, bounds) + body_lines)
    if per_trip:
        lines += [f"    if {trips} == {cap}:", f"        {cap} *= 2"]
        for s, y in zip(stacks, per_trip):
            grown = ctx.fresh()
            lines += [f"        {grown} = {_alloc(ctx, y.aval, cap)}",
                      f"        {grown}[:{trips}] = {s}", f"        {s} = {grown}"]
        lines += [f"    {s}[{trips}] = {v}" for s, v in zip(stacks, new[m:])]
        lines.append(f"    {trips} += 1")
    lines.append(f"    {_tuple(state)} = {_tuple(new[:m])}")
    if per_trip:
        lines.append(f"{outs[m]} = {ctx.kernel_fn('fill')}(dtype={ctx.literal(_I64)}, "
                     f"shape=(), value={trips})")
        lines += [f"{o} = {s}[:{trips}]" for o, s in zip(outs[m + 1:], stacks)]
    return lines


def _scan_code(ctx, node, args, outs):
    nc, nx = node.params["n_carry"], node.params["n_xs"]
    body = node.params["body_graph"]
    state, xs, consts = outs[:nc], args[1 + nc:1 + nc + nx], args[1 + nc + nx:]
    steps, k = ctx.fresh(), ctx.fresh()
    lines = [f"{steps} = int({args[0]})"]
    if nc:
        lines.append(f"{_tuple(state)} = {_tuple(args[1:1 + nc])}")
    lines += [f"{o} = {_alloc(ctx, y.aval, steps)}" for o, y in zip(outs[nc:],
                                                                   body.outputs[nc:])]
    order = f"range({steps} - 1, -1, -1)" if node.params["reverse"] else f"range({steps})"
    slices = [ctx.fresh() for _ in xs]
    body_lines, new = ctx.inline(body, state + slices + consts)
    lines.append(f"for {k} in {order}:")
    lines += [f"    {s} = {x}[{k}]" for s, x in zip(slices, xs)]
    lines += _indent(body_lines)
    lines += [f"    {o}[{k}] = {y}" for o, y in zip(outs[nc:], new[nc:])]
    if nc:
        lines.append(f"    {_tuple(state)} = {_tuple(new[:nc])}")
    return lines


codegen.CODEGEN_RULES["while_loop"] = _while_code
codegen.CODEGEN_RULES["scan"] = _scan_code


# Integer scalar arithmetic (a loop counter's `i + 1`) runs as a Python operator on the 0-d
# values, which every backend's arrays support, instead of a kernel call per trip.
_SCALAR_OPERATORS = {"add": "+", "sub": "-", "mul": "*"}


def _scalar_int(atom) -> bool:
    return atom.aval.shape == () and atom.aval.dtype.is_int


def _arithmetic_code(op: str):
    def rule(ctx, node, args, outs):
        out = node.outputs[0].aval
        if not (all(_scalar_int(a) for a in node.inputs) and out.dtype.is_int):
            return [f"{outs[0]} = {ctx.call(node, args)}"]
        if any(not a.aval.weak for a in node.inputs):
            return [f"{outs[0]} = {args[0]} {op} {args[1]}"]
        # both weak: both may be Python ints (a counter's first trip, `i = 0`), whose sum would
        # stay a Python int; the kernel makes it the NumPy integer the operator then keeps
        kernel = ctx.call(node, args)
        return [f"{outs[0]} = {args[0]} {op} {args[1]} if {args[0]}.__class__ is not int else "
                + kernel]
    return rule


for _name, _op in _SCALAR_OPERATORS.items():
    codegen.CODEGEN_RULES[_name] = _arithmetic_code(_op)
