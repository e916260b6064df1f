"""The compile pipeline: named stages from a Python callable to generated code.

    parse (front end: resolve, inline, unroll, specialise) -> expand_grad (AD) -> optimize
    -> verify -> codegen

Each stage's IR can be dumped as text (`00_parse.ir`, `01_expand_grad.ir`, `02_optimize.ir`,
`03_codegen.py`).
"""
from __future__ import annotations

import inspect
import os
from dataclasses import dataclass, field

from cellgraph.ops.core import abstract_of
from cellgraph.ops.errors import CellgraphError, CompileError

from . import codegen, loop_prims  # noqa: F401  (loop_prims: the loops' rules and code)
from .autodiff import expand_grad
from .builder import Builder, is_tensor_like
from .control_prims import prune_unused_inputs
from .frontend import trace_call
from .ir import Graph, print_graph, verify
from .optimize import optimize
from .pytree import Tree, flatten, unflatten
from .scope import collect_guards, is_cell

STAGES = ("parse", "expand_grad", "optimize", "codegen")


@dataclass
class Compiled:
    """Everything one specialisation produced."""

    graph: Graph
    module: codegen.Module
    stages: dict = field(default_factory=dict)  # stage name -> text
    guards: list = field(default_factory=list)
    in_tree: Tree | None = None


def _user_callable(fn):
    """The function the user wrote, under wrappers that set `__wrapped__` (grad, jit)."""
    while getattr(fn, "__wrapped__", None) is not None:
        fn = fn.__wrapped__
    return type(fn).construct if is_cell(fn) else fn


def arg_hints(fn, count: int) -> list[str | None]:
    """Parameter names for the printer, from the callable's signature."""
    target = _user_callable(fn)
    try:
        names = [p.name for p in inspect.signature(target).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    if names and names[0] == "self":
        names = names[1:]
    return (names + [None] * count)[:count]


def graph_name(fn) -> str:
    if is_cell(fn):
        return "construct"
    return getattr(fn, "__name__", None) or type(fn).__name__


def parse(fn, args: tuple, name: str | None = None) -> tuple[Graph, list, list, Tree]:
    """Trace `fn(*args)` into a graph: Tensor leaves of `args` become parameters, everything
    else is a compile-time constant. Returns (graph, captured outer values, leaves, in_tree)."""
    leaves, tree = flatten(tuple(args), is_tensor_like)
    hints = arg_hints(fn, len(args)) if all(
        is_tensor_like(a) for a in args) and len(leaves) == len(args) else [None] * len(leaves)
    builder = Builder(name or graph_name(fn), _definition_loc(fn))
    builder.accepts_updates = True  # the executor (or an enclosing grad) applies graph.updates
    with builder.active():
        tracers = [builder.add_param(abstract_of(leaf), h) for leaf, h in zip(leaves, hints)]
        result = trace_call(fn, unflatten(tree, tracers))
        graph, captured = builder.finish(result)
    return graph, captured, leaves, tree


def _definition_loc(fn):
    from .source import function_ast

    target = _user_callable(fn)
    try:
        node, info = function_ast(getattr(target, "__wrapped__", target))
        return info.loc(node)
    except (CompileError, AttributeError, TypeError):
        return None


def optimize_stage(graph: Graph) -> Graph:
    """The `optimize` stage: the optimiser to a fixpoint, then the inputs and outputs of
    branches and loops that nothing reads any more, then the optimiser again if that helped
    (a few rounds: what one loop stops reading can leave another's output unread)."""
    graph = optimize(graph)
    for _ in range(PRUNE_ROUNDS):
        if not prune_unused_inputs(graph):
            break
        graph = optimize(graph)
    return graph


PRUNE_ROUNDS = 4


# Tests set this so that the verifier runs after every stage, not only the last one.
VERIFY_EVERY_STAGE = False


def compile_callable(fn, args: tuple, dump_dir: str | None = None,
                     name: str | None = None, keep_stages: bool = False) -> Compiled:
    """Run the whole pipeline on `fn` specialised to `args`. The text of every stage is kept
    when `keep_stages` is set or `dump_dir` is given (printing is not free)."""
    try:
        return _compile(fn, args, dump_dir, name, keep_stages)
    except CellgraphError as e:
        # The message carries the user's file, line and caret; the compiler's own frames
        # would only bury it, so the traceback ends here.
        raise e.with_traceback(None) from None


def _compile(fn, args, dump_dir, name, keep_stages) -> Compiled:
    stages = {}
    keep = keep_stages or bool(dump_dir)

    def record(stage: str, graph: Graph) -> None:
        if VERIFY_EVERY_STAGE:
            verify(graph)
        if keep:
            stages[stage] = print_graph(graph)

    with collect_guards() as guards:
        graph, captured, _, in_tree = parse(fn, args, name)
    if captured:
        raise CompileError("a top-level graph cannot read values of another graph")
    record("parse", graph)
    graph = expand_grad(graph)
    record("expand_grad", graph)
    graph = optimize_stage(graph)
    verify(graph)
    record("optimize", graph)
    module = codegen.generate(graph)
    stages["codegen"] = module.source
    if dump_dir:
        write_stages(stages, dump_dir, graph.name)
    return Compiled(graph, module, stages, guards, in_tree)


def write_stages(stages: dict, directory: str, name: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    paths = []
    for i, stage in enumerate(STAGES):
        ext = "py" if stage == "codegen" else "ir"
        path = os.path.join(directory, f"{i:02d}_{stage}_{name}.{ext}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(stages[stage])
        paths.append(path)
    return paths
