"""`mindspore.communication.management`: init, ranks, groups (over runtime/distributed.py)."""
from __future__ import annotations

import os

from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime import distributed

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_BY_BACKEND = {"gloo": MCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP}


class GlobalComm:
    """The communication settings MindSpore programs read: after `init()`, BACKEND names the
    transport and WORLD_COMM_GROUP the world group's name (every spelling names the world)."""

    BACKEND = "gloo"
    WORLD_COMM_GROUP = WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


def init(backend_name: str | None = None) -> None:
    """Join the job the launcher started (a world of one when started alone). `backend_name`:
    None (NCCL when the backend is torch_cuda, else Gloo), "nccl", "gloo" or "mccl" (Gloo)."""
    if backend_name is not None and not isinstance(backend_name, str):
        raise DTypeError(f"init: backend_name must be a str, got {backend_name!r}")
    if backend_name == "hccl":
        raise ArgumentValueError("init: backend_name 'hccl' needs Ascend devices; on CPUs and "
                                 "GPUs use None (the default), 'gloo' or 'nccl'")
    init_with(backend_name, None)


def init_with(backend_name: str | None, rendezvous) -> None:
    """init, the ranks meeting where `rendezvous` (a runtime.distributed.Rendezvous) says
    rather than where the launcher's environment does (None)."""
    backend = distributed.init_world(backend_name, rendezvous)
    GlobalComm.BACKEND = backend
    GlobalComm.WORLD_COMM_GROUP = _WORLD_BY_BACKEND[backend]
    GlobalComm.INITED = True


def release() -> None:
    """Leave the job: destroy every group."""
    distributed.release()
    GlobalComm.INITED = False


def _check_group(op: str, group) -> str:
    if not isinstance(group, str):
        raise DTypeError(f"{op}: `group` must be a str, got {type(group).__name__} {group!r}")
    return group


def _before_init(op: str, group, variable: str, default: str) -> int | None:
    """Before `init()`, what MindSpore's rank and size queries give for any group: the
    launcher's environment variable `variable` (`default` when unset); None after init."""
    _check_group(op, group)
    if distributed.is_initialized():
        return None
    return int(os.environ.get(variable, default))


def get_rank(group: str = WORLD_COMM_GROUP) -> int:
    """This process's rank in `group` (before init: RANK_ID, else 0)."""
    early = _before_init("get_rank", group, "RANK_ID", "0")
    return early if early is not None else distributed.group_rank_and_size(group)[0]


def get_group_size(group: str = WORLD_COMM_GROUP) -> int:
    """The number of processes in `group` (before init: RANK_SIZE, else 1)."""
    early = _before_init("get_group_size", group, "RANK_SIZE", "1")
    return early if early is not None else distributed.group_rank_and_size(group)[1]


def get_local_rank(group: str = WORLD_COMM_GROUP) -> int:
    """This process's rank among the processes of its machine (the world group only; before
    init: LOCAL_RANK, else 0)."""
    early = _before_init("get_local_rank", group, "LOCAL_RANK", "0")
    if early is not None:
        return early
    _world_only("get_local_rank", group)
    return int(os.environ.get("LOCAL_RANK", "0"))


def get_local_rank_size(group: str = WORLD_COMM_GROUP) -> int:
    """How many processes of the job run on this machine (the world group only; before init:
    LOCAL_RANK_SIZE, else 1)."""
    early = _before_init("get_local_rank_size", group, "LOCAL_RANK_SIZE", "1")
    if early is not None:
        return early
    _world_only("get_local_rank_size", group)
    return int(os.environ.get("LOCAL_WORLD_SIZE", str(get_group_size())))


def _world_only(op: str, group) -> None:
    distributed.group(_check_group(op, group))  # raises before init
    if group not in distributed.WORLD_NAMES:
        raise ArgumentValueError(f"{op}: only the world group is supported, got {group!r}")


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    ranks = distributed.group(_check_group("get_world_rank_from_group_rank", group)).ranks
    if not 0 <= group_rank_id < len(ranks):
        raise ArgumentValueError(f"get_world_rank_from_group_rank: group {group!r} has ranks "
                                 f"0..{len(ranks) - 1}, got {group_rank_id}")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    ranks = distributed.group(_check_group("get_group_rank_from_world_rank", group)).ranks
    if world_rank_id not in ranks:
        raise ArgumentValueError(f"get_group_rank_from_world_rank: world rank {world_rank_id} "
                                 f"is not in group {group!r} (ranks {list(ranks)})")
    return ranks.index(world_rank_id)


def get_process_group_ranks(group: str = WORLD_COMM_GROUP) -> list[int]:
    """The world ranks of the processes in `group`, in group-rank order."""
    return list(distributed.group(_check_group("get_process_group_ranks", group)).ranks)


def create_group(group: str, rank_ids: list[int], options=None) -> None:
    """A group of world ranks named `group`; every process of the job calls it, in the same
    order (torch.distributed builds groups collectively). MindSpore's `options` configure
    an Ascend (HCCL) group and are not supported."""
    _check_group("create_group", group)
    if options is not None:
        raise NotImplementedError("create_group: `options` (HCCL group settings) are not "
                                  "supported")
    if not isinstance(rank_ids, (list, tuple)) or not all(
            isinstance(r, int) and not isinstance(r, bool) for r in rank_ids):
        raise DTypeError(f"create_group: rank_ids must be a list of ints, got {rank_ids!r}")
    distributed.create_group(group, list(rank_ids))


def known_groups() -> list[str]:
    """The names of the groups this process belongs to (every spelling of the world's)."""
    return distributed.group_names()


def destroy_group(group: str) -> None:
    distributed.destroy_group(_check_group("destroy_group", group))
