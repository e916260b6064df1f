"""`mindspore.parallel.Layout`, the device-matrix form of a sharding strategy, and
`mindspore.parallel.shard` (sharding a whole function or Cell: `fn` itself in a job of
one process, as MindSpore's; cellgraph does not shard it across processes).

    layout = Layout((2, 2), ("dp", "mp"))
    matmul.shard((layout("dp", "None"), layout("None", "mp")))    # = ((2, 1), (1, 2))

`layout(*names)` names, for each dimension of a tensor, the device-matrix axis it is split
over ("None": not split; a tuple of names: split over their product). The tensor map counts
the device axes from the right, as MindSpore's does. Operator strategies (`Primitive.shard`)
are honoured in semi_auto_parallel mode by the compiler's shard_operators pass.
"""
from __future__ import annotations

import copy
import math

from cellgraph.primitives.errors import ArgumentValueError, DTypeError, UnsupportedError

_NOT_SPLIT = "None"
_INTERLEAVED = "interleaved_parallel"


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """Sharding a function or Cell's inputs across devices. In a job of one process (as
    MindSpore's) there is nothing to shard and `fn` itself is returned; across processes it is
    not supported (shard the operators inside `fn` with `Primitive.shard`)."""
    from cellgraph.communication import management

    if management.get_group_size() == 1:
        return fn
    raise UnsupportedError(f"parallel.shard: in_strategy {in_strategy!r} shards a whole "
                           f"function; cellgraph shards operators: call `.shard(...)` on the "
                           f"primitives inside it in semi_auto_parallel mode")


class Layout:
    """A device matrix with a name per axis; calling it with one name (or "None") per tensor
    dimension gives the layout of a tensor."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise DTypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise DTypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ArgumentValueError("device_matrix length should be equal to alias_name length")
        for item in device_matrix:
            if not isinstance(item, int):
                raise DTypeError(f"The element of device_matrix must be int type, but "
                                 f"got:{type(item)}")
        for item in alias_name:
            if not isinstance(item, str):
                raise DTypeError(f"The element of alias_name must be str type, but "
                                 f"got:{type(item)}")
            if not item:
                raise ArgumentValueError("The element of alias_name can not be empty.")
            if item == _NOT_SPLIT:
                raise ArgumentValueError("The element of alias_name can not set 'None', because "
                                         "'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ArgumentValueError(f"Each element of alias_name {alias_name} should be "
                                     f"different")
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ArgumentValueError(f"When alias_name {alias_name} contains keyword "
                                     f"'interleaved_parallel', it should be at the last dim of "
                                     f"alias_name, which means the virtual sharding.")
        devices = math.prod(device_matrix)
        self._device_shape, self._alias_name, self._tensor_map = device_matrix, alias_name, None
        self._rank_list = list(range(devices))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise DTypeError(f"The rank_list should be a list, but got "
                                 f"{type(rank_list).__name__}.")
            for item in rank_list:
                if not isinstance(item, int):
                    raise DTypeError(f"The element of rank_list should be int, but got "
                                     f"{type(item).__name__}.")
            if len(rank_list) != devices:
                raise ArgumentValueError(f"The length of rank_list should be equal to the "
                                         f"product of device_matrix, but got {len(rank_list)} "
                                         f"and {devices}.")
            self._rank_list = rank_list

    def _axis(self, name: str, written: list) -> int:
        if name not in self._alias_name:
            raise ArgumentValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in written:
            raise ArgumentValueError(f"The axis {name} has been set more than one in "
                                     f"{self._alias_name}")
        written.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        written: list = []
        mapped = []
        for item in tensor_map:
            if isinstance(item, tuple):
                mapped.append(tuple(-1 if name == _NOT_SPLIT else self._axis(name, written)
                                    for name in item))
            else:
                mapped.append(-1 if item == _NOT_SPLIT else self._axis(item, written))
        layout = copy.deepcopy(self)
        layout._tensor_map = tuple(mapped)
        return layout

    def to_dict(self) -> dict:
        """device_matrix, tensor_map, interleaved_parallel, alias_name and rank_list."""
        if self._tensor_map is None:
            raise ArgumentValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name,
                "alias_name": self._alias_name, "rank_list": self._rank_list}

    def split_counts(self) -> tuple:
        """How many parts each tensor dimension is split into (the strategy this layout
        says)."""
        if self._tensor_map is None:
            raise ArgumentValueError("The tensor_map of layout is None")
        size = len(self._device_shape)

        def parts(entry) -> int:
            axes = entry if isinstance(entry, tuple) else (entry,)
            return math.prod(self._device_shape[size - 1 - a] for a in axes if a != -1)
        return tuple(parts(entry) for entry in self._tensor_map)
