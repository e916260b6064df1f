"""Fused scans compiled by numba: a `scan` with an elementwise body (compiler/loop_fusion.py) runs
as one kernel for all its trips, instead of a few kernel calls per trip. The reverse half of a
gradient through a Tensor `while` is usually such a scan (the walk back over the tape).

    b0 = np.empty(out0.shape, np.float32)    # buffers of S: carries, slices, constants
    ...
    for i0 in range(out0.shape[0]):
        b0[i0] = in0[i0]                     # the carries start as their inputs
        b4[i0] = in4[i0]                     # the constants, broadcast
    for k in range(steps - 1, -1, -1):       # every trip
        for i0 in range(out0.shape[0]):
            b2[i0] = in2[k, i0]              # the step's slices
        for i0 in range(out0.shape[0]):      # each element: independent of the others
            x0 = b0[i0]
            ...
            t0 = (x0 * np.float32(0.5))
            ...
            b0[i0] = t4                      # its new carry
    for i0 in range(out0.shape[0]):
        out0[i0] = b0[i0]

The kernel computes what the per-trip NumPy calls compute, in the same order for each element,
with the operations and number conventions of the fused elementwise kernels
(runtime/fused_kernels.py), whose disk cache, compile lock, threading rules and warm-up
(the first calls run the unfused loop) it shares; a scan's warm-up ends after
COMPILE_AFTER calls or COMPILE_AFTER_TRIPS trips, whichever comes first, as one call of a long
loop costs as much as many calls of a short one. Operands the kernel was not made for
(stacked inputs shorter than the trip count, a negative count) run the unfused loop, which
gives its own answer or error.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.compiler.fusion import FUSED_DTYPES
from cellgraph.compiler.loop_fusion import ScanProgram

from . import fused_kernels
from .fused_kernels import (
    _NP_TYPE,
    _array_type,
    _conform,
    _expression,
    _number,
    _operand_dtype,
    kernel_call_line,
)

KIND = "scan"  # the generator's name in the kernel cache's key
# trips run unfused after which the next call compiles the kernel, however few the calls were:
# about as many as fused_kernels.COMPILE_AFTER calls of a 20-trip loop make
COMPILE_AFTER_TRIPS = 1000


def scan_kernel_source(structure: tuple, cache: bool) -> str:
    """The Python source of `kernel(steps, in0, ..., out0, ...)` for a ScanProgram structure.
    The carries, the constants and each step's slices are held in buffers of S that the kernel
    allocates (contiguous, and known to alias nothing, so that the compiler vectorises the loop
    nest over S that each trip runs; elements of one trip are independent); each trip copies
    its slices in, then reads an element's carries and operands, computes, and writes its
    per-step outputs and new carries."""
    inputs, nc, nx, ops, outputs, ndim, reverse, dtypes = structure
    index = [f"i{k}" for k in range(ndim)]
    where = ", ".join(index) if index else "()"
    args = (["steps"] + [f"in{i}" for i in range(len(inputs))] +
            [f"out{j}" for j in range(len(outputs))])
    lines = ["import math", "", "import numpy as np", "from numba import njit", "", "",
             f"@njit(cache={cache}, error_model='numpy', nogil=True, boundscheck=False)",
             f"def kernel({', '.join(args)}):"]

    def nest(indent: str) -> tuple[list[str], str]:
        return fused_kernels.loop_nest(indent, ndim, "out0")

    def at(i: int) -> str:
        _, rank, broadcast = inputs[i]
        lead = ndim - rank
        at_i = (["k"] if nc <= i < nc + nx else []) + [
            "0" if lead + k in broadcast else index[lead + k] for k in range(rank)]
        return ", ".join(at_i) if at_i else "()"

    def ref(operand, dtype: str) -> str:
        kind, value = operand
        return {"in": f"x{value}", "t": f"t{value}"}.get(kind) or _number(value, dtype)

    lines += [f"    b{i} = np.empty(out0.shape, {_NP_TYPE[dtype]})"
              for i, (dtype, _, _) in enumerate(inputs)]
    loops, inner = nest("    ")
    lines += loops + [f"{inner}b{i}[{where}] = in{i}[{at(i)}]" for i in range(len(inputs))
                      if not nc <= i < nc + nx]
    order = "range(steps - 1, -1, -1)" if reverse else "range(steps)"
    lines.append(f"    for k in {order}:")
    if nx:
        loops, inner = nest("        ")
        lines += loops + [f"{inner}b{i}[{where}] = in{i}[{at(i)}]" for i in range(nc, nc + nx)]
    loops, inner = nest("        ")
    lines += loops + [f"{inner}x{i} = b{i}[{where}]" for i in range(len(inputs))]
    for j, op in enumerate(ops):
        refs = [ref(operand, _operand_dtype(op, ops, inputs)) for operand in op[1]]
        lines.append(f"{inner}t{j} = {_expression(op, refs)}")
    for y in range(nc, len(outputs)):
        lines.append(f"{inner}out{y}[{', '.join(['k'] + index)}] = {ref(outputs[y], dtypes[y])}")
    lines += [f"{inner}b{c}[{where}] = {ref(outputs[c], dtypes[c])}" for c in range(nc)]
    loops, inner = nest("    ")
    lines += loops + [f"{inner}out{c}[{where}] = b{c}[{where}]" for c in range(nc)]
    return "\n".join(lines) + "\n"


def entry_point(program: ScanProgram):
    """The compiled kernel's entry for `program`'s operand types, called without numba's
    dispatch (the runner checks the operands itself)."""
    from numba import types

    kernel = fused_kernels.compiled_kernel(program.structure(), scan_kernel_source, KIND)
    nc, nx, ndim = program.n_carry, program.n_xs, len(program.shape)
    operands = tuple(_array_type(dtype, len(shape) + (nc <= i < nc + nx), "A")
                     for i, (dtype, shape) in enumerate(program.inputs))
    results = tuple(_array_type(dtype, ndim + (j >= nc), "C")
                    for j, dtype in enumerate(program.dtypes))
    with fused_kernels._lock:
        entry = kernel.compile((types.int64,) + operands + results)
    return entry


def make_scan_runner(program: ScanProgram):
    """A function `run(length, *operands) -> tuple of outputs` for `program`: its first calls
    (see the module doc) run the unfused loop; later ones check the operands (converting the
    carries and constants as the elementwise runners do), allocate the outputs and call the
    kernel, compiled (or loaded from the disk cache) on that first call."""
    nc, nx = program.n_carry, program.n_xs
    env = {"ndarray": np.ndarray, "empty": np.empty, "conform": _conform, "hot": False,
           "shape": tuple(program.shape)}
    args = [f"a{i}" for i in range(len(program.inputs))]
    every = ", ".join(["length"] + args)
    lines = [f"def run({every}):", "    if not hot:", f"        return warm({every})",
             "    steps = int(length)", "    if steps < 0:", f"        return unfused({every})"]
    for i, (dtype, shape) in enumerate(program.inputs):
        env[f"dtype_{i}"], env[f"shape_{i}"] = np.dtype(dtype), tuple(shape)
        if nc <= i < nc + nx:
            lines += [(f"    if a{i}.__class__ is not ndarray or a{i}.dtype is not dtype_{i} or "
                       f"a{i}.ndim != {len(shape) + 1} or a{i}.shape[1:] != shape_{i} or "
                       f"a{i}.shape[0] < steps:"),
                      f"        return unfused({every})"]
        else:
            lines += [(f"    if a{i}.__class__ is not ndarray or a{i}.dtype is not dtype_{i} or "
                       f"a{i}.shape != shape_{i}:"),
                      f"        a{i} = conform(a{i}, dtype_{i}, shape_{i})"]
    outs = []
    for j, dtype in enumerate(program.dtypes):
        env[f"out_dtype_{j}"] = np.dtype(dtype)
        size = "shape" if j < nc else "(steps,) + shape"
        lines.append(f"    o{j} = empty({size}, out_dtype_{j})")
        outs.append(f"o{j}")
    lines += [f"    entry(steps, {', '.join(args + outs)})", f"    return ({', '.join(outs)},)"]
    lines += _unfused_lines(program, env)

    def first_call(*operands):
        with fused_kernels._lock:
            if env["entry"] is first_call:
                env["entry"] = entry_point(program)
        return env["entry"](*operands)

    calls = trips = 0

    def warm(length, *operands):
        nonlocal calls, trips
        calls += 1  # (threads may race here: then it compiles a call or two later)
        if calls > fused_kernels.COMPILE_AFTER or trips > COMPILE_AFTER_TRIPS:
            env["hot"] = True
            return run(length, *operands)
        trips += max(int(length), 0)
        return env["unfused"](length, *operands)

    env["entry"], env["warm"] = first_call, warm
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<cellgraph:fused-scan-runner>", "exec"), env)  # noqa: S102
    run = env["run"]
    run.program = program
    return run


def _unfused_lines(program: ScanProgram, env: dict) -> list[str]:
    """Source of `unfused(length, *operands)`: the scan as its generated loop runs it (one NumPy
    kernel call per node and trip, numbers as the graph held them)."""
    from .backend import get_backend

    backend = get_backend("numpy")
    nc, nx = program.n_carry, program.n_xs
    args = [f"a{i}" for i in range(len(program.inputs))]
    env["k_fill"] = backend.kernel("fill")
    lines = ["", f"def unfused({', '.join(['length'] + args)}):", "    steps = int(length)"]
    lines += [f"    x{i} = a{i}" for i in range(len(args)) if not nc <= i < nc + nx]
    for y in range(nc, len(program.outputs)):
        env[f"fill_dtype_{y}"] = FUSED_DTYPES[program.dtypes[y]]
        lines.append(f"    y{y} = k_fill(dtype=fill_dtype_{y}, shape=(steps,) + shape, value=0)")
    order = "range(steps - 1, -1, -1)" if program.reverse else "range(steps)"
    lines.append(f"    for k in {order}:")
    lines += [f"        x{i} = a{i}[k]" for i in range(nc, nc + nx)]

    def ref(operand, name: str) -> str:
        kind, value = operand
        if kind in ("in", "t"):
            return f"{'x' if kind == 'in' else 't'}{value}"
        if type(value) is float and not math.isfinite(value):
            env[name] = value
            return name
        return repr(value)

    for j, (name, operands, _) in enumerate(program.ops):
        refs = [ref(o, f"number_{j}_{n}") for n, o in enumerate(operands)]
        lines.append("        " + kernel_call_line(j, name, refs, env, backend))
    outputs = [ref(o, f"result_{n}") for n, o in enumerate(program.outputs)]
    lines += [f"        y{y}[k] = {outputs[y]}" for y in range(nc, len(outputs))]
    lines.append(f"        {', '.join(f'x{c}' for c in range(nc))}, = {', '.join(outputs[:nc])},")
    results = [f"x{c}" for c in range(nc)] + [f"y{y}" for y in range(nc, len(outputs))]
    lines.append(f"    return ({', '.join(results)},)")
    return lines
