"""`mindspore.ops.communication`: mint.distributed's process groups and collectives, plus
`gather_into_tensor`, `scatter_tensor`, `all_to_all_v_c`, `TCPStore` and the switch between
MindSpore's two forms of each collective.

By default a collective works in place, as mint.distributed's do: it writes its result into
the tensors it is given and returns None, or a CommHandle with `async_op=True`.
`set_comm_ops_inplace(False, [names])` turns the named functions (all of them without a list)
to the other form, where the function returns its result: `all_reduce`,
`all_gather_into_tensor` and `reduce_scatter_tensor` return `(output, handle)`, `all_to_all`
a tuple of tensors and the handle, `all_to_all_single` `(output, handle)`, `recv` the received
tensor and `irecv` `(tensor, handle)`; they are the collective primitives of
`communication.comm_func`, so they also run inside compiled graphs and have gradients. The
other collectives have no such form in MindSpore and raise ValueError while it is chosen;
`send` and `isend` do the same in both. The switch is process-wide, as MindSpore's is.
"""
from __future__ import annotations

import functools
import math

from cellgraph.communication import comm_func, management
from cellgraph.mint import distributed as _dist
from cellgraph.mint.distributed import (
    P2POp,
    TCPStore,
    destroy_process_group,
    get_backend,
    get_global_rank,
    get_group_rank,
    get_process_group_ranks,
    get_rank,
    get_world_size,
    init_process_group,
    is_available,
    is_initialized,
    new_group,
)
from cellgraph.mint.distributed.distributed import (
    CommHandle,
    check_async,
    check_int,
    check_tensor,
)
from cellgraph.mint.distributed.distributed import group_name as _group

COMM_FUNCS = (
    "all_reduce", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_to_all",
    "all_to_all_single", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "isend",
    "irecv", "send", "recv", "gather", "scatter", "all_gather", "reduce_scatter", "barrier",
    "broadcast", "reduce", "batch_isend_irecv", "all_gather_object", "broadcast_object_list",
    "gather_object", "scatter_object_list", "send_object_list", "recv_object_list",
    "gather_into_tensor", "scatter_tensor", "all_to_all_v_c",
)
_INPLACE = dict.fromkeys(COMM_FUNCS, True)


def set_comm_ops_inplace(is_enable, func_list=None):
    """Choose the in-place form (True) or the returning form (False) of the functions named in
    `func_list` (every communication function when None)."""
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of "
                        f"bool, but got 'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        func_list = COMM_FUNCS
    elif not isinstance(func_list, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in _INPLACE:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
    for name in func_list:
        _INPLACE[name] = is_enable


def _both_forms(inplace, returning=None):
    """The function `inplace` is, in place; `returning` (same parameters) when the switch says
    so, or ValueError where MindSpore has no such form."""
    name = inplace.__name__

    @functools.wraps(inplace)
    def call(*args, **kwargs):
        if _INPLACE[name]:
            return inplace(*args, **kwargs)
        if returning is None:
            raise ValueError("Non-inplace mode is currently not supported.")
        return returning(*args, **kwargs)

    call.__module__ = __name__
    return call


def _averaged(reduce, tensor, op, group):
    """comm_func's reduction, with MindSpore's 'avg' (the sum over the group size; truncated
    for integers, as mint.distributed's)."""
    if op != "avg":
        return reduce(tensor, op)
    from cellgraph.mint import div

    size = get_world_size(group)
    total = reduce(tensor, "sum")
    if tensor.dtype.is_inexact:
        return total / size
    return div(total, size, rounding_mode="trunc")


def _all_reduce(tensor, op="sum", group=None, async_op=False):
    check_async(async_op)
    group = _group(group)
    if op == "avg":
        return _averaged(lambda t, o: comm_func.all_reduce(t, o, group)[0], tensor, op,
                         group), (CommHandle() if async_op else None)
    return comm_func.all_reduce(tensor, op, group, async_op)


def _all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    return comm_func.all_gather_into_tensor(input_tensor, _group(group), async_op)


def _reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    check_async(async_op)
    group = _group(group)
    result = _averaged(lambda t, o: comm_func.reduce_scatter_tensor(t, o, group)[0], input, op,
                       group)
    return result, (CommHandle() if async_op else None)


def _recv(tensor, src=0, group=None, tag=0):
    return comm_func.recv(tensor, src, _group(group), tag)


def _irecv(tensor, src=0, group=None, tag=0):
    return comm_func.irecv(tensor, src, _group(group), tag)


def _all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """The received tensors have the shapes of `output_tensor_list`'s entries (tensors or
    shapes)."""
    return comm_func.all_to_all_with_output_shape(list(output_tensor_list), input_tensor_list,
                                                  _group(group), async_op)


def _all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                       group=None, async_op=False):
    """`output` is not read: the result has `input`'s shape beyond axis 0, and
    sum(output_split_sizes) rows (input's when None)."""
    check_tensor(input, "all_to_all_single")
    rows = sum(output_split_sizes) if output_split_sizes else input.shape[0]
    return comm_func.all_to_all_single_with_output_shape(
        (rows,) + tuple(input.shape[1:]), input, output_split_sizes, input_split_sizes,
        _group(group), async_op)


all_reduce = _both_forms(_dist.all_reduce, _all_reduce)
all_gather_into_tensor = _both_forms(_dist.all_gather_into_tensor, _all_gather_into_tensor)
reduce_scatter_tensor = _both_forms(_dist.reduce_scatter_tensor, _reduce_scatter_tensor)
recv = _both_forms(_dist.recv, _recv)
irecv = _both_forms(_dist.irecv, _irecv)
all_to_all = _both_forms(_dist.all_to_all, _all_to_all)
all_to_all_single = _both_forms(_dist.all_to_all_single, _all_to_all_single)
send = _both_forms(_dist.send, _dist.send)
isend = _both_forms(_dist.isend, _dist.isend)
barrier = _dist.barrier
(all_gather_into_tensor_uneven, reduce_scatter_tensor_uneven, gather, scatter, all_gather,
 reduce_scatter, broadcast, reduce, batch_isend_irecv, all_gather_object, broadcast_object_list,
 gather_object, scatter_object_list, send_object_list, recv_object_list) = (
    _both_forms(getattr(_dist, name)) for name in (
        "all_gather_into_tensor_uneven", "reduce_scatter_tensor_uneven", "gather", "scatter",
        "all_gather", "reduce_scatter", "broadcast", "reduce", "batch_isend_irecv",
        "all_gather_object", "broadcast_object_list", "gather_object",
        "scatter_object_list", "send_object_list", "recv_object_list"))


def _placed(output, result, api: str):
    """Write `result` into `output` (in place), checking that it fits."""
    if tuple(output.shape) != tuple(result.shape):
        raise TypeError(f"For {api}, the output shape should be {tuple(result.shape)}, but got "
                        f"{tuple(output.shape)}.")
    output.assign_value(result.asnumpy().astype(output.asnumpy().dtype, copy=False))


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """On world rank `dst`, `output_tensor` becomes the ranks' `input_tensor`s concatenated
    along axis 0 in rank order; the other ranks' `output_tensor` is not touched."""
    check_tensor(input_tensor, "gather_into_tensor")
    check_tensor(output_tensor, "gather_into_tensor", "output tensor")
    check_int(dst, "dst", "gather_into_tensor")
    check_async(async_op)
    group = _group(group)
    result = comm_func.gather_into_tensor(input_tensor, dst, group)
    if management.get_rank(group) == management.get_group_rank_from_world_rank(dst, group):
        _placed(output_tensor, result, "gather_into_tensor")
    return CommHandle() if async_op else None


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """`output_tensor` on group rank r becomes slice r (along axis 0) of world rank `src`'s
    `input_tensor`."""
    check_tensor(input_tensor, "scatter_tensor")
    check_tensor(output_tensor, "scatter_tensor", "output tensor")
    check_int(src, "src", "scatter_tensor")
    check_async(async_op)
    group = _group(group)
    _placed(output_tensor, comm_func.scatter_tensor(input_tensor, src, group), "scatter_tensor")
    return CommHandle() if async_op else None


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):
    """send_count_matrix[i * size + j] rows (along axis 0) of rank i's `input` go to rank j;
    `output` becomes what this rank receives, in rank order (only its size must fit)."""
    check_tensor(input, "all_to_all_v_c")
    check_tensor(output, "all_to_all_v_c", "output tensor")
    check_async(async_op)
    group = _group(group)
    if not isinstance(send_count_matrix, list):
        raise TypeError(f"send_count_matrix must be list, but got {type(send_count_matrix)}")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    size = get_world_size(group)
    if size * size != len(send_count_matrix):
        raise TypeError(f"send_count_matrix must be square matrix, but got "
                        f"{len(send_count_matrix)}.")
    unit_in, unit_out = math.prod(input.shape[1:]), math.prod(output.shape[1:])
    if unit_in != unit_out:
        raise ValueError(f"The input and output dimensions except 0 must be of equal size, but "
                         f"got {unit_in} and {unit_out}.")
    rank = management.get_rank(group)
    sends = [n * unit_in for n in send_count_matrix[rank * size:(rank + 1) * size]]
    gets = [n * unit_in for n in send_count_matrix[rank::size]]
    if sum(gets) != output.size:
        raise ValueError(f"For all_to_all_v_c, this rank receives {sum(gets)} elements but the "
                         f"output holds {output.size}")
    received, _ = comm_func.all_to_all_single_with_output_shape(
        (sum(gets),), input.reshape((-1,)), gets, sends, group)
    _placed(output, received.reshape(tuple(output.shape)), "all_to_all_v_c")
    return CommHandle() if async_op else None


gather_into_tensor = _both_forms(gather_into_tensor)
scatter_tensor = _both_forms(scatter_tensor)
all_to_all_v_c = _both_forms(all_to_all_v_c)

__all__ = [
    "P2POp",
    "TCPStore",
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_into_tensor_uneven",
    "all_gather_object",
    "all_reduce",
    "all_to_all",
    "all_to_all_single",
    "all_to_all_v_c",
    "barrier",
    "batch_isend_irecv",
    "broadcast",
    "broadcast_object_list",
    "destroy_process_group",
    "gather",
    "gather_into_tensor",
    "gather_object",
    "get_backend",
    "get_global_rank",
    "get_group_rank",
    "get_process_group_ranks",
    "get_rank",
    "get_world_size",
    "init_process_group",
    "irecv",
    "is_available",
    "is_initialized",
    "isend",
    "new_group",
    "recv",
    "recv_object_list",
    "reduce",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven",
    "scatter",
    "scatter_object_list",
    "scatter_tensor",
    "send",
    "send_object_list",
    "set_comm_ops_inplace",
]
