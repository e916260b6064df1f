"""Collective communication as graph primitives: AllReduce, AllGather, ReduceScatter, Broadcast,
Reduce, CollectiveGather, CollectiveScatter, AllToAll, Barrier and Send/Receive across the
processes of a group.

Every process of the group runs the same program, so each collective node meets its twins on
the other ranks in the same order. The primitives are `effectful`: the optimiser never folds,
merges, drops or reorders them, and the IR shows them where the program calls them:

    %3, %4 = all_reduce(%1, %2) {op='sum', group='hccl_world_group'}   : f32[8,4], f32[4]

`all_reduce` takes any number of tensors and reduces them in one collective (their bytes
packed into one buffer), which is how gradient buckets cost one message each. Their
derivatives (a rank's loss is a sum over all ranks, so each output's cotangent on every rank
flows back to every input) are collectives too: AllReduce-sum's is AllReduce-sum, AllGather's
is ReduceScatter-sum, ReduceScatter-sum's is AllGather, Broadcast's is Reduce (a sum delivered
to the root, zeros elsewhere) and Reduce's is Broadcast, CollectiveGather's (to one rank, zeros
elsewhere) is CollectiveScatter from it and CollectiveScatter's is CollectiveGather to it. No
rule depends on which rank builds the graph, so every rank's derivative meets the same
collectives in the same order. The kernels
live in cellgraph.runtime (collective_kernels.py, over torch.distributed); this module only says
what the operations mean. Shapes that depend on the group's size
(AllGather, ReduceScatter) carry it as the static param `rank_size`.
"""
from __future__ import annotations

from collections.abc import Callable

from .array_ops import cast, reduce_sum, reshape
from .batching import move_axis
from .core import Primitive, TensorType, abstract_of, fmt_shape
from .dtype import DType, int64
from .errors import ArgumentValueError, CommunicationError, DTypeError, RunError, ShapeError
from .math_ops import div, equal, mul


class ReduceOp:
    """How AllReduce and ReduceScatter combine the ranks' values."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


REDUCE_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)
# The default group's name (MindSpore's spelling on Ascend; the NCCL and MCCL spellings, and
# whatever `GlobalComm.WORLD_COMM_GROUP` says after init, name the same group).
WORLD_COMM_GROUP = "hccl_world_group"


# ----- the group table, filled in by the runtime ----------------------------------------------

def not_initialized(group: str) -> tuple[int, int]:
    raise CommunicationError("communication is not initialized: call "
                             "cellgraph.communication.init() first")


_group_info: list[Callable[[str], tuple[int, int]]] = [not_initialized]


def set_group_info(fn: Callable[[str], tuple[int, int]]) -> None:
    """Install fn(group) -> (this process's rank in it, its size); the runtime calls this."""
    _group_info[0] = fn


def group_rank_and_size(group: str) -> tuple[int, int]:
    return _group_info[0](group)


# ----- type rules ------------------------------------------------------------------------------

def _check_group(op: str, group) -> None:
    if not isinstance(group, str):
        raise DTypeError(f"{op}: `group` must be a str, got {type(group).__name__} {group!r}")


def _check_reduce_op(op: str, reduce_op) -> None:
    if reduce_op not in REDUCE_OPS:
        raise ArgumentValueError(f"{op}: `op` must be one of {', '.join(REDUCE_OPS)}, got "
                                 f"{reduce_op!r}")


def _numeric(op: str, x: TensorType) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"{op}: expected a numeric Tensor, got {x.dtype}")
    return x.strong()


def _all_reduce_type(*xs, op="sum", group=WORLD_COMM_GROUP):
    _check_reduce_op("AllReduce", op)
    _check_group("AllReduce", group)
    if not xs:
        raise ShapeError("AllReduce: expected at least one Tensor, got none")
    return tuple(_numeric("AllReduce", x) for x in xs)


def _all_gather_type(x, group=WORLD_COMM_GROUP, rank_size=1):
    _check_group("AllGather", group)
    if x.ndim == 0:
        raise ShapeError("AllGather: expected a Tensor of rank >= 1 (gathered along axis 0), "
                         "got a scalar")
    first = None if x.shape[0] is None else x.shape[0] * rank_size
    return TensorType((first,) + x.shape[1:], x.dtype)


def _reduce_scatter_type(x, op="sum", group=WORLD_COMM_GROUP, rank_size=1):
    _check_reduce_op("ReduceScatter", op)
    _check_group("ReduceScatter", group)
    if x.ndim == 0 or (x.shape[0] is not None and x.shape[0] % rank_size):
        raise ShapeError(f"ReduceScatter: expected a first dimension divisible by the group "
                         f"size {rank_size}, got shape {fmt_shape(x.shape)}")
    first = None if x.shape[0] is None else x.shape[0] // rank_size
    return TensorType((first,) + x.shape[1:], _numeric("ReduceScatter", x).dtype)


def _broadcast_type(*xs, root_rank=0, group=WORLD_COMM_GROUP, rank_size=1):
    _check_group("Broadcast", group)
    if not isinstance(root_rank, int) or not 0 <= root_rank < rank_size:
        raise ArgumentValueError(f"Broadcast: `root_rank` must be a rank of the group "
                                 f"(0 to {rank_size - 1}), got {root_rank!r}")
    return tuple(x.strong() for x in xs)


def _reduce_type(x, dst=0, op="sum", group=WORLD_COMM_GROUP, rank_size=1):
    _check_reduce_op("Reduce", op)
    _check_group("Reduce", group)
    if not isinstance(dst, int) or not 0 <= dst < rank_size:
        raise ArgumentValueError(f"Reduce: `dst` must be a rank of the group (0 to "
                                 f"{rank_size - 1}), got {dst!r}")
    return _numeric("Reduce", x)


def _barrier_type(group=WORLD_COMM_GROUP):
    _check_group("Barrier", group)
    return ()


def _splits(op: str, name: str, splits, rank_size: int) -> tuple:
    if not isinstance(splits, tuple) or len(splits) != rank_size or any(
            isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in splits):
        raise ArgumentValueError(f"{op}: `{name}` must give one size >= 0 for each of the "
                                 f"{rank_size} ranks, got {splits!r}")
    return splits


def _all_to_all_type(x, in_splits=(), out_splits=(), group=WORLD_COMM_GROUP, rank_size=1):
    _check_group("AllToAll", group)
    if x.ndim == 0:
        raise ShapeError("AllToAll: expected a Tensor of rank >= 1 (split along axis 0), got a "
                         "scalar")
    _splits("AllToAll", "in_splits", in_splits, rank_size)
    _splits("AllToAll", "out_splits", out_splits, rank_size)
    if x.shape[0] is not None and x.shape[0] != sum(in_splits):
        raise ShapeError(f"AllToAll: the input's first dimension must be the sum of the sizes "
                         f"sent to each rank {list(in_splits)}, got shape {fmt_shape(x.shape)}")
    return TensorType((sum(out_splits),) + x.shape[1:], x.dtype)


def _gather_type(x, dst=0, group=WORLD_COMM_GROUP, rank_size=1):
    """The ranks' tensors along axis 0 on group rank `dst`, zeros of that shape elsewhere (as
    Reduce: the graph, and so its derivative's collectives, must not depend on the rank)."""
    _check_group("CollectiveGather", group)
    _peer("CollectiveGather", "dest_rank", dst, rank_size)
    if x.ndim == 0:
        raise ShapeError("CollectiveGather: expected a Tensor of rank >= 1 (gathered along "
                         "axis 0), got a scalar")
    first = None if x.shape[0] is None else x.shape[0] * rank_size
    return TensorType((first,) + x.shape[1:], x.dtype)


def _scatter_type(x, src=0, group=WORLD_COMM_GROUP, rank_size=1):
    _check_group("CollectiveScatter", group)
    _peer("CollectiveScatter", "src_rank", src, rank_size)
    if x.ndim == 0 or (x.shape[0] is not None and x.shape[0] % rank_size):
        raise ShapeError(f"CollectiveScatter: expected a first dimension divisible by the "
                         f"group size {rank_size}, got shape {fmt_shape(x.shape)}")
    first = None if x.shape[0] is None else x.shape[0] // rank_size
    return TensorType((first,) + x.shape[1:], x.dtype)


def _all_reduce_start_type(*xs, op="sum", group=WORLD_COMM_GROUP, covers=None):
    """(a token naming the collective in flight, then the outputs' buffers)."""
    return (TensorType((), int64),) + _all_reduce_type(*xs, op=op, group=group)


def _all_reduce_done_type(token, *xs, op="sum", group=WORLD_COMM_GROUP):
    return tuple(x.strong() for x in xs)


def _peer(op: str, name: str, peer, rank_size: int) -> None:
    if isinstance(peer, bool) or not isinstance(peer, int) or not 0 <= peer < rank_size:
        raise ArgumentValueError(f"{op}: `{name}` must be a rank of the group (0 to "
                                 f"{rank_size - 1}), got {peer!r}")


def _send_type(x, dst=0, group=WORLD_COMM_GROUP, tag=0, rank_size=1):
    _check_group("Send", group)
    _peer("Send", "dst", dst, rank_size)
    return ()


def _recv_type(x, src=0, group=WORLD_COMM_GROUP, tag=0, rank_size=1):
    """`x` gives the shape and dtype of the tensor to receive."""
    _check_group("Receive", group)
    _peer("Receive", "src", src, rank_size)
    return x.strong()


def _neighbor_exchange_type(*xs, send_rank_ids=(), recv_rank_ids=(), send_shapes=(),
                            recv_shapes=(), recv_type=None, group=WORLD_COMM_GROUP):
    """Tensor i of `xs` (of shape send_shapes[i]) goes to send_rank_ids[i]; output j (of shape
    recv_shapes[j], dtype recv_type) is what recv_rank_ids[j] sends."""
    _check_group("NeighborExchange", group)
    for i, (x, shape) in enumerate(zip(xs, send_shapes)):
        if tuple(x.shape) != tuple(shape):
            raise RunError(f"For 'NeighborExchange', input[{i}] shape must be equal to attr "
                           f"shape, but got input[{i}] shape: {_shape_text(x.shape)}, attr "
                           f"shape : {_shape_text(shape)}.")
    return tuple(TensorType(tuple(shape), recv_type) for shape in recv_shapes)


def _shape_text(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


# effectful: the ranks must meet every collective, in the same order
all_reduce = Primitive("all_reduce", _all_reduce_type, label="AllReduce",
                       multiple_results=True, effectful=True)
all_gather = Primitive("all_gather", _all_gather_type, label="AllGather", effectful=True)
reduce_scatter = Primitive("reduce_scatter", _reduce_scatter_type, label="ReduceScatter",
                           effectful=True)
broadcast = Primitive("broadcast", _broadcast_type, label="Broadcast", multiple_results=True,
                      effectful=True)
reduce = Primitive("reduce", _reduce_type, label="Reduce",  # to rank `dst`; zeros elsewhere
                   effectful=True)
barrier = Primitive("barrier", _barrier_type, label="Barrier", multiple_results=True,
                    nondifferentiable=True, effectful=True)
# each rank sends slice i (along axis 0, in_splits[i] rows) to rank i and receives out_splits[j]
# rows from rank j, in rank order
all_to_all = Primitive("all_to_all", _all_to_all_type, label="AllToAll", effectful=True)
# point to point: the tensor goes to group rank `dst`; `recv` returns what `src` sent
send = Primitive("send", _send_type, label="Send", multiple_results=True,
                 nondifferentiable=True, effectful=True)
recv = Primitive("recv", _recv_type, label="Receive", nondifferentiable=True, effectful=True)
# each rank sends its tensors to the ranks it names and receives from the ranks it names
neighbor_exchange = Primitive("neighbor_exchange", _neighbor_exchange_type,
                              label="NeighborExchange", multiple_results=True, effectful=True)
# rank `dst` gets the ranks' tensors along axis 0 (the others zeros); every rank gets its slice
# along axis 0 of rank `src`'s tensor
collective_gather = Primitive("collective_gather", _gather_type, label="CollectiveGather",
                              effectful=True)
collective_scatter = Primitive("collective_scatter", _scatter_type, label="CollectiveScatter",
                               effectful=True)
# An all_reduce split in two by the overlap_collectives pass (compiler/comm_schedule.py), which
# runs after differentiation: the start sends the inputs off and returns at once, the done
# waits for the result where it is first needed, so the computation between them overlaps
# the transfer.
all_reduce_start = Primitive("all_reduce_start", _all_reduce_start_type, label="AllReduce",
                             multiple_results=True, nondifferentiable=True, effectful=True)
all_reduce_done = Primitive("all_reduce_done", _all_reduce_done_type, label="AllReduce",
                            multiple_results=True, nondifferentiable=True, effectful=True)
COLLECTIVES = (all_reduce, all_gather, reduce_scatter, broadcast, reduce, barrier, all_to_all,
               send, recv, neighbor_exchange, collective_gather, collective_scatter, all_reduce_start,
               all_reduce_done)


# ----- derivatives -----------------------------------------------------------------------------

def _extremum_mask(x, out):
    """1 where this rank's value is the one the reduction picked (ties share), else 0."""
    return cast(equal(x, out), dtype=abstract_of(x).dtype)


# How an input's gradient follows from the summed cotangent `total` (AllReduce-sum of dout):
# op -> fn(x, out, total)
_REDUCE_GRADS = {
    ReduceOp.SUM: lambda x, out, total: total,
    ReduceOp.MAX: lambda x, out, total: mul(total, _extremum_mask(x, out)),
    ReduceOp.MIN: lambda x, out, total: mul(total, _extremum_mask(x, out)),
    ReduceOp.PROD: lambda x, out, total: div(mul(total, out), x),
}


@all_reduce.def_bprop
def _all_reduce_bprop(*xs, out, dout, op="sum", group=WORLD_COMM_GROUP):
    live = [i for i, d in enumerate(dout) if d is not None]
    if not live:
        return (None,) * len(xs)
    totals = dict(zip(live, all_reduce(*[dout[i] for i in live], op=ReduceOp.SUM,
                                       group=group)))
    return tuple(_REDUCE_GRADS[op](xs[i], out[i], totals[i]) if i in totals else None
                 for i in range(len(xs)))


@all_gather.def_bprop
def _all_gather_bprop(x, out, dout, group=WORLD_COMM_GROUP, rank_size=1):
    return (reduce_scatter(dout, op=ReduceOp.SUM, group=group, rank_size=rank_size),)


@reduce_scatter.def_bprop
def _reduce_scatter_bprop(x, out, dout, op="sum", group=WORLD_COMM_GROUP, rank_size=1):
    # every rank's slice r is reduced into rank r: rank r's cotangent reaches slice r everywhere
    gathered = all_gather(dout, group=group, rank_size=rank_size)
    if op == ReduceOp.SUM:
        return (gathered,)
    picked = all_gather(out, group=group, rank_size=rank_size)
    return (_REDUCE_GRADS[op](x, picked, gathered),)


@broadcast.def_bprop
def _broadcast_bprop(*xs, out, dout, root_rank=0, group=WORLD_COMM_GROUP, rank_size=1):
    # every rank's output is the root's input: the root's gradient is the ranks' sum, the other
    # ranks' inputs were never read. A reduction to the root says so without the graph
    # depending on which rank builds it (every rank must meet the same collectives).
    return tuple(None if d is None else reduce(d, dst=root_rank, op=ReduceOp.SUM, group=group,
                                               rank_size=rank_size) for d in dout)


@reduce.def_bprop
def _reduce_bprop(x, out, dout, dst=0, op="sum", group=WORLD_COMM_GROUP, rank_size=1):
    # only the root's output depends on the inputs, so the root's cotangent reaches them all
    if op != ReduceOp.SUM:
        raise ArgumentValueError(f"Reduce: only op='sum' has a gradient, got {op!r}")
    return broadcast(dout, root_rank=dst, group=group, rank_size=rank_size)


@all_to_all.def_bprop
def _all_to_all_bprop(x, out, dout, in_splits=(), out_splits=(), group=WORLD_COMM_GROUP,
                      rank_size=1):
    # the rows went from rank i to rank j: their cotangents go back from j to i
    return (all_to_all(dout, in_splits=out_splits, out_splits=in_splits, group=group,
                       rank_size=rank_size),)


@collective_gather.def_bprop
def _gather_bprop(x, out, dout, dst=0, group=WORLD_COMM_GROUP, rank_size=1):
    # rank dst's output holds every rank's slice, so its cotangent goes back from there
    return (collective_scatter(dout, src=dst, group=group, rank_size=rank_size),)


@collective_scatter.def_bprop
def _scatter_bprop(x, out, dout, src=0, group=WORLD_COMM_GROUP, rank_size=1):
    # only rank src's tensor was read: the ranks' cotangents gathered there (zeros elsewhere)
    return (collective_gather(dout, dst=src, group=group, rank_size=rank_size),)


@neighbor_exchange.def_bprop
def _neighbor_exchange_bprop(*xs, out, dout, send_rank_ids=(), recv_rank_ids=(),
                             send_shapes=(), recv_shapes=(), recv_type=None,
                             group=WORLD_COMM_GROUP):
    """The exchange backwards: each output's cotangent goes back to the rank it came from, and
    each input's cotangent comes from the rank it went to."""
    dtype = xs[0].dtype if xs else recv_type
    return neighbor_exchange(*dout, send_rank_ids=recv_rank_ids, recv_rank_ids=send_rank_ids,
                             send_shapes=recv_shapes, recv_shapes=send_shapes, recv_type=dtype,
                             group=group)


def gather_placeholder(out):
    """What MindSpore's CollectiveGather gives a rank other than the destination: a [1] zero,
    computed from the gather's zeros so that the graph reads the gather on every rank."""
    return reshape(reduce_sum(out, axis=(), keep_dims=False), shape=(1,))


# ----- batching rules (vmap): collectives act elementwise across ranks -------------------------

def _elementwise_batch(prim):
    def rule(args, dims, **params):
        return prim(*args, **params), tuple(dims)
    return rule


def _axis0_batch(prim):
    """Gathering and scattering run along axis 0: the batch axis moves behind it."""
    def rule(args, dims, **params):
        (x,), (dim,) = args, dims
        return prim(move_axis(x, dim, 1), **params), 1
    return rule


all_reduce.def_batch(_elementwise_batch(all_reduce))
broadcast.def_batch(_elementwise_batch(broadcast))
reduce.def_batch(lambda args, dims, **params: (reduce(*args, **params), dims[0]))
all_gather.def_batch(_axis0_batch(all_gather))
reduce_scatter.def_batch(_axis0_batch(reduce_scatter))
all_to_all.def_batch(_axis0_batch(all_to_all))
collective_scatter.def_batch(_axis0_batch(collective_scatter))


# ----- MindSpore's primitive classes -----------------------------------------------------------

def _rank_size(group: str) -> int:
    return group_rank_and_size(group)[1]


class _Collective:
    """Configured in __init__, applied in __call__; instances are constants in a graph."""

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({inner})"


class AllReduce(_Collective):
    """`ops.AllReduce(op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP)(x)`: every rank gets
    the reduction of all ranks' `x`."""

    def __init__(self, op=ReduceOp.SUM, group=WORLD_COMM_GROUP):
        _check_reduce_op("AllReduce", op)
        _check_group("AllReduce", group)
        self.op, self.group = op, group

    def __call__(self, x):
        return all_reduce(x, op=self.op, group=self.group)[0]


class AllGather(_Collective):
    """`ops.AllGather(group)(x)`: the ranks' `x` concatenated along axis 0, in rank order."""

    def __init__(self, group=WORLD_COMM_GROUP):
        _check_group("AllGather", group)
        self.group = group

    def __call__(self, x):
        return all_gather(x, group=self.group, rank_size=_rank_size(self.group))


class ReduceScatter(_Collective):
    """`ops.ReduceScatter(op, group)(x)`: rank r gets slice r (along axis 0) of the reduction of
    all ranks' `x`."""

    def __init__(self, op=ReduceOp.SUM, group=WORLD_COMM_GROUP):
        _check_reduce_op("ReduceScatter", op)
        _check_group("ReduceScatter", group)
        self.op, self.group = op, group

    def __call__(self, x):
        return reduce_scatter(x, op=self.op, group=self.group, rank_size=_rank_size(self.group))


class Broadcast(_Collective):
    """`ops.Broadcast(root_rank, group)((x, ...))`: every rank gets the root's tensors."""

    def __init__(self, root_rank, group=WORLD_COMM_GROUP):
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise DTypeError(f"Broadcast: `root_rank` must be an int, got {root_rank!r}")
        _check_group("Broadcast", group)
        self.root_rank, self.group = root_rank, group

    def __call__(self, input_x):
        tensors = tuple(input_x) if isinstance(input_x, (tuple, list)) else (input_x,)
        return broadcast(*tensors, root_rank=self.root_rank, group=self.group,
                         rank_size=_rank_size(self.group))


class Barrier(_Collective):
    """`ops.Barrier(group)()`: returns when every rank of the group has reached it."""

    def __init__(self, group=WORLD_COMM_GROUP):
        _check_group("Barrier", group)
        self.group = group

    def __call__(self):
        barrier(group=self.group)


class CollectiveGather(_Collective):
    """`ops.CollectiveGather(dest_rank, group)(x)`: group rank `dest_rank` gets the ranks' `x`
    concatenated along axis 0 in rank order; the other ranks get a [1] placeholder."""

    def __init__(self, dest_rank, group=WORLD_COMM_GROUP):
        if isinstance(dest_rank, bool) or not isinstance(dest_rank, int):
            raise DTypeError(f"CollectiveGather: `dest_rank` must be an int, got {dest_rank!r}")
        _check_group("CollectiveGather", group)
        self.dest_rank, self.group = dest_rank, group

    def __call__(self, input_x):
        out = collective_gather(input_x, dst=self.dest_rank, group=self.group,
                                rank_size=_rank_size(self.group))
        return out if group_rank_and_size(self.group)[0] == self.dest_rank else \
            gather_placeholder(out)


class CollectiveScatter(_Collective):
    """`ops.CollectiveScatter(src_rank, group)(x)`: group rank r gets slice r (along axis 0)
    of rank `src_rank`'s `x`."""

    def __init__(self, src_rank=0, group=WORLD_COMM_GROUP):
        if isinstance(src_rank, bool) or not isinstance(src_rank, int):
            raise DTypeError(f"CollectiveScatter: `src_rank` must be an int, got {src_rank!r}")
        _check_group("CollectiveScatter", group)
        self.src_rank, self.group = src_rank, group

    def __call__(self, input_x):
        return collective_scatter(input_x, src=self.src_rank, group=self.group,
                                  rank_size=_rank_size(self.group))


def _rank_ids(name: str, value) -> tuple:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise DTypeError(f"For 'NeighborExchange', attr '{name}' must be a list[int, int, ...].")
    return tuple(value)


def _shapes(name: str, value) -> tuple:
    if not isinstance(value, tuple) or not all(
            isinstance(s, (list, tuple)) and all(isinstance(d, int) and not isinstance(d, bool)
                                                 for d in s) for s in value):
        raise DTypeError(f"For 'NeighborExchange', attr '{name}' must be a tuple(list, list, "
                         f"...).")
    return tuple(tuple(s) for s in value)


def _paired(shapes_name: str, shapes: tuple, ids_name: str, ids: tuple) -> None:
    if len(shapes) != len(ids):
        raise ArgumentValueError(f"For 'NeighborExchange', attr '{shapes_name}' size must be "
                                 f"equal to attr  '{ids_name}' size, but got attr "
                                 f"'{shapes_name}' size: {len(shapes)}, attr '{ids_name}' "
                                 f"size: {len(ids)}")


class NeighborExchange(_Collective):
    """`ops.NeighborExchange(send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
    group)((x, ...))`: tensor i goes to group rank send_rank_ids[i] and output j (a tuple) is
    what group rank recv_rank_ids[j] sent, of shape recv_shapes[j] and dtype recv_type. The
    attributes are checked where the graph is built, as MindSpore checks them when inferring:
    rank ids are lists of ints, shapes tuples of lists, each list as long as its ids."""

    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
                 group=WORLD_COMM_GROUP):
        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.recv_shapes, self.send_shapes = recv_shapes, send_shapes
        self.recv_type, self.group = recv_type, group

    def _params(self) -> dict:
        recv_shapes = _shapes("recv_shapes", self.recv_shapes)
        recv_ids = _rank_ids("recv_rank_ids", self.recv_rank_ids)
        _paired("recv_shapes", recv_shapes, "recv_rank_ids", recv_ids)
        send_shapes = _shapes("send_shapes", self.send_shapes)
        send_ids = _rank_ids("send_rank_ids", self.send_rank_ids)
        _paired("send_shapes", send_shapes, "send_rank_ids", send_ids)
        if not isinstance(self.recv_type, DType):
            raise DTypeError(f"For 'NeighborExchange', attr 'recv_type' must be a mindspore "
                             f"data type, but got: {self.recv_type!r}.")
        if not isinstance(self.group, str):
            raise DTypeError(f"For 'NeighborExchange', attr 'group' must be a str, but got: "
                             f"{self.group!r}.")
        return {"send_rank_ids": send_ids, "recv_rank_ids": recv_ids,
                "send_shapes": send_shapes, "recv_shapes": recv_shapes,
                "recv_type": self.recv_type, "group": self.group}

    def __call__(self, input_x=()):
        params = self._params()
        tensors = tuple(input_x) if isinstance(input_x, (tuple, list)) else (input_x,)
        if not params["send_rank_ids"] and tensors:
            raise ArgumentValueError(f"For 'NeighborExchange', the input_numbers must be equal "
                                     f"to 0, but got {len(tensors)}.")
        if len(tensors) != len(params["send_shapes"]):
            raise RunError(f"For 'NeighborExchange', input tuple size must be equal to attr "
                           f"'send_shapes' size, but got input tuple size: {len(tensors)}, "
                           f"attr 'send_shapes' size: {len(params['send_shapes'])}.")
        return neighbor_exchange(*tensors, **params)


__all__ = ["AllGather", "AllReduce", "Barrier", "Broadcast", "CollectiveGather",
           "CollectiveScatter", "NeighborExchange", "ReduceOp", "ReduceScatter"]
