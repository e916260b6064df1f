"""`mindspore.numpy.array_ops`: reshaping, joining, splitting and indexing Tensors
(transpose, concatenate, stack, split, tile, take, where, unique, ...)."""
from __future__ import annotations

import itertools
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import fmt_shape, normalize_axis
from cellgraph.primitives.dynamic_ops import unique_p
from cellgraph.primitives.errors import ArgumentError, ShapeError

from .array_creations import asarray
from .utils import _common_dtype, _error, _flat_or, _sequence, _shape, _stack

__all__ = [
    "append", "argwhere", "array_split", "broadcast_arrays", "broadcast_to", "concatenate",
    "expand_dims", "flip", "hstack", "moveaxis", "ndim", "nonzero", "ravel", "repeat", "reshape",
    "roll", "shape", "size", "split", "squeeze", "stack", "swapaxes", "take", "take_along_axis",
    "tile", "transpose", "unique", "unravel_index", "vstack", "where",
]


def reshape(x, new_shape):
    x = asarray(x)
    shape = (new_shape,) if isinstance(new_shape, numbers.Integral) else tuple(new_shape)
    return F.reshape(x, shape)


def ravel(x):
    return reshape(x, (-1,))


def transpose(a, axes=None):
    a = asarray(a)
    ndim = len(a.shape)
    axes = tuple(reversed(range(ndim))) if axes is None else tuple(axes)
    if sorted(normalize_axis(p, ndim) for p in axes) != list(range(ndim)):
        raise _error(ShapeError, "transpose", f"axes {axes} are not a permutation of the "
                     f"{ndim} axes of a Tensor of shape {fmt_shape(a.shape)}")
    return F.transpose(a, axes)


def expand_dims(a, axis):
    return F.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return F.squeeze(asarray(a), axis)


def broadcast_to(array, shape):
    return F.broadcast_to(asarray(array), _shape(shape, "broadcast_to"))


def concatenate(arrays, axis=0):
    """Join Tensors along an existing axis; `axis=None` flattens them first."""
    items = _sequence(arrays, "concatenate")
    if axis is None:
        items, axis = [ravel(a) for a in items], 0
    ndim = len(items[0].shape)
    for a in items[1:]:
        if len(a.shape) != ndim:
            raise _error(ShapeError, "concatenate", f"all Tensors must have the same rank, got "
                         f"shapes {', '.join(fmt_shape(t.shape) for t in items)}")
    return F.concat(_common_dtype(items), normalize_axis(axis, ndim))


def stack(arrays, axis=0):
    """Join Tensors of one shape along a new axis."""
    return _stack(arrays, axis)


def where(condition, x=None, y=None):
    """Elements of `x` where `condition` holds, else of `y` (shapes broadcast)."""
    if x is None or y is None:
        raise _error(ArgumentError, "where", "the one-argument form (the indices of nonzero "
                     "elements) gives a shape known only at run time; pass both x and y")
    cond = asarray(condition)
    if not cond.dtype.is_bool:
        cond = F.not_equal(cond, 0)
    a = x if isinstance(x, numbers.Number) else asarray(x)
    b = y if isinstance(y, numbers.Number) else asarray(y)
    return F.where(cond, a, b)


def size(a, axis=None):
    shape = asarray(a).shape
    if axis is None:
        return int(onp.prod(shape))
    return shape[normalize_axis(axis, len(shape))]


def shape(a):
    return tuple(asarray(a).shape)


def ndim(a):
    return len(asarray(a).shape)


def tile(a, reps):
    reps = (reps,) if isinstance(reps, numbers.Integral) else tuple(reps)
    a = asarray(a)
    if len(reps) > len(a.shape):
        a = F.reshape(a, (1,) * (len(reps) - len(a.shape)) + tuple(a.shape))
    reps = (1,) * (len(a.shape) - len(reps)) + reps
    return P.tile(a, reps)


def flip(m, axis=None):
    m = asarray(m)
    return P.flip(m, tuple(range(len(m.shape))) if axis is None else axis)


def roll(a, shift, axis=None):
    return P.roll(asarray(a), shift, axis)


def swapaxes(x, axis1, axis2):
    return P.swapaxes(asarray(x), axis1, axis2)


def moveaxis(a, source, destination):
    a = asarray(a)
    order = [i for i in range(len(a.shape)) if i != normalize_axis(source, len(a.shape))]
    order.insert(normalize_axis(destination, len(a.shape)), normalize_axis(source, len(a.shape)))
    return F.transpose(a, tuple(order))


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int) or pieces cut at the given indices."""
    x = asarray(x)
    size = x.shape[normalize_axis(axis, len(x.shape))]
    if isinstance(indices_or_sections, numbers.Integral):
        return tuple(NF.split_equal(x, axis, int(indices_or_sections)))
    cuts = [0, *indices_or_sections, size]
    return tuple(P.split(x, [b - a for a, b in itertools.pairwise(cuts)], axis))


def hstack(tup):
    items = [asarray(t) for t in tup]
    return F.concat(items, 0 if len(items[0].shape) == 1 else 1)


def vstack(tup):
    items = [asarray(t) for t in tup]
    return F.concat([F.reshape(t, (1, -1)) if len(t.shape) == 1 else t for t in items], 0)


def take(a, indices, axis=None, mode="clip"):
    """Elements of `a` (flattened when `axis` is None) at `indices`; an index out of range is
    clipped to the axis ("clip", a negative one counted from the end first) or wrapped
    ("wrap"). "raise" is not implemented, as in MindSpore."""
    a = asarray(a)
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    size = a.shape[normalize_axis(axis, len(a.shape))]
    indices = asarray(indices)
    if mode == "clip":
        indices = P.clip_by_value(F.select(F.less(indices, 0), F.add(indices, size), indices),
                                  0, size - 1)
    elif mode == "wrap":
        indices = P.floor_mod(indices, size)
    elif mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    else:
        raise ValueError(f"take: `mode` must be 'clip', 'wrap' or 'raise', got {mode!r}")
    return P.gather(a, indices, axis)


def take_along_axis(arr, indices, axis):
    """arr's elements at `indices` along `axis` (a one-hot contraction, differentiable in arr)."""
    arr, indices = asarray(arr), asarray(indices)
    axis = normalize_axis(axis, len(arr.shape))
    picks = P.one_hot(indices, arr.shape[axis], 1.0, 0.0, axis + 1)  # one axis more than arr
    chosen = F.mul(F.expand_dims(arr, axis), F.cast(picks, arr.dtype))
    return F.reduce_sum(chosen, axis + 1)


def append(arr, values, axis=None):
    """arr and values joined along axis (both flattened when axis is None)."""
    arr, values = asarray(arr), asarray(values)
    if axis is None:
        arr, values, axis = F.reshape(arr, (-1,)), F.reshape(values, (-1,)), 0
    return F.concat((arr, F.cast(values, arr.dtype)), axis)


def array_split(x, indices_or_sections, axis=0):
    """Like split, but n sections need not divide the axis: the first len % n get one more."""
    return list(P.tensor_split(asarray(x), indices_or_sections, axis))


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = onp.broadcast_shapes(*[tuple(a.shape) for a in arrays])
    return [F.broadcast_to(a, shape) for a in arrays]


def repeat(a, repeats, axis=None):
    """Each element `repeats` times along axis (of the flattened array when None)."""
    a, axis = _flat_or(a, axis)
    if not isinstance(repeats, numbers.Integral):
        raise TypeError(f"repeat: `repeats` must be an int, got {repeats!r}")
    return P.repeat_elements(a, int(repeats), axis)


def unravel_index(indices, shape, order="C"):
    """Flat indices -> a tuple of coordinate arrays for `shape`."""
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    indices = asarray(indices)
    dims = list(shape) if order == "C" else list(reversed(shape))
    coords = []
    for size in reversed(dims):
        coords.append(P.floor_mod(indices, size))
        indices = P.floor_div(indices, size)
    coords = coords[::-1] if order == "C" else coords
    return tuple(coords)


def unique(x, return_inverse=False):
    """The sorted distinct values of the flattened `x` (and the indices of the flattened x's
    elements among them), as MindSpore's, which ravels a multi-dimensional input first."""
    values, inverse = unique_p(F.reshape(asarray(x), (-1,)), sorted=True)
    return (values, inverse) if return_inverse else values


def nonzero(a):
    """The indices of the non-zero elements, one Tensor per axis."""
    return P.nonzero(asarray(a), as_tuple=True)


def argwhere(a):
    """The indices of the non-zero elements, (count, ndim)."""
    return P.nonzero(asarray(a))
