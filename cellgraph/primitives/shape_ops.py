"""Shape-level operations the nn library needs: bias_add, one_hot, argmax, tile, split, pad.

Slicing (StridedSlice, Slice) needs no primitive of its own: the functional wrappers lower it
to `getitem` with a static index, whose bprop (`getitem_grad`) already exists.
"""
from __future__ import annotations

from . import dtype as dt
from .array_ops import Slice, concat, fill, getitem, reduce_sum, reshape
from .batching import (
    batch_size,
    batched_front,
    insert_ones,
    loop_rule,
    to_front,
)
from .core import (
    Primitive,
    Promote,
    TensorType,
    abstract_of,
    fmt_shape,
    normalize_axis,
    result_dtype,
)
from .errors import DTypeError, ShapeError
from .math_ops import add
from .strides import split_view

# ----- bias_add --------------------------------------------------------------------------------


def _bias_add_type(x: TensorType, b: TensorType, axis: int = 1) -> TensorType:
    if x.ndim < 2:
        raise ShapeError(f"expected x of rank >= 2, got shape {fmt_shape(x.shape)}")
    axis = normalize_axis(axis, x.ndim)
    channels = x.shape[axis]
    if b.ndim != 1 or None not in (channels, b.shape[0]) and b.shape[0] != channels:
        raise ShapeError(f"expected bias of shape ({channels},) for x of shape "
                         f"{fmt_shape(x.shape)} (channels on axis {axis}), got "
                         f"{fmt_shape(b.shape)}")
    if not b.weak and b.dtype != x.dtype:
        raise DTypeError(f"expected bias of dtype {x.dtype} (as x), got {b.dtype}")
    return x.strong()


bias_add = Primitive("bias_add", _bias_add_type, label="BiasAdd")


@bias_add.def_bprop
def _bias_add_bprop(x, b, out, dout, axis=1):
    ndim = abstract_of(x).ndim
    axis = normalize_axis(axis, ndim)
    return dout, reduce_sum(dout, axis=tuple(i for i in range(ndim) if i != axis))


# ----- one_hot and argmax (integer results, no gradient) ---------------------------------------

def _one_hot_type(indices, on_value, off_value, depth: int, axis: int = -1) -> TensorType:
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    if on_value.ndim or off_value.ndim:
        raise ShapeError(f"expected scalar on_value and off_value, got shapes "
                         f"{fmt_shape(on_value.shape)} and {fmt_shape(off_value.shape)}")
    if depth < 0:
        raise ShapeError(f"expected depth >= 0, got {depth}")
    axis = normalize_axis(axis, indices.ndim + 1)
    shape = indices.shape[:axis] + (depth,) + indices.shape[axis:]
    return TensorType(shape, result_dtype(on_value, off_value))


def _argmax_type(x: TensorType, axis: int, keep_dims: bool = False,
                 dtype: dt.DType = dt.int32) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric tensor, got {x.dtype}")
    if x.ndim == 0:
        raise ShapeError("expected a tensor of rank >= 1, got a scalar")
    axis = normalize_axis(axis, x.ndim)
    if x.shape[axis] == 0:
        raise ShapeError(f"axis {axis} of shape {fmt_shape(x.shape)} is empty")
    if not dtype.is_int:
        raise DTypeError(f"expected an integer output_type, got {dtype}")
    shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape)) if keep_dims else (
        x.shape[:axis] + x.shape[axis + 1:])
    return TensorType(shape, dtype)


one_hot = Primitive("one_hot", _one_hot_type, label="OneHot", nondifferentiable=True,
                    promote=Promote(first=1))
argmax = Primitive("argmax", _argmax_type, label="Argmax", nondifferentiable=True)


# ----- tile ------------------------------------------------------------------------------------

def _tile_type(x: TensorType, multiples: tuple) -> TensorType:
    if len(multiples) < x.ndim:
        raise ShapeError(f"expected at least {x.ndim} multiples for x of shape "
                         f"{fmt_shape(x.shape)}, got {multiples}")
    if any(m < 0 for m in multiples):
        raise ShapeError(f"expected non-negative multiples, got {multiples}")
    shape = (1,) * (len(multiples) - x.ndim) + x.shape
    return TensorType(tuple(None if d is None else d * m for d, m in zip(shape, multiples)),
                      x.strong().dtype)


tile = Primitive("tile", _tile_type, label="Tile")


@tile.def_bprop
def _tile_bprop(x, out, dout, multiples):
    # Split each tiled axis into (copies, original) and sum over the copies.
    shape = abstract_of(x).shape
    padded = (1,) * (len(multiples) - len(shape)) + shape
    interleaved = tuple(d for pair in zip(multiples, padded) for d in pair)
    summed = reduce_sum(reshape(dout, shape=interleaved),
                        axis=tuple(range(0, 2 * len(padded), 2)))
    return (reshape(summed, shape=shape),)


# ----- split -----------------------------------------------------------------------------------

def _split_type(x: TensorType, axis: int, sizes: tuple) -> tuple:
    axis = normalize_axis(axis, x.ndim)
    if any(s < 0 for s in sizes) or (x.shape[axis] is not None and sum(sizes) != x.shape[axis]):
        raise ShapeError(f"sizes {sizes} do not add up to axis {axis} of x of shape "
                         f"{fmt_shape(x.shape)}")
    return tuple(TensorType(x.shape[:axis] + (s,) + x.shape[axis + 1:], x.strong().dtype)
                 for s in sizes)


split = Primitive("split", _split_type, label="Split", multiple_results=True)
split.def_view(split_view)


@split.def_bprop
def _split_bprop(x, out, dout, axis, sizes):
    # Pieces no output gradient reached contribute zeros of their own shape.
    parts = [d if d is not None else fill(dtype=abstract_of(o).dtype, shape=abstract_of(o).shape,
                                          value=0)
             for d, o in zip(dout, out)]
    return (concat(*parts, axis=normalize_axis(axis, abstract_of(x).ndim)),)


# ----- pad -------------------------------------------------------------------------------------

def _pad_type(x: TensorType, paddings: tuple, value=0) -> TensorType:
    if len(paddings) != x.ndim or any(len(p) != 2 for p in paddings):
        raise ShapeError(f"expected one (before, after) pair per axis of x of shape "
                         f"{fmt_shape(x.shape)}, got paddings {paddings}")
    if any(b < 0 or a < 0 for b, a in paddings):
        raise ShapeError(f"expected non-negative paddings, got {paddings}")
    return TensorType(tuple(None if d is None else d + b + a
                            for d, (b, a) in zip(x.shape, paddings)), x.strong().dtype)


pad = Primitive("pad", _pad_type, label="Pad")


@pad.def_bprop
def _pad_bprop(x, out, dout, paddings, value=0):
    shape = abstract_of(x).shape
    index = tuple(Slice(b, b + d, None) for (b, _), d in zip(paddings, shape))
    return (getitem(dout, index=index),)



# ----- batching rules (vmap) -------------------------------------------------------------------

@bias_add.def_batch
def _bias_add_batch(args, dims, axis=1):
    (x, b), (dx, db) = args, dims
    size = batch_size(args, dims)
    rank = abstract_of(x).ndim - (dx is not None)
    axis = normalize_axis(axis, rank)
    x = batched_front(x, dx, size)
    if db is None:
        return bias_add(x, b, axis=axis + 1), 0
    b = to_front(b, db)  # one bias per example: (B, C), laid along the channel axis
    b = reshape(b, shape=(size,) + (1,) * axis + abstract_of(b).shape[1:] + (1,) * (
        rank - axis - 1))
    return add(x, b), 0


_one_hot_loop = loop_rule(one_hot)


@one_hot.def_batch
def _one_hot_batch(args, dims, depth, axis=-1):
    (indices, _, _), (d, d_on, d_off) = args, dims
    if d_on is not None or d_off is not None:
        return _one_hot_loop(args, dims, depth=depth, axis=axis)
    axis = normalize_axis(axis, abstract_of(indices).ndim)  # one example's rank + 1
    return one_hot(to_front(indices, d), *args[1:], depth=depth, axis=axis + 1), 0


def index_reduction_rule(prim):
    """argmax, argmin: the axis shifts past the batch axis, which moves down if it goes."""
    def rule(args, dims, axis, **params):
        (x,), (d,) = args, dims
        axis = normalize_axis(axis, abstract_of(x).ndim - 1)
        out = prim(x, axis=axis if axis < d else axis + 1, **params)
        return out, d if params.get("keep_dims", False) or axis >= d else d - 1
    return rule


argmax.def_batch(index_reduction_rule(argmax))


@tile.def_batch
def _tile_batch(args, dims, multiples):
    (x,), (d,) = args, dims
    x = insert_ones(to_front(x, d), 1, len(multiples) - (abstract_of(x).ndim - 1))
    return tile(x, multiples=(1,) + tuple(multiples)), 0


@split.def_batch
def _split_batch(args, dims, axis, sizes):
    (x,), (d,) = args, dims
    axis = normalize_axis(axis, abstract_of(x).ndim - 1)
    outs = split(x, axis=axis if axis < d else axis + 1, sizes=sizes)
    return outs, (d,) * len(outs)


@pad.def_batch
def _pad_batch(args, dims, paddings, **params):
    (x,), (d,) = args, dims
    paddings = tuple(paddings)
    return pad(x, paddings=paddings[:d] + ((0, 0),) + paddings[d:], **params), d


__all__ = ["argmax", "bias_add", "one_hot", "pad", "split", "tile"]
