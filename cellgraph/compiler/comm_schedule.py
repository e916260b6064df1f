"""Overlapping communication with computation: each all_reduce split into a start, moved up to
just after the last of its inputs is computed, and a done just before the first reader of its
results.

Data-parallel training all-reduces the gradients in buckets after the backward pass has
produced them all; but a bucket of the last layers' gradients is ready long before the first
layers' are. Started there, its transfer runs (on torch.distributed's threads) while the rest
of the backward pass computes, and the done, moved down to the first reader of its results,
waits for it, as PyTorch's DistributedDataParallel does with its bucket hooks:

    Before:  %5 = mul(%4, %w2)                      After:  %5 = mul(%4, %w2)
             %6 = mul(%4, %x)                               %t, %7b = all_reduce_start(%5)
             %7 = all_reduce(%5)                            %6 = mul(%4, %x)
             %8 = all_reduce(%6)                            %u, %8b = all_reduce_start(%6)
                                                            %7 = all_reduce_done(%t, %7b)
                                                            %8 = all_reduce_done(%u, %8b)

The ranks must meet their collectives in one order, so a start never moves above another
effectful node (another start, a collective, a print, a raise): the collectives are issued in
the program's order, each as early as that order and its inputs allow. (This is why the
gradient reducer issues its buckets in reverse parameter order, the order backward produces
them.) The results are those of the plain all_reduce, bit for bit: the same collective on the
same bytes, only waited for later.

The ranks check once per run of the graph that they agree on the buckets' shapes, at the first
start (`_share_checks`), rather than at every bucket. The pass runs last in `optimize` and
leaves graphs that will be differentiated again alone (the start and done have no derivative:
they exist only in code about to run). Setting the
environment variable CELLGRAPH_COMM_OVERLAP=0 before a graph is compiled keeps each
all_reduce whole, which is how the two are compared.
"""
from __future__ import annotations

import os

from cellgraph.primitives import comm_ops
from cellgraph.primitives.core import TensorType
from cellgraph.primitives.dtype import int64

from .ir import Apply, Graph, Var, all_graphs, has_effects


def overlap_enabled() -> bool:
    """CELLGRAPH_COMM_OVERLAP: anything but 0, off, false or no (the default: on)."""
    return os.environ.get("CELLGRAPH_COMM_OVERLAP", "1").strip().lower() not in (
        "0", "off", "false", "no")


def overlap_collectives(graph: Graph) -> bool:
    """Split each all_reduce of every graph into start and done, the start moved up as far as
    its inputs and the program's order of effects allow (in place); whether any was found."""
    found = False
    for g in all_graphs(graph):
        if any(node.callee is comm_ops.all_reduce for node in g.nodes):
            g.nodes = _sink_dones(_schedule(g.nodes))
            _share_checks(g.nodes)
            found = True
    return found


def _sink_dones(nodes: list) -> list:
    """Each all_reduce_done moved down to just before the first node that reads one of its
    results, or the first effect after it (a print, a raise, another collective: a done only
    waits, but it is waited for before what the program does next), so that what is computed
    in between overlaps the transfer too."""
    nodes = list(nodes)
    for done in [n for n in nodes if n.callee is comm_ops.all_reduce_done][::-1]:
        at = nodes.index(done)
        results = {id(v) for v in done.outputs}
        stop = at + 1
        while stop < len(nodes) and not _holds_back(nodes[stop], results):
            stop += 1
        nodes.insert(stop, done)
        del nodes[at]
    return nodes


def _holds_back(node: Apply, results: set) -> bool:
    if any(id(v) in results for v in node.inputs):
        return True
    if node.callee in (comm_ops.all_reduce_start, comm_ops.all_reduce_done):
        return False
    return has_effects(node)


def _share_checks(nodes: list) -> None:
    """One agreement check per group and run of the graph, not one per bucket: the ranks
    check that their inputs' shapes agree before each collective (a transport handed buffers
    of different sizes aborts), and in a graph of static shapes the first start of a group can
    check every start's at once (its `covers`; the later ones get an empty one), which spares
    the ranks a meeting per bucket. With a dynamic dimension each start checks its own."""
    by_group: dict = {}
    for node in nodes:
        if node.callee is comm_ops.all_reduce_start:
            by_group.setdefault(node.params["group"], []).append(node)
    for starts in by_group.values():
        avals = [v.aval for start in starts for v in start.inputs]
        if any(d is None for aval in avals for d in aval.shape):
            continue
        starts[0].params["covers"] = tuple((aval.shape, aval.dtype.name) for aval in avals)
        for start in starts[1:]:
            start.params["covers"] = ()


def _split(node: Apply) -> tuple[Apply, Apply]:
    token = Var(TensorType((), int64), "token")
    buffers = [Var(o.aval, None) for o in node.outputs]
    start = Apply(comm_ops.all_reduce_start, list(node.inputs), dict(node.params),
                  [token, *buffers], node.loc)
    done = Apply(comm_ops.all_reduce_done, [token, *buffers], dict(node.params),
                 list(node.outputs), node.loc)
    return start, done


def _schedule(nodes: list) -> list:
    """`nodes` with each all_reduce split, its start placed after the producers of its inputs
    and after every effectful node before it but the dones (which issue nothing)."""
    scheduled: list = []
    produced_at: dict[int, int] = {}  # id(value) -> index in `scheduled` of its producer
    floor = 0  # a start goes after the last effect issued so far
    for node in nodes:
        if node.callee is comm_ops.all_reduce:
            start, done = _split(node)
            at = max([floor] + [produced_at[id(v)] + 1 for v in node.inputs
                                if id(v) in produced_at])
            scheduled.insert(at, start)
            produced_at = {k: i + 1 if i >= at else i for k, i in produced_at.items()}
            for v in start.outputs:
                produced_at[id(v)] = at
            floor = at + 1
            node = done
        elif has_effects(node) and node.callee is not comm_ops.all_reduce_done:
            floor = len(scheduled) + 1
        for v in node.outputs:
            produced_at[id(v)] = len(scheduled)
        scheduled.append(node)
    return scheduled
