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
`send` and `recv` are primitives too (they block until the peer has taken or sent the data);
`isend` and `irecv` start the transfer and return a handle whose `wait()` blocks until it is
done, which needs the tensors themselves, so they run outside compiled graphs only.
`batch_isend_irecv`, `gather_into_tensor` and `scatter_tensor` are not available yet.
"""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.builder import Tracer
from cellgraph.primitives import comm_ops
from cellgraph.primitives.errors import UnsupportedError
from cellgraph.runtime import distributed
from cellgraph.runtime.collective_kernels import as_torch
from cellgraph.runtime.tensor import Tensor

from .management import GlobalComm, get_group_rank_from_world_rank, get_group_size

__all__ = ["CommHandle", "all_gather_into_tensor", "all_reduce",
           "all_to_all_single_with_output_shape", "all_to_all_with_output_shape", "barrier",
           "broadcast", "irecv", "isend", "recv", "reduce", "reduce_scatter_tensor", "send"]

_REDUCE_OPS = ("sum", "prod", "min", "max")


class CommHandle:
    """The handle of a collective started with `async_op=True` (or isend/irecv); `wait()`
    returns when it is done (at once for the collectives, which completed before their
    function returned)."""

    def __init__(self, work=None, label: str = "", group: str = ""):
        self._work, self._label, self._group = work, label, group

    def wait(self) -> None:
        if self._work is not None:
            from cellgraph.runtime.collective_kernels import reporting

            with reporting(self._label, self._group):
                self._work.wait()
            self._work = None


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


def _int_arg(value, name: str, api: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For {api}, the {name} must be int")
    return value


def send(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0) -> None:
    """Send `tensor` to world rank `dst`; returns when the peer's recv has it."""
    _check_tensor(tensor, "send")
    group = _group(group)
    peer = get_group_rank_from_world_rank(_int_arg(dst, "dst", "send"), group)
    comm_ops.send(tensor, dst=peer, group=group, tag=_int_arg(tag, "tag", "send"),
                  rank_size=get_group_size(group))


def recv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """The tensor world rank `src` sent; `tensor` gives its shape and dtype."""
    _check_tensor(tensor, "recv")
    group = _group(group)
    peer = get_group_rank_from_world_rank(_int_arg(src, "src", "recv"), group)
    return comm_ops.recv(tensor, src=peer, group=group, tag=_int_arg(tag, "tag", "recv"),
                         rank_size=get_group_size(group))


def _eager(tensor, api: str):
    if isinstance(tensor, Tracer):
        raise UnsupportedError(f"{api}: runs outside compiled graphs only (its handle needs the "
                               f"tensor itself); use send/recv in a graph")


def isend(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0) -> CommHandle:
    """Start sending `tensor` to world rank `dst`: the handle's wait() returns when it is sent."""
    _check_tensor(tensor, "isend")
    _eager(tensor, "isend")
    group = _group(group)
    world = distributed.group(group)
    peer = get_group_rank_from_world_rank(_int_arg(dst, "dst", "isend"), group)
    data = as_torch(np.ascontiguousarray(tensor.asnumpy()))
    work = distributed.torch_distributed().isend(data, dst=world.ranks[peer], group=world.handle,
                                                 tag=_int_arg(tag, "tag", "isend"))
    return CommHandle(work, "Send", group)


def irecv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Start receiving from world rank `src` into a new tensor of `tensor`'s shape and dtype:
    (that tensor, handle); its values are there once handle.wait() has returned."""
    _check_tensor(tensor, "irecv")
    _eager(tensor, "irecv")
    group = _group(group)
    world = distributed.group(group)
    peer = get_group_rank_from_world_rank(_int_arg(src, "src", "irecv"), group)
    output = Tensor(np.empty(tensor.shape, np.asarray(tensor.asnumpy()).dtype))
    buffer = as_torch(output.asnumpy())  # the received bytes land in the output's memory
    if not np.shares_memory(buffer.numpy(), output.asnumpy()):
        raise UnsupportedError("irecv: this backend keeps tensors outside host memory; use recv")
    work = distributed.torch_distributed().irecv(buffer, src=world.ranks[peer],
                                                 group=world.handle,
                                                 tag=_int_arg(tag, "tag", "irecv"))
    return output, CommHandle(work, "Receive", group)


def _shape_of(output_shape, api: str) -> tuple:
    shape = output_shape.shape if isinstance(output_shape, (Tensor, Tracer)) else output_shape
    if not isinstance(shape, (tuple, list)) or any(
            isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in shape):
        raise TypeError(f"For {api}, the output_shape must be a tuple of ints or a Tensor, got "
                        f"{output_shape!r}")
    return tuple(shape)


def _equal_splits(rows: int, size: int, what: str, api: str) -> tuple:
    if rows % size:
        raise ValueError(f"For {api}, the {what} first dimension {rows} must be divisible by "
                         f"the group size {size} when no split sizes are given")
    return (rows // size,) * size


def all_to_all_single_with_output_shape(output_shape, tensor, output_split_sizes=None,
                                        input_split_sizes=None, group=None, async_op=False):
    """(rows received from each rank, concatenated in rank order, handle or None): this rank
    sends input_split_sizes[i] rows of `tensor` (split along axis 0) to group rank i and gets
    output_split_sizes[j] rows from rank j; without split sizes, equal parts."""
    api = "all_to_all_single_with_output_shape"
    _check_tensor(tensor, api)
    _check_async(async_op, api)
    group = _group(group)
    size = get_group_size(group)
    shape = _shape_of(output_shape, api)
    if not shape or tuple(shape[1:]) != tuple(tensor.shape[1:]):
        raise ValueError(f"For {api}, output_shape {list(shape)} must match the tensor's shape "
                         f"{list(tensor.shape)} beyond the first dimension")
    ins = tuple(input_split_sizes) if input_split_sizes else _equal_splits(
        tensor.shape[0], size, "tensor's", api)
    outs = tuple(output_split_sizes) if output_split_sizes else _equal_splits(
        shape[0], size, "output_shape's", api)
    if sum(outs) != shape[0]:
        raise ValueError(f"For {api}, output_split_sizes {list(outs)} must add up to "
                         f"output_shape's first dimension {shape[0]}")
    output = comm_ops.all_to_all(tensor, in_splits=ins, out_splits=outs, group=group,
                                 rank_size=size)
    return _outputs(output, async_op)


def all_to_all_with_output_shape(output_shape_list, input_tensor_list, group=None,
                                 async_op=False):
    """(the tensors received, one from each rank in rank order and of the shapes in
    `output_shape_list`, handle or None): this rank sends input_tensor_list[i] to group rank i."""
    from cellgraph.primitives.array_ops import concat, reshape

    api = "all_to_all_with_output_shape"
    _check_async(async_op, api)
    group = _group(group)
    size = get_group_size(group)
    if not isinstance(input_tensor_list, (tuple, list)) or len(input_tensor_list) != size or \
            not isinstance(output_shape_list, (tuple, list)) or len(output_shape_list) != size:
        raise TypeError(f"For {api}, input_tensor_list and output_shape_list must hold one "
                        f"entry for each of the {size} ranks")
    for t in input_tensor_list:
        _check_tensor(t, api)
    shapes = [_shape_of(s, api) for s in output_shape_list]
    dtype = input_tensor_list[0].dtype
    if any(t.dtype != dtype for t in input_tensor_list):
        raise TypeError(f"For {api}, the input tensors must share one dtype")
    flat = concat(*[reshape(t, shape=(int(np.prod(t.shape, dtype=np.int64)),))
                    for t in input_tensor_list], axis=0)
    ins = tuple(int(np.prod(t.shape, dtype=np.int64)) for t in input_tensor_list)
    outs = tuple(int(np.prod(s, dtype=np.int64)) for s in shapes)
    received = comm_ops.all_to_all(flat, in_splits=ins, out_splits=outs, group=group,
                                   rank_size=size)
    pieces, start = [], 0
    for shape, count in zip(shapes, outs):
        pieces.append(reshape(received[start:start + count], shape=shape))
        start += count
    return _outputs(tuple(pieces), async_op)
