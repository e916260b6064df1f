"""Operations whose result size depends on the input's values: nonzero, masked_select, unique,
bincount, take_first (the first n entries along an axis, n a Tensor: topk with a Tensor k).

Their type rules give that axis the size None (known only at run time); the kernels return
arrays of the actual size and later operations take it from them. Under vmap they run once
per example and the results are stacked, which needs every example to give the same size.
"""
from __future__ import annotations

from . import dtype as dt
from .array_ops import (
    broadcast_to,
    cast,
    gather,
    getitem,
    ones_like,
    squeeze,
    transpose,
    zeros_like,
)
from .batching import loop_rule
from .core import Primitive, Slice, TensorType, abstract_of, broadcast_shapes, normalize_axis
from .errors import DTypeError, ShapeError
from .exports import export, export_class
from .math_ops import grad_like
from .scatter_ops import tensor_scatter_add
from .shape_ops import split


def _nonzero_type(x: TensorType) -> TensorType:
    if x.ndim == 0:
        raise ShapeError("expected a tensor of rank >= 1, got a scalar")
    return TensorType((None, x.ndim), dt.int64)


def _masked_select_type(x: TensorType, mask: TensorType) -> TensorType:
    if not mask.dtype.is_bool:
        raise DTypeError(f"expected a bool mask, got {mask.dtype}")
    broadcast_shapes(x.shape, mask.shape)
    return TensorType((None,), x.strong().dtype)


def _unique_type(x: TensorType, sorted=True):
    return TensorType((None,), x.strong().dtype), TensorType(x.shape, dt.int32)


def _bincount_type(x: TensorType, weights: TensorType, minlength=0) -> TensorType:
    if not x.dtype.is_int or x.ndim != 1:
        raise DTypeError(f"expected a 1-D integer input, got {x.dtype} of shape "
                         f"{x.shape}")
    if weights.shape != x.shape:
        raise ShapeError(f"expected weights of the input's shape {x.shape}, got {weights.shape}")
    if minlength < 0:
        raise ShapeError(f"expected minlength >= 0, got {minlength}")
    return TensorType((None,), weights.strong().dtype)


def _count_operand(count: TensorType) -> None:
    if not count.dtype.is_int or count.size != 1:
        raise DTypeError(f"expected an integer count of one element, got {count.dtype} of "
                         f"shape {count.shape}")


def _take_first_type(x: TensorType, count: TensorType, axis=0) -> TensorType:
    _count_operand(count)
    axis = normalize_axis(axis, x.ndim)
    return TensorType(x.shape[:axis] + (None,) + x.shape[axis + 1:], x.strong().dtype)


def _take_first_grad_type(g: TensorType, count: TensorType, axis, size) -> TensorType:
    _count_operand(count)
    return TensorType(g.shape[:axis] + (size,) + g.shape[axis + 1:], g.dtype)


# x[:count] along `axis`, count read at run time (so that axis's size is dynamic), and its
# transpose, which puts the entries back in front of zeros up to the axis's static `size`.
take_first = Primitive("take_first", _take_first_type, params={"axis": 0})
take_first_grad = Primitive("take_first_grad", _take_first_grad_type)
take_first.def_bprop(lambda x, count, out, dout, axis: (
    take_first_grad(dout, count, axis=normalize_axis(axis, abstract_of(x).ndim),
                    size=abstract_of(x).shape[normalize_axis(axis, abstract_of(x).ndim)]),
    None))


@take_first_grad.def_bprop
def _take_first_grad_bprop(g, count, out, dout, axis, size):
    kept = abstract_of(g).shape[axis]
    if kept is None:
        return take_first(dout, count, axis=axis), None
    # g's size is static (count must equal it at run time): a static slice keeps its type
    return getitem(dout, index=(Slice(None, None, None),) * axis + (Slice(0, kept, None),)), None

def _sequence_range_type(start: TensorType, stop: TensorType, step: TensorType) -> TensorType:
    for name, bound in (("start", start), ("stop", stop), ("step", step)):
        if not bound.dtype.is_int or bound.shape != ():
            raise DTypeError(f"For 'range', the {name} should be an int scalar, got "
                             f"{bound.dtype} of shape {bound.shape}")
    return TensorType((None,), dt.int64)


# range(start, stop, step) with bounds read at run time: the ints of a tuple whose length only
# the run knows (MindSpore's dynamic-length tuple from `range` over variable scalars)
sequence_range = Primitive("sequence_range", _sequence_range_type, nondifferentiable=True)
bincount_p = Primitive("bincount", _bincount_type, label="Bincount", params={"minlength": 0})
nonzero_p = Primitive("nonzero", _nonzero_type, label="NonZero", nondifferentiable=True)
masked_select = Primitive("masked_select", _masked_select_type, public=True, method=True,
                          operands=("input", "mask"), spellings=("mint",), ops_module="array_ops")
# Unique's values are a selection of the input, but MindSpore programs use it on labels and
# ids; its outputs carry no gradient here. sorted=False: in order of first occurrence
# (MindSpore's Unique on CPU); True: ascending (mindspore.numpy.unique).
unique_p = Primitive("unique", _unique_type, multiple_results=True, nondifferentiable=True,
                     params={"sorted": True})


@masked_select.def_bprop
def _masked_select_bprop(x, mask, out, dout):
    # put each selected element's gradient back at its position (in the broadcast shape)
    shape = broadcast_shapes(abstract_of(x).shape, abstract_of(mask).shape)
    positions = nonzero_p(broadcast_to(mask, shape=shape))
    full = tensor_scatter_add(broadcast_to(zeros_like(x), shape=shape), positions, dout)
    return grad_like(full, x), None


# each weight lands in the bin its index names
bincount_p.def_bprop(lambda x, weights, out, dout, minlength: (
    None, gather(dout, x, axis=0)))

for _prim in (nonzero_p, masked_select, unique_p, bincount_p, take_first, take_first_grad,
              sequence_range):
    _prim.def_batch(loop_rule(_prim))


def nonzero(input, *, as_tuple=False):
    """The coordinates of the non-zero elements, one int64 row each ((N, rank)); with
    `as_tuple=True` one 1-D tensor per axis."""
    coords = nonzero_p(input)
    if not as_tuple:
        return coords
    rank = abstract_of(input).ndim  # one row per axis, each of the run-time length
    rows = split(transpose(coords, perm=(1, 0)), axis=0, sizes=(1,) * rank)
    return tuple(squeeze(row, axis=(0,)) for row in rows)


def unique(input):
    """(the distinct elements of `input` in the order they first occur, as MindSpore's Unique
    gives them on CPU; for each element of `input` the int32 position of its value among
    them)."""
    return unique_p(input, sorted=False)


def bincount(input, weights=None, minlength=0):
    """How often each value 0 .. max(input) occurs in the 1-D non-negative int `input` (at least
    `minlength` bins): int64 counts, or the sums of `weights` (of the input's shape) per bin."""
    if isinstance(minlength, bool) or not isinstance(minlength, int):
        raise DTypeError(f"Bincount: expected an int minlength, got {minlength!r}")
    if weights is None:
        weights = ones_like(cast(input, dtype=dt.int64))
    return bincount_p(input, weights, minlength=minlength)


export(nonzero, method=True)
export(bincount, method=True)
export(unique)
export_class("Unique", unique, ops_module="array_ops")

__all__ = ["bincount", "masked_select", "nonzero", "unique"]
