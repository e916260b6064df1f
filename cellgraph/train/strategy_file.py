"""The strategy file of a sharded run (`set_auto_parallel_context(strategy_ckpt_save_file=...)`
or `strategy_ckpt_config={"save_file": ...}`): how each parameter is split across the ranks,
so that the ranks' checkpoints of their slices (`save_checkpoint(..., integrated_save=False)`)
can be put back together (`load_distributed_checkpoint(..., train_strategy_filename=...)`).

The file is MindSpore's: a `ParallelStrategyMap` protobuf message (node_strategy.proto, its
`parallel_layout_item`s: the parameter's name, and its layout: the device matrix, the tensor
map, and MindSpore's optimizer-sharding fields, 0 here), or the same as JSON when the file
name ends in ".json", as MindSpore writes and reads them. The protobuf messages are encoded
and decoded here (the wire format, no protobuf library). For a parameter of shape [16, 8] split
in 2 along dimension 0 over the model-parallel axis of a device matrix (2, 2):

    {"current_stage": 0, "parallel_layout_item": {"fc1.weight": {"dev_matrix": [2, 2],
     "tensor_map": [0, -1], "param_split_shape": [], "indices_offset": [], "field": 0,
     "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}}}

The tensor map names, for each dimension, the device-matrix axis it is split along counted
from the right (0: the last axis), -1 for none; the rank with coordinates (i0, i1) on the
device matrix (row-major: rank = i0 * d1 + i1) holds block i_axis of the dimension.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np

from cellgraph._protowire import fields, key, read_varint, varint
from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError
from cellgraph.safe_io import write_bytes, write_text

_FIELDS = ("field", "opt_weight_shard_step", "opt_weight_shard_size")


def layout_item(layout: tuple, matrix: tuple) -> dict:
    """The file's layout of a parameter held in `layout` (per device-matrix axis, the tensor
    dimension split along it or None) over `matrix`."""
    ndim_axes: dict = {}
    for axis, dim in enumerate(layout):
        if dim is not None:
            ndim_axes.setdefault(dim, []).append(axis)
    dev_matrix = list(matrix)
    if any(len(axes) > 1 for axes in ndim_axes.values()):
        if len(ndim_axes) > 1:
            raise UnsupportedError(f"strategy file: a layout {layout} over the device matrix "
                                   f"{matrix} splits one dimension along several axes and "
                                   f"another along one, which the file cannot say")
        dev_matrix = [int(np.prod(matrix))]
        ndim_axes = {dim: [0] for dim in ndim_axes}
    return {"dev_matrix": dev_matrix, "ndim_axes": ndim_axes}


def layout_items(layouts: dict, only_trainable: bool = True) -> dict:
    """The file's parallel_layout_item of each parameter of runtime.sharded_parameters'
    LAYOUTS (name -> (layout, device matrix, whole shape, requires_grad))."""
    items = {}
    for name, (layout, matrix, shape, trainable) in layouts.items():
        if only_trainable and not trainable:
            continue
        found = layout_item(layout, matrix)
        last = len(found["dev_matrix"]) - 1
        tensor_map = [last - found["ndim_axes"][d][0] if d in found["ndim_axes"] else -1
                      for d in range(len(shape))]
        items[name] = {"dev_matrix": found["dev_matrix"], "tensor_map": tensor_map,
                       "param_split_shape": [], "indices_offset": [],
                       **dict.fromkeys(_FIELDS, 0)}
    return items


def save(path: str, layouts: dict, only_trainable: bool = True) -> None:
    """Write the strategy file of `layouts` (JSON when `path` ends in .json, else protobuf),
    atomically (every rank writes the same file)."""
    items = layout_items(layouts, only_trainable)
    if str(path).endswith(".json"):
        write_text(path, json.dumps({"current_stage": 0, "parallel_strategy_item": {},
                                     "parallel_layout_item": items}, indent=1))
    else:
        write_bytes(path, _encode_map(items))


def load(path: str) -> dict:
    """name -> {"dev_matrix": [...], "tensor_map": [...], ...} from a strategy file."""
    if str(path).endswith(".json"):
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        return dict(content.get("parallel_layout_item", {}))
    with open(path, "rb") as f:
        data = f.read()
    try:
        return _decode_map(data)
    except (IndexError, ValueError, UnicodeDecodeError) as e:
        raise TypeError("The strategy file type should be one of json or protobuf. When the "
                        "file name extension is not '.json', the file is considered as a "
                        "protobuf file.") from e


@dataclasses.dataclass
class Dims:
    """One of the file's lists of ints (DevMatrix, TensorMap, ParamSplitShape, IndicesOffset):
    its values are `dim`, as on MindSpore's protobuf messages."""

    dim: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class ParallelLayouts:
    """A parameter's layout as the file holds it, with the fields and nesting of MindSpore's
    ParallelLayouts message (`layout.dev_matrix[0].dim`, `layout.tensor_map[0].dim`)."""

    dev_matrix: list
    tensor_map: list
    param_split_shape: list
    indices_offset: list
    field: int = 0
    opt_weight_shard_step: int = 0
    opt_weight_shard_size: int = 0


def parallel_layouts(path: str) -> dict:
    """name -> ParallelLayouts of each parameter a strategy file (protobuf, or JSON when the
    name ends in ".json") lays out; {} when it lays out none."""
    out = {}
    for name, item in load(path).items():
        tensor_map = item.get("tensor_map") or []
        maps = tensor_map if tensor_map and all(isinstance(m, list) for m in tensor_map) \
            else [tensor_map]
        out[name] = ParallelLayouts(
            [Dims(list(item.get("dev_matrix") or []))], [Dims(list(m)) for m in maps],
            [Dims(list(item.get("param_split_shape") or []))],
            [Dims(list(item.get("indices_offset") or []))],
            *(int(item.get(f) or 0) for f in _FIELDS))
    return out


def restore_rank_list(data: bytes) -> list:
    """The ranks of a group information file's `ckpt_restore_rank_list` (node_strategy.proto's
    ParallelGroupMap, field 2: a ParallelGroupRanks of repeated uint32 `dim`); [] when the
    file has none. A file that is not such a message raises ValueError."""
    ranks: list = []
    for number, value in _fields(data):
        if number == 2:
            if not isinstance(value, bytes):
                raise ValueError("ckpt_restore_rank_list is not a message")
            ranks = _int_list(value)
    return ranks


def rank_block(rank: int, dev_matrix: list, entry) -> tuple[int, int]:
    """(block index, number of blocks) of a dimension whose tensor-map entry is `entry` (an
    axis counted from the right, -1, or a list of them) on `rank` of `dev_matrix`."""
    coords = np.unravel_index(rank, dev_matrix)
    index, count = 0, 1
    for value in (entry if isinstance(entry, (list, tuple)) else [entry]):
        if value == -1:
            continue
        axis = len(dev_matrix) - 1 - value
        index = index * dev_matrix[axis] + int(coords[axis])
        count *= dev_matrix[axis]
    return index, count


def merge_slices(name: str, slices: list, item: dict) -> np.ndarray:
    """The whole parameter from the slices each rank saved (`slices`, in rank order), laid out
    as `item` says; copies held by several ranks must agree."""
    dev_matrix, tensor_map = list(item["dev_matrix"]), list(item["tensor_map"])
    if item.get("param_split_shape") or item.get("opt_weight_shard_size", 0) > 0:
        raise UnsupportedError(f"load_distributed_checkpoint: {name!r} is split unevenly "
                               f"(param_split_shape) or across the optimizer's ranks "
                               f"(opt_weight_shard_size), which cellgraph does not merge")
    if len(slices) != int(np.prod(dev_matrix)):
        raise ArgumentValueError(f"load_distributed_checkpoint: {name!r} is laid out over the "
                                 f"device matrix {dev_matrix} of {int(np.prod(dev_matrix))} "
                                 f"ranks; got {len(slices)} checkpoints")
    first = np.asarray(slices[0])
    if len(tensor_map) != first.ndim:
        raise ArgumentValueError(f"load_distributed_checkpoint: {name!r} has {first.ndim} "
                                 f"dimensions, its tensor map {tensor_map} {len(tensor_map)}")
    counts = [rank_block(0, dev_matrix, e)[1] for e in tensor_map]
    whole = np.zeros([s * c for s, c in zip(first.shape, counts)], first.dtype)
    seen = np.zeros(whole.shape, bool)
    for rank, part in enumerate(slices):
        part = np.asarray(part)
        if part.shape != first.shape:
            raise ArgumentValueError(f"load_distributed_checkpoint: rank {rank}'s slice of "
                                     f"{name!r} has shape {part.shape}, rank 0's {first.shape}")
        at = tuple(slice(rank_block(rank, dev_matrix, e)[0] * n,
                         (rank_block(rank, dev_matrix, e)[0] + 1) * n)
                   for e, n in zip(tensor_map, part.shape))
        if seen[at].all() and not np.array_equal(whole[at], part, equal_nan=True):
            raise ArgumentValueError(f"load_distributed_checkpoint: {name!r} differs between "
                                     f"ranks that hold the same slice of it (rank {rank})")
        whole[at], seen[at] = part, True
    return whole


# ----- protobuf (proto2) wire format of node_strategy.proto's messages -------------------------

def _tag(number: int, wire: int) -> bytes:
    return key(number, wire)


def _message(number: int, body: bytes) -> bytes:
    return _tag(number, 2) + varint(len(body)) + body


def _ints(values) -> bytes:
    return b"".join(_tag(1, 0) + varint(int(v)) for v in values)


def _encode_map(items: dict) -> bytes:
    out = _tag(1, 0) + varint(0)  # current_stage
    for name, item in items.items():
        if any(isinstance(e, (list, tuple)) for e in item["tensor_map"]):
            raise UnsupportedError(f"strategy file: {name!r} splits a dimension along several "
                                   f"axes; write the file as JSON (a name ending in .json)")
        layouts = (_message(1, _ints(item["dev_matrix"])) + _message(2, _ints(item["tensor_map"]))
                   + _message(3, _ints(item["param_split_shape"]))
                   + _message(4, _ints(item["indices_offset"]))
                   + b"".join(_tag(5 + i, 0) + varint(int(item[f])) for i, f in
                              enumerate(_FIELDS)))
        out += _message(3, _message(1, name.encode()) + _message(2, layouts))
    return out


def _fields(data: bytes) -> list:
    """(field number, value) of each field of a message: an int (varints and fixed-width
    fields), or the bytes of a length-delimited field."""
    return [(number, int.from_bytes(value, "little") if wire in (1, 5) else value)
            for number, wire, value in fields(data)]


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _int_list(body: bytes) -> list:
    values = []
    for _, value in _fields(body):
        if isinstance(value, bytes):  # packed
            i = 0
            while i < len(value):
                v, i = read_varint(value, i)
                values.append(_signed(v))
        else:
            values.append(_signed(value))
    return values


def _decode_map(data: bytes) -> dict:
    items = {}
    for number, value in _fields(data):
        if number != 3:
            continue
        name, layouts = "", b""
        for n, v in _fields(value):
            if n == 1:
                name = v.decode()
            elif n == 2:
                layouts = v
        item: dict = {"dev_matrix": [], "tensor_map": [], "param_split_shape": [],
                      "indices_offset": [], **dict.fromkeys(_FIELDS, 0)}
        maps = []
        for n, v in _fields(layouts):
            if n == 1 and not item["dev_matrix"]:
                item["dev_matrix"] = _int_list(v)
            elif n == 2:
                maps.append(_int_list(v))
            elif n == 3:
                item["param_split_shape"] = _int_list(v)
            elif n == 4:
                item["indices_offset"] = _int_list(v)
            elif 5 <= n <= 7:
                item[_FIELDS[n - 5]] = _signed(v)
        maps = [m for m in maps if m] or [[]]
        item["tensor_map"] = maps[0] if len(maps) == 1 else maps
        items[name] = item
    return items
