"""N-dimensional gathers and scatters: gather_nd and the tensor_scatter family (update, add,
sub, max, min, mul, div), with scatter_nd over them.

`indices` has shape (..., K): each row of K ints addresses a slice x[i0, ..., iK-1] of the
input. gather_nd reads those slices; tensor_scatter_* writes `updates` (shape
indices.shape[:-1] + x.shape[K:]) into a copy of the input. The gradient of a gather is a
scatter-add into zeros and the gradient of a scatter reads the same slices back with gather_nd,
so the rules differentiate again.
"""
from __future__ import annotations

import numbers

import numpy as np

from .array_ops import broadcast_to, cast, concat, zeros_like
from .batching import batch_size, batched_front
from .core import Primitive, TensorType, abstract_of, fmt_shape
from .errors import DTypeError, ShapeError
from .exports import export, export_class
from .math_ops import div, equal, mul, neg


def _slice_shape(x: TensorType, indices: TensorType) -> tuple:
    """indices.shape[:-1] + x.shape[K:]: the shape gather_nd reads and a scatter writes."""
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    if indices.ndim == 0:
        raise ShapeError("expected indices of rank >= 1 (rows of coordinates), got a scalar")
    depth = indices.shape[-1]
    if depth is not None and depth > x.ndim:
        raise ShapeError(f"indices address {depth} axes, but the input of shape "
                         f"{fmt_shape(x.shape)} has {x.ndim}")
    return indices.shape[:-1] + x.shape[depth:]


def _gather_nd_type(x: TensorType, indices: TensorType) -> TensorType:
    return TensorType(_slice_shape(x, indices), x.strong().dtype)


def _scatter_type(x: TensorType, indices: TensorType, updates: TensorType) -> TensorType:
    if indices.dtype.is_int and indices.dtype.name not in ("int32", "int64"):
        raise DTypeError(f"the input[indices type] supports types: Int32, Int64. But got "
                         f"{indices.dtype}.")
    expected = _slice_shape(x, indices)
    # a size known only at run time (None) on either side matches any
    if len(updates.shape) != len(expected) or any(
            a is not None and b is not None and a != b for a, b in zip(updates.shape, expected)):
        raise ShapeError(f"expected updates of shape {fmt_shape(expected)} (indices "
                         f"{fmt_shape(indices.shape)} into input {fmt_shape(x.shape)}), got "
                         f"{fmt_shape(updates.shape)}")
    if updates.dtype != x.dtype:
        raise DTypeError(f"expected updates of the input's dtype {x.dtype}, got {updates.dtype}")
    return x.strong()


def _div_scatter_type(x: TensorType, indices: TensorType, updates: TensorType) -> TensorType:
    """Float, complex or integer inputs; integers divide truncating towards zero (MindSpore's
    CPU kernel: 7 / 2 = 3, -7 / 2 = -3)."""
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric input, got {x.dtype}")
    return _scatter_type(x, indices, updates)


gather_nd = Primitive("gather_nd", _gather_nd_type, label="GatherNd", public=True, method=True,
                      operands=("input_x", "indices"), ops_module="array_ops")
tensor_scatter_update = Primitive("tensor_scatter_update", _scatter_type, public=True,
                                  ops_module="array_ops")
tensor_scatter_add = Primitive("tensor_scatter_add", _scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")
tensor_scatter_sub = Primitive("tensor_scatter_sub", _scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")
tensor_scatter_max = Primitive("tensor_scatter_max", _scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")
tensor_scatter_min = Primitive("tensor_scatter_min", _scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")
tensor_scatter_mul = Primitive("tensor_scatter_mul", _scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")
tensor_scatter_div = Primitive("tensor_scatter_div", _div_scatter_type, public=True,
                               operands=("input_x", "indices", "updates"), ops_module="array_ops")

gather_nd.def_bprop(lambda x, indices, out, dout: (
    tensor_scatter_add(zeros_like(x), indices, dout), None))
tensor_scatter_add.def_bprop(lambda x, indices, updates, out, dout: (
    dout, None, gather_nd(dout, indices)))
tensor_scatter_sub.def_bprop(lambda x, indices, updates, out, dout: (
    dout, None, neg(gather_nd(dout, indices))))
# the overwritten slices of the input get no gradient
tensor_scatter_update.def_bprop(lambda x, indices, updates, out, dout: (
    tensor_scatter_update(dout, indices, zeros_like(updates)), None, gather_nd(dout, indices)))




def _extremum_bprop(x, indices, updates, out, dout):
    # the gradient goes to whichever of x and the updates is the result (to each, on a tie)
    dtype = abstract_of(dout).dtype
    x_wins = cast(equal(x, out), dtype=dtype)
    update_wins = cast(equal(updates, gather_nd(out, indices)), dtype=dtype)
    return mul(dout, x_wins), None, mul(gather_nd(dout, indices), update_wins)


tensor_scatter_max.def_bprop(_extremum_bprop)
tensor_scatter_min.def_bprop(_extremum_bprop)
# out = x * (product of the updates at a slice): d/du = out / u there
tensor_scatter_mul.def_bprop(lambda x, indices, updates, out, dout: (
    tensor_scatter_mul(dout, indices, updates), None,
    div(gather_nd(mul(dout, out), indices), updates)))
tensor_scatter_div.def_bprop(lambda x, indices, updates, out, dout: (
    tensor_scatter_div(dout, indices, updates), None,
    neg(div(gather_nd(mul(dout, out), indices), updates))))


# ----- batching: one more leading coordinate, the example's number -----------------------------

def _with_example_coordinate(indices, size: int):
    """Batched `indices` (batch axis first) with each row prefixed by its example's number."""
    it = abstract_of(indices)
    numbers_ = np.arange(size, dtype=it.dtype.np).reshape((size,) + (1,) * (it.ndim - 1))
    column = broadcast_to(numbers_, shape=it.shape[:-1] + (1,))
    return concat(column, indices, axis=it.ndim - 1)


def _nd_rule(prim):
    def rule(args, dims):
        size = batch_size(args, dims)
        x, indices, *rest = [batched_front(a, d, size) for a, d in zip(args, dims)]
        return prim(x, _with_example_coordinate(indices, size), *rest), 0
    return rule


for _prim in (gather_nd, tensor_scatter_update, tensor_scatter_add, tensor_scatter_sub,
              tensor_scatter_max, tensor_scatter_min, tensor_scatter_mul, tensor_scatter_div):
    _prim.def_batch(_nd_rule(_prim))


# ----- scatter_nd: a scatter-add into zeros ---------------------------------------------------

def scatter_nd(indices, updates, shape):
    """A tensor of `shape` (and the updates' dtype), zero but for `updates` added at
    `indices`."""
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) and d >= 0
            for d in shape):
        raise DTypeError(f"ScatterNd: expected a shape (a tuple of non-negative ints), got "
                         f"{shape!r}")
    updates_type = abstract_of(updates)
    zeros = broadcast_to(np.zeros((), updates_type.dtype.np), shape=tuple(int(d) for d in shape))
    return tensor_scatter_add(zeros, indices, updates)


export(scatter_nd)
export_class("ScatterNd", scatter_nd, ops_module="array_ops")

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_add", "tensor_scatter_div",
           "tensor_scatter_max", "tensor_scatter_min", "tensor_scatter_mul", "tensor_scatter_sub",
           "tensor_scatter_update"]
