"""Parameters held as slices (semi-auto parallel): each rank keeps its slice of a weight that
the shard_operators pass split (compiler/sharding.py), and remembers how (`Parameter._split`:
axis, ranks, group, whole shape), so that later graphs are traced with the whole shape and
read the same slice; checkpoints gather the whole or take this rank's slice of it."""
from __future__ import annotations

from cellgraph.primitives.errors import ShapeError, UnsupportedError

from . import distributed


def this_ranks_slice(whole, axis: int, ranks: int, group: str):
    """This rank's slice (a copy) of `whole` along `axis`, one of `ranks` equal slices."""
    rank = distributed.group_rank_and_size(group)[0]
    size = whole.shape[axis] // ranks
    part = whole[(slice(None),) * axis + (slice(rank * size, (rank + 1) * size),)]
    return part.clone() if hasattr(part, "clone") else part.copy()


def hold_slices(graph) -> None:
    """Give each weight the data the graph reads: this rank's slice of a weight the
    shard_operators pass split (once; the Parameter remembers it), the whole of any other."""
    splits = graph.weight_splits or [None] * len(graph.weights)
    for param, split in zip(graph.weights, splits):
        held = getattr(param, "_split", None)
        if held is not None and held[:3] != split:
            raise UnsupportedError(
                f"Parameter {param.name!r} is held as slices {held[:3]} (axis, ranks, group) "
                f"by an earlier sharded graph, and this graph reads it "
                f"{'whole' if split is None else f'split as {split}'}; run the graphs that "
                f"share it with the same strategies")
        if held is not None or split is None:
            continue
        whole = param._data
        param._data = this_ranks_slice(whole, *split)
        param._split = (*split, tuple(whole.shape))
        param._version += 1


def gathered(param):
    """The whole value of a Parameter held as slices (a collective: every rank of its group
    must ask, in the same order), else the Parameter itself."""
    split = getattr(param, "_split", None)
    if split is None:
        return param
    from cellgraph.primitives.redistribution_ops import shard_all_gather

    axis, ranks, group, _ = split
    return shard_all_gather(param, axis=axis, group=group, rank_size=ranks)


def slice_to_hold(param, array):
    """`array` (a checkpoint's value: the whole parameter, or the slice this rank holds) as
    the data `param` holds."""
    split = getattr(param, "_split", None)
    if split is None or tuple(array.shape) == tuple(param.shape):
        return array
    if tuple(array.shape) != tuple(split[3]):
        raise ShapeError(f"Parameter {param.name!r} is held as slices of shape "
                         f"{tuple(param.shape)} of a whole of shape {tuple(split[3])}; got "
                         f"{tuple(array.shape)}")
    return this_ranks_slice(array, *split[:3])
