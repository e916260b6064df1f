"""The redistribution primitives of operator sharding: how a sharded tensor changes layout
between two operators (the compiler's shard_operators pass inserts them, compiler/sharding.py).

In semi-auto parallel every rank runs the same per-rank graph, and each value in it stands for
one logical tensor of the user's single-device program, held in one of three layouts across
the ranks of a group: replicated (each rank holds all of it), split along an axis (rank r holds
the r-th of `rank_size` equal slices), or partial (the logical value is the sum of the ranks'
values, as after a matmul whose contracted axis is split). The primitives move between them:

    shard_all_reduce      partial -> replicated            AllReduce (sum)
    shard_reduce_scatter  partial -> split along axis      ReduceScatter (sum)
    shard_all_gather      split along axis -> replicated   AllGather
    shard_slice           replicated -> split along axis   this rank's slice, no communication
    shard_all_to_all      split along one axis -> another  AllToAll
    shard_mirror          replicated, read by a sharded operator: the identity, whose
                          derivative sums the ranks' partial cotangents (MindSpore's
                          _MirrorOperator)

and `shard_rank` is this rank's index in the group (an int32 scalar), which a lookup in a
table split along its rows needs to know which rows it holds.

Their derivatives follow from the logical tensors, which is what differs from the user-level
collectives of comm_ops.py (where each rank's loss counts once in a sum over ranks): the
cotangent of a logical tensor is held in the layout of the tensor itself, so the derivative of
a move is the opposite move. AllReduce's is the identity (every rank's partial value reaches
the sum with weight 1), AllGather's is this rank's slice, the slice's is AllGather, AllToAll's
the AllToAll back, ReduceScatter's AllGather, and the mirror's an AllReduce. The graph does not
depend on the rank: `shard_slice` asks the group for it when it runs.
"""
from __future__ import annotations

from .batching import move_axis
from .comm_ops import WORLD_COMM_GROUP
from .core import Primitive, TensorType, fmt_shape
from .dtype import int32
from .errors import ArgumentValueError, DTypeError, ShapeError

DEVICE_AXIS_PREFIX = "shard_device_axis"


def device_axis_group(matrix: tuple, axis: int) -> str:
    """The name of the group of ranks that share every coordinate but `axis` of the device
    matrix `matrix` (world ranks numbered row-major over it, the last axis fastest, as
    MindSpore's are): `shard_device_axis_2x2_1` is the group of the ranks that differ only in
    their coordinate along axis 1 (ranks 0 and 1, or 2 and 3). Each rank's name stands for its
    own group; the runtime creates the groups when one is first used."""
    return f"{DEVICE_AXIS_PREFIX}_{'x'.join(map(str, matrix))}_{axis}"


def parse_device_axis_group(name: str) -> tuple[tuple, int] | None:
    """(device matrix, axis) of a name device_axis_group made, else None."""
    if not name.startswith(DEVICE_AXIS_PREFIX + "_"):
        return None
    matrix, _, axis = name[len(DEVICE_AXIS_PREFIX) + 1:].rpartition("_")
    try:
        return tuple(int(d) for d in matrix.split("x")), int(axis)
    except ValueError:
        return None


def _axis(op: str, x: TensorType, axis) -> int:
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < x.ndim:
        raise ArgumentValueError(f"{op}: `axis` must be an axis of the input of shape "
                                 f"{fmt_shape(x.shape)}, got {axis!r}")
    return axis


def _check(op: str, group, rank_size) -> None:
    if not isinstance(group, str):
        raise DTypeError(f"{op}: `group` must be a str, got {group!r}")
    if isinstance(rank_size, bool) or not isinstance(rank_size, int) or rank_size < 1:
        raise ArgumentValueError(f"{op}: `rank_size` must be a positive int, got {rank_size!r}")


def _resized(x: TensorType, axis: int, size) -> TensorType:
    return TensorType(x.shape[:axis] + (size,) + x.shape[axis + 1:], x.dtype)


def _divided(op: str, x: TensorType, axis: int, rank_size: int) -> TensorType:
    size = x.shape[axis]
    if size is not None and size % rank_size:
        raise ShapeError(f"{op}: dimension {axis} of shape {fmt_shape(x.shape)} does not split "
                         f"into {rank_size} equal slices")
    return _resized(x, axis, None if size is None else size // rank_size)


def _same_type(op):
    def rule(x, group=WORLD_COMM_GROUP, rank_size=1):
        _check(op, group, rank_size)
        return x.strong()
    return rule


def _gather_type(x, axis=0, group=WORLD_COMM_GROUP, rank_size=1):
    _check("ShardAllGather", group, rank_size)
    axis = _axis("ShardAllGather", x, axis)
    size = x.shape[axis]
    return _resized(x, axis, None if size is None else size * rank_size).strong()


def _split_type(op):
    def rule(x, axis=0, group=WORLD_COMM_GROUP, rank_size=1):
        _check(op, group, rank_size)
        return _divided(op, x, _axis(op, x, axis), rank_size).strong()
    return rule


def _all_to_all_type(x, split_axis=0, concat_axis=0, group=WORLD_COMM_GROUP, rank_size=1):
    _check("ShardAllToAll", group, rank_size)
    split = _divided("ShardAllToAll", x, _axis("ShardAllToAll", x, split_axis), rank_size)
    concat = _axis("ShardAllToAll", x, concat_axis)
    size = split.shape[concat]
    return _resized(split, concat, None if size is None else size * rank_size).strong()


def _rank_type(group=WORLD_COMM_GROUP, rank_size=1):
    _check("ShardRank", group, rank_size)
    return TensorType((), int32)


# the collectives are effectful: every rank must meet them in the same order
shard_all_reduce = Primitive("shard_all_reduce", _same_type("ShardAllReduce"),
                             label="ShardAllReduce", effectful=True)
shard_reduce_scatter = Primitive("shard_reduce_scatter", _split_type("ShardReduceScatter"),
                                 label="ShardReduceScatter", effectful=True)
shard_all_gather = Primitive("shard_all_gather", _gather_type, label="ShardAllGather",
                             effectful=True)
shard_all_to_all = Primitive("shard_all_to_all", _all_to_all_type, label="ShardAllToAll",
                             effectful=True)
shard_slice = Primitive("shard_slice", _split_type("ShardSlice"), label="ShardSlice")
shard_mirror = Primitive("shard_mirror", _same_type("ShardMirror"), label="ShardMirror")
shard_rank = Primitive("shard_rank", _rank_type, label="ShardRank", nondifferentiable=True)
REDISTRIBUTIONS = (shard_all_reduce, shard_reduce_scatter, shard_all_gather, shard_all_to_all,
                   shard_slice, shard_mirror, shard_rank)


@shard_all_reduce.def_bprop
def _all_reduce_bprop(x, out, dout, group=WORLD_COMM_GROUP, rank_size=1):
    return (dout,)


@shard_mirror.def_bprop
def _mirror_bprop(x, out, dout, group=WORLD_COMM_GROUP, rank_size=1):
    return (shard_all_reduce(dout, group=group, rank_size=rank_size),)


@shard_all_gather.def_bprop
def _all_gather_bprop(x, out, dout, axis=0, group=WORLD_COMM_GROUP, rank_size=1):
    return (shard_slice(dout, axis=axis, group=group, rank_size=rank_size),)


@shard_slice.def_bprop
def _slice_bprop(x, out, dout, axis=0, group=WORLD_COMM_GROUP, rank_size=1):
    return (shard_all_gather(dout, axis=axis, group=group, rank_size=rank_size),)


@shard_reduce_scatter.def_bprop
def _reduce_scatter_bprop(x, out, dout, axis=0, group=WORLD_COMM_GROUP, rank_size=1):
    return (shard_all_gather(dout, axis=axis, group=group, rank_size=rank_size),)


@shard_all_to_all.def_bprop
def _all_to_all_bprop(x, out, dout, split_axis=0, concat_axis=0, group=WORLD_COMM_GROUP,
                      rank_size=1):
    return (shard_all_to_all(dout, split_axis=concat_axis, concat_axis=split_axis, group=group,
                             rank_size=rank_size),)


# ----- batching rules: the batch axis goes first, the named axes move one along -------------

def _same_batch(prim):
    def rule(args, dims, **params):
        return prim(*args, **params), dims[0]
    return rule


def _axes_batch(prim, *names):
    def rule(args, dims, **params):
        (x,), (dim,) = args, dims
        moved = {k: params[k] + 1 for k in names if k in params}
        return prim(move_axis(x, dim, 0), **{**params, **moved}), 0
    return rule


shard_all_reduce.def_batch(_same_batch(shard_all_reduce))
shard_mirror.def_batch(_same_batch(shard_mirror))
for _prim in (shard_all_gather, shard_slice, shard_reduce_scatter):
    _prim.def_batch(_axes_batch(_prim, "axis"))
shard_all_to_all.def_batch(_axes_batch(shard_all_to_all, "split_axis", "concat_axis"))
shard_rank.def_batch(lambda args, dims, **params: (shard_rank(**params), None))
