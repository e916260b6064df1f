"""Tensor redistribution: the operators that turn one rank's slice of a tensor laid out one way
(a device matrix, a tensor map, a shape) into its slice laid out another way. MindSpore's
checkpoint transformation (`parallel._tensor._transform_tensor_by_layout`) reads them, and its
tests compare them operator for operator, so the steps are MindSpore's:

1. Each layout without its device axes of size 1 and without its tensor dimensions of size 1.
2. The two device matrices refined to a common one, then the two shapes to a common one
   (a dimension split where the other layout cuts it finer), the tensor maps following.
3. Dimension by dimension: a slice along a device axis where only the target cuts
   (StridedSlice), a gather of the ranks along an axis where only the source cuts
   (AllGather, then Split and Concat when the dimension is not the first), and a gather then
   a slice where the axis moves to another dimension.
4. Reshapes from the source slice to the refined one and from the refined target slice back.

Layouts that cannot be refined to a common one go through the whole tensor: gathered under
the source's device matrix, reshaped, and the target's slice cut from it.

A gather followed by its Split and Concat is written ("AllConcat", ranks + [axis]).

    >>> transform_operators(((8,), (0, -1), (32, 256)), ((4, 2), (1, -1), (32, 256)),
    ...                     list(range(8)), 0)
    [('Reshape', [1, 4, 256]), ('AllConcat', [0, 1, 1]), ('Reshape', [8, 256])]
"""
from __future__ import annotations

import math
from dataclasses import dataclass


class _NotExpandable(Exception):
    """A refinement that does not exist (the layouts cannot be unified this way)."""


# ----- shapes as accumulated products ----------------------------------------------------------

def _accumulate(shape: list) -> list:
    out, size = [], 1
    for n in shape:
        size *= n
        if size <= 0:
            raise _NotExpandable
        out.append(size)
    return out


def _unify_shapes(a: list, b: list) -> list:
    """The coarsest shape that refines both `a` and `b` (their accumulated products merged)."""
    merged = sorted(set(_accumulate(a)) | set(_accumulate(b)))
    if _accumulate(a)[-1] != _accumulate(b)[-1]:
        raise _NotExpandable
    return _from_accumulated(merged)


def _from_accumulated(accumulated: list) -> list:
    shape, previous = [], 1
    for value in accumulated:
        if value % previous:
            raise _NotExpandable
        shape.append(value // previous)
        previous = value
    return shape


def _expand_shape(shape: list, expand: list) -> list:
    """`shape` refined by `expand`, matched from the right (suffix products merged); extra
    leading dimensions of `expand` may only be 1s."""
    suffix_in = [math.prod(shape[i:]) for i in range(len(shape))]
    suffix_ex = [math.prod(expand[i:]) for i in range(len(expand))]
    if any(v <= 0 for v in suffix_in + suffix_ex):
        raise _NotExpandable
    out = []
    i, j = len(suffix_in) - 1, len(suffix_ex) - 1
    while j >= 0:
        if i < 0:
            if j + 1 < len(suffix_ex) and suffix_ex[j] == suffix_ex[j + 1]:
                j -= 1
                continue
            raise _NotExpandable
        if suffix_in[i] > suffix_ex[j]:
            out.insert(0, suffix_ex[j])
            j -= 1
        elif suffix_in[i] == suffix_ex[j]:
            out.insert(0, suffix_ex[j])
            i, j = i - 1, j - 1
        else:
            out.insert(0, suffix_in[i])
            i -= 1
    out[0:0] = suffix_in[:i + 1]
    result, following = [], 1
    for value in reversed(out):
        if value % following:
            raise _NotExpandable
        result.insert(0, value // following)
        following = value
    return result


def _split_groups(shape: list, expand: list) -> list:
    """`expand` cut into consecutive groups whose products are the dimensions of `shape`."""
    groups, group, size, index = [], [], 1, 0
    for n in expand:
        if index >= len(shape):
            raise _NotExpandable
        size *= n
        group.append(n)
        if size > shape[index]:
            raise _NotExpandable
        if size == shape[index]:
            groups.append(group)
            group, size, index = [], 1, index + 1
    if index != len(shape):
        raise _NotExpandable
    return groups


def _front_elements(arrangement: list, value: int) -> list:
    """The leading factors of `arrangement` whose product is `value` (the last one cut)."""
    out = []
    if not arrangement or value > math.prod(arrangement):
        return out
    size, index = 1, 0
    while size < value:
        size *= arrangement[index]
        out.append(arrangement[index] if size <= value else value * arrangement[index] // size)
        index += 1
    return out


# ----- a tensor layout -------------------------------------------------------------------------

@dataclass
class Layout:
    """A layout as MindSpore's TensorLayout keeps it: the given device matrix, and the matrix
    without its axes of size 1 with the tensor map renumbered to match."""

    dev_origin: list
    map_origin: list
    shape: list
    dev: list
    tensor_map: list

    @classmethod
    def make(cls, dev: list, tensor_map: list, shape: list) -> Layout:
        dev, tensor_map, shape = list(dev), list(tensor_map), list(shape)
        if (tensor_map and max(tensor_map) >= len(dev)) or len(tensor_map) != len(shape):
            raise _NotExpandable
        for axis, n in zip(tensor_map, shape):
            if axis != -1 and (dev[len(dev) - 1 - axis] == 0
                               or (n != -1 and n % dev[len(dev) - 1 - axis])):
                raise _NotExpandable
        kept, new_map = [], list(tensor_map)
        for i, n in enumerate(dev):
            if n != 1:
                kept.append(n)
                continue
            axis = len(dev) - 1 - i
            if axis in tensor_map:
                new_map[tensor_map.index(axis)] = -1
            new_map = [v - 1 if v >= len(dev) - 1 - i else v for v in new_map]
        return cls(dev, tensor_map, shape, kept or [1], new_map)

    def slice_shape(self) -> list:
        return [n if axis == -1 or n == -1 else n // self.dev[len(self.dev) - 1 - axis]
                for axis, n in zip(self.tensor_map, self.shape)]

    def squeezed(self) -> Layout:
        """Without the tensor dimensions of size 1 (a tensor of one element keeps one)."""
        if -1 not in self.shape and math.prod(self.shape) == 1:
            return Layout.make(self.dev, [-1], [1])
        ones = [i for i, n in enumerate(self.shape) if n == 1]
        if any(self.tensor_map[i] != -1 for i in ones):
            return self
        keep = [i for i in range(len(self.shape)) if i not in ones]
        return Layout.make(self.dev, [self.tensor_map[i] for i in keep] or [-1],
                           [self.shape[i] for i in keep] or [1])

    def expand_devices(self, expanded: list) -> Layout:
        """The same layout over a refinement `expanded` of the device matrix: a tensor
        dimension cut along a refined axis is split into one dimension per part."""
        groups = _split_groups(self.dev, expanded)
        counts = [len(g) for g in groups]
        offsets = [sum(counts[len(counts) - k:]) for k in range(len(counts))]
        new_map, new_shape = [], []
        for axis, n in zip(self.tensor_map, self.shape):
            if axis == -1:
                new_map.append(-1)
                new_shape.append(n)
                continue
            parts = groups[len(groups) - 1 - axis]
            new_map.extend(k + offsets[axis] for k in range(counts[len(counts) - 1 - axis] - 1,
                                                             -1, -1))
            new_shape.extend([*parts[:-1], n // math.prod(parts[:-1])])
        return Layout.make(expanded, new_map, new_shape)

    def expand_shape(self, expanded: list) -> Layout:
        """The same layout over a refinement `expanded` of the tensor shape, the device
        matrix refined where a cut dimension is split."""
        groups = _split_groups(self.shape, expanded)
        parts = [groups[self.tensor_map.index(axis)] if axis in self.tensor_map else []
                 for axis in range(len(self.dev) - 1, -1, -1)]
        devices = []
        for n, part in zip(self.dev, parts):
            devices.extend(_front_elements(part, n) or [n])
        refined = self.expand_devices(devices)
        groups = _split_groups(refined.shape, expanded)
        new_map = []
        for axis, group in zip(refined.tensor_map, groups):
            new_map.extend([axis] + [-1] * (len(group) - 1) if axis != -1 else [-1] * len(group))
        return Layout.make(refined.dev, new_map, expanded)

    def shape_expandable_by(self, other_shape: list) -> bool:
        try:
            return _expand_shape(self.shape, other_shape) == self.shape
        except _NotExpandable:
            return False


def _unify(from_layout: Layout, to_layout: Layout) -> tuple[Layout, Layout]:
    """Both layouts over one device matrix and one tensor shape (MindSpore's
    UnifyDeviceArrangementAndTensorShape)."""
    devices = _unify_shapes(from_layout.dev, to_layout.dev)
    src, dst = from_layout.expand_devices(devices), to_layout.expand_devices(devices)
    _expand_shape(src.shape, dst.shape)
    while src.shape != dst.shape:
        while not src.shape_expandable_by(dst.shape):
            src = src.expand_shape(_expand_shape(src.shape, dst.shape))
            dst = dst.expand_devices(src.dev)
        while not dst.shape_expandable_by(src.shape):
            dst = dst.expand_shape(_expand_shape(dst.shape, src.shape))
            src = src.expand_devices(dst.dev)
    if src.dev != dst.dev:
        raise _NotExpandable
    return src, dst


# ----- the operators ---------------------------------------------------------------------------

def _ranks_along(rank: int, device_list: list, dev: list, index: int) -> list:
    """The ranks that differ from `rank` only along device axis `index` (from the left)."""
    if dev[index] == 1:
        return [rank]
    stride = math.prod(dev[index + 1:])
    base = device_list[0]
    offset = rank - base
    start = offset - (offset // stride) % dev[index] * stride
    return [base + start + k * stride for k in range(dev[index])]


class _PendingTable:
    """The pending dimensions {dimension: device axis} in the order MindSpore visits them:
    its table is a robin_hood hash map (3.11) of integer keys, so the operators come out in
    the order of that map's slots. This reproduces the map's hashing, insertion (with its
    robin-hood displacement and growth) and erasure (with its backward shift)."""

    _MASK64 = (1 << 64) - 1
    _INC = 32  # the info byte's increment per slot of displacement

    def __init__(self, items):
        self._allocate(8)
        for key, value in items:
            self._insert(key, value)

    def _allocate(self, buckets: int) -> None:
        self.mask, self.allowed = buckets - 1, buckets * 80 // 100
        size = buckets + min(self.allowed, 0xFF)
        self.info = [0] * size + [1]  # a sentinel ends the slots
        self.slots: list = [None] * (size + 1)
        self.count = 0

    def _home(self, key: int) -> tuple[int, int]:
        x = key & self._MASK64
        x ^= x >> 33
        x = (x * 0xFF51AFD7ED558CCD) & self._MASK64
        x ^= x >> 33
        h = (x * 0xC4CEB9FE1A85EC53) & self._MASK64
        h ^= h >> 33
        return (h >> 5) & self.mask, self._INC + (h & 31)

    def _place(self, key: int, value: int) -> None:
        idx, info = self._home(key)
        while info <= self.info[idx]:
            idx, info = idx + 1, info + self._INC
        start, start_info = idx, info
        while self.info[idx]:
            idx += 1
        for at in range(idx, start, -1):  # shift the run up by one slot
            self.slots[at], self.info[at] = self.slots[at - 1], self.info[at - 1] + self._INC
        self.slots[start], self.info[start] = [key, value], start_info
        self.count += 1

    def _insert(self, key: int, value: int) -> None:
        if self.count >= self.allowed:
            old = [slot for slot, info in zip(self.slots, self.info[:-1]) if info]
            self._allocate((self.mask + 1) * 2)
            for old_key, old_value in old:
                self._place(old_key, old_value)
        self._place(key, value)

    def _erase_at(self, idx: int) -> None:
        while self.info[idx + 1] >= 2 * self._INC:
            self.info[idx], self.slots[idx] = self.info[idx + 1] - self._INC, self.slots[idx + 1]
            idx += 1
        self.info[idx], self.slots[idx] = 0, None
        self.count -= 1

    def __bool__(self) -> bool:
        return self.count > 0

    def values(self) -> list:
        return [slot[1] for slot in self.slots if slot is not None]

    def first(self) -> int:
        return next(slot[0] for slot in self.slots if slot is not None)

    def __getitem__(self, key: int) -> int:
        return next(slot[1] for slot in self.slots if slot is not None and slot[0] == key)

    def __setitem__(self, key: int, value: int) -> None:
        next(slot for slot in self.slots if slot is not None and slot[0] == key)[1] = value

    def walk(self, step) -> None:
        """`step(key)` for each key in slot order; a step that returns True erases its key
        (a key shifted back into that slot is visited next)."""
        idx = 0
        while idx < len(self.info) - 1:
            if not self.info[idx]:
                idx += 1
                continue
            if step(self.slots[idx][0]):
                self._erase_at(idx)
                if self.info[idx]:
                    continue
            idx += 1


class _Builder:
    """The redistribution of one rank's slice, dimension by dimension (MindSpore's
    RedistributionOperatorInfer and ConstructOperator)."""

    def __init__(self, layout: Layout, out_map: list, device_list: list, rank: int):
        self.dev, self.in_map, self.out_map = layout.dev, list(layout.tensor_map), out_map
        self.current = Layout.make(layout.dev, layout.tensor_map, layout.shape)
        self.device_list, self.rank = list(device_list), rank
        self.pending = _PendingTable(enumerate(layout.tensor_map))  # dimension -> device axis
        self.ops: list = []
        self.count = 0

    def _group(self, axis: int) -> list:
        return _ranks_along(self.rank, self.device_list, self.dev, len(self.dev) - 1 - axis)

    def _size(self, axis: int) -> int:
        return self.dev[len(self.dev) - 1 - axis]

    def _emit(self, op) -> None:
        """`op`; None (a single rank along the axis) adds nothing. (MindSpore's builder would
        repeat its previous operator there, but its layouts never keep an axis of size 1.)"""
        if op is not None:
            self.ops.append(op)

    def split(self, count: int, dim: int, axis: int) -> None:
        self.count += 1
        group, shape = self._group(axis), self.current.slice_shape()
        op = None
        if len(group) > 1:
            if shape[dim] % count:
                raise ValueError(f"Tensor with shape {shape} can not be split into {count} "
                                 f"slices in the dimension {dim}")
            part = shape[dim] // count
            index = group.index(self.rank)
            begin = [index * part if d == dim else 0 for d in range(len(shape))]
            end = [(index + 1) * part if d == dim else n for d, n in enumerate(shape)]
            op = ("StridedSlice", begin + end + [1] * len(shape))
        self._emit(op)
        self.current.tensor_map[dim] = axis

    def concat(self, dim: int, axis: int, count: int) -> None:
        self.count += 1
        group = self._group(axis)
        self._emit(("AllGather", group + [0]) if len(group) > 1 else None)
        if dim != 0:
            self._emit(("Split", [0, count]))
            self._emit(("Concat", [dim]))
        self.current.tensor_map[dim] = -1

    def _split_step(self, dim: int) -> bool:
        in_axis, out_axis = self.pending[dim], self.out_map[dim]
        if in_axis == out_axis:
            return True
        if in_axis == -1 and out_axis not in self.pending.values():
            self.split(self._size(out_axis), dim, out_axis)
            return True
        return False

    def _permute_step(self, dim: int) -> bool:
        in_axis, out_axis = self.pending[dim], self.out_map[dim]
        if in_axis == out_axis:
            return True
        if in_axis == -1 and out_axis in self.pending.values():
            cat_dim = self.in_map.index(out_axis)
            count = self._size(out_axis)
            self.concat(cat_dim, out_axis, count)
            self.split(count, dim, out_axis)
            self.pending[cat_dim] = -1
            return True
        return False

    def _concat_step(self, dim: int) -> bool:
        in_axis, out_axis = self.pending[dim], self.out_map[dim]
        if in_axis != -1 and in_axis not in self.out_map:
            self.concat(dim, in_axis, self._size(in_axis))
            if out_axis == -1:
                return True
            self.pending[dim] = -1
        return False

    def run(self) -> list:
        while self.pending:
            before_all = self.count
            while self.pending:
                before_split = self.count
                self.pending.walk(self._split_step)
                while self.pending:
                    before_permute = self.count
                    self.pending.walk(self._permute_step)
                    if before_permute == self.count:
                        break
                if before_split == self.count:
                    break
            self.pending.walk(self._concat_step)
            if before_all == self.count and self.pending:
                dim = self.pending.first()
                axis = self.pending[dim]
                self.pending[dim] = -1
                self.concat(dim, axis, self._size(axis))
        return self.ops


def _all_concats(ops: list) -> list:
    """AllGather (along axis 0), Split and Concat(axis) as one AllConcat along axis."""
    out, i = [], 0
    while i < len(ops):
        name, args = ops[i]
        if name == "AllGather" and i + 2 < len(ops) and ops[i + 1][0] == "Split" \
                and ops[i + 2][0] == "Concat" and ops[i + 1][1] == [0, len(args) - 1]:
            out.append(("AllConcat", args[:-1] + ops[i + 2][1]))
            i += 3
            continue
        out.append(("AllConcat", list(args)) if name == "AllGather" else (name, list(args)))
        i += 1
    return out


def _through_repeated(src: Layout, dst: Layout, device_list, rank: int) -> list:
    """Where the layouts cannot be unified: gather the whole tensor under the source's device
    matrix, reshape it to the target's, and cut the target's slice from it."""
    src_whole = Layout.make(src.dev_origin, [-1] * len(src.shape), src.shape)
    dst_whole = Layout.make(dst.dev_origin, [-1] * len(dst.shape), dst.shape)
    ops = _Builder(src, src_whole.tensor_map, device_list, rank).run()
    if src_whole.slice_shape() != dst_whole.slice_shape():
        ops.append(("Reshape", dst_whole.slice_shape()))
    return ops + _Builder(dst_whole, dst.tensor_map, device_list, rank).run()


def source_slice_shape(from_layout) -> list:
    """The shape of one rank's slice under `from_layout` (device matrix, tensor map, shape)."""
    return Layout.make(*from_layout).slice_shape()


def transform_operators(from_layout, to_layout, device_list, rank: int) -> list:
    """[(name, arguments)] turning `rank`'s slice under `from_layout` into its slice under
    `to_layout`, each (device matrix, tensor map, full shape) over the ranks `device_list`."""
    try:
        src_origin, dst_origin = Layout.make(*from_layout), Layout.make(*to_layout)
    except _NotExpandable:
        raise ValueError(f"Invalid tensor layout: {from_layout} or {to_layout}") from None
    if math.prod(src_origin.shape) != math.prod(dst_origin.shape):
        raise ValueError(f"Cannot redistribute a tensor of shape {src_origin.shape} to shape "
                         f"{dst_origin.shape}: their numbers of elements differ")
    try:
        src, dst = _unify(src_origin.squeezed(), dst_origin.squeezed())
    except _NotExpandable:
        return _all_concats(_through_repeated(src_origin, dst_origin, device_list, rank))
    ops = _Builder(src, dst.tensor_map, device_list, rank).run()
    if not ops:
        if src_origin.slice_shape() != dst_origin.slice_shape():
            ops = [("Reshape", dst_origin.slice_shape())]
        return _all_concats(ops)
    if src_origin.slice_shape() != src.slice_shape():
        ops.insert(0, ("Reshape", src.slice_shape()))
    if dst_origin.slice_shape() != dst.slice_shape():
        ops.append(("Reshape", dst_origin.slice_shape()))
    return _all_concats(ops)
