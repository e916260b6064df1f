"""`mindspore.communication`: join the processes of a distributed job and name groups of them.

    from cellgraph.communication import init, get_rank, get_group_size
    init()                       # Gloo on the CPU, NCCL with the torch_cuda backend
    print(get_rank(), "of", get_group_size())

The transport is torch.distributed (an optional extra: pip install 'cellgraph[distributed]');
start the processes with `cellgraph launch --nproc N script.py` (or torchrun).
"""
from . import comm_func, management  # noqa: F401  (the submodule paths)
from .management import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    create_group,
    destroy_group,
    get_group_rank_from_world_rank,
    get_group_size,
    get_local_rank,
    get_local_rank_size,
    get_process_group_ranks,
    get_rank,
    get_world_rank_from_group_rank,
    init,
    release,
)

__all__ = [
    "HCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP",
    "NCCL_WORLD_COMM_GROUP",
    "GlobalComm",
    "create_group",
    "destroy_group",
    "get_group_rank_from_world_rank",
    "get_group_size",
    "get_local_rank",
    "get_local_rank_size",
    "get_process_group_ranks",
    "get_rank",
    "get_world_rank_from_group_rank",
    "init",
    "management",
    "release",
]
