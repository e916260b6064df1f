"""The compile pipeline: named stages from a Python callable to generated code.

    parse (front end: resolve, inline, unroll, specialise) -> PASSES -> codegen

`PASSES` is the list of Graph -> Graph passes (`shard_operators` (semi-auto parallel's
per-rank graph; nothing in other modes), `expand_grad` (AD), then `optimize`, made of
`simplify`, `dce` and `prune_unused_inputs`: passes.py), each pure: it returns a new graph and
never changes its input, which caches (the expansions of grad graphs) may hold. `verify` checks
the IR after every pass. Each stage's IR can be dumped as text, named after the stage
(`00_parse_NAME.ir`, `01_shard_operators_NAME.ir`, `02_expand_grad_NAME.ir`,
`03_optimize_NAME.ir`, `04_codegen_NAME.py`);
`dump_ir(fn, *args, stage=...)` also takes a part of a pass (PASS_STAGES: `simplify`, `dce`,
`prune_unused_inputs`, `overlap_collectives`), which shows the graph that pass is given after
that part alone.
"""
from __future__ import annotations

import inspect
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cellgraph import safe_io
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, CellgraphError, CompileError

from . import builder as _builder
from . import codegen, loop_prims  # noqa: F401  (loop_prims: the loops' rules and code)
from .builder import Builder, ParameterArgument, compile_context, is_parameter, is_tensor_like
from .compile_context import STRICT, CompileContext
from .compile_context import syntax_level as resolve_syntax_level
from .dynamic_sequence import has_dynamic_arguments, take_dynamic_arguments
from .effects import RaiseSignal
from .frontend import trace_call
from .guards import collect_guards, unique
from .ir import Graph, print_graph, verify
from .passes import (
    dce_pass,
    expand_grad_pass,
    optimize_pass,
    overlap_collectives_pass,
    prune_unused_inputs_pass,
    shard_operators_pass,
    simplify_pass,
)
from .pytree import Tree, flatten, is_plain_dict, unflatten
from .scope import is_cell
from .sharding import check_parallel_job, check_split_batch_inputs


@dataclass
class Compiled:
    """Everything one specialisation produced."""

    graph: Graph
    module: codegen.Module
    stages: dict = field(default_factory=dict)  # stage name -> text
    guards: list = field(default_factory=list)  # guards.Guard: what the graph read
    in_tree: Tree | None = None
    arguments: ParameterArguments | None = None


@dataclass
class ParameterArguments:
    """What a graph assumed of its flat inputs (the Parameters among them, and the values of
    value inputs), which a later call must match to reuse it: `first` maps each Parameter input's position to the first position
    holding the same Parameter, `requires_grad` to its flag then (the graph may read it);
    `attributes` maps a position to the Parameter the graph also read as an attribute (so
    that a call must pass that very Parameter there)."""

    first: dict = field(default_factory=dict)
    requires_grad: dict = field(default_factory=dict)
    attributes: dict = field(default_factory=dict)
    # the values the graph was specialised on: flat position -> the NumPy array a value input
    # (core.value_input: a shape, an axis, paddings) read from the Tensor passed there
    values: dict = field(default_factory=dict)


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


def parse(fn, args: tuple, name: str | None = None,
          ctx: CompileContext | None = None) -> tuple[Graph, list, list, Tree]:
    """Trace `fn(*args)` into a graph: Tensor leaves of `args` become parameters, everything
    else is a compile-time constant. Returns (graph, captured outer values, leaves, in_tree)."""
    return parse_arguments(fn, args, name, ctx)[:4]


def parse_arguments(fn, args: tuple, name: str | None = None, ctx: CompileContext | None = None):
    """`parse`, and the ParameterArguments of the graph last. Parameter leaves (and the
    ParameterArguments of an enclosing graph) are traced as ParameterArguments, so that the graph
    can assign them. `ctx`: the compile's context (when None: that of the compile this parse is
    part of, a grad's inner function, else one from the settings now), which the front end
    finds on the builder."""
    leaves, tree = flatten(tuple(args), is_tensor_like)
    hints = arg_hints(fn, len(args)) if all(
        is_tensor_like(a) for a in args) and len(leaves) == len(args) else [None] * len(leaves)
    builder = Builder(name or graph_name(fn), _definition_loc(fn))
    builder.accepts_updates = True  # the executor (or an enclosing grad) applies graph.updates
    builder.writes_back_inputs = True
    builder.context = compile_context() if ctx is None else ctx  # an enclosing compile's
    with builder.active():
        # a user's construct or function at the top (not a transform's graph): NumPy arrays it
        # returns are given back as arrays
        builder.returns_arrays = builder.outer is None and not hasattr(fn, "emit")
        tracers = [builder.add_parameter_argument(leaf, h) if is_parameter(leaf) else
                   builder.add_param(abstract_of(leaf), h) for leaf, h in zip(leaves, hints)]
        for i, (leaf, tracer) in enumerate(zip(leaves, tracers)):
            builder.note_input_source(tracer, leaf, i)
        if _builder.read_through_hooks is not None:  # inputs with gradient hooks
            tracers = [t if isinstance(t, ParameterArgument) else
                       _builder.read_through_hooks(leaf, t) for leaf, t in zip(leaves, tracers)]
        inputs = unflatten(tree, tracers)
        if has_dynamic_arguments(args):  # mutable(seq, True) made outside the graph
            inputs = take_dynamic_arguments(tuple(args), inputs)
        try:
            result = _python_scalars(trace_call(fn, inputs))
            if builder.returns_arrays and is_plain_dict(result) and \
                    builder.context.syntax_level == STRICT:
                result = tuple(result.values())  # MindSpore's strict graphs return no dict
        except RaiseSignal:  # it raises on every path, when it runs (the raise node): no result
            result = None
        graph, captured = builder.finish(result)
    arguments = ParameterArguments(attributes=dict(builder.attribute_aliases),
                                   values=dict(builder.value_reads))
    for i, tracer in enumerate(tracers):
        if isinstance(tracer, ParameterArgument):
            arguments.first[i], arguments.requires_grad[i] = tracer.index, tracer.requires_grad
    return graph, captured, leaves, tree, arguments


def _python_scalars(value):
    """A graph's result with its NumPy scalars as Python's (`tuple(np.array([1, 2]))` gives
    `(1, 2)`), as MindSpore's graph mode returns its constants."""
    if isinstance(value, np.generic):
        return value.item()
    if type(value) in (tuple, list):
        items = [_python_scalars(v) for v in value]
        if all(new is old for new, old in zip(items, value)):
            return value  # unchanged: a list read from outside stays that list
        return type(value)(items)
    if type(value) is dict:
        return {k: _python_scalars(v) for k, v in value.items()}
    return value


def _definition_loc(fn):
    from .source import function_ast

    target = _user_callable(fn)
    try:
        node, info = function_ast(getattr(target, "__wrapped__", target))
        return info.loc(node)
    except (CompileError, AttributeError, TypeError):
        return None


@dataclass(frozen=True)
class Pass:
    """A named Graph -> Graph function that leaves its input unchanged; `parts` are the passes
    it is made of, each of which can also be run (and dumped) alone."""

    name: str
    run: Callable[[Graph, CompileContext], Graph]
    parts: tuple = ()


PASSES: tuple[Pass, ...] = (
    Pass("shard_operators", shard_operators_pass),
    Pass("expand_grad", expand_grad_pass),
    Pass("optimize", optimize_pass, parts=(
        Pass("simplify", simplify_pass),
        Pass("dce", dce_pass),
        Pass("prune_unused_inputs", prune_unused_inputs_pass),
        Pass("overlap_collectives", overlap_collectives_pass),
    )),
)
# the stages a compile goes through, each dumped (save_graphs) as NN_stage_NAME.ir
STAGES = ("parse",) + tuple(p.name for p in PASSES) + ("codegen",)
# each part of a pass, run once on the graph that pass is given: dump_ir(fn, stage="dce")
PASS_STAGES = tuple(part.name for p in PASSES for part in p.parts)

def run_passes(graph: Graph, until: str | None = None, record=None,
               ctx: CompileContext | None = None) -> Graph:
    """`graph` through PASSES (up to and including `until`), each handed `ctx` (the settings
    now when None), verified after each; `record(stage name, graph)` sees every result. `until`
    may name a part of a pass (one of PASS_STAGES): the graph that pass would be given goes
    through that part alone."""
    ctx = CompileContext.from_settings() if ctx is None else ctx
    for compiler_pass in PASSES:
        part = next((p for p in compiler_pass.parts if p.name == until), None)
        if part is not None:
            graph = part.run(graph, ctx)
            verify(graph)
            if record is not None:
                record(part.name, graph)
            break
        graph = compiler_pass.run(graph, ctx)
        if ctx.verify_every_stage or compiler_pass is PASSES[-1]:
            verify(graph)
        if record is not None:
            record(compiler_pass.name, graph)
        if compiler_pass.name == until:
            break
    return graph


def compile_inference(net, inputs) -> Compiled:
    """`net` (a Cell) compiled for `inputs` in inference mode, `set_train(False)` for the
    duration: the graph an exported model (ONNX, MindIR) holds."""
    training = net.training
    net.set_train(False)
    try:
        return compile_callable(net, tuple(inputs))
    finally:
        net.set_train(training)


def compile_callable(fn, args: tuple, dump_dir: str | None = None,
                     name: str | None = None, keep_stages: bool = False,
                     graph_print: bool = False, syntax_level: int | None = None) -> Compiled:
    """Run the whole pipeline on `fn` specialised to `args`. The text of every stage is kept
    when `keep_stages` is set or `dump_dir` is given (printing is not free); `graph_print`:
    see CompileContext."""
    try:
        return _compile(fn, args, dump_dir, name, keep_stages, graph_print, syntax_level)
    except CellgraphError as e:
        # The message carries the user's file, line and caret; the compiler's own frames
        # would only bury it, so the traceback ends here.
        raise e.with_traceback(None) from None


def _compile(fn, args, dump_dir, name, keep_stages, graph_print, syntax_level=None) -> Compiled:
    stages = {}
    keep = keep_stages or bool(dump_dir)

    def record(stage: str, graph: Graph) -> None:
        if keep:
            stages[stage] = print_graph(graph)

    ctx = CompileContext.from_settings(graph_print=graph_print,
                                       syntax_level=resolve_syntax_level(syntax_level))
    check_split_batch_inputs(args)
    with collect_guards() as guards:
        graph, captured, _, in_tree, arguments = parse_arguments(fn, args, name, ctx)
    # after parsing, as MindSpore checks the parallel job after inferring the graph's types and
    # shapes: an operator's invalid argument is its ValueError even in a job that cannot run
    # (unless the batch is split, checked above)
    check_parallel_job()
    if captured:
        raise CompileError("a top-level graph cannot read values of another graph")
    _refuse_functions_in_output(graph.out_tree, graph.loc)
    if _nesting(graph.out_tree) > MAX_OUTPUT_NESTING:
        raise CompileError(f"List, tuple and dict nesting is not allowed more than "
                           f"{MAX_OUTPUT_NESTING} levels.", graph.loc)
    if inspect.isfunction(fn):
        _check_weight_names(graph)
    if ctx.verify_every_stage:
        verify(graph)
    record("parse", graph)
    graph = run_passes(graph, record=record, ctx=ctx)
    module = codegen.generate(graph)
    stages["codegen"] = module.source
    if dump_dir:
        write_stages(stages, dump_dir, graph.name)
    return Compiled(graph, module, stages, unique(guards), in_tree, arguments)


def _refuse_functions_in_output(tree: Tree, loc) -> None:
    """A program's result holds values, not functions (a function, method, Primitive or Cell
    returned, alone or in a tuple): MindSpore refuses them. A class may be returned."""
    if tree.kind == "tuple":
        for child in tree.children:
            _refuse_functions_in_output(child, loc)
    elif tree.kind == "static" and callable(tree.static) and not isinstance(tree.static, type):
        raise CompileError("Function in output is not supported. Please check your code.", loc)


MAX_OUTPUT_NESTING = 6  # MindSpore's limit on the tuples and lists a graph's result nests


def _nesting(tree) -> int:
    """How deep tuples and lists nest in a result tree (or a constant in it); a dict adds no
    level, as in MindSpore's count."""
    if isinstance(tree, Tree):
        if tree.kind in ("tuple", "list"):
            return 1 + max((_nesting(c) for c in tree.children), default=0)
        if tree.kind == "dict":
            return max((_nesting(c) for c in tree.children), default=0)
        return _nesting(tree.static) if tree.kind == "static" else 0
    if isinstance(tree, (tuple, list)):
        return 1 + max((_nesting(v) for v in tree), default=0)
    if isinstance(tree, dict):
        return max((_nesting(v) for v in tree.values()), default=0)
    return 0


def _check_weight_names(graph: Graph) -> None:
    """The Parameters a function's graph reads from the program have distinct names, as
    MindSpore requires of a function (it resolves them by name; a Cell's construct may read
    Parameters of one name)."""
    seen: dict = {}
    for weight in graph.weights:
        name = getattr(weight, "name", None)
        if isinstance(name, str) and name and seen.setdefault(name, id(weight)) != id(weight):
            raise CompileError(f"The parameter {name} , its name '{name}' already exists. "
                               f"Please set a unique name for the parameter.", graph.loc)


_WRITTEN: dict[str, set] = {}  # dump folder -> graph names written there by this process
_WRITTEN_LOCK = threading.Lock()


def check_dump_dir(directory: str) -> str:
    """`directory` if graphs can be dumped there: a writable folder, or a path one can be made
    at. Raises ArgumentValueError naming the problem otherwise."""
    path = os.path.abspath(os.fspath(directory))
    existing = path
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise ArgumentValueError(f"save_graphs_path {directory!r}: {existing!r} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ArgumentValueError(f"save_graphs_path {directory!r}: the folder {existing!r} is "
                                 f"not writable")
    return path


def _unique_name(directory: str, name: str) -> str:
    """`name`, or `name_2`, `name_3`...: each graph dumped into a folder gets its own files."""
    with _WRITTEN_LOCK:
        return codegen.fresh_name(name, _WRITTEN.setdefault(os.path.realpath(directory), set()))


def write_stages(stages: dict, directory: str, name: str) -> list[str]:
    """Write every stage's text as `NN_stage_NAME.ir` (`.py` for codegen), each atomically
    (safe_io: beside its final name, fsync'ed, renamed over it, so a symbolic link there is
    replaced, never followed)."""
    directory = check_dump_dir(directory)
    os.makedirs(directory, exist_ok=True)
    # the graph's name is the user's (a function's, which may hold `/` or `..`): only its
    # letters, digits and `_` reach the file name, and `contained` checks it stays in directory
    name = _unique_name(directory, codegen.identifier(name) or "graph")
    paths = []
    for i, stage in enumerate(STAGES):
        ext = "py" if stage == "codegen" else "ir"
        path = safe_io.contained(directory, f"{i:02d}_{stage}_{name}.{ext}")
        safe_io.write_text(path, stages[stage])
        paths.append(path)
    return paths
