"""The process groups collectives run on, kept by torch.distributed (Gloo on the CPU, NCCL when
the backend is `torch_cuda`).

`init_world` joins the world the launcher described in torchrun's environment variables
(`RANK`, `WORLD_SIZE`, `LOCAL_RANK`, `LOCAL_WORLD_SIZE`, `MASTER_ADDR`, `MASTER_PORT`):
rank 0 hosts the rendezvous store and every rank connects to it, on one machine or many. A
process started without them (`python train.py`) is a world of one, so a data-parallel
script also runs alone. PyTorch is an optional dependency, imported here on first use only.

Groups are named as in MindSpore; the world group answers to each of MindSpore's spellings.
"""
from __future__ import annotations

import atexit
import datetime
import os
from dataclasses import dataclass

from cellgraph.primitives import comm_ops
from cellgraph.primitives.errors import ArgumentValueError, CommunicationError

WORLD_NAMES = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
# How long a collective waits for its peers before failing (a peer that exits closes its
# connections, which fails the collective at once; this bounds a peer that hangs).
DEFAULT_TIMEOUT_S = 300.0
_BACKENDS = {None: None, "gloo": "gloo", "mccl": "gloo", "nccl": "nccl"}


@dataclass
class Group:
    name: str
    ranks: tuple  # world ranks, in group-rank order
    handle: object  # the torch ProcessGroup; None for the world


_state: dict = {"groups": {}, "backend": None, "timeout_s": DEFAULT_TIMEOUT_S}


def torch_distributed():
    """torch.distributed, or an error that says what to install."""
    try:
        import torch.distributed as dist
    except ImportError:
        raise CommunicationError("collective communication runs on PyTorch's torch.distributed, "
                                 "which is not installed: pip install 'cellgraph[distributed]'"
                                 ) from None
    if not dist.is_available():
        raise CommunicationError("this PyTorch build has no torch.distributed; install a build "
                                 "with it: pip install 'cellgraph[distributed]'")
    return dist


def is_initialized() -> bool:
    return bool(_state["groups"])


def _pick_backend(requested: str | None) -> str:
    from .backend import get_backend

    if requested not in _BACKENDS:
        raise ArgumentValueError(f"init: backend_name must be one of nccl, gloo, mccl (or None "
                                 f"to choose by device), got {requested!r}")
    if _BACKENDS[requested] is not None:
        return _BACKENDS[requested]
    return "nccl" if get_backend().name.startswith("torch_cuda") else "gloo"


def _timeout_s() -> float:
    text = os.environ.get("CELLGRAPH_COMM_TIMEOUT", "")
    try:
        return float(text) if text else DEFAULT_TIMEOUT_S
    except ValueError:
        raise ArgumentValueError(f"CELLGRAPH_COMM_TIMEOUT must be a number of seconds, got "
                                 f"{text!r}") from None


def _cluster_timeout_s() -> float:
    """Seconds the rendezvous waits for all ranks: CELLGRAPH_CLUSTER_TIMEOUT (the launcher's
    --cluster_time_out; negative: without end), else the collectives' timeout."""
    text = os.environ.get("CELLGRAPH_CLUSTER_TIMEOUT", "")
    try:
        value = float(text) if text else _timeout_s()
    except ValueError:
        raise ArgumentValueError(f"CELLGRAPH_CLUSTER_TIMEOUT must be a number of seconds, got "
                                 f"{text!r}") from None
    return value if value >= 0 else 10 * 365 * 86400.0


@dataclass(frozen=True)
class Rendezvous:
    """Where the ranks meet when the program says so itself (mint.distributed's init_method
    "tcp://HOST:PORT", where rank 0 hosts the store, or a torch store the program made),
    rather than the launcher's environment."""

    host: str
    port: int
    rank: int
    world_size: int
    timeout_s: float
    store: object = None


def init_world(backend_name: str | None = None, rendezvous: Rendezvous | None = None) -> str:
    """Join the world described by `rendezvous`, else by the environment; returns the torch
    backend used."""
    if is_initialized():
        return _state["backend"]
    dist = torch_distributed()
    backend = _pick_backend(backend_name)
    timeout_s = _timeout_s()
    timeout = datetime.timedelta(seconds=timeout_s)
    if backend == "nccl":  # each process of a machine on its own GPU
        import torch

        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    if rendezvous is not None:
        store = rendezvous.store or dist.TCPStore(
            rendezvous.host, rendezvous.port, rendezvous.world_size,
            is_master=rendezvous.rank == 0,
            timeout=datetime.timedelta(seconds=rendezvous.timeout_s))
        dist.init_process_group(backend, store=store, rank=rendezvous.rank,
                                world_size=rendezvous.world_size, timeout=timeout)
    elif "RANK" in os.environ or "WORLD_SIZE" in os.environ:
        missing = [v for v in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
                   if v not in os.environ]
        if missing:
            raise CommunicationError(f"init: the environment names a distributed job but lacks "
                                     f"{', '.join(missing)}; start workers with `cellgraph "
                                     f"launch` (or torchrun), which sets them all")
        if backend == "nccl":
            import torch

            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        rank, world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        # the rendezvous waits --cluster_time_out seconds for every rank (msrun's option)
        store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                              world_size, is_master=rank == 0,
                              timeout=datetime.timedelta(seconds=_cluster_timeout_s()))
        dist.init_process_group(backend, store=store, rank=rank, world_size=world_size,
                                timeout=timeout)
    else:
        dist.init_process_group(backend, store=dist.HashStore(), rank=0, world_size=1,
                                timeout=timeout)
    world = tuple(range(dist.get_world_size()))
    _state.update(backend=backend, timeout_s=timeout_s,
                  groups={name: Group(name, world, None) for name in WORLD_NAMES})
    comm_ops.set_group_info(group_rank_and_size)
    atexit.register(release)  # torch aborts a process that exits holding a process group
    return backend


def release() -> None:
    """Leave the world: every group is destroyed."""
    if not is_initialized():
        return
    torch_distributed().destroy_process_group()
    _state["groups"] = {}
    comm_ops.set_group_info(comm_ops.not_initialized)


def group(name: str) -> Group:
    if not is_initialized():
        comm_ops.not_initialized(name)
    try:
        return _state["groups"][name]
    except KeyError:
        if _device_axis_groups(name):
            return _state["groups"][name]
        known = sorted(set(_state["groups"]) - set(WORLD_NAMES[1:]))
        raise CommunicationError(f"unknown communication group {name!r}; known groups: "
                                 f"{', '.join(known)} (create one with create_group)") from None


def _device_axis_groups(name: str) -> bool:
    """Create the groups along one axis of a device matrix (operator sharding over a device
    matrix of several axes: redistribution_ops.device_axis_group) when `name` names one;
    every rank creates all of them in the same order (torch.distributed's new_group is
    collective) and keeps its own under `name`."""
    import itertools

    from cellgraph.primitives.redistribution_ops import parse_device_axis_group

    parsed = parse_device_axis_group(name)
    if parsed is None:
        return False
    matrix, axis = parsed
    world = _state["groups"][WORLD_NAMES[0]].ranks
    size = 1
    for d in matrix:
        size *= d
    if size != len(world) or not 0 <= axis < len(matrix):
        raise CommunicationError(f"group {name!r}: a device matrix {matrix} does not cover "
                                 f"the {len(world)} ranks of the world")
    me = torch_distributed().get_rank()
    strides = [1] * len(matrix)
    for i in range(len(matrix) - 2, -1, -1):
        strides[i] = strides[i + 1] * matrix[i + 1]
    others = [range(d) if i != axis else range(1) for i, d in enumerate(matrix)]
    for coords in itertools.product(*others):
        base = sum(c * s for c, s in zip(coords, strides))
        ranks = tuple(base + k * strides[axis] for k in range(matrix[axis]))
        handle = torch_distributed().new_group(ranks=list(ranks))
        if me in ranks:
            _state["groups"][name] = Group(name, ranks, handle)
    return True


def group_rank_and_size(name: str) -> tuple[int, int]:
    g = group(name)
    world_rank = torch_distributed().get_rank()
    if world_rank not in g.ranks:
        raise CommunicationError(f"rank {world_rank} is not a member of group {name!r} "
                                 f"(ranks {list(g.ranks)})")
    return g.ranks.index(world_rank), len(g.ranks)


def create_group(name: str, ranks: list[int]) -> None:
    """A named group of world ranks; every process of the world must call it (SPMD)."""
    world_size = len(group(WORLD_NAMES[0]).ranks)  # raises when not initialized
    if name in _state["groups"]:
        raise ArgumentValueError(f"create_group: group {name!r} already exists")
    if len(set(ranks)) != len(ranks) or not all(0 <= r < world_size for r in ranks):
        raise ArgumentValueError(f"create_group: rank_ids must be distinct ranks in 0.."
                                 f"{world_size - 1}, got {list(ranks)}")
    ordered = tuple(sorted(ranks))
    handle = torch_distributed().new_group(ranks=list(ordered))
    _state["groups"][name] = Group(name, ordered, handle)


def group_names() -> list[str]:
    return list(_state["groups"])


def add_world_alias(name: str) -> None:
    """Let `name` name the world group too (mint.distributed's group_name)."""
    world = group(WORLD_NAMES[0])
    if name in _state["groups"] and _state["groups"][name].ranks != world.ranks:
        raise ArgumentValueError(f"group name {name!r} already names another group")
    _state["groups"][name] = Group(name, world.ranks, None)


def destroy_group(name: str) -> None:
    g = group(name)
    if g.handle is None:
        raise ArgumentValueError(f"destroy_group: the world group {name!r} cannot be destroyed")
    torch_distributed().destroy_process_group(g.handle)
    del _state["groups"][name]


def backend_name() -> str | None:
    return _state["backend"]


def timeout_s() -> float:
    return _state["timeout_s"]
