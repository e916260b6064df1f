"""mint.distributed's collectives of Python objects: each object pickled into a tensor of bytes,
its size sent first. As in MindSpore, what arrives is unpickled by a restricted unpickler that
builds plain data only (numbers, strings, bytes, lists, tuples, dicts, sets, ranges, slices,
complex numbers): a peer's bytes never name a class or function to run."""
from __future__ import annotations

import builtins
import io
import itertools
import pickle

import numpy as np

from cellgraph.communication.management import get_group_size
from cellgraph.primitives import dtype as dt
from cellgraph.runtime.tensor import Tensor

from .collectives import all_gather, broadcast, gather, scatter
from .distributed import check_int, group_name, reserved, world_rank
from .point_to_point import recv, send

_SAFE_BUILTINS = {"range", "complex", "set", "frozenset", "slice"}


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "builtins" and name in _SAFE_BUILTINS:
            return getattr(builtins, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")


def _pickled(obj) -> np.ndarray:
    return np.frombuffer(pickle.dumps(obj), dtype=np.int8)


def _padded(data: np.ndarray, size: int) -> Tensor:
    """The bytes as a tensor of `size` (zeros after them), so that every rank sends one size."""
    return Tensor(np.concatenate([data, np.zeros(size - data.size, np.int8)]))


def _from_bytes(tensor: Tensor, size: int):
    return _RestrictedUnpickler(io.BytesIO(tensor.asnumpy().tobytes()[:int(size)])).load()


def _unpickled_runs(data: np.ndarray, counts) -> list:
    """The objects whose bytes lie one after another in `data`, `counts` bytes each."""
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(int)
    return [_from_bytes(Tensor(data[a:b]), b - a) for a, b in itertools.pairwise(offsets)]


def _sizes(values) -> Tensor:
    return Tensor(np.asarray(values, np.int32), dt.int32)


def _sent_padded(obj, group, size: int) -> tuple[Tensor, list, list]:
    """What all_gather_object and gather_object exchange: this rank's pickled `obj` padded to
    the longest any rank of the group sends (one all_gather of the lengths), receive buffers of
    that length, and every rank's length."""
    data = _pickled(obj)
    counts = [_sizes([0]) for _ in range(size)]
    all_gather(counts, _sizes([data.size]), group=group)
    longest = max(int(c.asnumpy()[0]) for c in counts)
    buffers = [Tensor(np.zeros(longest, np.int8)) for _ in range(size)]
    return _padded(data, longest), buffers, [int(c.asnumpy()[0]) for c in counts]


def all_gather_object(object_list, obj, group=None) -> None:
    """object_list[r] becomes group rank r's `obj`."""
    group = group_name(group)
    size = get_group_size(group)
    if not isinstance(object_list, list) or len(object_list) != size:
        raise TypeError(f"The len of argument object_list must be equal to group rank size, "
                        f"but got {len(object_list) if isinstance(object_list, list) else 0}.")
    mine, gathered, counts = _sent_padded(obj, group, size)
    all_gather(gathered, mine, group=group)
    for i, (data, count) in enumerate(zip(gathered, counts)):
        object_list[i] = _from_bytes(data, count)


def broadcast_object_list(object_list, src=0, group=None, device=None) -> None:
    """object_list becomes world rank `src`'s (same length on every rank)."""
    reserved("broadcast_object_list", device=device)
    group = group_name(group)
    check_int(src, "src", "broadcast_object_list")
    if not isinstance(object_list, list) or not object_list:
        raise TypeError("The object_list can not be empty.")
    here = world_rank() == src
    pieces = [_pickled(obj) for obj in object_list] if here else []
    counts = _sizes([p.size for p in pieces] if here else [0] * len(object_list))
    broadcast(counts, src, group)
    total = int(counts.asnumpy().sum())
    data = Tensor(np.concatenate(pieces) if here else np.zeros(total, np.int8))
    broadcast(data, src, group)
    if not here:
        object_list[:] = _unpickled_runs(data.asnumpy(), counts.asnumpy())


def gather_object(obj, object_gather_list=None, dst=0, group=None) -> None:
    """object_gather_list[r] on world rank `dst` becomes group rank r's `obj`."""
    group = group_name(group)
    check_int(dst, "dst", "gather_object")
    size = get_group_size(group)
    here = world_rank() == dst
    if here and (not isinstance(object_gather_list, list) or len(object_gather_list) != size):
        raise TypeError("The len of object_gather_list must be equal to group rank size, but "
                        f"got {len(object_gather_list or [])}.")
    mine, gathered, counts = _sent_padded(obj, group, size)
    gather(mine, gathered, dst, group)
    if here:
        for i, (data, count) in enumerate(zip(gathered, counts)):
            object_gather_list[i] = _from_bytes(data, count)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None) -> None:
    """scatter_object_output_list[0] on group rank r becomes world rank `src`'s
    scatter_object_input_list[r]."""
    group = group_name(group)
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError("The scatter_object_output_list can not be empty.")
    check_int(src, "src", "scatter_object_list")
    size = get_group_size(group)
    here = world_rank() == src
    if here and (not isinstance(scatter_object_input_list, list) or
                 len(scatter_object_input_list) != size):
        raise TypeError("The len of scatter_object_input_list must be equal to group rank "
                        "size.")
    data = [_pickled(o) for o in scatter_object_input_list] if here else []
    counts = _sizes([d.size for d in data] if here else [0] * size)
    broadcast(counts, src, group)
    longest = int(counts.asnumpy().max())
    pieces = ([_padded(d, longest) for d in data] if here else
              [Tensor(np.zeros(longest, np.int8)) for _ in range(size)])
    mine = Tensor(np.zeros(longest, np.int8))
    scatter(mine, pieces, src, group)
    from cellgraph.communication.management import get_rank

    scatter_object_output_list[0] = _from_bytes(mine, counts.asnumpy()[get_rank(group)])


def send_object_list(object_list, dst, group=None, device=None) -> None:
    """Send the objects to world rank `dst` (its recv_object_list gets them)."""
    reserved("send_object_list", device=device)
    check_int(dst, "dst", "send_object_list")
    group = group_name(group)
    if not isinstance(object_list, list):
        raise TypeError("For send_object_list, the object_list must be a list")
    if world_rank() == dst:
        raise ValueError("Invalid destination rank: destination rank should not be the same as "
                         "the rank of the current process.")
    pieces = [_pickled(obj) for obj in object_list]
    send(_sizes([p.size for p in pieces]), dst=dst, group=group)
    send(Tensor(np.concatenate(pieces)), dst=dst, group=group)


def recv_object_list(object_list, src=0, group=None, device=None) -> int:
    """object_list (as long as the sender's) becomes the objects world rank `src` sent."""
    reserved("recv_object_list", device=device)
    check_int(src, "src", "recv_object_list")
    group = group_name(group)
    if not isinstance(object_list, list):
        raise TypeError("For recv_object_list, the object_list must be a list")
    counts = _sizes([0] * len(object_list))
    recv(counts, src=src, group=group)
    data = Tensor(np.zeros(int(counts.asnumpy().sum()), np.int8))
    recv(data, src=src, group=group)
    object_list[:] = _unpickled_runs(data.asnumpy(), counts.asnumpy())
    return 0


__all__ = ["all_gather_object", "broadcast_object_list", "gather_object", "recv_object_list",
           "scatter_object_list", "send_object_list"]
