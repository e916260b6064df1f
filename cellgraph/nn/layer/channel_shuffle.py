"""ChannelShuffle: the channels of (N, C, ...) regrouped across `groups`."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from ..cell import Cell

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Cell):
    """Splits the channels (axis 1) of (N, C, ...), (N, C) included, into `groups` groups and interleaves them:
    channel g * (C / groups) + i goes to position i * groups + g."""

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int):
            raise DTypeError(f"ChannelShuffle: `groups` must be an int, got "
                             f"{type(groups).__name__}")
        if groups < 1:
            raise ArgumentValueError(f"ChannelShuffle: `groups` must be larger than 0, got "
                                     f"{groups}")
        self.groups = groups

    def construct(self, x):
        return P.channel_shuffle(x, self.groups)
