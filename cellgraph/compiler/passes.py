"""The named passes, each `pass(graph, ctx) -> graph`, ctx the compile's CompileContext (one
from the settings now when None): a pass works on a copy (`copy_graph`) or returns a new graph,
so the graph it is given, which a cache may hold, stays as it was.

    shard_operators      in semi-auto parallel, the graph of this rank: sharded operators on
                         their slices, redistribution collectives where layouts meet
                         (sharding.py)
    expand_grad          every grad node replaced by its expansion (AD: autodiff.py)
    simplify             one sweep of the local rewrites (optimize.REWRITES), constant folding
                         and CSE, in every graph
    dce                  nodes nothing reads go; a fused node with one result read narrows
    prune_unused_inputs  inputs and outputs of branches and loops that nothing reads go
    overlap_collectives  each all_reduce split into a start, moved up to where its inputs are
                         ready, and a done before its first reader (comm_schedule.py)
    optimize             simplify and dce to a fixpoint in every graph, then prune_unused_inputs
                         and the fixpoint again while pruning finds something, then
                         overlap_collectives (unless the graph will be differentiated again)

`optimize` runs the steps the first three passes are made of (`optimize.simplify`,
`optimize.dce`, `control_prims.prune_unused_inputs`: each rewrites a graph in place and says
whether it changed anything) on one copy, rather than copying the program once per step.
"""
from __future__ import annotations

from .autodiff import expand_grad
from .comm_schedule import overlap_collectives
from .compile_context import CompileContext
from .control_prims import prune_unused_inputs
from .ir import Graph, all_graphs, copy_graph
from .optimize import dce, optimize, simplify
from .sharding import has_strategies, shard_operators

PRUNE_ROUNDS = 4


def _settings(ctx: CompileContext | None) -> CompileContext:
    return CompileContext.from_settings() if ctx is None else ctx


def shard_operators_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`shard_operators`: where `ctx.shard_ranks` > 1 (semi_auto_parallel over several
    processes) and a node carries a strategy, the per-rank graph: each sharded operator on its
    slices, weights held as slices, redistribution collectives where layouts differ
    (sharding.py). Elsewhere the graph as it is (strategies have no effect, as in MindSpore).

        Before:  %1 = matmul(%x, %w) <in_strategy=((1, 2), (2, 1))>  : f32[4,3]  (%w: f32[8,3])
        After:   %1 = shard_slice(%x) {axis=1, ...}  : f32[4,4]
                 %2 = matmul(%1, %w) <in_strategy=((1, 2), (2, 1))>  : f32[4,3]  (%w: f32[4,3])
                 %3 = shard_all_reduce(%2)  : f32[4,3]
    """
    ctx = _settings(ctx)
    if ctx.shard_ranks <= 1 or not has_strategies(graph):
        return graph
    return shard_operators(graph, ctx.shard_ranks)


def expand_grad_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`expand_grad`: each grad node (in this graph and those nested in it) replaced by its
    expansion, the forward and backward graphs of automatic differentiation (autodiff.py).

        Before:  %1, %2 = grad(%x) {graph=@f, wrt=(0,)}      @f: %1 = sin(%x); return %1
        After:   %1 = sin(%x); %2 = ones_like(%1); %3 = cos(%x); %4 = mul(%2, %3)
    """
    return expand_grad(graph, ctx)


def simplify_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`simplify`: one sweep of rewrites, folding and CSE in each graph (dead nodes stay, for
    dce), with the context's rule table (`ctx.rewrites`, optimize.REWRITES by default);
    stop_gradient stays where `ctx.differentiable` (the graph will be differentiated again).

        Before:  %1 = mul(%x, 1.0); %2 = mul(%x, 1.0); %3 = add(%1, %2); return %3
        After:   %1 = mul(%x, 2); return %1
    """
    ctx = _settings(ctx)
    graph = copy_graph(graph)
    for g in all_graphs(graph):
        simplify(g, ctx.differentiable, ctx.rewrites)
    return graph


def dce_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`dce`: drop the nodes whose results nothing reads (effects stay), in each graph; a node
    with several results of which one is read becomes that result's own primitive where it
    declares one.

        Before:  %1 = exp(%x); %2, %3 = gelu_and_slope(%x); return %2
        After:   %1 = gelu(%x); return %1
    """
    graph = copy_graph(graph)
    for g in all_graphs(graph):
        dce(g)
    return graph


def prune_unused_inputs_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`prune_unused_inputs`: the inputs of switch, while_loop and scan nodes that none of
    their graphs reads, and the outputs nothing reads, go (see
    control_prims.prune_unused_inputs).

        Before:  %3 = switch(%p, %x, %y) {then_graph=@t, else_graph=@e}   (@t, @e never read %y)
        After:   %3 = switch(%p, %x) {then_graph=@t, else_graph=@e}
    """
    graph = copy_graph(graph)
    prune_unused_inputs(graph)
    return graph


def overlap_collectives_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`overlap_collectives`: each all_reduce split into all_reduce_start, placed right after
    its inputs are computed, and all_reduce_done before the first reader of its results
    (comm_schedule.py), where `ctx.overlap_collectives` is set and the graph will not be
    differentiated again.

        Before:  %2 = mul(%x, %w); %3 = sin(%x); %4 = all_reduce(%2); return %3, %4
        After:   %2 = mul(%x, %w); %t, %5 = all_reduce_start(%2); %3 = sin(%x);
                 %4 = all_reduce_done(%t, %5); return %3, %4
    """
    ctx = _settings(ctx)
    if not ctx.overlap_collectives or ctx.differentiable:
        return graph
    graph = copy_graph(graph)
    overlap_collectives(graph)
    return graph


def optimize_pass(graph: Graph, ctx: CompileContext | None = None) -> Graph:
    """`optimize`: simplify and dce to a fixpoint in every graph, then prune_unused_inputs and
    the fixpoint again if that removed something (a few rounds: what one loop stops reading
    can leave another's output unread); last, overlap_collectives.

        Before:  %1 = ones_like(%x); %2 = mul(%1, %y); %3 = exp(%x); return %2
        After:   return %y
    """
    ctx = _settings(ctx)
    graph = optimize(copy_graph(graph), differentiable=ctx.differentiable, rewrites=ctx.rewrites)
    for _ in range(PRUNE_ROUNDS):
        if not prune_unused_inputs(graph):
            break
        graph = optimize(graph, differentiable=ctx.differentiable, rewrites=ctx.rewrites)
    if ctx.overlap_collectives and not ctx.differentiable:
        overlap_collectives(graph)
    return graph
