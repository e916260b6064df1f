"""Operations whose result size depends on the input's values: nonzero, masked_select, unique,
bincount, take_first (the first n entries along an axis, n a Tensor: topk with a Tensor k).

Their type rules give that axis the size None (known only at run time); the kernels return
arrays of the actual size and later operations take it from them. Under vmap they run once
per example and the results are stacked, which needs every example to give the same size.
"""
from __future__ import annotations

import numpy as np

from . import dtype as dt
from .array_ops import (
    broadcast_to,
    cast,
    expand_dims,
    gather,
    getitem,
    ones_like,
    reshape,
    squeeze,
    transpose,
    zeros_like,
)
from .batching import loop_rule
from .check_convert import check_tensor_dtype
from .core import Primitive, Slice, TensorType, abstract_of, broadcast_shapes, normalize_axis
from .errors import ArgumentValueError, DTypeError, ShapeError
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
    # MindSpore's indices are int64 for an int64 input, int32 otherwise
    index = dt.int64 if x.strong().dtype == dt.int64 else dt.int32
    return TensorType((None,), x.strong().dtype), TensorType(x.shape, index)


_SET_INT_TYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16)


def _set_operation_type(x1: TensorType, x2_indices: TensorType, x2_values: TensorType,
                        set_operation="a-b", x2_shape=()):
    if x1.ndim < 2:
        raise ArgumentValueError(f"For 'SetOperation', the rank of input 'x1' must be at least "
                                 f"2, but got {x1.ndim}.")
    if x1.dtype not in _SET_INT_TYPES or x2_values.dtype != x1.dtype:
        raise DTypeError(f"For 'SetOperation', 'x1' and 'x2' must be integer tensors of one "
                         f"dtype, but got {x1.dtype} and {x2_values.dtype}.")
    return (TensorType((None, x1.ndim), dt.int64), TensorType((None,), x1.dtype),
            TensorType((x1.ndim,), dt.int64))


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
def _shape_of_type(x: TensorType) -> TensorType:
    return TensorType((x.ndim,), dt.int64)


def _runtime_sizes(shape: TensorType, op: str) -> int:
    """The rank a run-time shape (a 1-D integer Tensor of known length) gives."""
    if not shape.dtype.is_int or shape.ndim != 1 or shape.shape[0] is None:
        raise ShapeError(f"{op}: a `shape` computed in the graph must be a 1-D integer Tensor "
                         f"of known length, got {shape}")
    return shape.shape[0]


def _reshape_to_type(x: TensorType, shape: TensorType) -> TensorType:
    return TensorType((None,) * _runtime_sizes(shape, "Reshape"), x.dtype)


def _fill_to_type(shape: TensorType, dtype, value) -> TensorType:
    return TensorType((None,) * _runtime_sizes(shape, "Fill"), dtype)


# Shapes computed in the graph (value inputs whose values only the run knows): the run-time
# shape of a value, a reshape to a shape Tensor and a fill of one; their sizes are None.
shape_of = Primitive("shape_of", _shape_of_type, label="TensorShape", nondifferentiable=True)
reshape_to = Primitive("reshape_to", _reshape_to_type, label="Reshape")
fill_to = Primitive("fill_to", _fill_to_type, label="Fill", nondifferentiable=True,
                    params={"dtype": dt.float32, "value": 0})


@reshape_to.def_bprop
def _reshape_to_bprop(x, shape, out, dout):
    dims = abstract_of(x).shape
    if dims.count(None) <= 1:  # back to x's type: its sizes, its one run-time dim as -1
        return reshape(dout, shape=tuple(-1 if d is None else d for d in dims)), None
    return reshape_to(dout, shape_of(x)), None

_static_gather_bprop = gather.bprop_rule


@gather.def_bprop
def _gather_bprop(x, indices, out, dout, axis=0):
    """Gather's gradient; for an input with sizes known only at run time, the rows of dout
    added into zeros of x's run-time shape (gather_grad takes a static shape)."""
    shape = abstract_of(x).shape
    if None not in shape:
        return _static_gather_bprop(x, indices, out=out, dout=dout, axis=axis)
    ndim, k = len(shape), abstract_of(indices).ndim
    axis = normalize_axis(axis, ndim)
    front = (axis,) + tuple(i for i in range(ndim) if i != axis)  # the gathered axis first
    rows = (tuple(range(axis, axis + k)) + tuple(range(axis))
            + tuple(range(axis + k, ndim - 1 + k)))
    summed = tensor_scatter_add(zeros_like(transpose(x, perm=front)),
                                expand_dims(indices, axis=k), transpose(dout, perm=rows))
    back = tuple(sorted(range(ndim), key=front.__getitem__))
    return transpose(summed, perm=back), None


_static_getitem_bprop = getitem.bprop_rule


@getitem.def_bprop
def _getitem_bprop(x, out, dout, index):
    """Getitem's gradient; for an input with sizes known only at run time, dout added into
    zeros of x's run-time size at the flat positions the same index picks from x's positions
    (getitem_grad takes a static shape)."""
    dims = abstract_of(x).shape
    if None not in dims:
        return _static_getitem_bprop(x, out=out, dout=dout, index=index)
    flat = reshape(x, shape=(-1,))
    size = getitem(shape_of(flat), index=(0,))
    positions = reshape_to(sequence_range(np.int64(0), size, np.int64(1)), shape_of(x))
    picked = getitem(positions, index=index)
    rows = (-1 if abstract_of(dout).size is None else abstract_of(dout).size,)
    summed = tensor_scatter_add(zeros_like(flat), reshape(picked, shape=rows + (1,)),
                                reshape(dout, shape=rows))
    if dims.count(None) == 1:  # back to x's type: its sizes, its one run-time dim as -1
        return (reshape(summed, shape=tuple(-1 if d is None else d for d in dims)),)
    return (reshape_to(summed, shape_of(x)),)


# Unique's values are a selection of the input, but MindSpore programs use it on labels and
# ids; its outputs carry no gradient here.
# `sorted`: the distinct values ascending (mint's, NumPy's), else in the order of their first
# occurrence (MindSpore's Unique on CPU).
unique_p = Primitive("unique", _unique_type, multiple_results=True, nondifferentiable=True,
                     params={"sorted": True})


# The set operation ("a-b", "b-a", "intersection", "union") of each row of the last axis of a
# dense x1 with the same row of x2, given as sparse coordinates and values (a dense x2 is every
# coordinate of it); the result is sparse: sorted distinct values per row, int64 indices and
# the dense shape x1.shape[:-1] + (the longest row,).
set_operation_p = Primitive("set_operation", _set_operation_type, multiple_results=True,
                            nondifferentiable=True,
                            params={"set_operation": "a-b", "x2_shape": ()})


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

for _prim in (nonzero_p, masked_select, unique_p, set_operation_p, bincount_p, take_first, take_first_grad,
              sequence_range, shape_of, reshape_to, fill_to):
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
    gives them; for each element of `input` the position of its value among them, int64 for an
    int64 input and int32 otherwise)."""
    return unique_p(input, sorted=False)


def bin_counts(input, weights=None, minlength=0):
    """How often each value 0 .. max(input) occurs in the 1-D non-negative int `input` (at least
    `minlength` bins): int64 counts, or the sums of `weights` (of the input's shape) per bin."""
    if isinstance(minlength, bool) or not isinstance(minlength, int):
        raise DTypeError(f"Bincount: expected an int minlength, got {minlength!r}")
    if weights is None:
        weights = ones_like(cast(input, dtype=dt.int64))
    return bincount_p(input, weights, minlength=minlength)


def bincount(input, weights=None, minlength=0):
    """bin_counts as float32, whatever the input or weights: MindSpore's ops.bincount (and
    Tensor.bincount, numpy.bincount) sum float32 masks."""
    return cast(bin_counts(input, weights, minlength), dtype=dt.float32)


def _ctc_greedy_decoder_type(inputs: TensorType, sequence_length: TensorType,
                             merge_repeated=True) -> tuple:
    op = "CTCGreedyDecoder"
    check_tensor_dtype(op, "inputs type", inputs.dtype, (dt.float32, dt.float64))
    check_tensor_dtype(op, "sequence length dtype", sequence_length.dtype, (dt.int32,))
    if inputs.ndim != 3:
        raise ArgumentValueError(f"inputs's dim must be 3, but got: {inputs.ndim}.")
    if sequence_length.ndim != 1:
        raise ArgumentValueError(f"sequence_length's dims must be 1, but got: "
                                 f"{sequence_length.ndim}.")
    batch = inputs.shape[1]
    if None not in (batch, sequence_length.shape[0]) and batch != sequence_length.shape[0]:
        raise ArgumentValueError(f"inputs batch_size must be the same with "
                                 f"sequence_length batch_size, but now inputs batch_size: "
                                 f"{batch} and sequence_length batch_size: "
                                 f"{sequence_length.shape[0]}.")
    return (TensorType((None, 2), dt.int64), TensorType((None,), dt.int64),
            TensorType((2,), dt.int64), TensorType((batch, 1), inputs.dtype))


# CTC greedy decoding of (max_time, batch, num_classes) scores, the last class the blank: the
# decoded sequences as a sparse (indices, values, dense shape) and each one's negative sum of
# the chosen scores. How many values there are depends on the data.
ctc_greedy_decoder_p = Primitive("ctc_greedy_decoder", _ctc_greedy_decoder_type,
                                 label="CTCGreedyDecoder", multiple_results=True,
                                 nondifferentiable=True, params={"merge_repeated": True})
ctc_greedy_decoder_p.def_batch(loop_rule(ctc_greedy_decoder_p))


def check_merge_repeated(merge_repeated) -> None:
    if not isinstance(merge_repeated, bool):
        raise DTypeError(f"For 'CTCGreedyDecoder', the type of 'merge_repeated' should be "
                         f"'bool', but got type '{type(merge_repeated).__name__}'.")


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """MindSpore's CTCGreedyDecoder: the most likely class at each step up to each batch
    entry's `sequence_length`, blanks (the last class) dropped and, with `merge_repeated`,
    repeats merged; returns (decoded_indices, decoded_values, decoded_shape,
    log_probability)."""
    check_merge_repeated(merge_repeated)
    return tuple(ctc_greedy_decoder_p(inputs, sequence_length, merge_repeated=merge_repeated))


export(nonzero, method=True)
export(bincount, method=True)
export(unique)
export_class("Unique", unique, ops_module="array_ops")
export(ctc_greedy_decoder)

__all__ = ["bincount", "ctc_greedy_decoder", "masked_select", "nonzero", "unique"]
