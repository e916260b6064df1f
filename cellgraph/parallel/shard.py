"""Operator-level sharding (`mindspore.parallel.shard`, `Layout`): cellgraph runs every operator
whole on each process, so a sharding strategy cannot be honoured; both raise saying so."""
from __future__ import annotations

from cellgraph.primitives.errors import UnsupportedError

_WHY = ("cellgraph runs data parallelism only: each process runs every operator whole "
        "(AutoParallel(network, 'semi_auto') with no strategies)")


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """Sharding a function or Cell's inputs across devices: not supported."""
    raise UnsupportedError(f"parallel.shard: in_strategy {in_strategy!r} shards operators "
                           f"across devices; {_WHY}")


class Layout:
    """A device-matrix tensor layout for `shard`: not supported."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        raise UnsupportedError(f"parallel.Layout: device_matrix {device_matrix!r} describes "
                               f"sharded tensors; {_WHY}")
