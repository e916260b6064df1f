"""Fewer collectives for a redistribution: MindSpore's `enable_redist_opt` (its
TensorTransform::OptimizeTensorRedistributionOperatorList), applied to the operators of
`_redistribution.transform_operators`.

The operators are rewritten in a list of three kinds: ("AllConcat", ranks + [axis]),
("Slice", [axis, count, index]) (a StridedSlice that cuts one axis into `count` parts and keeps
part `index`) and ("Reshape", shape). Then, in MindSpore's order:

1. runs of reshapes become one (or none, where the shape comes back unchanged);
2. gathers move before slices, gathers of higher axes first, slices by axis (a stable sort;
   reshapes compare equal to everything, which pins them only as the sort's merges allow);
3. a gather along axis k > 0 whose input is 1 in every axis before k becomes a reshape, a
   gather along axis 0 and a reshape back; a slice followed by a reshape, with 1s before
   its axis, becomes the reshape then a slice of axis 0;
4. reshapes merged again; consecutive gathers along one axis whose rank groups nest
   (interval of the second = interval times count of the first) become one gather; slices of
   one axis become one slice.

    [('Reshape', [1, 2, 8]), ('AllConcat', [0, 4, 0]), ('AllConcat', [0, 2, 1]),
     ('StridedSlice', [0, 0, 0, 1, 4, 8, 1, 1, 1]), ('Reshape', [4, 8])]     input shape [2, 8]
    ->
    [('AllConcat', [0, 2, 0]), ('Reshape', [1, 4, 8]), ('AllConcat', [0, 4, 0]),
     ('Reshape', [8, 8]), ('StridedSlice', [0, 0, 4, 8, 1, 1])]

A list MindSpore would not rewrite (one operator, a slice with strides) comes back as it is.
"""
from __future__ import annotations


class _NotOptimizable(Exception):
    """The list has a form MindSpore leaves alone."""


def _shape_after(shape: list, op) -> list:
    name, args = op
    if name == "Reshape":
        return list(args)
    if name == "AllConcat":
        out = list(shape)
        out[args[-1]] *= len(args) - 1
        return out
    if name == "Slice":
        out = list(shape)
        out[args[0]] //= args[1]
        return out
    dims = len(args) // 3  # StridedSlice: begin + end + strides
    return [(args[dims + i] - args[i]) // args[2 * dims + i] for i in range(dims)]


def _shapes(input_shape: list, ops: list) -> list:
    """The shape after each operator."""
    out, shape = [], list(input_shape)
    for op in ops:
        shape = _shape_after(shape, op)
        out.append(shape)
    return out


def _input_of(i: int, input_shape: list, shapes: list) -> list:
    return shapes[i - 1] if i > 0 else list(input_shape)


def _to_slices(input_shape: list, ops: list) -> list:
    shapes, out = _shapes(input_shape, ops), []
    for i, (name, args) in enumerate(ops):
        if name != "StridedSlice":
            out.append((name, list(args)))
            continue
        in_shape, dims = _input_of(i, input_shape, shapes), len(args) // 3
        begin, end, strides = args[:dims], args[dims:2 * dims], args[2 * dims:]
        if len(args) != 3 * len(shapes[i]) or any(s != 1 for s in strides):
            raise _NotOptimizable
        axis = next((a for a in range(dims) if end[a] - begin[a] != in_shape[a]), None)
        if axis is None:
            raise _NotOptimizable
        width = end[axis] - begin[axis]
        out.append(("Slice", [axis, in_shape[axis] // width, begin[axis] // width]))
    return out


def _to_strided_slices(input_shape: list, ops: list) -> list:
    shapes, out = _shapes(input_shape, ops), []
    for i, (name, args) in enumerate(ops):
        if name != "Slice":
            out.append((name, args))
            continue
        in_shape = _input_of(i, input_shape, shapes)
        axis, count, index = args
        begin, end = [0] * len(in_shape), list(in_shape)
        begin[axis] = in_shape[axis] // count * index
        end[axis] = begin[axis] + in_shape[axis] // count
        out.append(("StridedSlice", begin + end + [1] * len(in_shape)))
    return out


def _merge_reshapes(input_shape: list, ops: list) -> list:
    """Each run of reshapes as one reshape to its last shape, none if that is its input's."""
    ops, left = list(ops), 0
    while left < len(ops):
        if ops[left][0] != "Reshape":
            left += 1
            continue
        right = left + 1
        while right < len(ops) and ops[right][0] == "Reshape":
            right += 1
        shapes = _shapes(input_shape, ops)
        in_shape, out_shape = _input_of(left, input_shape, shapes), shapes[right - 1]
        del ops[left:right]
        if in_shape != out_shape:
            ops.insert(left, ("Reshape", out_shape))
        left += 1
    return ops


def _goes_before(a, b) -> bool:
    """The sort's order: gathers before slices, gathers of higher axes first, slices by axis;
    a reshape is never before anything nor anything before it."""
    if a[0] == "Reshape" or b[0] == "Reshape":
        return False
    if a[0] != b[0]:
        return a[0] == "AllConcat"
    if a[0] == "AllConcat":
        return a[1][-1] > b[1][-1]
    return a[1][0] < b[1][0]


def _insertion_sort(items: list, less) -> list:
    items = list(items)
    for i in range(1, len(items)):
        value = items[i]
        if less(value, items[0]):
            items[1:i + 1] = items[0:i]
            items[0] = value
            continue
        j = i
        while less(value, items[j - 1]):
            items[j] = items[j - 1]
            j -= 1
        items[j] = value
    return items


def _merge(first: list, second: list, less) -> list:
    """Forward merge: an item of `second` goes first only when it is less."""
    out, i, j = [], 0, 0
    while i < len(first) and j < len(second):
        if less(second[j], first[i]):
            out.append(second[j])
            j += 1
        else:
            out.append(first[i])
            i += 1
    return out + first[i:] + second[j:]


def _merge_backward(first: list, second: list, less) -> list:
    """Backward merge from the ends: the last of `first` goes last only when the last of
    `second` is less than it."""
    out, i, j = [], len(first) - 1, len(second) - 1
    while i >= 0 and j >= 0:
        if less(second[j], first[i]):
            out.append(first[i])
            i -= 1
        else:
            out.append(second[j])
            j -= 1
    out.reverse()
    return first[:i + 1] + second[:j + 1] + out


def _sort_half(items: list, less, chunk: int = 7) -> list:
    """A merge sort over insertion-sorted chunks of seven."""
    runs = [_insertion_sort(items[i:i + chunk], less) for i in range(0, len(items), chunk)]
    while len(runs) > 1:
        runs = [_merge(runs[i], runs[i + 1], less) if i + 1 < len(runs) else runs[i]
                for i in range(0, len(runs), 2)]
    return runs[0] if runs else []


def _stable_sort(items: list, less) -> list:
    """std::stable_sort as libstdc++ runs it with its buffer: each half sorted, then merged
    forward when the first half is not the longer, else backward. `less` here is no strict
    weak order (reshapes compare equal to everything), so the algorithm decides the result."""
    if len(items) <= 1:
        return list(items)
    middle = (len(items) + 1) // 2
    first, second = _sort_half(items[:middle], less), _sort_half(items[middle:], less)
    if len(first) <= len(second):
        return _merge(first, second, less)
    return _merge_backward(first, second, less)


def _gathers_along_axis_0(input_shape: list, ops: list) -> list:
    ops, i = list(ops), 0
    while i < len(ops):
        name, args = ops[i]
        if name != "AllConcat" or args[-1] == 0:
            i += 1
            continue
        shapes, axis = _shapes(input_shape, ops), args[-1]
        in_shape = _input_of(i, input_shape, shapes)
        if any(d != 1 for d in in_shape[:axis]):
            i += 1
            continue
        before = in_shape[axis:]
        for k in range(i - 1, -1, -1):
            if ops[k][0] != "Reshape":
                before = shapes[k]
                break
        ops[i:i + 1] = [("Reshape", list(before)), ("AllConcat", args[:-1] + [0]),
                        ("Reshape", list(shapes[i]))]
        i += 1
    return ops


def _slices_along_axis_0(input_shape: list, ops: list) -> list:
    ops = list(ops)
    for i in range(len(ops) - 2, -1, -1):
        (name, args), (next_name, next_args) = ops[i], ops[i + 1]
        if name != "Slice" or next_name != "Reshape":
            continue
        in_shape = _input_of(i, input_shape, _shapes(input_shape, ops))
        if any(d != 1 for d in in_shape[:args[0]]):
            continue
        reshape = [next_args[0] * args[1], *next_args[1:]]
        ops[i], ops[i + 1] = ("Reshape", reshape), ("Slice", [0, *args[1:]])
    return ops


def _nested_gathers(a, b) -> bool:
    if b[0] != "AllConcat" or a[1][-1] != b[1][-1]:
        return False
    return (a[1][1] - a[1][0]) * (len(a[1]) - 1) == b[1][1] - b[1][0]


def _merged_group(a, b) -> list:
    ranks_a, ranks_b = a[1][:-1], b[1][:-1]
    common = sorted(set(ranks_a) & set(ranks_b))
    if len(common) != 1:
        raise RuntimeError(f"Failed to merge group, because they don't only have a common rank. "
                           f"The first group is {ranks_a}, and the seconde group is {ranks_b}")
    start = ranks_b[0] - (common[0] - ranks_a[0])
    end = start + (ranks_b[1] - ranks_b[0]) * len(ranks_b)
    return [*range(start, end, ranks_a[1] - ranks_a[0]), a[1][-1]]


def _merge_gathers(ops: list) -> list:
    ops, i = list(ops), 0
    while i < len(ops):
        if ops[i][0] == "AllConcat":
            while i + 1 < len(ops) and _nested_gathers(ops[i], ops[i + 1]):
                ops[i:i + 2] = [("AllConcat", _merged_group(ops[i], ops[i + 1]))]
        i += 1
    return ops


def _merge_slices(ops: list) -> list:
    """Slice(axis, n1, i1) then Slice(axis, n2, i2), reshapes between them dropped, as
    Slice(axis, n1 * n2, i1 * n2 + i2)."""
    ops, first = list(ops), 0
    while first < len(ops):
        if ops[first][0] != "Slice":
            first += 1
            continue
        nxt = first + 1
        while nxt < len(ops):
            if ops[nxt][0] == "Reshape":
                nxt += 1
                continue
            if ops[nxt][0] != "Slice" or ops[first][1][0] != ops[nxt][1][0]:
                break
            (axis, n1, i1), (_, n2, i2) = ops[first][1], ops[nxt][1]
            del ops[first:nxt]
            ops[first] = ("Slice", [axis, n1 * n2, i1 * n2 + i2])
            nxt = first + 1
        first += 1
    return ops


def optimize_operators(ops: list, input_shape: list) -> list:
    """`ops` (transform_operators' list for a slice of `input_shape`) with fewer
    collectives, as MindSpore's enable_redist_opt rewrites them."""
    if len(ops) <= 1:
        return ops
    try:
        work = _to_slices(input_shape, ops)
    except _NotOptimizable:
        return ops
    work = _merge_reshapes(input_shape, work)
    work = _stable_sort(work, _goes_before)
    work = _gathers_along_axis_0(input_shape, work)
    work = _slices_along_axis_0(input_shape, work)
    work = _merge_reshapes(input_shape, work)
    work = _merge_slices(_merge_gathers(work))
    return [(name, list(args)) for name, args in _to_strided_slices(input_shape, work)]
