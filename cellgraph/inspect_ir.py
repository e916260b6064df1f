"""`cellgraph.dump_ir(fn_or_cell, *args, stage=...)`: the IR text after a pipeline stage;
`graph_at_stage`: the Graph itself (for the dot export)."""
from __future__ import annotations

from cellgraph.compiler.guards import collect_guards
from cellgraph.compiler.ir import Graph, print_graph, verify
from cellgraph.compiler.pipeline import (
    PASS_STAGES,
    STAGES,
    compile_callable,
    parse,
    run_passes,
)
from cellgraph.primitives.errors import ArgumentError


def dump_ir(fn, *args, stage: str = "optimize") -> str:
    """Compile `fn` for `args` and return the text of `stage` (parse, expand_grad, optimize,
    codegen), or of one part of a pass run alone on what that pass is given (simplify, dce,
    prune_unused_inputs)."""
    if stage in PASS_STAGES:
        return print_graph(graph_at_stage(fn, *args, stage=stage))
    if stage not in STAGES:
        raise ArgumentError(f"dump_ir: unknown stage {stage!r}; stages are "
                            f"{', '.join(STAGES + PASS_STAGES)}")
    return compile_callable(fn, args, name=getattr(fn, "__name__", None),
                            keep_stages=True).stages[stage]


# the stages whose result is a graph (codegen's is source); the pass stages also have one
GRAPH_STAGES = STAGES[:-1]


def graph_at_stage(fn, *args, stage: str = "optimize") -> Graph:
    """The Graph whose text `dump_ir(fn, *args, stage=stage)` returns (not for codegen)."""
    if stage not in GRAPH_STAGES + PASS_STAGES:
        raise ArgumentError(f"graph_at_stage: stage {stage!r} has no graph; stages with one are "
                            f"{', '.join(GRAPH_STAGES + PASS_STAGES)}")
    with collect_guards():
        graph = parse(fn, args, getattr(fn, "__name__", None))[0]
    if stage == "parse":
        verify(graph)
        return graph
    return run_passes(graph, until=stage)
