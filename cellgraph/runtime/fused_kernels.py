"""Fused elementwise kernels compiled by numba: the numpy backend's `lower` step.

When numba is installed (the `numba` extra), each graph the numpy backend binds first goes
through compiler/fusion.py, which turns runs of elementwise nodes into `fused_elementwise`
nodes; each of those runs one loop compiled by numba instead of one NumPy call per node, so a
run of small tensors costs one call instead of many, and a run of large ones one pass over
memory instead of one per node. Without numba (or with `ENABLED` false) graphs are bound as
they are.

A kernel is generated from the program's structure (compiler/fusion.FusedProgram.structure:
operations, dtypes, ranks and broadcast axes; no sizes, no user strings), written as a Python
file into the kernel cache folder through safe_io, named by a hash of that structure, and
compiled by numba with `cache=True`, so that numba keeps the machine code beside it and later
processes load it instead of compiling again. The folder is `$CELLGRAPH_CACHE_DIR/fused`, else
`$XDG_CACHE_HOME/cellgraph/fused`, else `~/.cache/cellgraph/fused`; where it cannot be written,
kernels compile in memory for this process alone.

Threads: kernels are compiled single-threaded (no `parallel=True`, so no numba thread pool
exists at all) with `nogil=True`, so calls from several threads at once run side by side
without shared state; the first call of a kernel compiles it under a lock.

Numbers: the kernels compute with numba's default IEEE semantics (no fastmath, so no FMA
contraction and no reassociation) and the NumPy error model (x / 0 is inf, not an exception),
in the dtypes of the graph: numbers in the program are written in their operation's dtype, as
NumPy converts a Python scalar operand. fusion.py fuses only operations that then give NumPy's
results bit for bit.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import math
import os
import sys
import threading
import time

import numpy as np

from cellgraph import safe_io
from cellgraph.compiler import codegen
from cellgraph.compiler.fusion import FUSED_DTYPES, FusedProgram, fuse_elementwise
from cellgraph.compiler.loop_fusion import fuse_scans
from cellgraph.compiler.while_fusion import fuse_whiles

ENABLED = True  # False: bind graphs unfused even where numba is installed
# calls of a fused node that run its nodes unfused before its kernel is compiled: a graph run a
# few times (a script, a test) never waits for numba, which takes a few tenths of a second per
# kernel (a few hundredths from the disk cache, after numba's own import)
COMPILE_AFTER = 50
KERNEL_VERSION = 1  # bumped when the generated source changes meaning: part of the file name

_lock = threading.RLock()
# elements from which a runner tests whether its operands are row-major contiguous, and then
# calls the kernel compiled for that layout, whose inner loop the compiler vectorises (the
# test costs about as much as a few small elements take to compute)
CONTIGUOUS_SIZE = 4096
_kernels: dict = {}  # (kind, structure) -> compiled numba dispatcher (this process)
# total seconds spent compiling (or loading from the disk cache) kernels in this process, and
# how many: what the bench reports as compile time
STATS = {"compile_s": 0.0, "kernels": 0}


@functools.cache
def available() -> bool:
    """Whether numba can be imported (without importing it: that costs a third of a second,
    paid on the first kernel's compile instead)."""
    return importlib.util.find_spec("numba") is not None


def lower(compiled, make_scan_runner=None, make_while_runner=None):
    """`compiled` with its graph's elementwise runs fused, and first its elementwise while
    loops and scans when `make_while_runner` and `make_scan_runner` are given
    (runtime/fused_while.py, runtime/fused_loops.py) (a Compiled with the new graph and
    module, the fused module's source as stage "fused"), or `compiled` itself when numba is
    missing, fusion is off or nothing fuses."""
    if not ENABLED or not available():
        return compiled
    graph, loops = compiled.graph, 0
    if make_while_runner is not None:
        graph, loops = fuse_whiles(graph, make_while_runner)
    if make_scan_runner is not None:
        graph, scans = fuse_scans(graph, make_scan_runner)
        loops += scans
    graph, count = fuse_elementwise(graph, make_runner)
    if not count + loops:
        return compiled
    module = codegen.generate(graph)
    stages = {**compiled.stages, "fused": module.source}
    return dataclasses.replace(compiled, graph=graph, module=module, stages=stages)


# ----- the kernel source ----------------------------------------------------------------------

_NP_TYPE = {"float32": "np.float32", "float64": "np.float64", "bool": "np.bool_"}
_BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/", "equal": "==", "not_equal": "!=",
           "less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
           "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}


def _number(value, dtype: str) -> str:
    """A number as a literal of `dtype` (as NumPy converts a Python scalar operand)."""
    if dtype == "bool":
        return repr(bool(value))
    value = float(value)
    if math.isnan(value):
        text = "math.nan"
    elif math.isinf(value):
        text = "math.inf" if value > 0 else "-math.inf"
    else:
        text = repr(value)
    return f"{_NP_TYPE[dtype]}({text})"


def _operand_dtype(op, ops, inputs) -> str:
    """The dtype a number among `op`'s operands is written in: that of its other operands
    (comparisons), else its result's."""
    name, operands, result = op
    if name in _BINARY and result == "bool":
        for kind, ref in operands:
            if kind == "in":
                return inputs[ref][0]
            if kind == "t":
                return ops[ref][2]
    return result


def _expression(op, refs: list[str]) -> str:
    name = op[0]
    a = refs[0]
    b = refs[1] if len(refs) > 1 else None
    zero, one = f"{_NP_TYPE[op[2]]}(0)", f"{_NP_TYPE[op[2]]}(1)"
    if name in _BINARY:
        return f"({a} {_BINARY[name]} {b})"
    if name == "maximum":  # NumPy: NaN wins, and of equal values the second
        return f"({a} if {a} > {b} or {a} != {a} else {b})"
    if name == "minimum":
        return f"({a} if {a} < {b} or {a} != {a} else {b})"
    if name == "relu":
        return f"({a} if {a} > {zero} or {a} != {a} else {zero})"
    if name == "relu_grad":
        return f"({b} if {a} > {zero} else {zero})"
    if name == "select":
        return f"({b} if {a} else {refs[2]})"
    if name == "neg":
        return f"(-{a})"
    if name == "square":
        return f"({a} * {a})"
    if name == "sqrt":
        return f"np.sqrt({a})"
    if name == "abs":
        return f"abs({a})"
    if name == "reciprocal":
        return f"({one} / {a})"
    if name == "rsqrt":
        return f"({one} / np.sqrt({a}))"
    if name == "logical_and":
        return f"({a} and {b})"
    if name == "logical_or":
        return f"({a} or {b})"
    if name == "logical_not":
        return f"(not {a})"
    if name == "cast_bool":
        return f"({a} != 0)"
    if name.startswith("cast_"):
        return f"{_NP_TYPE[name[len('cast_'):]]}({a})"
    raise AssertionError(f"no kernel code for fused operation {name}")


def loop_nest(indent: str, ndim: int, extent: str) -> tuple[list[str], str]:
    """Kernel source lines opening one loop per axis of the array `extent` (indices i0, i1,
    ...), and the indentation inside them."""
    loops = []
    for k in range(ndim):
        loops.append(f"{indent}for i{k} in range({extent}.shape[{k}]):")
        indent += "    "
    return loops, indent


def kernel_source(structure: tuple, cache: bool) -> str:
    """The Python source of the kernel `kernel(in0, ..., out0, ...)` for a program structure:
    a loop nest over the outputs' shape, each input read once per element (at index 0 along
    the axes it broadcasts on), every operation a local, each output written."""
    inputs, ops, outputs, ndim = structure
    index = [f"i{k}" for k in range(ndim)]
    args = [f"in{i}" for i in range(len(inputs))] + [f"out{j}" for j in range(len(outputs))]
    lines = ["import math", "", "import numpy as np", "from numba import njit", "",
             "",
             f"@njit(cache={cache}, error_model='numpy', nogil=True, boundscheck=False)",
             f"def kernel({', '.join(args)}):"]
    indent = "    "
    for k in range(ndim):
        lines.append(f"{indent}for i{k} in range(out0.shape[{k}]):")
        indent += "    "
    for i, (_, rank, broadcast) in enumerate(inputs):
        lead = ndim - rank
        at = ["0" if lead + k in broadcast else index[lead + k] for k in range(rank)]
        lines.append(f"{indent}x{i} = in{i}[{', '.join(at) if at else '()'}]")
    for j, op in enumerate(ops):
        refs = []
        for kind, ref in op[1]:
            if kind == "in":
                refs.append(f"x{ref}")
            elif kind == "t":
                refs.append(f"t{ref}")
            else:
                refs.append(_number(ref, _operand_dtype(op, ops, inputs)))
        lines.append(f"{indent}t{j} = {_expression(op, refs)}")
    where = ", ".join(index) if index else "()"
    for n, j in enumerate(outputs):
        lines.append(f"{indent}out{n}[{where}] = t{j}")
    return "\n".join(lines) + "\n"


# ----- compiling and caching ------------------------------------------------------------------

def cache_dir() -> str:
    """The folder kernels are kept in (see the module doc)."""
    root = os.environ.get("CELLGRAPH_CACHE_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        root = os.path.join(base, "cellgraph")
    return os.path.join(root, "fused")


def structure_key(structure: tuple, kind: str = "elementwise") -> str:
    parts = (KERNEL_VERSION, sys.version_info[:2], np.__version__, structure)
    text = repr(parts if kind == "elementwise" else (kind,) + parts)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def compiled_kernel(structure: tuple, source=None, kind: str = "elementwise"):
    """The numba dispatcher of `structure`'s kernel, its source made by `source(structure,
    cache)` (kernel_source by default; `kind` names the generator, in the cache key): from this
    process's table, else from the disk cache's source file (numba loads its machine code when
    it is there), else generated and written there first."""
    key = (kind, structure)
    kernel = _kernels.get(key)
    if kernel is not None:
        return kernel
    with _lock:
        kernel = _kernels.get(key)
        if kernel is None:
            start = time.perf_counter()
            kernel = _load(structure, source or kernel_source, kind)
            STATS["compile_s"] += time.perf_counter() - start
            STATS["kernels"] += 1
            _kernels[key] = kernel
    return kernel


def _load(structure: tuple, source, kind: str):
    digest = structure_key(structure, kind)
    try:
        return _load_file(source(structure, cache=True), digest)
    except OSError:  # no writable cache folder: this process compiles it in memory
        namespace: dict = {}
        text = source(structure, cache=False)
        exec(compile(text, f"<cellgraph:fused:{digest}>", "exec"), namespace)  # noqa: S102
        return namespace["kernel"]


def _load_file(source: str, digest: str):
    directory = cache_dir()
    os.makedirs(directory, exist_ok=True)
    path = safe_io.contained(directory, f"k_{digest}.py")
    try:
        with open(path, encoding="utf-8") as f:
            present = f.read() == source
    except FileNotFoundError:
        present = False
    if not present:  # written once: a rewrite would change its time stamp, and numba's cache
        safe_io.write_text(path, source)  # index (keyed by it) would compile it again
    name = f"cellgraph_fused_k_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        # numba's disk cache finds the kernel's module by name when it loads the machine code
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module.kernel


def _array_type(dtype: str, ndim: int, layout: str):
    from numba import from_dtype, types

    return types.Array(from_dtype(np.dtype(dtype)), ndim, layout)


def entry_point(program: FusedProgram, layout: str):
    """The compiled kernel's entry for `program`'s operand types (arrays of `layout`: "A" any,
    "C" row-major contiguous, which lets the compiler vectorise the inner loop), called without
    numba's dispatch: the runner checks the operands itself."""
    structure = program.structure()
    kernel = compiled_kernel(structure)
    ndim = len(program.shape)
    signature = tuple(_array_type(dtype, len(shape), layout)
                      for dtype, shape in program.inputs) + \
        tuple(_array_type(program.ops[j][2], ndim, "C") for j in program.outputs)
    with _lock:
        start = time.perf_counter()
        entry = kernel.compile(signature)
        STATS["compile_s"] += time.perf_counter() - start
    return entry


def _conform(value, dtype, shape):
    """An operand as an array of the program's dtype and shape: a NumPy scalar (what NumPy
    gives for 0-d results), a Python number or an array of another dtype is converted, and a
    size-1 value broadcast."""
    array = np.asarray(value, dtype=dtype)
    return array if array.shape == shape else np.broadcast_to(array, shape)


def make_runner(program: FusedProgram):
    """A function `run(*inputs) -> tuple of outputs` for `program`. Its first COMPILE_AFTER
    calls run the program's nodes as the unfused graph would (the same NumPy kernels, the same
    operands), so a graph called a few times never pays for a compile; after that it checks
    each operand (an ndarray of the program's dtype and shape, else converted), allocates the
    outputs and calls the compiled kernel's entry point, compiling it (or loading it from the
    disk cache) on that first call."""
    env = {"ndarray": np.ndarray, "empty": np.empty, "conform": _conform, "hot": False}
    args = [f"a{i}" for i in range(len(program.inputs))]
    lines = [f"def run({', '.join(args)}):", "    if not hot:",
             f"        return warm({', '.join(args)})"]
    for i, (dtype, shape) in enumerate(program.inputs):
        env[f"dtype_{i}"], env[f"shape_{i}"] = np.dtype(dtype), tuple(shape)
        lines += [(f"    if a{i}.__class__ is not ndarray or a{i}.dtype is not dtype_{i} or "
                   f"a{i}.shape != shape_{i}:"),
                  f"        a{i} = conform(a{i}, dtype_{i}, shape_{i})"]
    env["shape"] = tuple(program.shape)
    outs = []
    for n, j in enumerate(program.outputs):
        env[f"out_dtype_{n}"] = np.dtype(program.ops[j][2])
        lines.append(f"    o{n} = empty(shape, out_dtype_{n})")
        outs.append(f"o{n}")
    call = ", ".join(args + outs)
    size = math.prod(program.shape)
    if size >= CONTIGUOUS_SIZE and args:  # large: worth a test for the vectorised loop
        contiguous = " and ".join(f"{a}.flags.c_contiguous" for a in args)
        lines += [f"    if {contiguous}:", f"        entry_c({call})", "    else:",
                  f"        entry({call})"]
    else:
        lines.append(f"    entry({call})")
    lines.append(f"    return ({', '.join(outs)},)")
    lines += _unfused_lines(program, env)

    def compiles(name: str, layout: str):
        def first_call(*operands):
            with _lock:
                if env[name] is first_call:
                    env[name] = entry_point(program, layout)
            return env[name](*operands)
        return first_call

    calls = 0

    def warm(*operands):
        nonlocal calls
        calls += 1  # (threads may race here: then it compiles a call or two later)
        if calls > COMPILE_AFTER:
            env["hot"] = True
            return run(*operands)
        return env["unfused"](*operands)

    env["entry"], env["entry_c"] = compiles("entry", "A"), compiles("entry_c", "C")
    env["warm"] = warm
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<cellgraph:fused-runner>", "exec"), env)  # noqa: S102 - generated
    run = env["run"]
    run.program = program  # what it computes, for whoever inspects the bound module
    return run


def _unfused_lines(program: FusedProgram, env: dict) -> list[str]:
    """Source of `unfused(*inputs)`: the program's nodes as the unfused graph runs them, one
    NumPy kernel call each, with the same operands (numbers as the graph held them)."""
    from .backend import get_backend

    backend = get_backend("numpy")
    args = [f"a{i}" for i in range(len(program.inputs))]
    lines = ["", f"def unfused({', '.join(args)}):"]
    for j, (name, operands, _) in enumerate(program.ops):
        refs = []
        for kind, ref in operands:
            if kind == "in":
                refs.append(f"a{ref}")
            elif kind == "t":
                refs.append(f"t{ref}")
            elif type(ref) is float and not math.isfinite(ref):
                env[f"number_{j}_{len(refs)}"] = ref
                refs.append(f"number_{j}_{len(refs)}")
            else:
                refs.append(repr(ref))
        lines.append("    " + kernel_call_line(j, name, refs, env, backend))
    lines.append(f"    return ({''.join(f't{j}, ' for j in program.outputs)})")
    return lines


def kernel_call_line(j: int, name: str, refs: list, env: dict, backend) -> str:
    """The unfused line of a fused program's operation `j`: its backend kernel (bound in `env`)
    called on `refs`, a cast given its dtype."""
    if name.startswith("cast_"):
        env["k_cast"] = backend.kernel("cast")
        env[f"cast_dtype_{j}"] = FUSED_DTYPES[name[len("cast_"):]]
        return f"t{j} = k_cast({', '.join(refs)}, dtype=cast_dtype_{j})"
    env[f"k_{j}"] = backend.kernel(name)
    return f"t{j} = k_{j}({', '.join(refs)})"
