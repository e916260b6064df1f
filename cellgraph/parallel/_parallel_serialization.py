"""`mindspore.parallel._parallel_serialization`: which ranks' checkpoint slices a rank reads
when its parameters are sharded across the optimizer's ranks."""
from __future__ import annotations

import math


def _get_param_list_when_first_dim_sharded(device_arrangement, first_dim_sharded_device_index,
                                           rank):
    """The ranks holding the slices rank `rank` needs for optimizer sharding, when the first
    dimension of a parameter is already cut along axis `first_dim_sharded_device_index` of
    `device_arrangement` (counted from the right). Only a cut along the leftmost axis narrows
    them: the ranks form blocks of `total / that axis's size`, and rank reads its own block;
    any other cut interleaves the ranks, so every rank is needed."""
    total = math.prod(device_arrangement)
    if first_dim_sharded_device_index != len(device_arrangement) - 1:
        return list(range(total))
    block = total // device_arrangement[-1 - first_dim_sharded_device_index]
    start = rank - rank % block
    return list(range(start, start + block))
