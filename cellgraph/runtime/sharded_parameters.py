"""Parameters held as slices (semi-auto parallel): each rank keeps its slice of a weight that
the shard_operators pass split (compiler/sharding.py), and remembers how (`Parameter._split`:
layout, device matrix, groups, whole shape; the layout names, for each axis of the device
matrix, the dimension split along it or None), so that later graphs are traced with the whole
shape and read the same slice; checkpoints gather the whole or take this rank's slice of it.

A dimension split along several axes of the device matrix holds, on the rank with coordinates
(i0, i1), block i0 * d1 + i1 of d0 * d1: slices are taken along the axes in order, gathers in
the reverse order."""
from __future__ import annotations

from cellgraph.primitives.errors import ShapeError, UnsupportedError

from . import distributed


def _dim(entry) -> bool:
    return isinstance(entry, int) and not isinstance(entry, bool)


def this_ranks_slice(whole, layout, matrix, groups):
    """This rank's slice (a copy) of `whole`: along each axis of the device matrix that
    splits a dimension, this rank's part of it within the axis' group."""
    part = whole
    for entry, size, group in zip(layout, matrix, groups):
        if not _dim(entry):
            continue
        rank = distributed.group_rank_and_size(group)[0]
        step = part.shape[entry] // size
        part = part[(slice(None),) * entry + (slice(rank * step, (rank + 1) * step),)]
    return part.clone() if hasattr(part, "clone") else part.copy()


# name -> (layout, device matrix, whole shape, requires_grad) of each Parameter a sharded graph
# read (layout all None: held whole); the strategy file says this (train/strategy_file.py)
LAYOUTS: dict = {}
# called with LAYOUTS when a sharded graph adds to it (set_auto_parallel_context's
# strategy_ckpt_save_file writes the strategy file)
ON_NEW_LAYOUTS: list = []


def _record(graph, splits) -> None:
    matrix = next(s[1] for s in splits if s is not None)
    changed = False
    for param, split in zip(graph.weights, splits):
        layout = (None,) * len(matrix) if split is None else tuple(split[0])
        shape = tuple(param.aval.shape)
        entry = (layout, tuple(matrix), shape, bool(param.requires_grad))
        if LAYOUTS.get(param.name) != entry:
            LAYOUTS[param.name] = entry
            changed = True
    if changed:
        for hook in ON_NEW_LAYOUTS:
            hook(dict(LAYOUTS))


def hold_slices(graph) -> None:
    """Give each weight the data the graph reads: this rank's slice of a weight the
    shard_operators pass split (once; the Parameter remembers it), the whole of any other."""
    splits = graph.weight_splits or [None] * len(graph.weights)
    new = any(s is not None and getattr(p, "_split", None) is None
              for p, s in zip(graph.weights, splits))
    for param, split in zip(graph.weights, splits):
        held = getattr(param, "_split", None)
        if held is not None and held[:3] != split:
            raise UnsupportedError(
                f"Parameter {param.name!r} is held as slices {held[:3]} (layout, device "
                f"matrix, groups) by an earlier sharded graph, and this graph reads it "
                f"{'whole' if split is None else f'split as {split}'}; run the graphs that "
                f"share it with the same strategies")
        if held is not None or split is None:
            continue
        whole = param._data
        param._data = this_ranks_slice(whole, *split)
        param._split = (*split, tuple(whole.shape))
        param._version += 1
    if new:
        _record(graph, splits)


def split_dims(param) -> dict:
    """{tensor dimension: number of slices} of a Parameter held as slices ({} when whole)."""
    split = getattr(param, "_split", None)
    dims: dict = {}
    if split is not None:
        for entry, size in zip(split[0], split[1]):
            if _dim(entry):
                dims[entry] = dims.get(entry, 1) * size
    return dims


def slice_starts(param) -> tuple:
    """Where this rank's slice of a Parameter starts in the whole, per dimension (all 0 when
    it is held whole)."""
    split = getattr(param, "_split", None)
    if split is None:
        return (0,) * len(param.shape)
    starts = [0] * len(split[3])
    sizes = list(split[3])
    for entry, size, group in zip(*split[:3]):
        if _dim(entry):
            sizes[entry] //= size
            starts[entry] += distributed.group_rank_and_size(group)[0] * sizes[entry]
    return tuple(starts)


def gathered(param):
    """The whole value of a Parameter held as slices (a collective: every rank of its group
    must ask, in the same order), else the Parameter itself."""
    split = getattr(param, "_split", None)
    if split is None:
        return param
    from cellgraph.primitives.redistribution_ops import shard_all_gather

    value = param
    for entry, size, group in reversed(list(zip(*split[:3]))):
        if _dim(entry):
            value = shard_all_gather(value, axis=entry, group=group, rank_size=size)
    return value


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
