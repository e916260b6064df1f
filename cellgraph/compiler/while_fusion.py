"""While fusion: a Tensor `while` loop whose trips are elementwise, counted by integer scalars,
becomes one `fused_while` node, which a backend with a loop compiler runs as one kernel for all
its trips, the per-trip stacks (a gradient's tape) written by the kernel too
(runtime/fused_while.py: the numpy backend through numba, when it is installed).

    %1, %2, %3, %4, %5 = while_loop(%x, 0, %n, %w) {cond_graph=@cond, body_graph=@record, ...}
      ->
    %1, %2, %3, %4, %5 = fused_while(%x, 0, %n, %w) {program=WhileProgram(...), run=...}

The forward half of a gradient through `while i < n: x = f(x)` is such a loop when f is
elementwise. What the kernel computes: the condition and the counters (integer scalars: `i`,
`n`, `i + 1`, a comparison), and on arrays of one shape S, the carried arrays, the constants
broadcast to S and each trip's nodes: those of compiler/fusion.FUSIBLE, and the transcendental
functions of UFUNC_CALLS, which the kernel computes by calling NumPy's own loop for the dtype
(runtime/ufunc_loops.py), so that every value has NumPy's bits. An integer carry's final value
must be unused (the kernel counts with int64 where the loop's first trip adds Python ints).

A `WhileProgram` holds numbers and names of these tables only, never a user's string. The pass
is pure (it works on a copy).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cellgraph.primitives.core import Primitive

from . import codegen
from .fusion import FUSED_DTYPES, _broadcasts_to, _concrete, _number, fusible, runner_call_code
from .ir import Apply, Graph, Var, all_graphs, copy_graph

# primitive name -> the NumPy ufunc its numpy kernel is: computed by calling NumPy's loop
UFUNC_CALLS = {
    "sin": "sin", "cos": "cos", "tan": "tan", "exp": "exp", "log": "log", "tanh": "tanh",
    "sinh": "sinh", "cosh": "cosh", "expm1": "expm1", "log1p": "log1p", "asin": "arcsin",
    "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
    "atanh": "arctanh", "log2": "log2", "log10": "log10", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc",
}
COUNTER_OPS = ("add", "sub", "mul")  # integer scalar arithmetic: a counter's `i + 1`
COMPARISONS = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")
_PARAMS = {"cond_graph", "body_graph", "n_carried"}


@dataclass(frozen=True)
class WhileProgram:
    """What one fused while loop computes. `inputs`: per loop input (the carries, then the
    constants) ("int", dtype name) for an integer scalar, or (dtype name, shape) for an array
    (a carry of shape `shape`, a constant broadcast to it); `cond`: integer operations
    (name, operands) ending in the comparison that continues the loop; `ops`: each trip's
    operations, in order: integer ones (name, operands, "int") and array ones
    (name, operands, dtype name); `outputs`: one operand per body result (the new carries,
    then the per-trip values stacked). An operand is ("in", k), ("t", j) (the result of op j;
    ("q", j) of cond op j) or ("c", number)."""

    inputs: tuple
    n_carried: int
    cond: tuple
    ops: tuple
    outputs: tuple
    shape: tuple

    def structure(self) -> tuple:
        """The program without its sizes: what the compiled kernel depends on."""
        ndim = len(self.shape)
        inputs = []
        for dtype, shape in self.inputs:
            if dtype == "int":
                inputs.append(("int",))
                continue
            lead = ndim - len(shape)
            broadcast = tuple(lead + k for k, n in enumerate(shape)
                              if n == 1 and self.shape[lead + k] != 1)
            inputs.append((dtype, len(shape), broadcast))
        return (tuple(inputs), self.n_carried, self.cond, self.ops, self.outputs, ndim)

    def ufunc_calls(self) -> tuple:
        """(NumPy ufunc name, dtype name) of each op computed by NumPy's loop, in op order."""
        return tuple((UFUNC_CALLS[name], dtype) for name, _, dtype in self.ops
                     if name in UFUNC_CALLS)

    def called_inputs(self) -> frozenset:
        """The inputs an op computed by NumPy's loop reads directly."""
        return frozenset(operands[0][1] for name, operands, _ in self.ops
                         if name in UFUNC_CALLS and operands[0][0] == "in")

    def dtype_of(self, operand) -> str:
        """The dtype name of an array operand of the body."""
        kind, ref = operand
        return self.inputs[ref][0] if kind == "in" else self.ops[ref][2]

    def __repr__(self) -> str:
        names = " ".join(op[0] for op in self.ops)
        return f"WhileProgram<{self.n_carried} carried, {names}>"


def _fused_while_type(*args, program: WhileProgram, run=None, avals=()):
    return avals


# structural: generated as a call of its runner; made after AD and the optimiser
fused_while = Primitive("fused_while", _fused_while_type, multiple_results=True,
                        nondifferentiable=True, structural=True)

codegen.CODEGEN_RULES["fused_while"] = runner_call_code


def fuse_whiles(graph: Graph, make_runner: Callable[[WhileProgram, Apply], Callable | None]
                ) -> tuple[Graph, int]:
    """A copy of `graph` (and of the graphs nested in it) whose elementwise while loops are
    `fused_while` nodes with `run=make_runner(program, node)` (a runner may be None: the node
    stays); and how many there are."""
    graph = copy_graph(graph)
    count = 0
    for g in all_graphs(graph):
        used = {id(a) for node in g.nodes for a in node.inputs} | {id(o) for o in g.outputs}
        nodes = []
        for node in g.nodes:
            program = while_program(node, used) if node.callee.name == "while_loop" else None
            run = make_runner(program, node) if program is not None else None
            if run is None:
                nodes.append(node)
                continue
            params = {"program": program, "run": run,
                      "avals": tuple(o.aval for o in node.outputs)}
            nodes.append(Apply(fused_while, list(node.inputs), params, list(node.outputs),
                               node.loc))
            count += 1
        g.nodes = nodes
    return graph, count


def _int_scalar(aval) -> bool:
    return tuple(aval.shape) == () and aval.dtype.np.kind == "i"


def while_program(node: Apply, used: set) -> WhileProgram | None:
    """The WhileProgram of a while_loop node, or None when it is not of that form; `used`
    holds the ids of the values read after it (an integer carry's result must not be)."""
    if set(node.params) != _PARAMS:
        return None
    m, cond, body = node.params["n_carried"], node.params["cond_graph"], node.params["body_graph"]
    n = len(node.inputs)
    if len(cond.params) != n or len(body.params) != n or len(body.outputs) < m:
        return None
    arrays = [p.aval for p in body.params[:m] if not _int_scalar(p.aval)]
    if not arrays or not _concrete(arrays[0].shape):
        return None
    shape = tuple(arrays[0].shape)
    inputs = []
    for k, p in enumerate(body.params):
        aval = p.aval
        if _int_scalar(aval) and (k >= m or aval.dtype.np_name == "int64"):
            if k < m and id(node.outputs[k]) in used:
                return None
            inputs.append(("int", aval.dtype.np_name))
        elif aval.dtype.np_name in FUSED_DTYPES and _concrete(aval.shape) and (
                tuple(aval.shape) == shape if k < m else _broadcasts_to(tuple(aval.shape), shape)):
            inputs.append((aval.dtype.np_name, tuple(aval.shape)))
        else:
            return None
    cond_ops = _trip_ops(cond, inputs, shape, "q", counters_only=True)
    ops = _trip_ops(body, inputs, shape, "t", counters_only=False)
    if cond_ops is None or ops is None:
        return None
    cond_ops, cond_index = cond_ops
    ops, index = ops
    result = cond_index.get(id(cond.outputs[0])) if len(cond.outputs) == 1 else None
    if result is None or result[0] != "q" or cond_ops[result[1]][0] not in COMPARISONS:
        return None
    outputs = _outputs(body, index, inputs, ops, m, shape)
    if outputs is None:
        return None
    cond_ops = tuple((name, operands) for name, operands, _ in cond_ops)
    return WhileProgram(tuple(inputs), m, cond_ops + (("result", (result,)),), ops, outputs,
                        shape)


def _trip_ops(graph: Graph, inputs: list, shape: tuple, tag: str, counters_only: bool):
    """(ops, index) of a condition or body graph: its nodes as program operations, and an
    operand per value; None when a node is not of the program's form."""
    index = {id(p): ("in", k) for k, p in enumerate(graph.params)}
    ops = []
    for node in graph.nodes:
        operands = []
        for a in node.inputs:
            if _number(a):
                operands.append(("c", a.value))
            elif isinstance(a, Var) and id(a) in index:
                operands.append(index[id(a)])
            else:
                return None
        kinds = [_kind(o, inputs, ops) for o in operands]
        name, out = node.callee.name, node.outputs[0].aval if len(node.outputs) == 1 else None
        if out is None:
            return None
        if all(k in ("int", "number") for k in kinds) and "int" in kinds:
            entry = _counter_op(node, name, out, comparisons=counters_only)
        elif counters_only or not all(k in ("array", "number") for k in kinds) or not _array_op(
                node, name, out, shape, kinds):
            entry = None
        else:
            if name == "cast":
                name = f"cast_{node.params['dtype'].np_name}"
            entry = (name, out.dtype.np_name)
        if entry is None:
            return None
        index[id(node.outputs[0])] = (tag, len(ops))
        ops.append((entry[0], tuple(operands), entry[1]))
    return tuple(ops), index


def _kind(operand, inputs: list, ops: list) -> str:
    kind, ref = operand
    if kind == "c":
        return "number"
    dtype = inputs[ref][0] if kind == "in" else ops[ref][2]
    return {"int": "int", "compared": "compared"}.get(dtype, "array")


def _counter_op(node: Apply, name: str, out, comparisons: bool) -> tuple | None:
    if name == "set_dims" and _int_scalar(out):
        return ("set_dims", "int")
    if name in COUNTER_OPS and not node.params and _int_scalar(out):
        return (name, "int")
    if comparisons and name in COMPARISONS and not node.params and tuple(out.shape) == ():
        return (name, "compared")
    return None


def _array_op(node: Apply, name: str, out, shape: tuple, kinds: list) -> bool:
    if tuple(out.shape) != shape:
        return False
    if name in UFUNC_CALLS:
        a = node.inputs[0]
        return (len(node.inputs) == 1 and not node.params and kinds == ["array"]
                and out.dtype.np_name in ("float32", "float64")
                and a.aval.dtype == out.dtype and tuple(a.aval.shape) == shape)
    return fusible(node)


def _outputs(body: Graph, index: dict, inputs: list, ops: tuple, m: int, shape: tuple):
    outputs = []
    for k, out in enumerate(body.outputs):
        ref = index.get(id(out))
        if ref is None:
            return None
        kind = _kind(ref, inputs, list(ops))
        if k < m and inputs[k][0] == "int":
            ok = kind == "int"
        else:
            dtype = inputs[ref[1]][0] if ref[0] == "in" else ops[ref[1]][2]
            ok = (kind == "array" and tuple(out.aval.shape) == shape and dtype in FUSED_DTYPES
                  and (k >= m or dtype == inputs[k][0]))
        if not ok:
            return None
        outputs.append(ref)
    return tuple(outputs)
