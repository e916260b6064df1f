"""Fused while loops compiled by numba: a Tensor `while` with elementwise trips
(compiler/while_fusion.py) runs as one kernel for all its trips, its per-trip stacks (the tape a
gradient walks back) written by the kernel, instead of a few kernel calls per trip.

    b0 = np.empty(out0.shape, np.float32)     # buffers of S: carries, constants, temporaries
    c1 = in1                                  # integer scalars: the counter, the bound
    y0 = np.empty((cap,) + out0.shape, np.float32)
    while True:
        q0 = c1
        q1 = (q0 < c2)
        if not q1:
            break
        t0 = (c1 + 1)                          # the counter's step
        call_loop(loops[0], loops[1], b0, u1)  # sin(x): NumPy's own loop, NumPy's bits
        for i0 in range(out0.shape[0]):        # the rest of the trip, element by element
            x0 = b0[i0]
            ...
            y0[trips, i0] = t1                 # its per-trip value
            b0[i0] = t4                        # its new carry
        trips += 1
        c1 = t0

Each element's values come from the same operations in the same order as the per-trip NumPy
calls, with the number conventions of the fused elementwise kernels (runtime/fused_kernels.py),
whose disk cache, compile lock, threading rules and warm-up it shares (as runtime/fused_loops.py
does). A transcendental function runs NumPy's loop for its dtype on a whole trip's contiguous
buffer (runtime/ufunc_loops.py), so an operand such a function reads is taken only as a
C-contiguous array (as NumPy's loop would see it, with the same steps). An operand not of the
program's dtype and shape, and an integer outside int64, runs the loop unfused (the while_loop
node's own generated code).
"""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.while_fusion import UFUNC_CALLS, WhileProgram

from . import fused_kernels, ufunc_loops
from .fused_kernels import _NP_TYPE, _array_type, _expression, _number, _operand_dtype
from .fused_loops import COMPILE_AFTER_TRIPS, make_scan_runner

KIND = "while"  # the generator's name in the kernel cache's key
STACK_CAPACITY = 16  # first capacity of a per-trip stack; it doubles when full
_COUNTER = {"add": "+", "sub": "-", "mul": "*", "less": "<", "less_equal": "<=",
            "greater": ">", "greater_equal": ">=", "equal": "==", "not_equal": "!="}


def lower(compiled):
    """The numpy backend's lower step: fused_kernels.lower, with elementwise while loops and
    scans (runtime/fused_loops.py) fused too."""
    return fused_kernels.lower(compiled, make_scan_runner, make_while_runner)


def while_kernel_source(structure: tuple, cache: bool) -> str:
    """The Python source of `kernel(loops, in0, ..., out0, ...) -> (trips, stacks...,
    integer carries...)` for a WhileProgram structure (the outputs: the array carries)."""
    inputs, m, cond, ops, outputs, ndim = structure
    index = [f"i{k}" for k in range(ndim)]
    where = ", ".join(index) if index else "()"
    arrays = [k for k, spec in enumerate(inputs) if spec[0] != "int"]
    carries = [k for k in arrays if k < m]
    ints = [k for k, spec in enumerate(inputs) if spec[0] == "int"]
    args = ["loops"] + [f"in{k}" for k in range(len(inputs))] + [f"out{k}" for k in carries]
    lines = ["import math", "", "import numpy as np", "from numba import njit", "",
             "from cellgraph.runtime.ufunc_loops import call_unary_loop", "",
             "call_loop = call_unary_loop()", "", "",
             f"@njit(cache={cache}, error_model='numpy', nogil=True, boundscheck=False)",
             f"def kernel({', '.join(args)}):"]
    first = f"out{carries[0]}"

    def nest(indent: str) -> tuple[list[str], str]:
        return fused_kernels.loop_nest(indent, ndim, first)

    def at(k: int) -> str:
        _, rank, broadcast = inputs[k]
        lead = ndim - rank
        at_k = ["0" if lead + d in broadcast else index[lead + d] for d in range(rank)]
        return ", ".join(at_k) if at_k else "()"

    def ref(operand, dtype: str, tag: str = "t") -> str:
        kind, value = operand
        if kind == "in":
            return f"c{value}" if inputs[value][0] == "int" else f"x{value}"
        if kind in ("t", "q"):
            return f"{kind}{value}"
        return repr(value) if dtype == "int" else _number(value, dtype)

    def dtype_of(operand) -> str:
        kind, value = operand
        return inputs[value][0] if kind == "in" else ops[value][2]

    lines += [f"    b{k} = np.empty({first}.shape, {_NP_TYPE[inputs[k][0]]})" for k in arrays]
    loops, inner = nest("    ")
    lines += loops + [f"{inner}b{k}[{where}] = in{k}[{at(k)}]" for k in arrays]
    lines += [f"    c{k} = in{k}" for k in ints]
    steps = _steps(ops)
    buffered = _buffered(steps, ops, outputs, m)
    lines += [f"    u{j} = np.empty({first}.shape, {_NP_TYPE[ops[j][2]]})" for j in buffered]
    stacks = list(range(m, len(outputs)))
    lines.append("    cap = " + str(STACK_CAPACITY))
    lines += [f"    y{y} = np.empty((cap,) + {first}.shape, {_NP_TYPE[dtype_of(outputs[y])]})"
              for y in stacks]
    lines += ["    trips = 0", "    while True:"]
    for j, (name, operands) in enumerate(cond[:-1]):
        lines.append(f"        q{j} = {_counter_expression(name, [ref(o, 'int') for o in operands])}")
    lines += [f"        if not {ref(cond[-1][1][0], 'int')}:", "            break"]
    for j, (name, operands, dtype) in enumerate(ops):
        if dtype == "int":
            refs = [ref(o, "int") for o in operands]
            lines.append(f"        t{j} = {_counter_expression(name, refs)}")
    for step in steps[:-1]:
        if step[0] == "call":
            j = step[1]
            operand = ops[j][1][0]
            src = f"b{operand[1]}" if operand[0] == "in" else f"u{operand[1]}"
            q = sum(1 for name, _, _ in ops[:j] if name in UFUNC_CALLS)
            lines.append(f"        call_loop(loops[{2 * q}], loops[{2 * q + 1}], {src}, u{j})")
            continue
        lines += _segment(step[1], (), nest, ops, inputs, buffered, ref, where)
    if stacks:
        lines += ["        if trips == cap:", "            cap *= 2"]
        for y in stacks:
            dtype = _NP_TYPE[dtype_of(outputs[y])]
            lines += [f"            grown = np.empty((cap,) + {first}.shape, {dtype})",
                      f"            grown[:trips] = y{y}", f"            y{y} = grown"]
    writes = [(f"y{y}[{', '.join(['trips'] + index)}]", outputs[y]) for y in stacks]
    writes += [(f"b{c}[{where}]", outputs[c]) for c in carries]
    lines += _segment(steps[-1][1], writes, nest, ops, inputs, buffered, ref, where)
    lines.append("        trips += 1")
    int_carries = [k for k in ints if k < m]
    if int_carries:
        new = [ref(outputs[k], "int") for k in int_carries]
        lines.append(f"        {', '.join(f'c{k}' for k in int_carries)}, = {', '.join(new)},")
    loops, inner = nest("    ")
    lines += loops + [f"{inner}out{c}[{where}] = b{c}[{where}]" for c in carries]
    results = ["trips"] + [f"y{y}" for y in stacks] + [f"c{k}" for k in int_carries]
    lines.append(f"    return ({', '.join(results)},)")
    return "\n".join(lines) + "\n"


def _counter_expression(name: str, refs: list[str]) -> str:
    if name == "set_dims":
        return refs[0]
    return f"({refs[0]} {_COUNTER[name]} {refs[1]})"


def _steps(ops: tuple) -> list[tuple]:
    """A trip's array operations as steps: ("call", j) for NumPy's loop of op j, ("segment",
    [j, ...]) for a loop nest over S; the last step is always a segment (the writes go there)."""
    steps, current = [], []
    for j, (name, _, dtype) in enumerate(ops):
        if dtype == "int":
            continue
        if name in UFUNC_CALLS:
            if current:
                steps.append(("segment", current))
            steps += [("call", j)]
            current = []
        else:
            current.append(j)
    steps.append(("segment", current))
    return steps


def _buffered(steps: list, ops: tuple, outputs: tuple, m: int) -> list[int]:
    """The array temporaries kept in a buffer of S: the results of NumPy's loops, the operands
    of one, and those read in another step than their own."""
    home = {}
    for s, step in enumerate(steps):
        for j in ([step[1]] if step[0] == "call" else step[1]):
            home[j] = s
    keep = set()
    for s, step in enumerate(steps):
        readers = [step[1]] if step[0] == "call" else step[1]
        for j in readers:
            for kind, ref in ops[j][1]:
                if kind == "t" and ops[ref][2] != "int" and (step[0] == "call" or
                                                             home[ref] != s):
                    keep.add(ref)
        if step[0] == "call":
            keep.add(step[1])
    last = len(steps) - 1
    for kind, ref in outputs:
        if kind == "t" and ops[ref][2] != "int" and home[ref] != last:
            keep.add(ref)
    return sorted(keep)


def _segment(members: list, writes, nest, ops, inputs, buffered, ref, where) -> list[str]:
    """One loop nest over S: loads of the inputs and earlier temporaries it reads, its
    operations, the stores of its buffered results, then `writes` (target, operand)."""
    reads = [o for j in members for o in ops[j][1]] + [o for _, o in writes]
    own = set(members)
    loops, inner = nest("        ")
    body, loaded = [], set()
    for kind, value in reads:
        if (kind, value) in loaded or kind == "c":
            continue
        loaded.add((kind, value))
        if kind == "in" and inputs[value][0] != "int":
            body.append(f"{inner}x{value} = b{value}[{where}]")
        elif kind == "t" and value not in own and ops[value][2] != "int":
            body.append(f"{inner}t{value} = u{value}[{where}]")
    for j in members:
        op = ops[j]
        refs = [ref(o, _operand_dtype(op, ops, inputs)) for o in op[1]]
        body.append(f"{inner}t{j} = {_expression(op, refs)}")
        if j in buffered:
            body.append(f"{inner}u{j}[{where}] = t{j}")
    body += [f"{inner}{target} = {ref(o, _dtype(o, ops, inputs))}" for target, o in writes]
    return loops + body if body else []


def _dtype(operand, ops, inputs) -> str:
    kind, value = operand
    if kind == "in":
        return inputs[value][0]
    return ops[value][2] if kind == "t" else "float64"


def entry_point(program: WhileProgram):
    """The compiled kernel's entry for `program`'s operand types (called without numba's
    dispatch: the runner checks the operands itself)."""
    from numba import types

    kernel = fused_kernels.compiled_kernel(program.structure(), while_kernel_source, KIND)
    called = program.called_inputs()
    operands = tuple(types.int64 if dtype == "int" else
                     _array_type(dtype, len(shape), "C" if k in called else "A")
                     for k, (dtype, shape) in enumerate(program.inputs))
    carries = tuple(_array_type(dtype, len(program.shape), "C")
                    for dtype, _ in program.inputs[:program.n_carried] if dtype != "int")
    with fused_kernels._lock:
        entry = kernel.compile((types.int64[::1],) + operands + carries)
    return entry


def make_while_runner(program: WhileProgram, node):
    """A function `run(*operands) -> tuple of outputs` for `program` (the while_loop `node`'s
    operands and results), or None where NumPy's loop of one of its functions cannot be used.
    Its first calls (see fused_loops) run the node's own generated code; later ones check the
    operands, allocate the carries and call the kernel, compiled (or loaded from the disk
    cache) on that first call."""
    from .backend import get_backend

    backend = get_backend("numpy")
    if any(backend.kernel(name) is not getattr(np, UFUNC_CALLS[name])
           for name, _, _ in program.ops if name in UFUNC_CALLS):
        return None  # the unfused loop would not call that ufunc
    addresses = [ufunc_loops.loop_address(name, dtype) for name, dtype in program.ufunc_calls()]
    if any(a is None for a in addresses):
        return None
    m, called = program.n_carried, program.called_inputs()
    stacked = len(program.outputs) > m
    env = {"ndarray": np.ndarray, "empty": np.empty, "int": int, "hot": False,
           "loops": np.array([x for a in addresses for x in a] or [0], np.int64),
           "shape": tuple(program.shape), "unfused": _unfused(node),
           "array": np.array, "count_dtype": np.dtype(np.int64),
           "small": -2 ** 63, "big": 2 ** 63, "np_int64": np.int64}
    args = [f"a{k}" for k in range(len(program.inputs))]
    every = ", ".join(args)
    lines = [f"def run({every}):", "    if not hot:", f"        return warm({every})"]
    for k, (dtype, shape) in enumerate(program.inputs):
        if dtype == "int":
            lines += [f"    if a{k}.__class__ is int:", f"        n{k} = a{k}",
                      (f"    elif a{k}.__class__ is ndarray and a{k}.shape == () and "
                       f"a{k}.dtype.kind == 'i' or isinstance(a{k}, np_integer):"),
                      f"        n{k} = int(a{k})", "    else:", f"        return unfused({every})",
                      f"    if not small <= n{k} < big:", f"        return unfused({every})"]
            continue
        env[f"dtype_{k}"], env[f"shape_{k}"] = np.dtype(dtype), tuple(shape)
        layout = f" or not a{k}.flags.c_contiguous" if k in called else ""
        lines += [(f"    if a{k}.__class__ is not ndarray or a{k}.dtype is not dtype_{k} and "
                   f"a{k}.dtype != dtype_{k} or a{k}.shape != shape_{k}{layout}:"),
                  f"        return unfused({every})"]
    env["np_integer"] = np.integer
    carries = [k for k in range(m) if program.inputs[k][0] != "int"]
    for k in carries:
        env[f"out_dtype_{k}"] = np.dtype(program.inputs[k][0])
        lines.append(f"    o{k} = empty(shape, out_dtype_{k})")
    operands = [f"n{k}" if dtype == "int" else f"a{k}"
                for k, (dtype, _) in enumerate(program.inputs)]
    lines.append(f"    r = entry(loops, {', '.join(operands + [f'o{k}' for k in carries])})")
    n_stacks = len(program.outputs) - m
    results, finals = [], iter(range(1 + n_stacks, 1 + n_stacks + m))
    for k in range(m):
        results.append(f"o{k}" if k in carries else f"np_int64(r[{next(finals)}])")
    if stacked:
        results.append("array(r[0], count_dtype)")  # the trip count, as the loop's fill
        # (numba hands back arrays whose dtype is an equal but new object, which the runners
        # of the kernels that read the stacks would not take for their own: a view gives it)
        for y in range(n_stacks):
            env[f"stack_dtype_{y}"] = np.dtype(program.dtype_of(program.outputs[m + y]))
            results.append(f"r[{1 + y}][:r[0]].view(stack_dtype_{y})")
    lines.append(f"    return ({', '.join(results)},)")

    def first_call(*operands):
        with fused_kernels._lock:
            if env["entry"] is first_call:
                env["entry"] = entry_point(program)
        return env["entry"](*operands)

    calls = trips = 0

    def warm(*operands):
        nonlocal calls, trips
        calls += 1  # (threads may race here: then it compiles a call or two later)
        if calls > fused_kernels.COMPILE_AFTER or trips > COMPILE_AFTER_TRIPS:
            env["hot"] = True
            return run(*operands)
        results = env["unfused"](*operands)
        if stacked:
            trips += int(results[m])
        return results

    env["entry"], env["warm"] = first_call, warm
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<cellgraph:fused-while-runner>", "exec"), env)  # noqa: S102
    run = env["run"]
    run.program = program
    return run


def _unfused(node):
    """The while_loop `node` as its own generated code: a function of its operands that
    returns the tuple of its results."""
    from cellgraph.compiler import codegen
    from cellgraph.compiler.ir import Apply, Graph, Var

    from .backend import get_backend
    from .executor import bind_module

    params = [Var(a.aval) for a in node.inputs]
    outputs = [Var(o.aval) for o in node.outputs]
    loop = Apply(node.callee, params, dict(node.params), outputs, node.loc)
    graph = Graph("while_loop", params, [loop], outputs, node.loc)
    function, _ = bind_module(codegen.generate(graph), get_backend("numpy"))
    if len(outputs) == 1:
        return lambda *operands: (function(*operands),)
    return function
