"""Shape manipulation, reductions, casts, indexing and tensor creation."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import dtype as dt
from .core import (Primitive, TensorType, abstract_of, broadcast_shapes, fmt_shape,
                   normalize_axes, normalize_axis)
from .errors import DTypeError, ShapeError
from .math_ops import div, equal, mul, sum_to


def _reduce_type(x: TensorType, axis=(), keep_dims=False) -> TensorType:
    axes = set(normalize_axes(axis, x.ndim))
    if keep_dims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    else:
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return TensorType(shape, x.dtype)


def _mean_type(x: TensorType, axis=(), keep_dims=False) -> TensorType:
    out = _reduce_type(x, axis, keep_dims)
    return TensorType(out.shape, dt.to_float(out.dtype))


def _reshape_type(x: TensorType, shape) -> TensorType:
    if x.size is not None and int(np.prod(shape)) != x.size:
        raise ShapeError(f"cannot reshape a tensor of shape {fmt_shape(x.shape)} "
                         f"({x.size} elements) into shape {fmt_shape(shape)}")
    return TensorType(tuple(shape), x.dtype)


def _transpose_type(x: TensorType, perm) -> TensorType:
    if sorted(perm) != list(range(x.ndim)):
        raise ShapeError(f"perm {perm} is not a permutation of the axes of a tensor of "
                         f"shape {fmt_shape(x.shape)}")
    return TensorType(tuple(x.shape[p] for p in perm), x.dtype)


def _broadcast_to_type(x: TensorType, shape) -> TensorType:
    if broadcast_shapes(x.shape, shape) != tuple(shape) or x.ndim > len(shape):
        raise ShapeError(f"cannot broadcast shape {fmt_shape(x.shape)} to {fmt_shape(shape)}")
    return TensorType(tuple(shape), x.dtype)


def _expand_dims_type(x: TensorType, axis: int) -> TensorType:
    axis = normalize_axis(axis, x.ndim + 1)
    return TensorType(x.shape[:axis] + (1,) + x.shape[axis:], x.dtype)


def _squeeze_type(x: TensorType, axis=()) -> TensorType:
    axes = normalize_axes(axis, x.ndim) if axis != () else tuple(
        i for i, d in enumerate(x.shape) if d == 1)
    for a in axes:
        if x.shape[a] != 1:
            raise ShapeError(f"cannot squeeze axis {a} of size {x.shape[a]} "
                             f"(shape {fmt_shape(x.shape)})")
    return TensorType(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype)


@dataclass(frozen=True)
class Slice:
    """A hashable slice, for static indices stored as node parameters."""

    start: int | None
    stop: int | None
    step: int | None

    def to_slice(self) -> slice:
        return slice(self.start, self.stop, self.step)

    def __repr__(self) -> str:
        text = ("" if self.start is None else str(self.start)) + ":" + (
            "" if self.stop is None else str(self.stop))
        return text + ("" if self.step is None else f":{self.step}")


def to_numpy_index(index: tuple) -> tuple:
    return tuple(i.to_slice() if isinstance(i, Slice) else i for i in index)


def _dummy(shape):
    """A zero-byte array of `shape`, to let NumPy work out what an index does to a shape."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape, [0] * len(shape))


def _getitem_type(x: TensorType, index: tuple) -> TensorType:
    try:
        shape = _dummy(x.shape)[to_numpy_index(index)].shape
    except IndexError as e:
        raise ShapeError(f"index {index} does not fit a tensor of shape "
                         f"{fmt_shape(x.shape)}: {e}") from None
    return TensorType(shape, x.dtype)


def _getitem_grad_type(g: TensorType, index: tuple, shape: tuple) -> TensorType:
    return TensorType(tuple(shape), g.dtype)


def _gather_type(x: TensorType, indices: TensorType, axis: int = 0) -> TensorType:
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    axis = normalize_axis(axis, x.ndim)
    return TensorType(x.shape[:axis] + indices.shape + x.shape[axis + 1:], x.dtype)


def _gather_grad_type(g: TensorType, indices: TensorType, axis: int, shape: tuple):
    return TensorType(tuple(shape), g.dtype)


def _concat_type(*xs: TensorType, axis: int = 0) -> TensorType:
    if not xs:
        raise ShapeError("expected at least one tensor")
    axis = normalize_axis(axis, xs[0].ndim)
    for x in xs[1:]:
        if x.ndim != xs[0].ndim or any(
                a != b for i, (a, b) in enumerate(zip(x.shape, xs[0].shape)) if i != axis):
            raise ShapeError("shapes " + ", ".join(fmt_shape(x.shape) for x in xs)
                             + f" differ outside axis {axis}")
    size = None if any(x.shape[axis] is None for x in xs) else sum(x.shape[axis] for x in xs)
    dtype = xs[0].dtype
    for x in xs[1:]:
        dtype = dt.promote(dtype, x.dtype)
    return TensorType(xs[0].shape[:axis] + (size,) + xs[0].shape[axis + 1:], dtype)


def _stack_type(*xs: TensorType, axis: int = 0) -> TensorType:
    if any(x.shape != xs[0].shape for x in xs):
        raise ShapeError("stack expects tensors of one shape, got "
                         + ", ".join(fmt_shape(x.shape) for x in xs))
    axis = normalize_axis(axis, xs[0].ndim + 1)
    return TensorType(xs[0].shape[:axis] + (len(xs),) + xs[0].shape[axis:], xs[0].dtype)


reduce_sum = Primitive("reduce_sum", _reduce_type)
reduce_mean = Primitive("reduce_mean", _mean_type)
reduce_max = Primitive("reduce_max", _reduce_type)
reduce_min = Primitive("reduce_min", _reduce_type)
reshape = Primitive("reshape", _reshape_type)
transpose = Primitive("transpose", _transpose_type)
broadcast_to = Primitive("broadcast_to", _broadcast_to_type)
expand_dims = Primitive("expand_dims", _expand_dims_type)
squeeze = Primitive("squeeze", _squeeze_type)
cast = Primitive("cast", lambda x, dtype: TensorType(x.shape, dtype))
getitem = Primitive("getitem", _getitem_type, label="GetItem")
getitem_grad = Primitive("getitem_grad", _getitem_grad_type)
gather = Primitive("gather", _gather_type)
gather_grad = Primitive("gather_grad", _gather_grad_type)
concat = Primitive("concat", _concat_type)
stack = Primitive("stack", _stack_type)
zeros_like = Primitive("zeros_like", lambda x: x.strong(), nondifferentiable=True)
ones_like = Primitive("ones_like", lambda x: x.strong(), nondifferentiable=True)
fill = Primitive("fill", lambda dtype, shape, value: TensorType(tuple(shape), dtype),
                 nondifferentiable=True)
stop_gradient = Primitive("stop_gradient", lambda x: x.strong())


# ----- bprop rules -----------------------------------------------------------------------------

def _unreduce(dout, x, axis, keep_dims):
    """Broadcast a reduction's adjoint back over the reduced axes of `x`."""
    xt = abstract_of(x)
    if not keep_dims:
        axes = set(normalize_axes(axis, xt.ndim))
        dout = reshape(dout, shape=tuple(1 if i in axes else d for i, d in enumerate(xt.shape)))
    return broadcast_to(dout, shape=xt.shape)


@reduce_sum.def_bprop
def _reduce_sum_bprop(x, out, dout, axis=(), keep_dims=False):
    return (_unreduce(dout, x, axis, keep_dims),)


@reduce_mean.def_bprop
def _reduce_mean_bprop(x, out, dout, axis=(), keep_dims=False):
    xt = abstract_of(x)
    count = int(np.prod([xt.shape[a] for a in normalize_axes(axis, xt.ndim)]))
    return (div(_unreduce(dout, x, axis, keep_dims), count),)


def _extremum_bprop(x, out, dout, axis=(), keep_dims=False):
    # Ties share the gradient equally, so the rule stays symmetric.
    hits = cast(equal(x, _unreduce(out, x, axis, keep_dims)), dtype=abstract_of(dout).dtype)
    count = reduce_sum(hits, axis=axis, keep_dims=True)
    return (mul(_unreduce(dout, x, axis, keep_dims), div(hits, count)),)


reduce_max.def_bprop(_extremum_bprop)
reduce_min.def_bprop(_extremum_bprop)
reshape.def_bprop(lambda x, out, dout, shape: (reshape(dout, shape=abstract_of(x).shape),))
transpose.def_bprop(lambda x, out, dout, perm: (transpose(dout, perm=tuple(np.argsort(perm).tolist())),))
broadcast_to.def_bprop(lambda x, out, dout, shape: (sum_to(dout, abstract_of(x).shape),))
expand_dims.def_bprop(lambda x, out, dout, axis: (reshape(dout, shape=abstract_of(x).shape),))
squeeze.def_bprop(lambda x, out, dout, axis=(): (reshape(dout, shape=abstract_of(x).shape),))
stop_gradient.def_bprop(lambda x, out, dout: (None,))


@cast.def_bprop
def _cast_bprop(x, out, dout, dtype):
    xt = abstract_of(x)
    return (cast(dout, dtype=xt.dtype) if xt.dtype.is_float else None,)


getitem.def_bprop(lambda x, out, dout, index: (
    getitem_grad(dout, index=index, shape=abstract_of(x).shape),))
getitem_grad.def_bprop(lambda g, out, dout, index, shape: (getitem(dout, index=index),))
gather.def_bprop(lambda x, indices, out, dout, axis=0: (
    gather_grad(dout, indices, axis=axis, shape=abstract_of(x).shape), None))
gather_grad.def_bprop(lambda g, indices, out, dout, axis, shape: (
    gather(dout, indices, axis=axis), None))


def _axis_slice(ndim: int, axis: int, item) -> tuple:
    return (Slice(None, None, None),) * axis + (item,) + (Slice(None, None, None),) * (
        ndim - axis - 1)


@concat.def_bprop
def _concat_bprop(*xs, out, dout, axis=0):
    ndim = abstract_of(out).ndim
    axis = normalize_axis(axis, ndim)
    grads, start = [], 0
    for x in xs:
        size = abstract_of(x).shape[axis]
        grads.append(getitem(dout, index=_axis_slice(ndim, axis, Slice(start, start + size, None))))
        start += size
    return tuple(grads)


@stack.def_bprop
def _stack_bprop(*xs, out, dout, axis=0):
    ndim = abstract_of(out).ndim
    axis = normalize_axis(axis, ndim)
    return tuple(getitem(dout, index=_axis_slice(ndim, axis, i)) for i in range(len(xs)))
