"""`mindspore.mint.distributed`: process groups and collectives in torch.distributed's form, as
MindSpore 2.10 spells them, outside compiled graphs (as in MindSpore, PyNative only).

    from cellgraph.mint import distributed as dist
    dist.init_process_group()                # the job `cellgraph launch` (or msrun) started
    dist.all_reduce(grad)                    # in place; returns None
    handle = dist.all_gather_into_tensor(out, x, async_op=True)
    handle.wait()                            # `out` holds the ranks' tensors from here on

The functions write their results into the tensors they are given (a collective's output, or
its input for all_reduce, broadcast and the like). With `async_op=True` the collective runs on
torch.distributed's threads and the function returns a CommHandle at once; the result is in
the output tensors once `handle.wait()` has returned. Ranks (`src`, `dst`, a P2POp's `peer`)
are world ranks, as in MindSpore; a `group` of None is the world. Before the data moves, the
ranks check that they pass the same shapes and dtypes where the collective needs them to (one
small all-gather), and otherwise raise ValueError on every rank naming each rank's shapes.
"""
from __future__ import annotations

import hashlib
import warnings

from cellgraph.communication import management
from cellgraph.communication.management import GlobalComm
from cellgraph.primitives.comm_ops import ReduceOp
from cellgraph.primitives.errors import CommunicationError
from cellgraph.runtime import distributed
from cellgraph.runtime.collective_kernels import as_torch, check_agreement, reporting
from cellgraph.runtime.tensor import Tensor

from .store import TCPStore

_REDUCE_OPS = ("sum", "prod", "min", "max", "avg")
_TORCH_OPS = {"sum": "SUM", "prod": "PRODUCT", "min": "MIN", "max": "MAX", "avg": "SUM"}


def _dist():
    return distributed.torch_distributed()


def _torch():
    _dist()
    import torch

    return torch


# ----- handles ---------------------------------------------------------------------------------

class CommHandle:
    """What a collective started with `async_op=True` returns: `wait()` returns once it has
    completed and its results are in the output tensors."""

    def __init__(self, works=(), finish=None, label: str = "", group: str = ""):
        self._works, self._finish = list(works), finish
        self._label, self._group = label, group

    def wait(self) -> None:
        with reporting(self._label, self._group):
            for work in self._works:
                work.wait()
        self._works = []
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()


def run(label: str, group: str, start, finish, async_op: bool):
    """start() starts the collectives (returns their torch works); finish() stores the results
    once they are done. Returns the handle (async_op) or None, having waited."""
    with reporting(label, group):
        works = [w for w in start() if w is not None]
    handle = CommHandle(works, finish, label, group)
    if async_op:
        return handle
    handle.wait()
    return None


# ----- argument checks, as MindSpore words them ------------------------------------------------

def group_name(group) -> str:
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def check_tensor(tensor, api: str, what: str = "input tensor") -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the {what} must be tensor")


def check_tensors(tensors, api: str, what: str = "tensor list") -> None:
    if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"For {api}, the {what} must be a list of tensors")


def check_async(async_op) -> None:
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")


def check_int(value, name: str, api: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For {api}, the {name} must be int")
    return value


def check_op(op, api: str, allowed=_REDUCE_OPS) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in allowed:
        raise TypeError(f"For {api}, the input op value must be one of {', '.join(allowed)}")


def reserved(api: str, **given) -> None:
    """MindSpore accepts these parameters and lets them take no effect; so do we, saying so."""
    for name, value in given.items():
        if value not in (None, False):
            warnings.warn(f"{api}: `{name}` takes no effect (a reserved parameter, as in "
                          f"MindSpore)", stacklevel=3)


# ----- tensors to torch and back ---------------------------------------------------------------

def view(tensor):
    """The tensor's data as a contiguous torch tensor (its memory where it allows)."""
    return as_torch(tensor._data).contiguous()


def copy(tensor):
    """A torch buffer the collective may write into, holding the tensor's data."""
    torch = _torch()
    return as_torch(tensor._data).clone(memory_format=torch.contiguous_format)


def empty_like(tensor, shape=None):
    source = as_torch(tensor._data)
    return _torch().empty(tuple(tensor.shape) if shape is None else tuple(shape),
                          dtype=source.dtype, device=source.device)


def store(tensor, buffer) -> None:
    """Write the torch `buffer` into `tensor` (in place, as MindSpore's collectives do)."""
    tensor.assign_value(buffer.detach().cpu().numpy())


def torch_op(op: str):
    return getattr(_dist().ReduceOp, _TORCH_OPS[op])


def averaged(buffer, op: str, size: int):
    """`buffer` divided by the group size where op is 'avg' (a sum on the wire)."""
    if op != "avg":
        return buffer
    if buffer.is_floating_point() or buffer.is_complex():
        return buffer / size
    return _torch().div(buffer, size, rounding_mode="trunc")


def handle_of(group: str):
    return distributed.group(group).handle


def world_rank() -> int:
    return _dist().get_rank()


def agree(label: str, group: str, tensors) -> None:
    check_agreement(label, group, tensors)


# ----- the process group -----------------------------------------------------------------------

def is_available() -> bool:
    """Whether collectives can run here: torch.distributed is installed."""
    try:
        _dist()
    except CommunicationError:
        return False
    return True


def is_initialized() -> bool:
    return distributed.is_initialized()


def _parse_tcp_url(url: str) -> tuple[str, int]:
    if not isinstance(url, str) or not url.startswith("tcp://") or ":" not in url[6:]:
        raise RuntimeError(f"Failed to parse TCP URL from 'init_method': {url}")
    host, _, port = url[6:].rpartition(":")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise RuntimeError(f"Failed to parse TCP URL from 'init_method': {url}")
    return host, int(port)


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None) -> None:
    """Join the job: the launcher's (`cellgraph launch`, msrun, torchrun) by default, or the one
    `init_method` ("tcp://HOST:PORT") or `store` (a TCPStore) names with `world_size` and
    `rank`. `backend` "hccl" (MindSpore's default) takes the platform's transport (Gloo on the
    CPU, NCCL with the torch_cuda backend); "gloo", "mccl" and "nccl" name one."""
    reserved("init_process_group", pg_options=pg_options, device_id=device_id)
    if backend not in ("hccl", "mccl", "gloo", "nccl"):
        raise ValueError("Only support hccl now, please setting backend to hccl or using "
                         "default value")
    if init_method is not None and store is not None:
        raise ValueError("Only one of init_method and store is supported.")
    if not isinstance(group_name, str):
        raise TypeError(f"init_process_group: group_name must be a str, got {group_name!r}")
    if init_method is not None or store is not None:
        if world_size <= 0:
            raise ValueError("Specified world_size must be a positive integer.")
        if rank < 0:
            raise ValueError("Specified rank must be a non-negative integer.")
        seconds = 300.0 if timeout is None else timeout.total_seconds()
        if store is not None:
            if not isinstance(store, TCPStore):
                raise TypeError(f"init_process_group: store must be a TCPStore, got "
                                f"{type(store).__name__}")
            rendezvous = distributed.Rendezvous(store.host, store.port, rank, world_size,
                                                seconds, store._store)
        else:
            host, port = _parse_tcp_url(init_method)
            rendezvous = distributed.Rendezvous(host, port, rank, world_size, seconds)
        management.init_with(None if backend == "hccl" else backend, rendezvous)
    else:
        management.init(None if backend == "hccl" else backend)
    if group_name:
        distributed.add_world_alias(group_name)
    size = get_world_size(group_name or None)
    if world_size not in (-1, size):
        raise ValueError("world_size is wrong, please using default value or setting: ", size)


def destroy_process_group(group=None) -> None:
    """Destroy `group`; None or the world group: every group, leaving the job."""
    if group is None or group == GlobalComm.WORLD_COMM_GROUP or group in distributed.WORLD_NAMES:
        management.release()
        return
    if not isinstance(group, str):
        raise TypeError(f"For 'destroy_group', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    management.destroy_group(group)


def _or_minus_one(fn, api: str, group):
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    try:
        return fn(group)
    except CommunicationError as e:  # MindSpore logs the failure and answers -1
        warnings.warn(f"{api}: {e}", stacklevel=3)
        return -1


def get_rank(group=None) -> int:
    """This process's rank in `group` (before init: RANK_ID, else 0); -1 (with a warning) where
    the query fails."""
    return _or_minus_one(management.get_rank, "get_rank", group)


def get_world_size(group=None) -> int:
    """The number of processes in `group` (before init: RANK_SIZE, else 1); -1 (with a
    warning) where the query fails."""
    return _or_minus_one(management.get_group_size, "get_world_size", group)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None) -> str:
    """A group of the world ranks `ranks` (every process calls it, in the same order); its
    name, MindSpore's: BACKEND_N_SHA1(ranks). None: the world group's name."""
    reserved("new_group", timeout=timeout, use_local_synchronization=use_local_synchronization,
             group_desc=group_desc)
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"ranks must be list, but got {type(ranks)}")
    ranks = sorted(ranks)
    backend = "hccl" if backend is None else backend
    if not isinstance(backend, str) or backend not in ("hccl", "mccl"):
        raise TypeError(f"the input backend must be hccl or mccl, but got {backend}")
    if pg_options is not None:
        raise NotImplementedError("new_group: `pg_options` (HCCL group settings) are not "
                                  "supported")
    name = f"{backend}_{len(ranks)}_" + hashlib.sha1(
        "_".join(map(str, ranks)).encode()).hexdigest()
    try:
        if name not in management.known_groups():  # asked again: the same group
            management.create_group(name, ranks)
    except (CommunicationError, ValueError) as e:  # MindSpore logs it and answers ""
        warnings.warn(f"new_group: {e}", stacklevel=2)
        return ""
    return name


def get_backend(group=None) -> str:
    """As MindSpore answers: "hccl" for None and for a group named with hccl, "mccl" for one
    named with mccl, else the transport in use ("gloo" or "nccl")."""
    if group is None:
        return "hccl"
    if not isinstance(group, str):
        raise TypeError(f"For 'get_backend', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    for name in ("hccl", "mccl"):
        if name in group:
            return name
    return distributed.backend_name()


def get_global_rank(group, group_rank) -> int:
    if isinstance(group_rank, bool) or not isinstance(group_rank, int):
        raise TypeError(f"The group_rank argument must be integer, but got {type(group_rank)}.")
    if group is None or group == GlobalComm.WORLD_COMM_GROUP:
        return group_rank
    if not isinstance(group, str):
        raise TypeError(f"For 'get_global_rank', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    return management.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank) -> int:
    if isinstance(global_rank, bool) or not isinstance(global_rank, int):
        raise TypeError(f"The global_rank argument must be integer, but got "
                        f"{type(global_rank)}.")
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"For 'get_group_rank_from_world_rank', the argument 'group' must be "
                        f"type of string, but got 'group' type : {type(group)}.")
    return management.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None) -> list:
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"For 'get_process_group_ranks', the argument 'group' must be type of "
                        f"string or None, but got 'group' type : {type(group)}.")
    return management.get_process_group_ranks(group)


def barrier(group=None, async_op=False, device_ids=None):
    """Returns (or the handle's wait() does) when every rank of the group has reached it."""
    reserved("barrier", device_ids=device_ids)
    group = group_name(group)
    check_async(async_op)
    return run("Barrier", group, lambda: [_dist().barrier(group=handle_of(group),
                                                          async_op=True)], None, async_op)


__all__ = ["CommHandle", "ReduceOp", "barrier", "destroy_process_group", "get_backend",
           "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
           "get_world_size", "init_process_group", "is_available", "is_initialized",
           "new_group"]
