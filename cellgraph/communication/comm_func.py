"""`mindspore.communication.comm_func`: collectives as functions, on the collective primitives
(the same graph nodes as `ops.AllReduce` and the others: differentiable, batched under vmap).

    from cellgraph.communication import comm_func, init
    init()
    total, _ = comm_func.all_reduce(x)                 # (result, handle), as MindSpore returns
    gathered, handle = comm_func.all_gather_into_tensor(x, async_op=True)
    handle.wait()

As in MindSpore, `src` and `dst` are world ranks (converted to the group's ranks) and a `group`
of None is the world. `all_reduce(async_op=True)` outside a compiled graph returns while the
all-reduce runs (its output is complete once the handle's `wait()` has returned); the other
collectives run to completion before the functions return, so the handle that `async_op=True`
gives has nothing left to wait for: its `wait()` returns at once.
`send` and `recv` are primitives too (they block until the peer has taken or sent the data);
`isend` and `irecv` start the transfer and return a handle whose `wait()` blocks until it is
done, which needs the tensors themselves, so they run outside compiled graphs only; so does
`batch_isend_irecv` (P2POps all started before any is waited for), as in MindSpore.
`gather_into_tensor` and `scatter_tensor` are the CollectiveGather and CollectiveScatter
primitives (differentiable: each one's gradient is the other).
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

__all__ = ["CommHandle", "P2POp", "all_gather_into_tensor", "all_reduce",
           "all_to_all_single_with_output_shape", "all_to_all_with_output_shape", "barrier",
           "batch_isend_irecv", "broadcast", "gather_into_tensor", "irecv", "isend", "recv",
           "reduce", "reduce_scatter_tensor", "scatter_tensor", "send"]

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
    """(the reduction of every rank's `tensor`, handle or None). With async_op=True outside a
    compiled graph the all-reduce runs on torch.distributed's threads: the output holds the
    result once handle.wait() has returned (in a graph, overlap_collectives does the same)."""
    _check_tensor(tensor, "all_reduce")
    _check_op(op, "all_reduce")
    _check_async(async_op, "all_reduce")
    group = _group(group)
    if async_op and not isinstance(tensor, Tracer):
        token, output = comm_ops.all_reduce_start(tensor, op=op, group=group)
        return output, _Pending(token, output, op, group)
    output = comm_ops.all_reduce(tensor, op=op, group=group)[0]
    return _outputs(output, async_op)


class _Pending(CommHandle):
    """The handle of an all-reduce started with all_reduce_start: wait() runs its done."""

    def __init__(self, token, output, op: str, group: str):
        super().__init__(None, "AllReduce", group)
        self._started = (token, output, op)

    def wait(self) -> None:
        if self._started is not None:
            token, output, op = self._started
            self._started = None
            comm_ops.all_reduce_done(token, output, op=op, group=self._group)


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


def gather_into_tensor(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP):
    """On world rank `dst`, the ranks' tensors concatenated along axis 0 in rank order; on the
    other ranks a [1] placeholder, as MindSpore gives."""
    _check_tensor(tensor, "gather_into_tensor")
    if isinstance(dst, bool) or not isinstance(dst, int):
        raise TypeError("For gather_into_tensor, the dst must be int")
    group = _group(group)
    root = get_group_rank_from_world_rank(dst, group)
    output = comm_ops.collective_gather(tensor, dst=root, group=group,
                                        rank_size=get_group_size(group))
    if get_group_rank_from_world_rank(distributed.torch_distributed().get_rank(), group) == root:
        return output
    return comm_ops.gather_placeholder(output)


def scatter_tensor(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """Slice r along axis 0 of world rank `src`'s tensor, on group rank r (every rank passes a
    tensor of the same shape; only src's values are read)."""
    _check_tensor(tensor, "scatter_tensor")
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For scatter_tensor, the src must be int")
    group = _group(group)
    root = get_group_rank_from_world_rank(src, group)
    return comm_ops.collective_scatter(tensor, src=root, group=group,
                                       rank_size=get_group_size(group))


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


class P2POp:
    """One transfer of batch_isend_irecv: `op` "isend" or "irecv" (or those functions),
    `tensor` to send, or to receive the shape and dtype of (or a shape tuple, with
    `recv_dtype`), `peer` the world rank on the other end."""

    def __new__(cls, op, tensor, peer, group=None, tag=0, recv_dtype=None):
        if not (isinstance(op, str) or callable(op)):
            raise TypeError(f"op must be type of string or function, but got type of "
                            f"{type(op)}")
        name = op if isinstance(op, str) else getattr(op, "__name__", "")
        if name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got "
                             f"{name}")
        if not isinstance(tensor, (Tensor, tuple)):
            raise TypeError(f"Expected ``tensor`` to be type of tuple or Tensor, but got "
                            f"{type(tensor)}.")
        if tag != 0:
            raise NotImplementedError("``tag`` not support yet.")
        return object.__new__(cls)

    def __init__(self, op, tensor, peer, group=None, tag=0, recv_dtype=None):
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError(f"peer must be type of int, but got type of {type(peer)}")
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag
        self.recv_dtype = recv_dtype

    @property
    def kind(self) -> str:
        return self.op if isinstance(self.op, str) else self.op.__name__


def _receive_like(p2p: P2POp, index: int) -> np.ndarray:
    from cellgraph.primitives import dtype as dt

    if isinstance(p2p.tensor, Tensor):
        return np.empty(p2p.tensor.shape, np.asarray(p2p.tensor.asnumpy()).dtype)
    if p2p.recv_dtype is None:
        raise ValueError(f"'recv_dtype' of {index}th P2POp in p2p_op_list is None but op_types "
                         f"is 'irecv' and P2POp.tensor is a tuple type.")
    return np.empty(p2p.tensor, dt.as_dtype(p2p.recv_dtype).np)


def batch_isend_irecv(p2p_op_list) -> tuple:
    """Start every transfer of the list, wait for all: a tuple with, at each isend's place, a
    0 of the sent tensor's dtype (MindSpore's placeholder), at each irecv's, the tensor
    received."""
    if not isinstance(p2p_op_list, list):
        raise TypeError(f"p2p_op_list must be type of list, but got type of {p2p_op_list}.")
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("must be type of P2POp")
    group = _group(p2p_op_list[0].group)
    handle = distributed.group(group)
    dist = distributed.torch_distributed()
    works, outputs = [], []
    for i, p in enumerate(p2p_op_list):
        peer = handle.ranks[get_group_rank_from_world_rank(p.peer, group)]
        if p.kind == "isend":
            _check_tensor(p.tensor, "batch_isend_irecv")
            _eager(p.tensor, "batch_isend_irecv")
            data = np.ascontiguousarray(p.tensor.asnumpy())
            works.append(dist.isend(as_torch(data), dst=peer, group=handle.handle))
            outputs.append(Tensor(np.zeros((), data.dtype)))
        else:
            buffer = _receive_like(p, i)
            works.append(dist.irecv(as_torch(buffer), src=peer, group=handle.handle))
            outputs.append(buffer)
    CommHandle(_Works(works), "BatchISendIRecv", group).wait()
    return tuple(out if isinstance(out, Tensor) else Tensor(out) for out in outputs)


class _Works:
    """Several torch works waited for as one."""

    def __init__(self, works):
        self.works = works

    def wait(self) -> None:
        for work in self.works:
            work.wait()
