"""`mindspore.numpy.array_ops`: reshaping, joining, splitting and indexing Tensors
(transpose, concatenate, stack, split, tile, take, where, unique, ...)."""
from __future__ import annotations

import itertools
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.ops.function.array_func.shape import repeat_along
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import fmt_shape, normalize_axis, value_input
from cellgraph.primitives.dynamic_ops import unique_p
from cellgraph.primitives.errors import ArgumentError, ShapeError

from .array_creations import asarray
from .utils import (
    _common_dtype,
    _error,
    _flat_or,
    _int_arg,
    _is_tensor,
    _sequence,
    _shape,
    _stack,
    take_tensors_only,
)

__all__ = [
    "append", "argwhere", "array_split", "broadcast_arrays", "broadcast_to", "concatenate",
    "expand_dims", "flip", "hstack", "moveaxis", "ndim", "nonzero", "ravel", "repeat", "reshape",
    "roll", "shape", "size", "split", "squeeze", "stack", "swapaxes", "take", "take_along_axis",
    "tile", "transpose", "unique", "unravel_index", "vstack", "where",
]


def reshape(x, new_shape):
    shape = (new_shape,) if isinstance(new_shape, numbers.Integral) else new_shape
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in shape):
        raise _error(ArgumentError, "reshape", f"`new_shape` must be an int or a tuple of "
                     f"ints, got {new_shape!r}")
    return F.reshape(x, tuple(int(s) for s in shape))


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
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    if not all(isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in items):
        raise _error(ArgumentError, "expand_dims", f"axis must be tuple, list or int, but got "
                     f"{type(axis).__name__} {axis!r}")
    a = asarray(a)
    if not isinstance(axis, (tuple, list)):
        return F.expand_dims(a, axis)
    ndim = len(a.shape) + len(axis)
    for i in axis:
        if not -ndim <= i < ndim:
            raise _error(ShapeError, "expand_dims", f"axis {i} is out of bounds for array of "
                         f"dimension {ndim}")
    places = [i % ndim for i in axis]
    if len(set(places)) != len(places):
        raise _error(ShapeError, "expand_dims", f"duplicate axes in {axis}")
    sizes = iter(a.shape)
    return F.reshape(a, tuple(1 if i in places else next(sizes) for i in range(ndim)))


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
    # numbers are arrays of their own (float32, int32), promoted with the other as Tensors
    return F.where(cond, *_common_dtype([asarray(x), asarray(y)]))


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
    """`a` with the axes `source` (an int or a sequence) moved to `destination` (the same
    count), the other axes keeping their order."""
    return P.movedim(asarray(a), source, destination)


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int: a tuple, as MindSpore gives) or pieces cut at the given indices
    (a list, as MindSpore gives)."""
    x = asarray(x)
    size = x.shape[normalize_axis(axis, len(x.shape))]
    if isinstance(indices_or_sections, numbers.Integral):
        return tuple(NF.split_equal(x, axis, int(indices_or_sections)))
    cuts = [0, *indices_or_sections, size]
    return list(P.split(x, [b - a for a, b in itertools.pairwise(cuts)], axis))


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
    """arr's elements at `indices` along `axis`, the two broadcast together on the other axes
    (the values themselves: a NaN or an infinity elsewhere along the axis stays there)."""
    arr, indices = asarray(arr), asarray(indices)
    axis = normalize_axis(axis, len(arr.shape))
    other = onp.broadcast_shapes(*[tuple(t.shape[:axis]) + (1,) + tuple(t.shape[axis + 1:])
                                   for t in (arr, indices)])
    arr = P.broadcast_to(arr, other[:axis] + (arr.shape[axis],) + other[axis + 1:])
    indices = P.broadcast_to(indices, other[:axis] + (indices.shape[axis],) + other[axis + 1:])
    return P.gather_elements(arr, axis, indices)


def append(arr, values, axis=None):
    """arr and values joined along axis (both flattened when axis is None)."""
    arr, values = asarray(arr), asarray(values)
    if axis is None:
        arr, values, axis = F.reshape(arr, (-1,)), F.reshape(values, (-1,)), 0
    return F.concat((arr, F.cast(values, arr.dtype)), axis)


def array_split(x, indices_or_sections, axis=0):
    """Like split, but n sections need not divide the axis: the first len % n get one more."""
    sections = indices_or_sections
    items = sections if isinstance(sections, (tuple, list)) else (sections,)
    if not _is_tensor(sections) and not all(
            isinstance(i, numbers.Integral) and not isinstance(i, bool) for i in items):
        raise _error(ArgumentError, "array_split", f"`indices_or_sections` should be an int, "
                     f"a tuple of ints or a list of ints, got {sections!r}")
    pieces = P.tensor_split(asarray(x), indices_or_sections, axis)
    # MindSpore gives the pieces cut at indices as a list, n sections as a tuple
    return list(pieces) if isinstance(sections, (tuple, list)) else tuple(pieces)


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = onp.broadcast_shapes(*[tuple(a.shape) for a in arrays])
    return [F.broadcast_to(a, shape) for a in arrays]


def repeat(a, repeats, axis=None):
    """Each element `repeats` times along axis (of the flattened array when None)."""
    a, axis = _flat_or(a, axis)
    if isinstance(repeats, (list, tuple)) and len(repeats) == 1:
        repeats = repeats[0]
    if isinstance(repeats, (list, tuple)):  # one count per element along the axis
        if not all(isinstance(r, numbers.Integral) and r >= 0 for r in repeats):
            raise TypeError(f"repeat: `repeats` must be ints >= 0, got {repeats!r}")
        length = a.shape[normalize_axis(axis, a.ndim)]
        if len(repeats) != length:
            raise ValueError(f"For 'repeat_interleave', the length of 'repeats' must be the same "
                             f"as the shape of the original tensor in the 'axis' dimension, but "
                             f"got the length of 'repeats' {len(repeats)}, the shape of the "
                             f"original tensor in the 'axis' dimension {length}.")
        index = onp.repeat(onp.arange(length, dtype=onp.int32), repeats)
        return F.gather(a, asarray(index), axis)
    if not isinstance(repeats, numbers.Integral):
        raise TypeError(f"repeat: `repeats` must be an int, got {repeats!r}")
    return repeat_along(a, int(repeats), axis)


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


# ----- more of NumPy's array functions ------------------------------------------------------------

__all__ += ["apply_along_axis", "apply_over_axes", "array_str", "atleast_1d", "atleast_2d",
            "atleast_3d", "choose", "column_stack", "dsplit", "dstack", "fliplr", "flipud",
            "hsplit", "intersect1d", "piecewise", "rollaxis", "rot90", "select", "vsplit"]


def _atleast(arys, raise_rank):
    out = [raise_rank(asarray(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """Each array with at least one axis."""
    return _atleast(arys, lambda a: P.atleast_1d(a))


def atleast_2d(*arys):
    """Each array with at least two axes (ones prepended)."""
    return _atleast(arys, lambda a: P.atleast_2d(a))


def atleast_3d(*arys):
    """Each array with at least three axes: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    return _atleast(arys, lambda a: P.atleast_3d(a))


def column_stack(tup):
    """1-D arrays as columns of a 2-D array; 2-D ones joined along axis 1."""
    return P.column_stack([asarray(t) for t in tup])


def dstack(tup):
    """The arrays joined along their third axis, each raised to rank 3 first."""
    return P.dstack([asarray(t) for t in tup])


def hsplit(x, indices_or_sections):
    """`split` along axis 1 (axis 0 for a 1-D array)."""
    x = asarray(x)
    return split(x, indices_or_sections, 1 if len(x.shape) > 1 else 0)


def vsplit(x, indices_or_sections):
    """`split` along axis 0 (the array has at least 2 axes)."""
    x = asarray(x)
    if len(x.shape) < 2:
        raise _error(ShapeError, "vsplit", "vsplit only works on arrays of 2 or more dimensions")
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """`split` along axis 2 (the array has at least 3 axes)."""
    x = asarray(x)
    if len(x.shape) < 3:
        raise _error(ShapeError, "dsplit", "dsplit only works on arrays of 3 or more dimensions")
    return split(x, indices_or_sections, 2)


def fliplr(m):
    """m with its columns (axis 1) reversed."""
    return flip(m, 1)


def flipud(m):
    """m with its rows (axis 0) reversed."""
    return flip(m, 0)


def rot90(a, k=1, axes=(0, 1)):
    """a rotated by 90 degrees k times in the plane of `axes`."""
    return P.rot90(asarray(a), _int_arg(k, "rot90", "k"), axes)


def rollaxis(x, axis, start=0):
    """x with `axis` moved to lie before `start` (NumPy's older form of moveaxis)."""
    x = asarray(x)
    n = len(x.shape)
    axis = normalize_axis(axis, n)
    start = start + n if start < 0 else start
    if not 0 <= start <= n:
        raise _error(ShapeError, "rollaxis", f"start must be in [0, {n}], got {start}")
    return moveaxis(x, axis, start - 1 if axis < start else start)


def choose(a, choices, mode="clip"):
    """choices[a[i]][i] at each position (indices clipped or wrapped by `mode`)."""
    return asarray(a).choose([asarray(c) for c in choices], mode)


def select(condlist, choicelist, default=0):
    """At each position the element of the first choice whose condition holds, else
    `default`."""
    if len(condlist) != len(choicelist):
        raise _error(ShapeError, "select", "list of cases must be same length as list of "
                     "conditions")
    choices = [asarray(c) for c in choicelist]
    out = None
    for cond, choice in zip(reversed(list(condlist)), reversed(choices)):
        cond = asarray(cond)
        base = out if out is not None else F.add(F.zeros_like(choice), default)
        shape = onp.broadcast_shapes(tuple(cond.shape), tuple(choice.shape), tuple(base.shape))
        out = F.select(P.broadcast_to(F.cast(cond, dt.bool_), shape),
                       P.broadcast_to(choice, shape), P.broadcast_to(F.cast(base, choice.dtype),
                                                                     shape))
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """funclist[i](x) (or the constant) where condlist[i] holds; one more function than
    conditions gives the value where none holds (0 otherwise)."""
    x = asarray(x)
    if not isinstance(condlist, (list, tuple)) or (condlist and not isinstance(
            condlist[0], (list, tuple)) and asarray(condlist[0]).ndim == x.ndim and
            len(condlist) != len(funclist) and len(condlist) + 1 != len(funclist)):
        condlist = [condlist]
    conds = [F.cast(asarray(c), dt.bool_) for c in condlist]
    if len(funclist) == len(conds) + 1:
        otherwise = P.logical_not(P.any(P.stack(conds), 0)) if conds else None
        conds.append(otherwise)
    elif len(funclist) != len(conds):
        raise _error(ShapeError, "piecewise", f"with {len(conds)} condition(s), either "
                     f"{len(conds)} or {len(conds) + 1} functions are expected")
    out = F.zeros_like(x)
    for cond, fn in zip(conds, funclist):
        value = fn(x, *args, **kw) if callable(fn) else F.add(F.zeros_like(x), fn)
        out = F.select(cond, F.cast(asarray(value), x.dtype), out)
    return out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to each 1-D slice of arr along `axis`; the results stacked in its
    place."""
    arr = asarray(arr)
    axis = normalize_axis(axis, len(arr.shape))
    moved = moveaxis(arr, axis, -1)
    lead = tuple(moved.shape[:-1])
    flat = F.reshape(moved, (-1, moved.shape[-1])) if lead else F.expand_dims(moved, 0)
    results = [asarray(func1d(flat[i], *args, **kwargs)) for i in range(flat.shape[0])]
    out = _stack(results, 0)
    out = F.reshape(out, lead + tuple(out.shape[1:]))
    if len(out.shape) > len(lead):  # the result's axes where `axis` was
        extra = len(out.shape) - len(lead)
        order = list(range(axis)) + list(range(len(lead), len(lead) + extra)) + list(
            range(axis, len(lead)))
        out = F.transpose(out, tuple(order))
    return out


def apply_over_axes(func, a, axes):
    """func(a, axis) applied for each axis in turn, the reduced axis kept."""
    a = asarray(a)
    for axis in ([axes] if isinstance(axes, numbers.Integral) else axes):
        result = asarray(func(a, axis))
        if len(result.shape) == len(a.shape) - 1:
            result = F.expand_dims(result, normalize_axis(axis, len(a.shape)))
        if len(result.shape) != len(a.shape):
            raise _error(ShapeError, "apply_over_axes", "function is not returning an array "
                         "of the correct shape")
        a = result
    return a


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values found in both arrays (with `return_indices`, also their first
    positions in each)."""
    if not isinstance(assume_unique, bool) or not isinstance(return_indices, bool):
        raise _error(ArgumentError, "intersect1d", "assume_unique or return_indices is not bool "
                     "type")
    if return_indices:
        a1, a2 = value_input(asarray(ar1), "intersect1d", "ar1"), value_input(
            asarray(ar2), "intersect1d", "ar2")
        values, i1, i2 = onp.intersect1d(a1, a2, assume_unique, True)
        return asarray(values), asarray(i1.astype(onp.int32)), asarray(i2.astype(onp.int32))
    values = F.reshape(asarray(ar1), (-1,)) if assume_unique else unique(asarray(ar1))
    found = P.any(F.equal(F.expand_dims(values, -1), F.reshape(asarray(ar2), (-1,))), -1)
    return P.masked_select(values, found)


def array_str(a):
    """The Tensor's values as text (NumPy's array_str)."""
    return onp.array_str(asarray(a).asnumpy())


take_tensors_only(globals())
