"""The optimiser's named passes, each Graph -> Graph: it works on a copy (`copy_graph`), so the
graph it is given, which a cache may hold, stays as it was.

    simplify             one sweep of the local rewrites (optimize.REWRITES), constant folding
                         and CSE, in every graph
    dce                  nodes nothing reads go; a fused node with one result read narrows
    prune_unused_inputs  inputs and outputs of branches and loops that nothing reads go
    optimize             simplify and dce to a fixpoint in every graph, then prune_unused_inputs
                         and the fixpoint again while pruning finds something

`optimize` runs the steps the first three passes are made of (`optimize.simplify`,
`optimize.dce`, `control_prims.prune_unused_inputs`: each rewrites a graph in place and says
whether it changed anything) on one copy, rather than copying the program once per step.
"""
from __future__ import annotations

from .control_prims import prune_unused_inputs
from .ir import Graph, all_graphs, copy_graph
from .optimize import dce, optimize, simplify

PRUNE_ROUNDS = 4


def simplify_pass(graph: Graph, differentiable: bool = False, rewrites=None) -> Graph:
    """`simplify`: one sweep of rewrites, folding and CSE in each graph (dead nodes stay, for
    dce). `differentiable`: the graph will be differentiated again (stop_gradient stays);
    `rewrites`: the rule table to use instead of optimize.REWRITES.

        Before:  %1 = mul(%x, 1.0); %2 = mul(%x, 1.0); %3 = add(%1, %2); return %3
        After:   %1 = mul(%x, 2); return %1
    """
    graph = copy_graph(graph)
    for g in all_graphs(graph):
        simplify(g, differentiable, rewrites)
    return graph


def dce_pass(graph: Graph) -> Graph:
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


def prune_unused_inputs_pass(graph: Graph) -> Graph:
    """`prune_unused_inputs`: the inputs of switch, while_loop and scan nodes that none of
    their graphs reads, and the outputs nothing reads, go (see
    control_prims.prune_unused_inputs).

        Before:  %3 = switch(%p, %x, %y) {then_graph=@t, else_graph=@e}   (@t, @e never read %y)
        After:   %3 = switch(%p, %x) {then_graph=@t, else_graph=@e}
    """
    graph = copy_graph(graph)
    prune_unused_inputs(graph)
    return graph


def optimize_pass(graph: Graph) -> Graph:
    """`optimize`: simplify and dce to a fixpoint in every graph, then prune_unused_inputs and
    the fixpoint again if that removed something (a few rounds: what one loop stops reading
    can leave another's output unread).

        Before:  %1 = ones_like(%x); %2 = mul(%1, %y); %3 = exp(%x); return %2
        After:   return %y
    """
    graph = optimize(copy_graph(graph))
    for _ in range(PRUNE_ROUNDS):
        if not prune_unused_inputs(graph):
            break
        graph = optimize(graph)
    return graph
