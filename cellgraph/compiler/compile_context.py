"""What one compile's passes read, handed to them as an argument.

    ctx = CompileContext.from_settings()        # at the start of a compile
    graph = run_passes(graph, ctx)              # each pass: pass.run(graph, ctx)

A pass gets the context as its second argument; a rewrite rule gets the sweep running it (a
rewrite.RewriteContext, which the optimize passes make from this one). Code that runs while the
front end traces user Python (a Tensor `while`'s loop options, the calls being inlined, the
objects made in construct, the amp cast dtypes) finds the context of the compile it belongs to on the graph builder that is recording it (`compile_context()`): through
the trace stack, which `bind` consults anyway, not through a thread-local of its own. So does
expand_grad, whose builders carry the context with `keep_structural` set for the graphs about
to be differentiated again.
"""
from __future__ import annotations

import os
import threading
import weakref
from dataclasses import dataclass, field, replace

from .comm_schedule import overlap_enabled
from .sharding import sharding_ranks

# Tests set this so that the verifier runs after every stage, not only the last one: the
# default of CompileContext.verify_every_stage for the compiles that start after.
VERIFY_EVERY_STAGE = False


class LoopSettings:
    """Compile-time loop options; `cellgraph.set_context(loop_checkpoint=s)` sets them. A graph
    compiled under one setting is recompiled when it changes (a guard on the attribute)."""

    def __init__(self):
        self.checkpoint = 0  # record every trip; s > 1: segments of s trips


LOOP_SETTINGS = LoopSettings()

STRICT, COMPATIBLE, LAX = 0, 1, 2  # MindSpore's jit_syntax_level values


class SyntaxSettings:
    """`set_context(jit_syntax_level=...)`: the level a graph compiles at unless its Cell's
    JitConfig, its jit's `fullgraph` or MindSpore's environment variable says otherwise."""

    def __init__(self):
        self.level = LAX


SYNTAX_SETTINGS = SyntaxSettings()


def syntax_level(configured: int | None = None) -> int:
    """The jit_syntax_level a compile uses: MS_DEV_JIT_SYNTAX_LEVEL ('0' STRICT, '1'
    COMPATIBLE, '2' LAX) first, as MindSpore reads it; then the callable's own (`configured`);
    then set_context's."""
    env = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL", "").strip()
    if env in ("0", "1", "2"):
        return int(env)
    return SYNTAX_SETTINGS.level if configured is None else configured


class CallDepth:
    """How deep calls may nest while a graph is compiled: `set_context(max_call_depth=n)` and
    `set_recursion_limit(n)` set it (MindSpore's default 1000; the inliner's own bound,
    frontend.MAX_INLINE_DEPTH, applies as well)."""

    def __init__(self):
        self.limit = 1000


CALL_DEPTH = CallDepth()


class _EagerParamCast(threading.local):
    """The cast dtypes of Cells running eagerly (PyNative), innermost last; per thread. While a
    graph is being built they are its compile context's (`CompileContext.param_casts`, which
    starts as a copy of these)."""

    def __init__(self):
        self.dtypes: list = []


eager_param_cast = _EagerParamCast()


@dataclass(frozen=True)
class CompileContext:
    """One compile's settings, and the state its tracing shares (the last three fields).

    verify_every_stage: run the IR verifier after every pass, not only the last (tests).
    loop_checkpoint: trips per recorded segment in the reverse pass of Tensor `while` loops
        (0: record every trip), as `set_context(loop_checkpoint=...)` had it when the compile
        began.
    differentiable: the graph will be differentiated again (stop_gradient and the like stay).
    keep_structural: expand_grad is expanding a graph about to be differentiated, whose
        EXPAND_RULES nodes stay (vjp uses their own bprop rules).
    overlap_collectives: each all_reduce is started as soon as its inputs are computed and
        waited for where its result is read (comm_schedule.py; CELLGRAPH_COMM_OVERLAP=0 when
        the compile began turns it off).
    graph_print: `print` writes as MindSpore's Print operator does whatever the mode (a `jit`
        function's graph; print_op.py).
    syntax_level: MindSpore's jit_syntax_level (`syntax_level()`): below LAX a Tensor's
        `asnumpy` is refused in a graph, and at STRICT a construct's dict result comes back as
        the tuple of its values.
    shard_ranks: the number of ranks the shard_operators pass splits sharded operators over
        (sharding.py); 1 (not in semi_auto_parallel mode, or one process): no sharding.
    rewrites: the optimiser's rule table (optimize.REWRITES when None).
    calls: the function calls the front end is inlining or tracing, innermost last
        (recursion.py finds a call that reaches itself there).
    compile_time_objects: the objects the compile made while parsing (jit_class instances
        built in construct), whose attributes it may assign (a weak set).
    param_casts: the dtypes float Parameters are read in (mixed precision, `Cell.to_float`),
        innermost last: those of the Cells running when the compile began, then those the
        traced Cells push (builder.parameters_cast_to).
    outside_lists: the lists the compile read from outside the graph (globals, attributes,
        closures, and the lists nested in their tuples and lists), by id: a top-level graph
        that returns one, holding no run-time value, gives the caller that very list, as
        MindSpore's graphs do.
    `calls`, `compile_time_objects`, `param_casts` and `outside_lists` are the compile's own,
    shared by the copies `replace` makes of its context.
    """

    verify_every_stage: bool = False
    loop_checkpoint: int = 0
    differentiable: bool = False
    keep_structural: bool = False
    overlap_collectives: bool = True
    graph_print: bool = False
    shard_ranks: int = 1
    syntax_level: int = LAX
    rewrites: dict | None = field(default=None, compare=False)
    calls: list = field(default_factory=list, compare=False, repr=False)
    compile_time_objects: weakref.WeakSet = field(default_factory=weakref.WeakSet,
                                                  compare=False, repr=False)
    param_casts: list = field(default_factory=list, compare=False, repr=False)
    outside_lists: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_settings(cls, **overrides) -> CompileContext:
        """A context from the process's settings now (set_context's loop_checkpoint, and
        VERIFY_EVERY_STAGE, which tests turn on) and this thread's (the cast dtypes of the
        Cells running eagerly), with `overrides`."""
        found = cls(verify_every_stage=VERIFY_EVERY_STAGE,
                    loop_checkpoint=LOOP_SETTINGS.checkpoint,
                    param_casts=list(eager_param_cast.dtypes),
                    overlap_collectives=overlap_enabled(), shard_ranks=sharding_ranks())
        return replace(found, **overrides) if overrides else found

