"""`cellgraph.dump_ir(fn_or_cell, *args, stage=...)`: the IR text after a pipeline stage."""
from __future__ import annotations

from cellgraph.compiler.pipeline import STAGES, compile_callable
from cellgraph.ops.errors import ArgumentError


def dump_ir(fn, *args, stage: str = "optimize") -> str:
    """Compile `fn` for `args` and return the text of `stage` (parse, expand_grad, optimize,
    codegen)."""
    if stage not in STAGES:
        raise ArgumentError(f"dump_ir: unknown stage {stage!r}; stages are {', '.join(STAGES)}")
    return compile_callable(fn, args, name=getattr(fn, "__name__", None)).stages[stage]
