"""Where MindSpore's PyNative views put their elements: strides and storage offsets.

MindSpore runs transpose, basic indexing, narrow, split, squeeze, expand_dims, broadcast_to and
reshape (of a contiguous tensor) as views: the result reads its input's memory through its own
strides (in elements) from an offset, so `is_contiguous()`, `stride()` and `storage_offset()`
tell them apart from a fresh tensor. cellgraph gives every result its own array, so a view is a
copy here; what these rules keep is the layout MindSpore's view would have, which the eager
runtime records on the result (runtime/eager.py) for those three methods to report. A rule
returns None where MindSpore makes a copy (a negative step, advanced indexing, reshaping a
non-contiguous tensor): the result is then an ordinary contiguous tensor.

A layout is `(strides, offset)`; a fresh tensor's is `(contiguous_strides(shape), 0)`.
"""
from __future__ import annotations

from .core import Slice, normalize_axes, normalize_axis


def contiguous_strides(shape) -> tuple:
    """Row-major strides, in elements."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous(shape, strides) -> bool:
    """Whether the elements are laid out row-major without gaps (axes of size 1 may have any
    stride, and an empty tensor is contiguous), as MindSpore and PyTorch decide it."""
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size == 0:
            return True
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def transpose_view(layout, in_shape, out_shapes, perm):
    strides, offset = layout
    return [(tuple(strides[p] for p in perm), offset)]


def squeeze_view(layout, in_shape, out_shapes, axis=()):
    strides, offset = layout
    axes = normalize_axes(axis, len(in_shape)) if axis != () else tuple(
        i for i, d in enumerate(in_shape) if d == 1)
    return [(tuple(s for i, s in enumerate(strides) if i not in axes), offset)]


def expand_dims_view(layout, in_shape, out_shapes, axis):
    """The new axis steps over the axis it lands before (by 1 at the end), as MindSpore's."""
    strides, offset = layout
    axis = normalize_axis(axis, len(in_shape) + 1)
    step = strides[axis] * in_shape[axis] if axis < len(in_shape) else 1
    return [(strides[:axis] + (step,) + strides[axis:], offset)]


def broadcast_to_view(layout, in_shape, out_shapes, shape):
    """New leading axes and stretched axes of size 1 step by 0."""
    strides, offset = layout
    lead = len(out_shapes[0]) - len(in_shape)
    stretched = tuple(0 if size == 1 and out != 1 else stride for size, stride, out in
                      zip(in_shape, strides, out_shapes[0][lead:]))
    return [((0,) * lead + stretched, offset)]


def reshape_view(layout, in_shape, out_shapes, shape):
    """A view of a contiguous tensor; MindSpore copies any other."""
    strides, offset = layout
    if not is_contiguous(in_shape, strides):
        return None
    return [(contiguous_strides(out_shapes[0]), offset)]


def split_view(layout, in_shape, out_shapes, axis, sizes):
    strides, offset = layout
    axis = normalize_axis(axis, len(in_shape))
    out, start = [], 0
    for size in sizes:
        out.append((strides, offset + start * strides[axis]))
        start += size
    return out


def getitem_view(layout, in_shape, out_shapes, index):
    """Basic indexing (ints, slices of positive step, None, ...) is a view; anything else is
    MindSpore's copy."""
    strides, offset = layout
    items = list(index)
    if sum(i is Ellipsis for i in items) > 1:
        return None
    if Ellipsis in items:
        at = items.index(Ellipsis)
        named = sum(i is not None for i in items) - 1
        items[at:at + 1] = [Slice(None, None, None)] * (len(in_shape) - named)
    out_strides, axis = [], 0
    for item in items:
        if item is None:  # a new axis of size 1, as expand_dims makes it
            out_strides.append(strides[axis] * in_shape[axis] if axis < len(in_shape) else 1)
            continue
        if axis >= len(in_shape):
            return None
        if isinstance(item, bool) or not isinstance(item, (int, Slice)):
            return None  # a mask, a Tensor or a list of indices: gathered into a copy
        if isinstance(item, int):
            offset += (item + in_shape[axis] if item < 0 else item) * strides[axis]
        else:
            start, _, step = item.to_slice().indices(in_shape[axis])
            if step < 0:
                return None
            offset += start * strides[axis]
            out_strides.append(strides[axis] * step)
        axis += 1
    out_strides.extend(strides[axis:])
    return [(tuple(out_strides), offset)]
