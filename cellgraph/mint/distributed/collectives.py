"""mint.distributed's collectives over tensors: each writes its result into the tensors it is
given and returns None, or a CommHandle with `async_op=True` (see distributed.py)."""
from __future__ import annotations

from cellgraph.communication.management import get_group_size
from cellgraph.primitives.comm_ops import ReduceOp
from cellgraph.runtime.collective_kernels import check_splits

from .distributed import (
    _dist,
    _torch,
    agree,
    averaged,
    check_async,
    check_int,
    check_op,
    check_tensor,
    check_tensors,
    copy,
    empty_like,
    group_name,
    handle_of,
    run,
    store,
    torch_op,
    view,
    world_rank,
)


def _gather_single(dist):
    return getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor


def _check_shape(tensor, expected, api: str, what: str = "output") -> None:
    if tuple(tensor.shape) != tuple(expected):
        raise TypeError(f"For {api}, the {what} shape should be {tuple(expected)}, but got "
                        f"{tuple(tensor.shape)}.")


def _check_dtype(tensor, expected, api: str, what: str = "output") -> None:
    if tensor.dtype != expected:
        raise TypeError(f"For {api}, the {what} dtype should be {expected}, but got "
                        f"{tensor.dtype}.")


def _same_dtype_and_shape(tensors, api: str) -> None:
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            raise TypeError(f"tensor_lists dtype must be the same, but got {tensors[0].dtype} "
                            f"and {t.dtype}.")
        if tuple(t.shape) != tuple(tensors[0].shape):
            raise TypeError(f"tensor_lists shape must be the same, but got "
                            f"{tuple(tensors[0].shape)} and {tuple(t.shape)}.")


def _list_for_group(tensors, size: int) -> None:
    if not tensors or len(tensors) != size:
        raise TypeError(f"The argument list tensor len must be equal to group rank size, but "
                        f"got {len(tensors)}.")


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """`tensor` becomes the reduction ('sum', 'prod', 'min', 'max', 'avg') of every rank's."""
    check_tensor(tensor, "all_reduce")
    check_op(op, "all_reduce")
    group = group_name(group)
    check_async(async_op)
    buffer = copy(tensor)
    agree("AllReduce", group, [buffer])
    return run("AllReduce", group,
               lambda: [_dist().all_reduce(buffer, op=torch_op(op), group=handle_of(group),
                                           async_op=True)],
               lambda: store(tensor, averaged(buffer, op, get_group_size(group))), async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """`output_tensor` becomes the ranks' `input_tensor`s along axis 0, in rank order."""
    api = "all_gather_into_tensor"
    check_tensor(input_tensor, api)
    check_tensor(output_tensor, api, "output tensor")
    group = group_name(group)
    check_async(async_op)
    size = get_group_size(group)
    _check_shape(output_tensor, (input_tensor.shape[0] * size,) + tuple(input_tensor.shape[1:]),
                 api)
    _check_dtype(output_tensor, input_tensor.dtype, api)
    source, buffer = view(input_tensor), empty_like(output_tensor)
    agree("AllGather", group, [source])
    return run("AllGather", group,
               lambda: [_gather_single(_dist())(buffer, source, group=handle_of(group),
                                                async_op=True)],
               lambda: store(output_tensor, buffer), async_op)


def _split_sizes(sizes, rows: int, size: int, what: str) -> list:
    if sizes is None or len(sizes) == 0:
        if rows % size:
            raise ValueError(f"{what} shape at dim 0 must be divided by world_size, but got "
                             f"{rows} and {size}.")
        return [rows // size] * size
    sizes = [int(s) for s in sizes]
    if len(sizes) != size or sum(sizes) != rows:
        raise ValueError(f"the split sizes {sizes} must give one size for each of the {size} "
                         f"ranks and add up to {rows}")
    return sizes


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,
                                  async_op=False):
    """`output` becomes the ranks' `input`s along axis 0, rank r's of output_split_sizes[r]
    rows (equal parts when None)."""
    api = "all_gather_into_tensor_uneven"
    check_tensor(input, api)
    check_tensor(output, api, "output tensor")
    group = group_name(group)
    check_async(async_op)
    size, rank = get_group_size(group), _group_rank(group)
    sizes = _split_sizes(output_split_sizes, output.shape[0], size, "output")
    if input.shape[0] != sizes[rank] or tuple(input.shape[1:]) != tuple(output.shape[1:]):
        raise ValueError(f"For {api}, rank {rank}'s input of shape {tuple(input.shape)} must "
                         f"have {sizes[rank]} rows of output's shape {tuple(output.shape[1:])}")
    torch, most = _torch(), max(sizes)
    padded = empty_like(input, (most,) + tuple(input.shape[1:]))
    padded.zero_()
    padded[:input.shape[0]] = view(input)
    gathered = empty_like(output, (most * size,) + tuple(output.shape[1:]))

    def finish():
        store(output, torch.cat([gathered[r * most:r * most + n] for r, n in enumerate(sizes)]))

    return run("AllGather", group,
               lambda: [_gather_single(_dist())(gathered, padded, group=handle_of(group),
                                                async_op=True)], finish, async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    """`output` becomes slice r (along axis 0) of the reduction of every rank's `input`, on
    group rank r."""
    api = "reduce_scatter_tensor"
    check_tensor(input, api)
    check_tensor(output, api, "output tensor")
    check_op(op, api)
    group = group_name(group)
    check_async(async_op)
    size = get_group_size(group)
    _check_shape(input, (output.shape[0] * size,) + tuple(output.shape[1:]), api, "input")
    _check_dtype(output, input.dtype, api)
    source, buffer = view(input), empty_like(output)
    agree("ReduceScatter", group, [source])
    scatter = getattr(_dist(), "reduce_scatter_single", None) or _dist().reduce_scatter_tensor
    return run("ReduceScatter", group,
               lambda: [scatter(buffer, source, op=torch_op(op), group=handle_of(group),
                                async_op=True)],
               lambda: store(output, averaged(buffer, op, size)), async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op=ReduceOp.SUM,
                                 group=None, async_op=False):
    """`output` becomes rank r's part (input_split_sizes[r] rows along axis 0; equal parts
    when None) of the reduction of every rank's `input`."""
    api = "reduce_scatter_tensor_uneven"
    check_tensor(input, api)
    check_tensor(output, api, "output tensor")
    check_op(op, api, ("sum", "min", "max", "avg"))
    group = group_name(group)
    check_async(async_op)
    size, rank = get_group_size(group), _group_rank(group)
    sizes = _split_sizes(input_split_sizes, input.shape[0], size, "input")
    _check_shape(output, (sizes[rank],) + tuple(input.shape[1:]), api)
    buffer = copy(input)
    agree("ReduceScatter", group, [buffer])
    begin = sum(sizes[:rank])
    return run("ReduceScatter", group,
               lambda: [_dist().all_reduce(buffer, op=torch_op(op), group=handle_of(group),
                                           async_op=True)],
               lambda: store(output, averaged(buffer[begin:begin + sizes[rank]], op, size)),
               async_op)


def _group_rank(group: str) -> int:
    from cellgraph.communication.management import get_rank

    return get_rank(group)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    """`tensor` on world rank `dst` becomes the reduction of every rank's (the others' stay as
    they were)."""
    check_tensor(tensor, "reduce")
    check_int(dst, "dst", "reduce")
    check_op(op, "reduce")
    group = group_name(group)
    check_async(async_op)
    buffer = copy(tensor)
    agree("Reduce", group, [buffer])

    def finish():
        if world_rank() == dst:
            store(tensor, averaged(buffer, op, get_group_size(group)))

    return run("Reduce", group,
               lambda: [_dist().reduce(buffer, dst=dst, op=torch_op(op), group=handle_of(group),
                                       async_op=True)], finish, async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """`tensor` becomes world rank `src`'s on every rank of the group."""
    check_tensor(tensor, "broadcast")
    check_int(src, "src", "broadcast")
    group = group_name(group)
    check_async(async_op)
    buffer = copy(tensor)
    agree("Broadcast", group, [buffer])
    return run("Broadcast", group,
               lambda: [_dist().broadcast(buffer, src=src, group=handle_of(group),
                                          async_op=True)],
               lambda: store(tensor, buffer), async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """tensor_list[r] becomes group rank r's `tensor`."""
    check_tensors(tensor_list, "all_gather")
    _same_dtype_and_shape(list(tensor_list), "all_gather")
    check_tensor(tensor, "all_gather_into_tensor")
    group = group_name(group)
    check_async(async_op)
    _list_for_group(tensor_list, get_group_size(group))
    _check_shape(tensor, tensor_list[_group_rank(group)].shape, "all_gather")
    _check_dtype(tensor, tensor_list[0].dtype, "all_gather")
    source, buffers = view(tensor), [empty_like(t) for t in tensor_list]
    agree("AllGather", group, [source])

    def finish():
        for t, b in zip(tensor_list, buffers):
            store(t, b)

    return run("AllGather", group,
               lambda: [_dist().all_gather(buffers, source, group=handle_of(group),
                                           async_op=True)], finish, async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """`output` on group rank r becomes the reduction of every rank's input_list[r]."""
    check_tensors(input_list, "reduce_scatter")
    _same_dtype_and_shape(list(input_list), "reduce_scatter")
    check_tensor(output, "reduce_scatter", "output tensor")
    group = group_name(group)
    check_async(async_op)
    check_op(op, "reduce_scatter")
    size = get_group_size(group)
    _list_for_group(input_list, size)
    _check_shape(output, input_list[_group_rank(group)].shape, "reduce_scatter")
    _check_dtype(output, input_list[0].dtype, "reduce_scatter")
    torch = _torch()
    stacked = torch.stack([view(t) for t in input_list])
    buffer = empty_like(output, (1,) + tuple(output.shape))
    agree("ReduceScatter", group, [stacked])
    scatter = getattr(_dist(), "reduce_scatter_single", None) or _dist().reduce_scatter_tensor
    return run("ReduceScatter", group,
               lambda: [scatter(buffer, stacked, op=torch_op(op), group=handle_of(group),
                                async_op=True)],
               lambda: store(output, averaged(buffer[0], op, size)), async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """`tensor` on group rank r becomes world rank `src`'s scatter_list[r]."""
    check_tensors(scatter_list, "scatter")
    _same_dtype_and_shape(list(scatter_list), "scatter")
    check_tensor(tensor, "scatter_tensor", "output tensor")
    check_int(src, "src", "scatter_tensor")
    group = group_name(group)
    check_async(async_op)
    here = world_rank() == src
    if here:
        _check_list_like(scatter_list, tensor, get_group_size(group))
    buffer = copy(tensor)
    agree("Scatter", group, [buffer])
    pieces = [view(t) for t in scatter_list] if here else None
    return run("Scatter", group,
               lambda: [_dist().scatter(buffer, pieces, src=src, group=handle_of(group),
                                        async_op=True)],
               lambda: store(tensor, buffer), async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """gather_list[r] on world rank `dst` becomes group rank r's `tensor`."""
    check_tensor(tensor, "gather")
    check_tensors(gather_list, "gather")
    _same_dtype_and_shape(list(gather_list), "gather")
    check_int(dst, "dst", "gather")
    group = group_name(group)
    check_async(async_op)
    here = world_rank() == dst
    if here:
        _check_list_like(gather_list, tensor, get_group_size(group))
    source = view(tensor)
    agree("Gather", group, [source])
    buffers = [empty_like(t) for t in gather_list] if here else None

    def finish():
        for t, b in zip(gather_list if here else (), buffers or ()):
            store(t, b)

    return run("Gather", group,
               lambda: [_dist().gather(source, buffers, dst=dst, group=handle_of(group),
                                       async_op=True)], finish, async_op)


def _check_list_like(tensors, tensor, size: int) -> None:
    _list_for_group(tensors, size)
    if tensor.dtype != tensors[0].dtype:
        raise TypeError(f"The argument list tensor type must be equal to tensor type, but got "
                        f"{tensors[0].dtype}.")
    if tuple(tensor.shape) != tuple(tensors[0].shape):
        raise TypeError(f"The argument list tensor shape must be equal to tensor shape, but "
                        f"got {tuple(tensors[0].shape)}.")


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """output_tensor_list[j] becomes what group rank j sends this rank: its
    input_tensor_list[r] (any shapes, as long as the sizes match)."""
    group = group_name(group)
    check_async(async_op)
    check_tensors(input_tensor_list, "all_to_all", "input tensor list")
    check_tensors(output_tensor_list, "all_to_all", "output tensor list")
    for tensors in (input_tensor_list, output_tensor_list):
        if any(t.dtype != tensors[0].dtype for t in tensors):
            raise TypeError("For all_to_all, the tensors of a list must share one dtype")
    torch = _torch()
    ins = [int(t.size) for t in input_tensor_list]
    outs = [int(t.size) for t in output_tensor_list]
    flat = torch.cat([view(t).reshape(-1) for t in input_tensor_list])
    received = empty_like(output_tensor_list[0], (sum(outs),))
    check_splits(group, flat, ins, outs)

    def finish():
        for t, piece in zip(output_tensor_list, received.split(outs)):
            store(t, piece.reshape(tuple(t.shape)))

    return run("AllToAll", group,
               lambda: [_dist().all_to_all_single(received, flat, output_split_sizes=outs,
                                                  input_split_sizes=ins,
                                                  group=handle_of(group), async_op=True)],
               finish, async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    """`output` becomes the rows (along axis 0) every rank sends this one, in rank order: rank
    r sends input_split_sizes[j] rows of its `input` to rank j (equal parts when None)."""
    check_tensor(input, "all_to_all_single")
    check_tensor(output, "all_to_all_single", "output tensor")
    group = group_name(group)
    check_async(async_op)
    size = get_group_size(group)
    ins = _split_sizes(input_split_sizes, input.shape[0], size, "input")
    outs = _split_sizes(output_split_sizes, output.shape[0], size, "output")
    source, buffer = view(input), empty_like(output)
    check_splits(group, source, ins, outs)
    return run("AllToAll", group,
               lambda: [_dist().all_to_all_single(buffer, source, output_split_sizes=outs,
                                                  input_split_sizes=ins,
                                                  group=handle_of(group), async_op=True)],
               lambda: store(output, buffer), async_op)


__all__ = ["all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_reduce",
           "all_to_all", "all_to_all_single", "broadcast", "gather", "reduce",
           "reduce_scatter", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "scatter"]
