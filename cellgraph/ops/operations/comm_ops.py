"""MindSpore's `ops.operations.comm_ops`: the collectives (`AllReduce`, `AllGather`,
`ReduceScatter`, `Broadcast`, ...) and `ReduceOp`. They are the core's
(cellgraph/primitives/comm_ops.py): a collective is a primitive with its own kernels.
`NeighborExchangeV2`, a halo exchange, is composed of strips of its input and the core's
NeighborExchange."""
from cellgraph._checkparam import INC_LEFT, check_number_range
from cellgraph.primitives.comm_ops import *
from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP, _Collective
from cellgraph.primitives.comm_ops import neighbor_exchange as _neighbor_exchange
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.primitives.functional import concat as _concat
from cellgraph.primitives.slicing import slice as _slice

from ..primitive import PrimitiveWithInfer

__all__ = ["AllGather", "AllReduce", "Barrier", "Broadcast", "CollectiveGather",
           "CollectiveScatter", "NeighborExchange", "NeighborExchangeV2", "ReduceOp",
           "ReduceScatter"]


class _VirtualDataset(PrimitiveWithInfer):
    """MindSpore's marker of a network's dataset inputs, which its auto-parallel pass splits
    along the batch by the dataset strategy. cellgraph's processes read the whole batch (the
    full_batch strategy, the only one semi_auto_parallel runs), so the inputs pass unchanged,
    as a tuple."""

    def __init__(self):
        super().__init__("_VirtualDataset")
        self.add_prim_attr("order_enforce_skip", True)

    def infer_shape(self, *args):
        return args

    def infer_dtype(self, *args):
        return args

    def __call__(self, *args):
        return args


virtual_dataset = _VirtualDataset()


# The eight directions of NeighborExchangeV2's rank ids, clockwise from the top, as the rows
# and columns of the input each one's strip covers: "top"/"bottom"/"left"/"right" are that
# many rows or columns at that side (send_lens or recv_lens [top, bottom, left, right]), "all"
# the whole extent.
_HALO_DIRECTIONS = (("top", "all"), ("top", "right"), ("all", "right"), ("bottom", "right"),
                    ("bottom", "all"), ("bottom", "left"), ("all", "left"), ("top", "left"))
_LENS_INDEX = {"top": 0, "bottom": 1, "left": 2, "right": 3}


def _int_list(prim: str, name: str, value, size: int) -> list:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise DTypeError(f"For '{prim}', attr '{name}' must be a list[int, int, ...].")
    if len(value) != size:
        raise ArgumentValueError(f"For '{prim}', attr '{name}' size must be equal to "
                                 f"attr_value size, but got attr {name} size: {size}, "
                                 f"attr_value size: {len(value)}.")
    return list(value)


def _check_rank_ids(prim: str, rank_ids: list) -> None:
    seen = set()
    for rank in rank_ids:
        if rank < -1:
            raise ArgumentValueError(f"For '{prim}', all the rank id must be >= 0 or = -1, but "
                                     f"got invalid id:{rank}.")
        if rank != -1 and rank in seen:
            raise ArgumentValueError(f"For '{prim}', 'send_rank_ids' or 'recv_rank_ids' can not "
                                     f"be repeated, but got id :{rank} repeated.")
        seen.add(rank)


def _check_corner(prim: str, ids: list, side1: int, side2: int, corner: int) -> None:
    """A corner strip arrives exactly when both of its sides do."""
    both = ids[side1] != -1 and ids[side2] != -1
    if both != (ids[corner] != -1):
        rule = (f"recv_rank_ids[{side1}] or recv_rank_ids[{side2}] must be -1, or "
                f"recv_rank_ids[{corner}] can not be -1" if both else
                f"recv_rank_ids[{side1}] and recv_rank_ids[{side2}] can not be -1, or "
                f"recv_rank_ids[{corner}] must be -1")
        raise ArgumentValueError(f"For '{prim}', {rule}. But got recv_rank_ids[{side1}]: "
                                 f"{ids[side1]}, recv_rank_ids[{side2}]: {ids[side2]}, and "
                                 f"recv_rank_ids[{corner}]: {ids[corner]}.")


def _strip(extent: str, lens: list, size: int) -> tuple[int, int]:
    """(start, length) of a strip along an axis of `size`."""
    if extent == "all":
        return 0, size
    length = lens[_LENS_INDEX[extent]]
    return (0, length) if extent in ("top", "left") else (size - length, length)


class NeighborExchangeV2(_Collective):
    """`ops.NeighborExchangeV2(send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format,
    group)(x)`: a halo exchange over a grid of ranks, for an NCHW `x`. Rank ids name the
    neighbour in each of eight directions (clockwise from the top, -1 for none); lens are
    [top, bottom, left, right] numbers of rows or columns. The strip of `x` at each side or
    corner goes to the neighbour there, and the strips received from the neighbours frame
    `x` in the output (N, C, H + top + bottom, W + left + right), each side counted only where
    a neighbour sends. The exchange itself is the group's NeighborExchange, its gradient too.
    Rank ids are checked against the group's size at construction (in a process of its own
    the group is that process, rank 0), the rest when the graph is built, as in MindSpore."""

    name = "NeighborExchangeV2"

    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format,
                 group=WORLD_COMM_GROUP):
        from cellgraph.communication.management import get_group_size

        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.send_lens, self.recv_lens = send_lens, recv_lens
        self.format, self.group = data_format, group
        self.rank_size = get_group_size(group)
        for name, ids in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids)):
            for rank in ids:
                if rank != -1:
                    check_number_range(rank, 0, self.rank_size, INC_LEFT, int,
                                       f"rank_id in {name}")

    def _checked(self, x) -> tuple[list, list, list, list]:
        prim = self.name
        send_ids = _int_list(prim, "send_rank_ids", self.send_rank_ids, 8)
        recv_ids = _int_list(prim, "recv_rank_ids", self.recv_rank_ids, 8)
        send_lens = _int_list(prim, "send_lens", self.send_lens, 4)
        recv_lens = _int_list(prim, "recv_lens", self.recv_lens, 4)
        _check_rank_ids(prim, send_ids)
        _check_rank_ids(prim, recv_ids)
        for length in send_lens + recv_lens:
            if length < 0:
                raise ArgumentValueError(f"For '{prim}', 'send_lens' or 'recv_lens' must be "
                                         f">=0, but got invalid len:{length}.")
        for side1, side2, corner in ((0, 2, 1), (2, 4, 3), (4, 6, 5), (6, 0, 7)):
            _check_corner(prim, recv_ids, side1, side2, corner)
        if not isinstance(self.format, str):
            raise DTypeError(f"For '{prim}', attr 'format' must be a str.")
        if self.format != "NCHW":
            raise ArgumentValueError(f"For '{prim}', attr 'data_format' only support NCHW now, "
                                     f"but got {self.format}.")
        shape = abstract_of(x).shape
        if len(shape) != 4:
            raise ArgumentValueError(f"For '{prim}', input shape size must be 4, but got "
                                     f"{len(shape)}, and only support NCHW now.")
        # MindSpore's four messages differ in their spacing
        for i, (length, axis, got) in enumerate(zip(send_lens, "HHWW", (
                "send_lens[0]:{}, ", "send_lens[1]: {} , ", "send_lens[2]: {}, ",
                "send_lens[3]: {}, "))):
            size = shape[2] if axis == "H" else shape[3]
            if length > size:
                raise ArgumentValueError(f"For '{prim}', attr send_lens[{i}] must be less than "
                                         f"or equal to input size in {axis} dim, but got "
                                         f"{got.format(length)}input size in {axis} dim: "
                                         f"{size}.")
        if not isinstance(self.group, str):
            raise DTypeError(f"For '{prim}', attr 'group' must be a str.")
        return send_ids, send_lens, recv_ids, recv_lens

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise ArgumentValueError(f"For '{self.name}', the input number must be equal to 1, "
                                     f"but got {len(inputs)}.")
        x = inputs[0]
        send_ids, send_lens, recv_ids, recv_lens = self._checked(x)
        n, c, h, w = abstract_of(x).shape
        sends, recv_shapes = [], []
        for d, (rows, cols) in enumerate(_HALO_DIRECTIONS):
            if send_ids[d] != -1:
                (row, height), (col, width) = _strip(rows, send_lens, h), _strip(cols, send_lens, w)
                sends.append(_slice(x, (0, 0, row, col), (n, c, height, width)))
            if recv_ids[d] != -1:
                height = h if rows == "all" else recv_lens[_LENS_INDEX[rows]]
                width = w if cols == "all" else recv_lens[_LENS_INDEX[cols]]
                recv_shapes.append((n, c, height, width))
        if not sends and not recv_shapes:
            return x
        received = iter(_neighbor_exchange(
            *sends, send_rank_ids=tuple(r for r in send_ids if r != -1),
            recv_rank_ids=tuple(r for r in recv_ids if r != -1),
            send_shapes=tuple(abstract_of(s).shape for s in sends),
            recv_shapes=tuple(recv_shapes), recv_type=abstract_of(x).dtype, group=self.group))
        strips = {d: next(received) for d in range(8) if recv_ids[d] != -1}
        strips[None] = x
        rows = []
        for row in ((7, 0, 1), (6, None, 2), (5, 4, 3)):
            parts = [strips[d] for d in row if d in strips]
            if parts:
                rows.append(parts[0] if len(parts) == 1 else _concat(parts, axis=3))
        return rows[0] if len(rows) == 1 else _concat(rows, axis=2)
