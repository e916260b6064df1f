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
        shape = tuple(x.shape)
        if len(shape) < 2:
            raise ArgumentValueError(f"ChannelShuffle: the input must have at least 2 dimensions "
                                     f"(N, C, ...), got shape {shape}")
        n, c = shape[0], shape[1]
        if c % self.groups:
            raise ArgumentValueError(f"ChannelShuffle: the channels ({c}) must be divisible by "
                                     f"`groups` ({self.groups})")
        out = P.reshape(x, (n, self.groups, c // self.groups, -1))
        out = P.transpose(out, (0, 2, 1, 3))
        return P.reshape(out, shape)

    def extend_repr(self) -> str:
        return f"groups={self.groups}"
