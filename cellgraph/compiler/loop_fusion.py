"""Loop fusion: a `scan` whose body is elementwise through and through becomes one `fused_scan`
node, which a backend with a loop compiler runs as one kernel for all its trips
(runtime/fused_loops.py: the numpy backend through numba, when it is installed).

    %6, %7 = scan(%n, %dx, %dw, %s, %c, %w) {body_graph=@bprop, n_carry=2, n_xs=2, reverse=True}
      ->
    %6, %7 = fused_scan(%n, %dx, %dw, %s, %c, %w) {program=ScanProgram(...), run=...}

The reverse half of a gradient through a Tensor `while` is such a scan when the body's
derivative is arithmetic: the walk back over the tape then costs one call instead of several
kernel calls per trip. Every node of the body must be fusible (compiler/fusion.FUSIBLE: the
operations a compiled loop computes as NumPy does, bit for bit) and of one shape S, the shape
of every carry and per-step output; the slices of the stacked inputs and the constants
broadcast to S. Each element of a trip's results then depends on the same element of its
inputs alone, so the kernel runs a trip as one loop nest over S, which the compiler may
vectorise, and all the trips in one call.

A `ScanProgram` holds, like fusion.FusedProgram, numbers and names of fusion's table only, never
a user's string. The pass is pure (it works on a copy); it runs before elementwise fusion, which
would otherwise fuse the body into runs of its own.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cellgraph.primitives.core import Primitive, TensorType

from . import codegen
from .fusion import FUSED_DTYPES, _broadcasts_to, _concrete, _number, fusible, runner_call_code
from .ir import Apply, Constant, Graph, Var, all_graphs, copy_graph


@dataclass(frozen=True)
class ScanProgram:
    """What one fused scan computes. `inputs`: (dtype name, shape) per body parameter (the
    carries, of shape `shape`; the slices of the stacked inputs; the constants); `ops`: as in
    FusedProgram, an operand ("in", i) naming body parameter i; `outputs`: one operand per body
    result (the new carries, then the per-step outputs); `shape`: S."""

    inputs: tuple
    n_carry: int
    n_xs: int
    ops: tuple
    outputs: tuple
    shape: tuple
    reverse: bool

    def structure(self) -> tuple:
        """The program without its sizes (each input's rank and the axes it broadcasts along,
        and S's rank): what the compiled kernel depends on."""
        ndim = len(self.shape)
        inputs = []
        for dtype, shape in self.inputs:
            lead = ndim - len(shape)
            broadcast = tuple(lead + k for k, n in enumerate(shape)
                              if n == 1 and self.shape[lead + k] != 1)
            inputs.append((dtype, len(shape), broadcast))
        return (tuple(inputs), self.n_carry, self.n_xs, self.ops, self.outputs, ndim,
                self.reverse, self.dtypes)

    @property
    def dtypes(self) -> tuple:
        """The dtype name of each output (a number, which only a carry may be: its carry's)."""
        out = []
        for k, (kind, ref) in enumerate(self.outputs):
            if kind == "c":
                out.append(self.inputs[k][0])
            else:
                out.append(self.inputs[ref][0] if kind == "in" else self.ops[ref][2])
        return tuple(out)

    def __repr__(self) -> str:
        names = " ".join(op[0] for op in self.ops)
        return (f"ScanProgram<{self.n_carry} carried, {self.n_xs} stacked, {names}, "
                f"{'reverse' if self.reverse else 'forward'}>")


def _fused_scan_type(length, *args, program: ScanProgram, run=None):
    steps = args[program.n_carry].shape[0] if program.n_xs else None
    carries = tuple(TensorType(program.shape, FUSED_DTYPES[d])
                    for d in program.dtypes[:program.n_carry])
    return carries + tuple(TensorType((steps,) + program.shape, FUSED_DTYPES[d])
                           for d in program.dtypes[program.n_carry:])


# structural: generated as a call of its runner; made after AD and the optimiser
fused_scan = Primitive("fused_scan", _fused_scan_type, multiple_results=True,
                       nondifferentiable=True, structural=True)


codegen.CODEGEN_RULES["fused_scan"] = runner_call_code


def fuse_scans(graph: Graph, make_runner: Callable[[ScanProgram], Callable]
               ) -> tuple[Graph, int]:
    """A copy of `graph` (and of the graphs nested in it) whose elementwise scans are
    `fused_scan` nodes with `run=make_runner(program)`; and how many there are."""
    graph = copy_graph(graph)
    count = 0
    for g in all_graphs(graph):
        nodes = []
        for node in g.nodes:
            program = scan_program(node) if node.callee.name == "scan" else None
            if program is None:
                nodes.append(node)
                continue
            nodes.append(Apply(fused_scan, list(node.inputs),
                               {"program": program, "run": make_runner(program)},
                               list(node.outputs), node.loc))
            count += 1
        g.nodes = nodes
    return graph, count


def scan_program(node: Apply) -> ScanProgram | None:
    """The ScanProgram of a scan node, or None when its body is not elementwise of one shape."""
    nc, nx = node.params["n_carry"], node.params["n_xs"]
    body = node.params["body_graph"]
    if nc < 1 or len(body.params) != len(node.inputs) - 1:
        return None
    shape = body.params[0].aval.shape
    if not _concrete(shape):
        return None
    shape = tuple(shape)
    inputs = []
    for k, p in enumerate(body.params):
        aval = p.aval
        if aval.dtype.np_name not in FUSED_DTYPES or not _concrete(aval.shape):
            return None
        if k < nc and tuple(aval.shape) != shape or not _broadcasts_to(tuple(aval.shape), shape):
            return None
        inputs.append((aval.dtype.np_name, tuple(aval.shape)))
    index = {id(p): ("in", k) for k, p in enumerate(body.params)}
    ops = []
    for node_ in body.nodes:
        if not fusible(node_) or tuple(node_.outputs[0].aval.shape) != shape:
            return None
        operands = []
        for a in node_.inputs:
            if _number(a):
                operands.append(("c", a.value))
            elif isinstance(a, Var) and id(a) in index:
                operands.append(index[id(a)])
            else:  # an array constant or a value from outside the body: not in the program
                return None
        name = node_.callee.name
        if name == "cast":
            name = f"cast_{node_.params['dtype'].np_name}"
        index[id(node_.outputs[0])] = ("t", len(ops))
        ops.append((name, tuple(operands), node_.outputs[0].aval.dtype.np_name))
    outputs = _outputs(body, index, nc, shape)
    if outputs is None:
        return None
    return ScanProgram(tuple(inputs), nc, nx, tuple(ops), outputs, shape,
                       bool(node.params["reverse"]))


def _outputs(body: Graph, index: dict, nc: int, shape: tuple) -> tuple | None:
    outputs = []
    for k, out in enumerate(body.outputs):
        if isinstance(out, Constant):
            if k >= nc or not _number(out):
                return None
            outputs.append(("c", out.value))
            continue
        ref = index.get(id(out))
        if ref is None or tuple(out.aval.shape) != shape or (
                out.aval.dtype.np_name != body.params[k].aval.dtype.np_name if k < nc else False):
            return None
        outputs.append(ref)
    return tuple(outputs)
