"""`x[index] = value` as a new tensor, from a gather and a select over constant index maps.

A static index (ints, slices, None, Ellipsis, lists or arrays of ints): NumPy works out
at compile time which flat positions it names, so the result is
`select(mask, gather(value_flat, source), x)` with `mask` (the named positions) and `source`
(for each position, which element of `value` lands there; the last write wins, as in NumPy)
constants. Gradients flow to `x` (outside the region) and to `value` (inside it). An index
with Tensors in it, or a slice bound known only at run time, writes at the flat positions the
same index reads from x's positions (a scatter).
"""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import functional as F
from .core import abstract_of, is_value, static_values
from .errors import IndexValueError, ShapeError

__all__ = ["tensor_setitem"]


def _static(index) -> bool:
    """Whether NumPy can resolve `index` now (no Tensor in it, no Tensor slice bounds)."""
    for item in index if isinstance(index, tuple) else (index,):
        if isinstance(item, slice):
            bounds = (item.start, item.stop, item.step)
            if any(b is not None and not isinstance(b, numbers.Integral) for b in bounds):
                return False
        elif not (item is None or item is Ellipsis
                  or isinstance(item, (numbers.Integral, list, np.ndarray))):
            return False
    return True


def _as_value(value):
    """A tuple or list value (numbers, Tensors, nested sequences of them, as MindSpore takes)
    as one Tensor, its elements stacked; any other value as it is."""
    if not isinstance(value, (tuple, list)):
        return value
    if all(isinstance(v, numbers.Number) for v in value):
        return A.cast(np.asarray(value), dtype=dt.float32 if any(
            isinstance(v, float) for v in value) else dt.int64)
    items = [_as_value(v) for v in value]
    dtypes = [abstract_of(v).dtype for v in items if not isinstance(v, numbers.Number)]
    return F.stack([F.cast(v, dtypes[0]) if isinstance(v, numbers.Number) else v
                    for v in items], 0)


def _broadcast(value, shape, whole: bool = False):
    """`value` broadcast to the region `shape`. As in MindSpore, a value of higher rank than
    the region is refused, but for `x[...] = v`, which takes any value of x's size in x's shape
    (`x[...] = v[None]`)."""
    vshape = tuple(abstract_of(value).shape)
    if whole and len(vshape) > len(shape):
        if int(np.prod(vshape)) != int(np.prod(shape)):
            raise ShapeError(f"SetItem: `x[...] = value` takes a value of x's size; got a "
                             f"value of shape {vshape} for x of shape {tuple(shape)}")
        value = F.reshape(value, tuple(shape))
    return F.broadcast_to(value, tuple(shape))


def tensor_setitem(x, index, value):
    """A copy of `x` with `x[index]` replaced by `value` (broadcast to the region)."""
    value = _as_value(value)
    index = F.list_index_as_tuple(index)
    if not _static(index):
        if _is_tensor_index(index):
            dtype = abstract_of(index).dtype
            if dtype.is_bool:
                return _bool_mask_setitem(x, index, value)
            if not dtype.is_int:
                raise IndexValueError(f"For 'tensor setitem', the index tensor data type "
                                      f"'{dtype}' is not supported.")
        if _one_tensor_index(index):
            return _tensor_index_setitem(x, index, value)
        return _positions_setitem(x, index, value)
    xt = abstract_of(x)
    size = int(np.prod(xt.shape))
    try:
        positions = np.arange(size).reshape(xt.shape)[index]
    except IndexError as e:  # an int out of range, several Ellipsis, too many indices
        raise IndexValueError(f"SetItem: {e} (the tensor's shape is {tuple(xt.shape)})") \
            from None
    if positions.size == 0:
        return x
    source = np.zeros(size, np.int64)
    mask = np.zeros(size, bool)
    source[positions.ravel()] = np.arange(positions.size)
    mask[positions.ravel()] = True
    if isinstance(value, numbers.Number):
        values = F.fill(xt.dtype, (positions.size,), value)
    else:
        values = F.reshape(_broadcast(F.cast(value, xt.dtype), positions.shape,
                                             whole=index is Ellipsis), (-1,))
    placed = F.gather(values, A.cast(source, dtype=dt.int64), 0)
    flat = F.select(A.cast(mask, dtype=dt.bool_), placed, F.reshape(x, (-1,)))
    return F.reshape(flat, xt.shape)


# ----- an integer Tensor in the index ----------------------------------------------------------
#
#     x[i] = v   ->   select(written, gather_grad(last * broadcast(v), i), x)
#
# gather_grad (the transpose of gather) puts a value of the indexed rows' shape back where the
# index took it from, zeros elsewhere. Where `i` repeats a row only its last occurrence writes
# (`last`, as in NumPy): the largest position naming each row, found with a scatter-max of the
# positions, against each position. An index that mixes the Tensor with slices
# (`x[i, :, 0:2] = v`) is done in two steps: the rows `x[i]` get `[:, 0:2] = v`, then `x[i]`
# gets the new rows.

_FULL = slice(None)


def _is_tensor_index(item) -> bool:
    return is_value(item) and not isinstance(item, numbers.Number | list | np.ndarray)


def _is_full(item) -> bool:
    return isinstance(item, slice) and item == _FULL


def _one_tensor_index(index) -> bool:
    """Whether `index` holds one integer Tensor, after `:` on the axes before it and with ints
    or slices after it (the form `_tensor_index_setitem` writes row by row)."""
    items = index if isinstance(index, tuple) else (index,)
    split = next((i for i, item in enumerate(items) if _is_tensor_index(item)), None)
    return split is not None and all(_is_full(item) for item in items[:split]) and not any(
        _is_tensor_index(item) or item is None or item is Ellipsis or isinstance(item, bool)
        for item in items[split + 1:]) and abstract_of(items[split]).dtype.is_int


def _tensor_index_setitem(x, index, value):
    items = index if isinstance(index, tuple) else (index,)
    split = next(i for i, item in enumerate(items) if _is_tensor_index(item))
    lead = items[:split + 1]  # x[:, ..., i] picks the rows
    if not all(_is_full(item) for item in items[split + 1:]):
        # the rest of the index applies to the picked rows, past the axes the Tensor gave them
        rows = F.getitem(x, lead)
        kept = (_FULL,) * (split + abstract_of(items[split]).ndim)
        value = tensor_setitem(rows, kept + items[split + 1:], value)
    region = F.getitem(x, lead)
    dtype = abstract_of(x).dtype
    if isinstance(value, numbers.Number):
        new = F.fill(dtype, abstract_of(region).shape, value)
    else:
        new = _broadcast(F.cast(value, dtype), abstract_of(region).shape)
    last = _last_writes(items[split], abstract_of(x).shape[split])
    last = F.reshape(last, (1,) * split + tuple(abstract_of(last).shape)
                     + (1,) * (abstract_of(region).ndim - split - abstract_of(last).ndim))
    last = F.broadcast_to(last, abstract_of(region).shape)
    shape = abstract_of(x).shape
    placed = A.gather_grad(F.select(last, new, F.zeros_like(new)), items[split], axis=split,
                           shape=shape)
    written = A.gather_grad(F.cast(last, dt.float32), items[split], axis=split, shape=shape)
    return F.select(F.greater(written, 0.0), placed, x)


def _last_writes(index, size: int):
    """For each element of the integer Tensor `index` into an axis of `size` rows: whether no
    later element (in row-major order) names the same row."""
    ishape = tuple(abstract_of(index).shape)
    count = int(np.prod(ishape))
    flat = F.reshape(F.cast(index, dt.int64), (count,))
    flat = F.select(F.less(flat, 0), F.add(flat, size), flat)
    order = A.cast(np.arange(count), dtype=dt.int64)
    latest = F.tensor_scatter_max(A.cast(np.full(size, -1), dtype=dt.int64),
                                  F.expand_dims(flat, -1), order)
    return F.reshape(F.equal(F.gather(latest, flat, 0), order), ishape)


# ----- a boolean mask Tensor -------------------------------------------------------------------
#
#     x[mask] = v   ->   select(broadcast(mask), broadcast(v), x)
#
# As MindSpore does: the mask and the value are each padded with trailing axes of size 1 up to
# the rank of `x` and broadcast to its shape (so a value of shape (n,) fills rows, not the
# selected elements in order); a mask or value that does not broadcast is a ValueError.

def _padded(t, ndim: int):
    shape = tuple(abstract_of(t).shape)
    if len(shape) > ndim:
        raise ShapeError(f"SetItem: can not pad {shape} to length {ndim}.")
    return F.reshape(t, shape + (1,) * (ndim - len(shape)))


def _bool_mask_setitem(x, mask, value):
    xt = abstract_of(x)
    mask_shape = tuple(abstract_of(mask).shape)
    if len(mask_shape) > xt.ndim:  # MindSpore's words
        raise ShapeError(f"Can not pad {mask_shape} to length {xt.ndim}.")
    if None in xt.shape or any(m not in (d, 1) for m, d in zip(mask_shape, xt.shape)):
        raise ShapeError(f"For 'tensor setitem', the boolean index of shape {mask_shape}, "
                         f"padded with trailing axes, must broadcast to the tensor's shape "
                         f"{tuple(xt.shape)} (known when the graph is built)")
    mask = F.broadcast_to(_padded(mask, xt.ndim), xt.shape)
    if isinstance(value, numbers.Number):
        value = F.fill(xt.dtype, xt.shape, value)
    else:
        value = F.broadcast_to(_padded(F.cast(value, xt.dtype), xt.ndim), xt.shape)
    return F.select(mask, value, x)


# ----- any other index with Tensors in it ------------------------------------------------------
#
#     x[index] = v   ->   tensor_scatter_update(x, positions, broadcast(v))
#
# `positions` is `arange(x.size).reshape(x.shape)[index]`: the same read, of a constant, names
# the flat position of every element the index selects (NumPy's rules for several Tensors,
# slices, Ellipsis and None, as getitem applies them), in the shape the value broadcasts to.

def _known_masks_as_positions(items: tuple) -> tuple:
    """Each bool Tensor among the index items whose values are known while the graph is built
    (a constant) replaced by the int positions of its True elements, one Tensor per axis it
    spans, as NumPy reads a mask inside a tuple index."""
    out = ()
    for item in items:
        known = static_values(item) if _is_tensor_index(item) and abstract_of(
            item).dtype.is_bool else None
        if known is None:
            out += (item,)
        else:
            out += tuple(A.cast(axis.astype(np.int64), dtype=dt.int64)
                         for axis in np.nonzero(np.asarray(known)))
    return out


def _positions_setitem(x, index, value):
    xt = abstract_of(x)
    items = index if isinstance(index, tuple) else (index,)
    items = _known_masks_as_positions(items)
    index = items if isinstance(index, tuple) or len(items) != 1 else items[0]
    for item in items:
        if _is_tensor_index(item) and not abstract_of(item).dtype.is_int:
            raise IndexValueError(f"For 'tensor setitem', the index tensor data type "
                                  f"'{abstract_of(item).dtype}' is not supported.")
    used = sum(1 for item in items if item is not None and item is not Ellipsis
               and not isinstance(item, bool))
    if used > xt.ndim:
        raise IndexValueError(f"SetItem: too many indices for tensor with dimension size "
                              f"{xt.ndim}, got {used} indices.")
    size = int(np.prod(xt.shape))
    ids = A.cast(np.arange(size, dtype=np.int64).reshape(xt.shape), dtype=dt.int64)
    positions = F.getitem(ids, index)
    region = tuple(abstract_of(positions).shape)
    if None in region:  # a slice bound known only at run time: the region's size too
        zeros = F.zeros_like(A.cast(positions, dtype=xt.dtype))
        new = F.add(zeros, value if isinstance(value, numbers.Number) else
                    F.cast(value, xt.dtype))
        count = -1
    elif isinstance(value, numbers.Number):
        new = F.fill(xt.dtype, region, value)
        count = int(np.prod(region))
    else:
        new = _broadcast(F.cast(value, xt.dtype), region)
        count = int(np.prod(region))
    flat = F.tensor_scatter_update(F.reshape(x, (size,)), F.reshape(positions, (count, 1)),
                                   F.reshape(new, (count,)))
    return F.reshape(flat, xt.shape)
