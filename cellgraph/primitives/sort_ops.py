"""Sorting and selection along an axis (sort, argsort, topk) and the gather and scatter along an
axis their gradients are made of (`take_along_axis`, MindSpore's TensorScatterElements).

A sort's values are a permutation of its input, so its gradient scatters the values' gradient
back through the indices; the scatter's own gradient is the gather along the same indices, and
the gather's is the scatter again, so every rule differentiates again.
"""
from __future__ import annotations

import numbers

import numpy as np

from . import dtype as dt
from .array_ops import (
    Slice,
    cast,
    expand_dims,
    fill,
    getitem,
    reduce_sum,
    reshape,
    squeeze,
    zeros_like,
)
from .batching import batch_size, batched_front, ndim
from .core import Primitive, TensorType, abstract_of, fmt_shape, normalize_axis, prims
from .errors import ArgumentValueError, DTypeError, ShapeError
from .exports import REQUIRED, export, export_class
from .math_ops import less, less_equal
from .shape_ops import _argmax_type, index_reduction_rule

_REDUCTIONS = ("none", "add")


def _sortable(x: TensorType, axis: int) -> int:
    """`axis` as a non-negative int, once `x` is known to be sortable along it."""
    if x.dtype.is_bool or x.dtype.is_complex:
        raise DTypeError(f"expected a real numeric tensor, got {x.dtype}")
    if x.ndim == 0:
        raise ShapeError("expected a tensor of rank >= 1, got a scalar")
    return normalize_axis(axis, x.ndim)


def _sort_type(x: TensorType, axis=-1, descending=False):
    _sortable(x, axis)
    return x.strong(), TensorType(x.shape, dt.int32)


def _topk_type(x: TensorType, k: int, axis=-1, largest=True, sorted=True):
    axis = _sortable(x, axis)
    if not 0 <= k <= x.shape[axis]:
        raise ShapeError(f"expected k in [0, {x.shape[axis]}] for axis {axis} of shape "
                         f"{fmt_shape(x.shape)}, got {k}")
    shape = x.shape[:axis] + (k,) + x.shape[axis + 1:]
    return TensorType(shape, x.strong().dtype), TensorType(shape, dt.int32)


def _indices_along(x: TensorType, indices: TensorType, axis: int) -> int:
    axis = normalize_axis(axis, x.ndim)
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    if indices.ndim != x.ndim:
        raise ShapeError(f"expected indices of rank {x.ndim} like the input, got shape "
                         f"{fmt_shape(indices.shape)}")
    return axis


def _take_along_axis_type(x: TensorType, indices: TensorType, axis: int) -> TensorType:
    _indices_along(x, indices, axis)
    return TensorType(indices.shape, x.strong().dtype)


def _scatter_elements_type(x: TensorType, indices: TensorType, updates: TensorType, axis=0,
                           reduction="none") -> TensorType:
    _indices_along(x, indices, axis)
    if updates.shape != indices.shape:
        raise ShapeError(f"expected updates of the indices' shape {fmt_shape(indices.shape)}, "
                         f"got {fmt_shape(updates.shape)}")
    if updates.dtype != x.dtype and not updates.weak:
        raise DTypeError(f"expected updates of the input's dtype {x.dtype}, got {updates.dtype}")
    if reduction not in _REDUCTIONS:
        raise ArgumentValueError(f"expected reduction in {_REDUCTIONS}, got {reduction!r}")
    return x.strong()


def _cumulative_extremum_type(x: TensorType, axis: int):
    _sortable(x, axis)
    return x.strong(), TensorType(x.shape, dt.int64)


# running maximum / minimum along an axis and where each was reached (the latest of equals)
cummax = Primitive("cummax", _cumulative_extremum_type, multiple_results=True)
cummin = Primitive("cummin", _cumulative_extremum_type, multiple_results=True)
argmin = Primitive("argmin", _argmax_type, label="Argmin", nondifferentiable=True)
sort_p = Primitive("sort", _sort_type, params={"axis": -1, "descending": False},
                   multiple_results=True)
topk = Primitive("topk", _topk_type, label="TopK",
                 params={"axis": -1, "largest": True, "sorted": True}, multiple_results=True)
take_along_axis = Primitive("take_along_axis", _take_along_axis_type, label="GatherD")
tensor_scatter_elements = Primitive(
    "tensor_scatter_elements", _scatter_elements_type, params={"axis": 0, "reduction": "none"})


def _scatter_back(x, indices, dvalues, axis):
    """The gradient of values gathered from `x` at `indices` along `axis`."""
    if dvalues is None:
        return None
    return tensor_scatter_elements(zeros_like(x), indices, dvalues, axis=axis, reduction="add")


sort_p.def_bprop(lambda x, out, dout, axis, descending: (
    _scatter_back(x, out[1], dout[0], axis),))
topk.def_bprop(lambda x, out, dout, k, axis, largest, sorted: (
    _scatter_back(x, out[1], dout[0], axis),))
cummax.def_bprop(lambda x, out, dout, axis: (_scatter_back(x, out[1], dout[0], axis),))
cummin.def_bprop(lambda x, out, dout, axis: (_scatter_back(x, out[1], dout[0], axis),))
take_along_axis.def_bprop(lambda x, indices, out, dout, axis: (
    _scatter_back(x, indices, dout, axis), None))


@tensor_scatter_elements.def_bprop
def _scatter_elements_bprop(x, indices, updates, out, dout, axis, reduction):
    dupdates = take_along_axis(dout, indices, axis=axis)
    if reduction == "add":
        return dout, None, dupdates
    # the scattered positions of x were overwritten: no gradient flows to them
    dx = tensor_scatter_elements(dout, indices, zeros_like(updates), axis=axis)
    return dx, None, dupdates


# ----- batching: the batch axis goes in front, the op's axis shifts past it ---------------------

def _sort_batch(prim):
    def rule(args, dims, axis, **params):
        (x,), (d,) = args, dims
        a = normalize_axis(axis, ndim(x) - 1)
        return prim(x, axis=a if a < d else a + 1, **params), (d, d)
    return rule


def _along_axis_batch(prim):
    def rule(args, dims, axis, **params):
        size = batch_size(args, dims)
        operands = [batched_front(x, d, size) for x, d in zip(args, dims)]
        a = normalize_axis(axis, ndim(operands[0]) - 1)
        return prim(*operands, axis=a + 1, **params), 0
    return rule


argmin.def_batch(index_reduction_rule(argmin))
sort_p.def_batch(_sort_batch(sort_p))
topk.def_batch(_sort_batch(topk))
cummax.def_batch(_sort_batch(cummax))
cummin.def_batch(_sort_batch(cummin))
take_along_axis.def_batch(_along_axis_batch(take_along_axis))
tensor_scatter_elements.def_batch(_along_axis_batch(tensor_scatter_elements))


# ----- MindSpore's functional ops, classes and Tensor methods ---------------------------------

def _static_int(value, what: str, op: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"{op}: expected an int `{what}`, got {type(value).__name__} {value!r}")
    return int(value)


def _static_bool(value, what: str, op: str) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"{op}: expected a bool `{what}`, got {type(value).__name__} {value!r}")
    return value


def sort(input_x, axis=-1, descending=False):
    """(sorted values, their int32 indices in `input_x`) along `axis`; ties keep input order."""
    return sort_p(input_x, axis=_static_int(axis, "axis", "Sort"),
                  descending=_static_bool(descending, "descending", "Sort"))


def argsort(input, axis=-1, descending=False):
    """The int32 indices that sort `input` along `axis`."""
    return sort(input, axis, descending)[1]


def _topk(input, k, dim, largest, sorted, op):
    axis = -1 if dim is None else _static_int(dim, "dim", op)
    largest, sorted = _static_bool(largest, "largest", op), _static_bool(sorted, "sorted", op)
    if hasattr(k, "_data") and abstract_of(k).size == 1:  # a Tensor whose value is known
        k = k.asnumpy().reshape(-1)[0].item()
    elif hasattr(k, "aval"):  # a graph value: sort, then keep the first k on a dynamic axis
        values, indices = sort_p(input, axis=axis, descending=largest)
        return (prims.take_first(values, k, axis=axis), prims.take_first(indices, k, axis=axis))
    return topk(input, k=_static_int(k, "k", op), axis=axis, largest=largest, sorted=sorted)


def topk_(input, k, dim=None, largest=True, sorted=True):
    """The `k` largest (or, with `largest=False`, smallest) elements along `dim` (the last axis
    by default) and their int32 indices; equal elements come lowest index first."""
    return _topk(input, k, dim, largest, sorted, "topk")


def top_k(input_x, k, sorted=True):
    """The `k` largest elements along the last axis and their int32 indices."""
    return _topk(input_x, k, None, True, sorted, "TopK")


export(sort, method=True)
export_class("Sort", sort, {"axis": -1, "descending": False}, ops_module="array_ops")
export(argsort, method=True)
export(topk_, method=True, name="topk")
export(top_k)


def cummax_(input, axis):
    """(the running maximum of `input` along `axis`, the int64 index where each was reached)."""
    return cummax(input, axis=_static_int(axis, "axis", "Cummax"))


def cummin_(input, axis):
    """(the running minimum of `input` along `axis`, the int32 index where each was reached:
    MindSpore's Cummin gives int32 where its Cummax gives int64)."""
    values, indices = cummin(input, axis=_static_int(axis, "axis", "Cummin"))
    return values, cast(indices, dtype=dt.int32)


export(cummax_, name="cummax", method=True)
export(cummin_, name="cummin", method=True)
export_class("Cummax", cummax_, {"axis": REQUIRED}, ops_module="math_ops")
export_class("Cummin", cummin_, {"axis": REQUIRED}, ops_module="math_ops")


def argmin_(input, axis=None, keepdims=False):
    """The int32 index of the smallest element along `axis` (of the flattened input when
    None); the first one among equals."""
    if axis is None:
        size = abstract_of(input).size
        input, axis = reshape(input, shape=(size,)), 0
    return argmin(input, axis=_static_int(axis, "axis", "Argmin"),
                  keep_dims=_static_bool(keepdims, "keepdims", "Argmin"), dtype=dt.int32)


def _argmin_class(x, axis=-1, output_type=dt.int32):
    return argmin(x, axis=_static_int(axis, "axis", "Argmin"), dtype=dt.as_dtype(output_type))


export(argmin_, name="argmin")
export_class("Argmin", _argmin_class, {"axis": -1, "output_type": dt.int32}, ops_module="array_ops")
export_class("TopK", top_k, {"sorted": True}, ops_module="nn_ops")


def tensor_scatter_elements_(input_x, indices, updates, axis=0, reduction="none"):
    """`input_x` with `updates` written (reduction "none") or added ("add") along `axis` at
    `indices`."""
    return tensor_scatter_elements(input_x, indices, updates,
                                   axis=_static_int(axis, "axis", "TensorScatterElements"),
                                   reduction=reduction)


def scatter(input, axis, index, src):
    """`input` with the elements of `src` written along `axis` at `index` (the
    tensor_scatter_elements of PyTorch's argument order). A number `src` is written at every
    position of `index`, in `input`'s dtype (MindSpore's ScatterValue)."""
    if isinstance(src, numbers.Number):
        src = fill(dtype=abstract_of(input).dtype, shape=abstract_of(index).shape, value=src)
    return tensor_scatter_elements_(input, index, src, axis)


export(tensor_scatter_elements_, name="tensor_scatter_elements")
export(scatter)
export_class("TensorScatterElements", tensor_scatter_elements_, {"axis": 0, "reduction": "none"},
             ops_module="array_ops")

# ----- searching a sorted sequence, median: compositions of the above ---------------------------

def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """For each value, the number of elements of `sorted_sequence` (along its last axis) that
    are less than it (or, with `right=True` / `side="right"`, not greater): the position that
    keeps the sequence sorted. An N-D sequence's leading axes pair with those of `values`."""
    if side not in (None, "left", "right"):
        raise ArgumentValueError(f"SearchSorted: expected side 'left' or 'right', got {side!r}")
    right = side == "right" if side is not None else _static_bool(right, "right", "SearchSorted")
    if sorter is not None:
        sorted_sequence = take_along_axis(sorted_sequence, sorter, axis=-1)
    seq, vals = abstract_of(sorted_sequence), abstract_of(values)
    # compare every value with every element: [..., values, 1] against [..., 1, elements]
    seq_rows = sorted_sequence if seq.ndim == 1 else expand_dims(sorted_sequence, axis=seq.ndim - 1)
    passed = (less_equal if right else less)(seq_rows, expand_dims(values, axis=vals.ndim))
    dtype = dt.int32 if _static_bool(out_int32, "out_int32", "SearchSorted") else dt.int64
    return reduce_sum(cast(passed, dtype=dtype), axis=(vals.ndim,))


def bucketize(input, boundaries, *, right=False):
    """The int32 index of each element's bucket among the ascending `boundaries` (a list):
    boundaries[i-1] < x <= boundaries[i], or with `right=True` boundaries[i-1] <= x <
    boundaries[i]."""
    if not isinstance(boundaries, (list, tuple)):
        raise DTypeError(f"Bucketize: expected a list of boundaries, got "
                         f"{type(boundaries).__name__}")
    return searchsorted(np.asarray(boundaries, np.float64), input, out_int32=True, right=right)


def _bucketize_class(input, boundaries):
    return bucketize(input, list(boundaries), right=True)


def median(input, axis=-1, keepdims=False):
    """(the median along `axis`, the lower of the two middle elements for an even count; its
    int64 index in `input`)."""
    axis = _static_int(axis, "axis", "Median")
    if abstract_of(input).ndim == 0:  # a scalar is its own median, at index 0
        normalize_axis(axis, 1)
        return input, cast(zeros_like(input), dtype=dt.int64)
    axis = normalize_axis(axis, abstract_of(input).ndim)
    values, indices = sort(input, axis)
    middle = (abstract_of(input).shape[axis] - 1) // 2
    index = (Slice(None, None, None),) * axis + (Slice(middle, middle + 1, None),)
    picked = getitem(values, index=index), cast(getitem(indices, index=index), dtype=dt.int64)
    return picked if keepdims else tuple(squeeze(p, axis=(axis,)) for p in picked)


export(searchsorted)
export(bucketize)
export_class("Bucketize", _bucketize_class, {"boundaries": REQUIRED}, ops_module="math_ops")
export(median, method=True)

__all__ = ["argsort", "sort", "sort_p", "take_along_axis", "tensor_scatter_elements", "top_k",
           "topk"]
