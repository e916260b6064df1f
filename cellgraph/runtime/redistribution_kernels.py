"""Kernels of the redistribution primitives (primitives/redistribution_ops.py): the moves of a
sharded tensor between layouts, on the collective kernels (collective_kernels.py), which run
along axis 0, so each moves the axis it works on to the front and back."""
from __future__ import annotations

from . import collective_kernels as C
from . import distributed
from .kernels import kernel


def _front(xp, x, axis: int):
    return xp.moveaxis(xp.asarray(x), axis, 0)


@kernel("shard_all_reduce")
def shard_all_reduce(xp, x, group=distributed.WORLD_NAMES[0], rank_size=1):
    return C.all_reduce(xp, x, op="sum", group=group)[0]


@kernel("shard_mirror")
def shard_mirror(xp, x, group=distributed.WORLD_NAMES[0], rank_size=1):
    return x


@kernel("shard_all_gather")
def shard_all_gather(xp, x, axis=0, group=distributed.WORLD_NAMES[0], rank_size=1):
    out = C.all_gather(xp, _front(xp, x, axis), group=group, rank_size=rank_size)
    return xp.moveaxis(out, 0, axis)


@kernel("shard_reduce_scatter")
def shard_reduce_scatter(xp, x, axis=0, group=distributed.WORLD_NAMES[0], rank_size=1):
    out = C.reduce_scatter(xp, _front(xp, x, axis), op="sum", group=group, rank_size=rank_size)
    return xp.moveaxis(out, 0, axis)


@kernel("shard_slice")
def shard_slice(xp, x, axis=0, group=distributed.WORLD_NAMES[0], rank_size=1):
    """This rank's slice of `x` along `axis` (a copy: the slice outlives `x`)."""
    rank = distributed.group_rank_and_size(group)[0]
    x = xp.asarray(x)
    size = x.shape[axis] // rank_size
    index = (slice(None),) * axis + (slice(rank * size, (rank + 1) * size),)
    return xp.asarray(x[index], copy=True)


@kernel("shard_all_to_all")
def shard_all_to_all(xp, x, split_axis=0, concat_axis=0, group=distributed.WORLD_NAMES[0],
                     rank_size=1):
    """Slice j of `x` along split_axis goes to rank j; the slices received, in rank order,
    are joined along concat_axis."""
    parts = xp.stack(xp.split(xp.asarray(x), rank_size, axis=split_axis))
    ones = (1,) * rank_size
    received = C.all_to_all(xp, parts, in_splits=ones, out_splits=ones, group=group,
                            rank_size=rank_size)
    return xp.concatenate([received[i] for i in range(rank_size)], axis=concat_axis)


@kernel("shard_rank")
def shard_rank(xp, group=distributed.WORLD_NAMES[0], rank_size=1):
    return xp.asarray(distributed.group_rank_and_size(group)[0], dtype=xp.int32)
