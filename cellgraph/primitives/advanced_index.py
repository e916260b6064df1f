"""NumPy's advanced indexing for `x[index]` with several integer Tensor (or array) items, or one
mixed with ints and slices: `emissions[0, ops.arange(b), tags]`, `trans[prev, cur]`,
`x[:, 0, idx]`. A composition, so its gradient and batching come from the ops it is made of.

The basic items (slices, None) are applied first with every advanced axis kept whole; the
advanced axes are moved to the front and read together by one gather_nd over the broadcast
indices stacked as coordinates. As in NumPy, ints count as (0-d) advanced indices once any
array index is present, and the broadcast index dims replace the advanced axes where those are
adjacent, or come first where they are not. A Python `True` among them is NumPy's 0-d boolean
index: a new axis of size 1, read at the advanced index [0].
"""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import math_ops as M
from .array_ops import Slice
from .core import abstract_of, broadcast_shapes
from .errors import DTypeError, ShapeError
from .scatter_ops import gather_nd

_WHOLE = Slice(None, None, None)


def _expand_ellipsis(items: list, ndim: int) -> list:
    """The items with Ellipsis replaced by whole slices, so that each item but None (and True,
    a new axis too) is one axis."""
    used = sum(1 for it in items if it is not None and it is not Ellipsis and it is not True)
    if used > ndim:
        raise ShapeError(f"GetItem: too many indices ({used}) for a tensor of rank {ndim}")
    # identity tests: `in` and `index` would compare Tensors by value
    at = next((i for i, it in enumerate(items) if it is Ellipsis), None)
    if at is None:
        return items + [_WHOLE] * (ndim - used)
    return items[:at] + [_WHOLE] * (ndim - used) + items[at + 1:]


def _broadcast_indices(indices: list, index_shape: tuple) -> list:
    """The indices as int64 of their broadcast shape; where a size is known only at run time
    (a boolean mask's positions), broadcast by adding zeros of every index's shape."""
    indices = [A.cast(i, dtype=dt.int64) for i in indices]
    if None not in index_shape:
        return [A.broadcast_to(i, shape=index_shape) for i in indices]
    zeros = A.zeros_like(indices[0])
    for i in indices[1:]:
        zeros = M.add(zeros, A.zeros_like(i))
    return [M.add(i, zeros) for i in indices]


def _as_index(item, size: int):
    """An advanced item as an integer Tensor or array of indices into an axis of `size`."""
    if isinstance(item, numbers.Integral):
        if not -size <= item < size:
            raise ShapeError(f"GetItem: index {item} is out of bounds for an axis of size {size}")
        return np.asarray(item % size, np.int64)
    if isinstance(item, (list, np.ndarray)):
        item = np.asarray(item)
    dtype = abstract_of(item).dtype
    if not dtype.is_int:
        raise DTypeError(f"GetItem: expected integer index tensors when several are combined, "
                         f"got {dtype}")
    return item


def advanced_getitem(x, items: list):
    """`x[items]` where `items` holds at least one integer Tensor or array (NumPy's rules)."""
    items = _expand_ellipsis(list(items), abstract_of(x).ndim)
    # each item, None included, is one axis of the basic read
    basic, advanced = [], []
    for axis, item in enumerate(items):
        if item is None or isinstance(item, Slice):
            basic.append(item)
        elif item is True:
            basic.append(None)
            advanced.append((axis, np.zeros(1, np.int64)))
        else:
            basic.append(_WHOLE)
            advanced.append((axis, item))
    y = A.getitem(x, index=tuple(basic)) if any(b is None or b != _WHOLE for b in basic) else x
    shape = abstract_of(y).shape
    axes = [a for a, _ in advanced]
    indices = [_as_index(item, shape[a]) for a, item in advanced]
    index_shape = broadcast_shapes(*(abstract_of(i).shape for i in indices))
    coords = _broadcast_indices(indices, index_shape)
    rest = [a for a in range(len(shape)) if a not in axes]
    moved = A.transpose(y, perm=tuple(axes + rest)) if axes + rest != list(range(len(shape))) \
        else y
    out = gather_nd(moved, A.stack(*coords, axis=len(index_shape)))
    if axes != list(range(axes[0], axes[0] + len(axes))) or axes[0] == 0:
        return out
    # adjacent advanced axes: their result dims take the place of the first of them
    k, first = len(index_shape), axes[0]
    perm = list(range(k, k + first)) + list(range(k)) + list(range(k + first, len(shape) - len(
        axes) + k))
    return A.transpose(out, perm=tuple(perm))
