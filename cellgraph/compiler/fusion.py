"""Elementwise fusion: runs of elementwise nodes of one shape become one `fused_elementwise`
node, which a backend with a loop compiler runs as one kernel (runtime/fused_kernels.py: the
numpy backend through numba, when it is installed).

    %3 = mul(%x, %w)  : f32[4,8]
    %4 = mul(%3, %3)  : f32[4,8]
    %5 = sub(1, %4)  : f32[4,8]
      ->
    %3, %5 = fused_elementwise(%x, %w) {program=FusedProgram(...), run=...}

A `FusedProgram` says what the kernel computes in terms of its inputs and nothing else: the
operations (primitive names from FUSIBLE), their operands (an input, an earlier result or a
number), each result's dtype, which results leave the kernel, and the shapes. It holds only
numbers and names of this module's table, never a user's string, so that source generated from
it is the generator's own. Only operations whose results a compiled loop gives bit for bit as
NumPy's kernels do are fused: IEEE arithmetic (+ - * /, sqrt: correctly rounded everywhere),
comparisons, selections, min/max and float casts. Transcendental functions (exp, tanh, ...)
are not: NumPy evaluates them with its own vectorised code, whose last bit a libm call need not
match, and so they stay NumPy calls between fused runs.

The pass is pure (it works on a copy) and runs after `optimize`, on the graph codegen is given.
A fusible node joins the open run of its shape (one run is open per shape); a run stays open
across nodes that do not read its results, which run first, and closes, emitted where it
stands, before the first node that reads one (or at the end). Every value a run reads is then
defined before it, and every value it makes before its first reader.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import Primitive, TensorType

from . import codegen
from .ir import Apply, Constant, Graph, Var, all_graphs, copy_graph

FLOATS = ("float32", "float64")
BOOL = "bool"

# primitive name -> (number of operands, kind): "arith" operands and result share a float
# dtype; "compare" float operands, bool result; "logical" bool operands and result (the bitwise ones: on bools only); "select"
# (bool, float, float) -> float; "cast" float or bool -> float or bool
FUSIBLE: dict[str, tuple[int, str]] = {
    "add": (2, "arith"), "sub": (2, "arith"), "mul": (2, "arith"), "div": (2, "arith"),
    "maximum": (2, "arith"), "minimum": (2, "arith"), "relu_grad": (2, "arith"),
    "neg": (1, "arith"), "square": (1, "arith"), "sqrt": (1, "arith"), "abs": (1, "arith"),
    "reciprocal": (1, "arith"), "rsqrt": (1, "arith"), "relu": (1, "arith"),
    "equal": (2, "compare"), "not_equal": (2, "compare"), "less": (2, "compare"),
    "less_equal": (2, "compare"), "greater": (2, "compare"), "greater_equal": (2, "compare"),
    "logical_and": (2, "logical"), "logical_or": (2, "logical"), "logical_not": (1, "logical"),
    "bitwise_and": (2, "logical"), "bitwise_or": (2, "logical"), "bitwise_xor": (2, "logical"),
    "select": (3, "select"), "cast": (1, "cast"),
}

# the fewest nodes worth a kernel call: a fused call costs about two NumPy ufunc calls
MIN_NODES = 3


@dataclass(frozen=True)
class FusedProgram:
    """What one fused kernel computes. `inputs`: (dtype name, shape) per input; `ops`: (primitive
    name, operands, result dtype name) in order, an operand being ("in", i), ("t", j) (the
    result of op j) or ("c", number); `outputs`: the ops whose results leave the kernel;
    `shape`: every op's result shape (inputs broadcast to it)."""

    inputs: tuple
    ops: tuple
    outputs: tuple
    shape: tuple

    def structure(self) -> tuple:
        """The program with its sizes left out (each input's rank and the axes it broadcasts
        along instead of its shape; the result rank instead of the shape): what the compiled
        kernel depends on, so that one kernel serves every size."""
        ndim = len(self.shape)
        inputs = []
        for dtype, shape in self.inputs:
            lead = ndim - len(shape)
            broadcast = tuple(lead + k for k, n in enumerate(shape) if n == 1 and
                              self.shape[lead + k] != 1)
            inputs.append((dtype, len(shape), broadcast))
        return (tuple(inputs), self.ops, self.outputs, ndim)

    def __repr__(self) -> str:
        names = " ".join(op[0] for op in self.ops)
        return f"FusedProgram<{len(self.inputs)} in, {names}, {len(self.outputs)} out>"


# the dtypes fused values have, by NumPy name
FUSED_DTYPES = {"float32": dt.float32, "float64": dt.float64, "bool": dt.bool_}


def _fused_type(*avals, program: FusedProgram, run=None):
    return tuple(TensorType(program.shape, FUSED_DTYPES[program.ops[j][2]]) for j in program.outputs)


# structural: generated as code (a call of its runner), no kernel of its own; made after AD
# and the optimiser, so it is never differentiated, batched or rewritten
fused_elementwise = Primitive("fused_elementwise", _fused_type, multiple_results=True,
                              nondifferentiable=True, structural=True)


def runner_call_code(ctx, node, args, outs):
    """The line of a fused node: a call of its compiled runner (bound as a value)."""
    run = ctx.literal(node.params["run"])
    return [f"{', '.join(outs)}, = {run}({', '.join(args)})"]


codegen.CODEGEN_RULES["fused_elementwise"] = runner_call_code


def _concrete(shape) -> bool:
    return all(isinstance(n, int) for n in shape)


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    lead = len(target) - len(shape)
    return all(n == target[lead + k] or n == 1 for k, n in enumerate(shape))


def _number(atom) -> bool:
    """A Python number the kernel can write as a literal (an int a float holds exactly)."""
    if not isinstance(atom, Constant):
        return False
    value = atom.value
    return type(value) in (bool, float) or type(value) is int and abs(value) <= 2 ** 53


def _operand(atom) -> bool:
    """A value the kernel can take as an input: a graph value or an array constant."""
    return isinstance(atom, Var) or isinstance(atom, Constant) and isinstance(
        atom.value, np.ndarray)


def fusible(node: Apply) -> bool:
    """Whether `node` may join a fused run (of its own result's shape)."""
    entry = FUSIBLE.get(node.callee.name)
    if entry is None or len(node.outputs) != 1 or len(node.inputs) != entry[0]:
        return False
    out = node.outputs[0].aval
    if not _concrete(out.shape):
        return False
    kind = entry[1]
    if node.callee.name == "cast":
        params_ok = set(node.params) == {"dtype"}
    else:
        params_ok = not node.params
    if not params_ok:
        return False
    operands = [a for a in node.inputs if not _number(a)]
    if not operands or not all(_operand(a) for a in operands):
        return False
    for a in operands:
        if not (_concrete(a.aval.shape) and _broadcasts_to(a.aval.shape, out.shape)):
            return False
    dtypes = [a.aval.dtype.np_name for a in operands]
    result = out.dtype.np_name
    if kind == "arith":
        return result in FLOATS and all(d == result for d in dtypes)
    if kind == "compare":
        return result == BOOL and dtypes[0] in FLOATS and all(d == dtypes[0] for d in dtypes)
    if kind == "logical":
        return result == BOOL and all(d == BOOL for d in dtypes)
    if kind == "select":
        cond, *values = node.inputs
        return (result in FLOATS and not _number(cond) and cond.aval.dtype.np_name == BOOL
                and all(_number(v) or v.aval.dtype.np_name == result for v in values))
    # cast
    return result in FLOATS + (BOOL,) and dtypes[0] in FLOATS + (BOOL,)


def fuse_elementwise(graph: Graph, make_runner: Callable[[FusedProgram], Callable],
                     min_nodes: int = MIN_NODES) -> tuple[Graph, int]:
    """A copy of `graph` (and of the graphs nested in it) whose runs of at least `min_nodes`
    fusible nodes are `fused_elementwise` nodes, each with `run=make_runner(program)`; and how
    many runs were fused. `graph` itself is left as it is."""
    graph = copy_graph(graph)
    count = 0
    for g in all_graphs(graph):
        count += _fuse_graph(g, make_runner, min_nodes)
    return graph, count


def _fuse_graph(graph: Graph, make_runner, min_nodes: int) -> int:
    users: dict[int, list] = {}
    for node in graph.nodes:
        for a in node.inputs:
            if isinstance(a, Var):
                users.setdefault(id(a), []).append(node)
    outputs = {id(o) for o in graph.outputs}
    nodes: list = []
    runs: dict[tuple, list[Apply]] = {}  # shape -> the open run of that shape
    made: dict[int, tuple] = {}  # id(value an open run computes) -> that run's shape
    count = 0

    def close(shape):
        nonlocal count
        run = runs.pop(shape)
        for node in run:
            del made[id(node.outputs[0])]
        fused = _fused_node(run, users, outputs, make_runner) if len(run) >= min_nodes else None
        if fused is not None:
            nodes.append(fused)
            count += 1
        else:
            nodes.extend(run)

    for node in graph.nodes:
        read = {made[id(a)] for a in node.inputs if id(a) in made}
        shape = tuple(node.outputs[0].aval.shape) if fusible(node) else None
        for other in read - {shape}:  # a run whose values this node reads runs before it
            close(other)
        if shape is None:
            nodes.append(node)
            continue
        runs.setdefault(shape, []).append(node)
        made[id(node.outputs[0])] = shape
    for shape in list(runs):
        close(shape)
    graph.nodes = nodes
    return count


def _fused_node(run: list[Apply], users: dict, outputs: set, make_runner) -> Apply | None:
    members = {id(n) for n in run}
    index: dict[int, int] = {}  # id(value computed in the run) -> its op
    inputs: list = []  # the outside values the kernel reads, once each
    input_index: dict[int, int] = {}
    ops, results = [], []
    for j, node in enumerate(run):
        operands = []
        for a in node.inputs:
            if _number(a):
                operands.append(("c", a.value))
            elif id(a) in index:
                operands.append(("t", index[id(a)]))
            else:
                if id(a) not in input_index:
                    input_index[id(a)] = len(inputs)
                    inputs.append(a)
                operands.append(("in", input_index[id(a)]))
        out = node.outputs[0]
        name = node.callee.name
        if name == "cast":
            name = f"cast_{node.params['dtype'].np_name}"
        ops.append((name, tuple(operands), out.aval.dtype.np_name))
        index[id(out)] = j
        if id(out) in outputs or any(id(u) not in members for u in users.get(id(out), ())):
            results.append(j)
    if not results:  # nothing reads the run (dead code the optimiser left): not fused
        return None
    program = FusedProgram(
        tuple((a.aval.dtype.np_name, tuple(a.aval.shape)) for a in inputs), tuple(ops),
        tuple(results), tuple(run[0].outputs[0].aval.shape))
    return Apply(fused_elementwise, inputs, {"program": program, "run": make_runner(program)},
                 [run[j].outputs[0] for j in results], run[-1].loc)
