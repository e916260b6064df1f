"""`mindspore.communication.comm_func`: collectives as functions, on the collective primitives
(the same graph nodes as `ops.AllReduce` and the others: differentiable, batched under vmap).

    from cellgraph.communication import comm_func, init
    init()
    total, _ = comm_func.all_reduce(x)                 # (result, handle), as MindSpore returns
    gathered, handle = comm_func.all_gather_into_tensor(x, async_op=True)
    handle.wait()

As in MindSpore, `src` and `dst` are world ranks (converted to the group's ranks) and a `group`
of None is the world. The collectives run to completion before the functions return, so the
handle that `async_op=True` gives has nothing left to wait for: its `wait()` returns at once.
Point-to-point (`send`/`recv`, `isend`/`irecv`, `batch_isend_irecv`), `all_to_all_*`,
`gather_into_tensor` and `scatter_tensor` are not available yet.
"""
from __future__ import annotations

from cellgraph.compiler.builder import Tracer
from cellgraph.primitives import comm_ops
from cellgraph.runtime.tensor import Tensor

from .management import GlobalComm, get_group_rank_from_world_rank, get_group_size

__all__ = ["CommHandle", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast",
           "reduce", "reduce_scatter_tensor"]

_REDUCE_OPS = ("sum", "prod", "min", "max")


class CommHandle:
    """The handle of a collective started with `async_op=True`; `wait()` returns when it is
    done (here at once: the collective completed before its function returned)."""

    def wait(self) -> None:
        return None


def _group(group) -> str:
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    return group


def _check_tensor(tensor, api: str) -> None:
    if not isinstance(tensor, (Tensor, Tracer)):  # a Tracer: in a graph being compiled
        raise TypeError(f"For {api}, the input tensor must be tensor")


def _check_op(op, api: str) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in _REDUCE_OPS:
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max")


def _check_async(async_op, api: str) -> None:
    if not isinstance(async_op, bool):
        raise TypeError(f"For {api}, the input async_op must be a bool, got "
                        f"{type(async_op).__name__}")


def _outputs(output, async_op: bool):
    return output, (CommHandle() if async_op else None)


def all_reduce(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """(the reduction of every rank's `tensor`, handle or None)."""
    _check_tensor(tensor, "all_reduce")
    _check_op(op, "all_reduce")
    _check_async(async_op, "all_reduce")
    output = comm_ops.all_reduce(tensor, op=op, group=_group(group))[0]
    return _outputs(output, async_op)


def all_gather_into_tensor(tensor, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """(the ranks' tensors concatenated along axis 0 in rank order, handle or None)."""
    _check_tensor(tensor, "all_gather_into_tensor")
    _check_async(async_op, "all_gather_into_tensor")
    group = _group(group)
    output = comm_ops.all_gather(tensor, group=group, rank_size=get_group_size(group))
    return _outputs(output, async_op)


def reduce_scatter_tensor(tensor, op="sum", group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """(slice r along axis 0 of the reduction of every rank's tensor on group rank r, handle
    or None)."""
    _check_tensor(tensor, "reduce_scatter_tensor")
    _check_op(op, "reduce_scatter_tensor")
    _check_async(async_op, "reduce_scatter_tensor")
    group = _group(group)
    output = comm_ops.reduce_scatter(tensor, op=op, group=group,
                                     rank_size=get_group_size(group))
    return _outputs(output, async_op)


def broadcast(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """World rank `src`'s tensor, on every rank of the group."""
    _check_tensor(tensor, "broadcast")
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    group = _group(group)
    root = get_group_rank_from_world_rank(src, group)
    return comm_ops.broadcast(tensor, root_rank=root, group=group,
                              rank_size=get_group_size(group))[0]


def reduce(tensor, dst, op="sum", group=GlobalComm.WORLD_COMM_GROUP):
    """The reduction of every rank's tensor on world rank `dst`; zeros of its shape elsewhere."""
    _check_tensor(tensor, "reduce")
    _check_op(op, "reduce")
    if isinstance(dst, bool) or not isinstance(dst, int):
        raise TypeError("For reduce, the dst must be int")
    group = _group(group)
    root = get_group_rank_from_world_rank(dst, group)
    return comm_ops.reduce(tensor, dst=root, op=op, group=group,
                           rank_size=get_group_size(group))


def barrier(group=GlobalComm.WORLD_COMM_GROUP) -> None:
    """Returns when every rank of the group has reached it."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    comm_ops.barrier(group=group)
