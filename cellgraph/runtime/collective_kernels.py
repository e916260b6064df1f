"""Kernels of the collective primitives (ops/comm_ops.py), over torch.distributed.

They join the shared kernel table (runtime/kernels.py), so every backend has them: a kernel
takes the backend's arrays (NumPy arrays, torch tensors or CuPy arrays; the namespace `xp`
makes any other operand one) and hands them to torch without copying where their memory allows (`torch.from_numpy` for
contiguous NumPy arrays, DLPack for CuPy); the results come back as the same kind of array,
again without a copy. The one copy a collective makes is its output buffer: `all_reduce` packs
its inputs into one flat buffer (per dtype), reduces it in place with one collective and hands
out views of it, which is how a bucket of gradients costs one message.

A collective that fails (a peer died, closing its connections, or stopped answering within
the timeout) raises CommunicationError naming the operation, the group and this rank.
"""
from __future__ import annotations

import contextlib

import numpy as np

from cellgraph.primitives.errors import CommunicationError

from . import distributed
from .kernels import kernel

_TORCH_OPS = {"sum": "SUM", "max": "MAX", "min": "MIN", "prod": "PRODUCT"}


def _torch():
    distributed.torch_distributed()  # the error that says what to install
    import torch

    return torch


def as_torch(a):
    """`a` as a torch tensor sharing its memory (a copy only for strided or read-only NumPy
    arrays and Python numbers)."""
    torch = _torch()
    if isinstance(a, torch.Tensor):
        return a
    if isinstance(a, (np.ndarray, np.generic)):
        arr = np.asarray(a)
        if not (arr.flags.c_contiguous and arr.flags.writeable):
            arr = np.array(arr, order="C")
        return torch.from_numpy(arr)
    if hasattr(a, "__dlpack__"):
        return torch.from_dlpack(a)
    return torch.as_tensor(np.asarray(a))


def like(result, original):
    """A torch result as the kind of array `original` was (no copy)."""
    if isinstance(original, _torch().Tensor):
        return result
    if type(original).__module__.startswith("cupy"):
        import cupy

        return cupy.from_dlpack(result)
    return result.numpy()


@contextlib.contextmanager
def _reporting(label: str, group: str):
    try:
        yield
    except RuntimeError as e:
        rank = distributed.torch_distributed().get_rank()
        raise CommunicationError(
            f"{label} on group {group!r} failed on rank {rank}: a peer died or did not answer "
            f"within {distributed.timeout_s():g} s ({str(e).splitlines()[0]})") from None


def _reduce_op(op: str):
    return getattr(distributed.torch_distributed().ReduceOp, _TORCH_OPS[op])


@kernel("all_reduce")
def all_reduce(xp, *xs, op="sum", group=distributed.WORLD_NAMES[0]):
    """One collective per dtype over the packed inputs; outputs are views of the result."""
    xs = [xp.asarray(x) for x in xs]
    handle = distributed.group(group).handle  # before init: says to call init
    torch, dist = _torch(), distributed.torch_distributed()
    tensors = [as_torch(x) for x in xs]
    outs: list = [None] * len(xs)
    by_dtype: dict = {}
    for i, t in enumerate(tensors):
        by_dtype.setdefault(t.dtype, []).append(i)
    for members in by_dtype.values():
        flat = torch.cat([tensors[i].reshape(-1) for i in members])
        with _reporting("AllReduce", group):
            dist.all_reduce(flat, op=_reduce_op(op), group=handle)
        pieces = flat.split([tensors[i].numel() for i in members])
        for i, piece in zip(members, pieces):
            outs[i] = like(piece.view(tensors[i].shape), xs[i])
    return tuple(outs)


@kernel("all_gather")
def all_gather(xp, x, group=distributed.WORLD_NAMES[0], rank_size=1):
    x = xp.asarray(x)
    handle = distributed.group(group).handle
    torch, dist = _torch(), distributed.torch_distributed()
    t = as_torch(x).contiguous()
    out = torch.empty((t.shape[0] * rank_size,) + tuple(t.shape[1:]), dtype=t.dtype,
                      device=t.device)
    gather = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
    with _reporting("AllGather", group):
        gather(out, t, group=handle)
    return like(out, x)


@kernel("reduce_scatter")
def reduce_scatter(xp, x, op="sum", group=distributed.WORLD_NAMES[0], rank_size=1):
    x = xp.asarray(x)
    handle = distributed.group(group).handle
    torch, dist = _torch(), distributed.torch_distributed()
    t = as_torch(x).contiguous()
    out = torch.empty((t.shape[0] // rank_size,) + tuple(t.shape[1:]), dtype=t.dtype,
                      device=t.device)
    scatter = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor
    with _reporting("ReduceScatter", group):
        scatter(out, t, op=_reduce_op(op), group=handle)
    return like(out, x)


@kernel("broadcast")
def broadcast(xp, *xs, root_rank=0, group=distributed.WORLD_NAMES[0], rank_size=1):
    xs = [xp.asarray(x) for x in xs]
    g = distributed.group(group)
    torch, dist = _torch(), distributed.torch_distributed()
    tensors = [as_torch(x) for x in xs]
    outs = []
    for t, x in zip(tensors, xs):
        buf = t.clone(memory_format=torch.contiguous_format)
        with _reporting("Broadcast", group):
            dist.broadcast(buf, src=g.ranks[root_rank], group=g.handle)
        outs.append(like(buf, x))
    return tuple(outs)


@kernel("reduce")
def reduce(xp, x, dst=0, op="sum", group=distributed.WORLD_NAMES[0], rank_size=1):
    """The reduction on group rank `dst`; zeros on the other ranks."""
    x = xp.asarray(x)
    g = distributed.group(group)
    torch, dist = _torch(), distributed.torch_distributed()
    buf = as_torch(x).clone(memory_format=torch.contiguous_format)
    with _reporting("Reduce", group):
        dist.reduce(buf, dst=g.ranks[dst], op=_reduce_op(op), group=g.handle)
    if distributed.group_rank_and_size(group)[0] != dst:
        buf.zero_()  # what the other ranks' buffers hold after a reduce is unspecified
    return like(buf, x)


@kernel("barrier")
def barrier(xp, group=distributed.WORLD_NAMES[0]):
    handle = distributed.group(group).handle
    with _reporting("Barrier", group):
        distributed.torch_distributed().barrier(group=handle)
    return ()
