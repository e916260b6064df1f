"""Reading and writing at computed positions: `index_select`, `masked_fill`, `masked_scatter`,
`gather_elements`, `take`, `reverse_sequence`, `unique_consecutive`, `argwhere`, `index_fill`,
`max`/`min`/`aminmax`. Positions are computed with ordinary ops, so the values read keep their
gradients and vmap batches them like any other composition."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _shape, _tensor, is_tensor
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.check_convert import check_tensor_dtype, not_tensor_error
from cellgraph.primitives.core import abstract_of, broadcast_shapes, normalize_axis, tensor_axis
from cellgraph.primitives.dynamic_ops import bin_counts, nonzero
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.functional import gather
from cellgraph.primitives.nn_functional import argmax, cumsum
from cellgraph.primitives.nn_functional import one_hot as _one_hot
from cellgraph.primitives.sort_ops import take_along_axis

__all__ = [
    "aminmax",
    "apply_along",
    "argwhere",
    "gather_d",
    "gather_elements",
    "index_fill",
    "index_select",
    "inplace_add",
    "inplace_sub",
    "inplace_update",
    "masked_fill",
    "masked_scatter",
    "max",
    "min",
    "reverse_sequence",
    "take",
    "unique_consecutive",
    "unique_with_pad",
]


def index_select(input, axis, index):
    """The entries of `input` at `index` (1-D ints) along `axis`."""
    return gather(input, index, axis)


def masked_fill(input_x, mask, value):
    """`value` where mask is True, input_x elsewhere (the two broadcast together)."""
    dtype = abstract_of(input_x).dtype
    shape = tuple(broadcast_shapes(_shape(input_x), _shape(mask)))
    if isinstance(value, numbers.Number):
        filler = F.fill(dtype, shape, value)
    else:
        filler = F.broadcast_to(F.cast(value, dtype), shape)
    return F.select(F.broadcast_to(mask, shape), filler, F.broadcast_to(input_x, shape))


def _init_and_select(input, initial, where, compare, op):
    """MindSpore's `initial`/`where` for max and min: every element compared with `initial`,
    and `initial` where `where` is False."""
    if initial is not None and (isinstance(initial, bool) or not isinstance(
            initial, numbers.Number)):
        raise DTypeError(f"{op}: `initial` must be a scalar, got {type(initial).__name__}")
    if initial is not None:
        input = compare(input, F.fill(abstract_of(input).dtype, _shape(input), initial))
    if where is None:
        return input
    if where is True:  # a 0-d True mask selects everything
        return input
    if isinstance(where, (bool, list, tuple, np.ndarray)):
        where = np.asarray(where, dtype=bool)
    where = F.cast(where, dt.bool_)
    if initial is None:
        raise ArgumentValueError(f"{op}: `initial` must be given with a `where` mask")
    fill = F.fill(abstract_of(input).dtype, _shape(input), initial)
    return F.select(F.broadcast_to(where, _shape(input)), input, fill)


def _whole(reduce, input):
    """MindSpore's max/min with axis None (or of a 0-d input): the reduction over everything
    and an int64 index of 0, whatever the position; `keepdims`, `initial` and `where` are not
    read, as in MindSpore."""
    if not _shape(input):
        return input, F.fill(dt.int64, (), 0)
    return reduce(input, (), False), F.fill(dt.int64, (), 0)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(maximum values, their indices) along `axis`. `initial` takes part in every maximum, and
    where `where` is False only `initial` does."""
    if axis is None or not _shape(input):
        return _whole(F.reduce_max, input)
    input = _init_and_select(input, initial, where, F.maximum, "max")
    return F.reduce_max(input, axis, keepdims), argmax(input, axis, keepdims)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(minimum values, their indices) along `axis` (`initial` and `where` as in `max`)."""
    if axis is None or not _shape(input):
        return _whole(F.reduce_min, input)
    input = _init_and_select(input, initial, where, F.minimum, "min")
    values, index = max(F.neg(input), axis, keepdims)
    return F.neg(values), index


def aminmax(input, *, axis=0, keepdims=False):
    """(min, max) along `axis`."""
    return F.reduce_min(input, axis, keepdims), F.reduce_max(input, axis, keepdims)


def argwhere(input):
    """The indices of the non-zero elements, (count, ndim)."""
    from cellgraph.primitives.dynamic_ops import nonzero

    return nonzero(input)


def index_fill(x, axis, index, value):
    """x with the positions `index` along `axis` set to `value`."""
    shape = _tensor(x, "index_fill", "x").shape
    axis = normalize_axis(axis, len(shape))
    hits = F.reduce_sum(_one_hot(F.reshape(index, (-1,)), shape[axis], 1, 0), (0,), False)
    mask = F.reshape(M.greater(hits, 0), tuple(shape[axis] if i == axis else 1
                                               for i in range(len(shape))))
    fill = F.broadcast_to(F.cast(value, abstract_of(x).dtype), tuple(shape))
    return M.select(F.broadcast_to(mask, tuple(shape)), fill, x)


def apply_along(x, matrix: np.ndarray, axis: int):
    """Apply the constant `matrix` (out, in) to axis `axis` of x."""
    ndim = abstract_of(x).ndim
    axis = normalize_axis(axis, ndim)
    last = ndim - 1
    weights = A.cast(np.ascontiguousarray(matrix.T), dtype=abstract_of(x).dtype)
    if axis == last:
        return F.matmul(x, weights)
    perm = list(range(ndim))
    perm[axis], perm[last] = last, axis
    return F.transpose(F.matmul(F.transpose(x, tuple(perm)), weights), tuple(perm))


def gather_elements(input, dim, index):
    """out[..., i, ...] = input[..., index[..., i, ...], ...] along `dim` (PyTorch's gather);
    `index` may be smaller than `input` on the other axes."""
    x_shape, i_shape = abstract_of(input).shape, abstract_of(index).shape
    dim = tensor_axis(dim, len(x_shape), "gather_elements")
    if len(i_shape) != len(x_shape):  # MindSpore: ValueError too
        raise ShapeError(f"gather_elements: index of shape {i_shape} must have the rank of "
                         f"input, shape {x_shape}")
    crop = tuple(slice(None) if d == dim else slice(0, i_shape[d]) for d in range(len(x_shape)))
    # the values themselves (GatherD): a product with one-hot rows would turn a NaN or an
    # infinity anywhere along the axis into NaN
    return take_along_axis(F.getitem(input, crop), index, axis=dim)


def gather_d(x, dim, index):
    """MindSpore's name for gather_elements."""
    return gather_elements(x, dim, index)


def _int_operand(x, what: str, op: str):
    if not abstract_of(x).dtype.is_int:
        raise DTypeError(f"{op}: expected an integer `{what}`, got {abstract_of(x).dtype}")
    return x


def take(input, index):
    """input's elements at `index` as if input were 1-D (negative indices count from the end);
    the result has index's shape."""
    _int_operand(index, "index", "take")
    flat = F.reshape(input, (-1,))
    size = abstract_of(flat).shape[0]
    index = F.cast(index, dt.int64)
    wrapped = F.select(index < 0, index + size, index)
    return F.gather(flat, wrapped, 0)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """For each b along `batch_dim`, the first seq_lengths[b] entries along `seq_dim` reversed,
    the rest kept."""
    op = "ReverseSequence"
    shape = abstract_of(x).shape
    seq_dim, batch_dim = normalize_axis(seq_dim, len(shape)), normalize_axis(batch_dim, len(shape))
    if seq_dim == batch_dim:
        raise ArgumentValueError(f"{op}: seq_dim and batch_dim must differ, got {seq_dim}")
    if abstract_of(_int_operand(seq_lengths, "seq_lengths", op)).shape != (shape[batch_dim],):
        raise ShapeError(f"{op}: expected seq_lengths of shape ({shape[batch_dim]},), got "
                         f"{abstract_of(seq_lengths).shape}")
    along = [1] * len(shape)
    along[batch_dim] = shape[batch_dim]
    lengths = F.reshape(F.cast(seq_lengths, dt.int64), tuple(along))
    along = [1] * len(shape)
    along[seq_dim] = shape[seq_dim]
    position = _const(np.arange(shape[seq_dim]).reshape(along), dt.int64)
    source = F.select(position < lengths, lengths - 1 - position, position)
    return gather_elements(x, seq_dim, F.broadcast_to(source, shape))


def masked_scatter(input, mask, source):
    """input with the positions where `mask` (broadcast to input's shape) holds replaced, in
    row-major order, by source's leading elements."""
    if abstract_of(mask).dtype != dt.bool_:
        raise DTypeError(f"masked_scatter: expected a bool mask, got {abstract_of(mask).dtype}")
    shape = abstract_of(input).shape
    flat_mask = F.reshape(F.broadcast_to(mask, shape), (-1,))
    flat_source = F.reshape(source, (-1,))
    last = abstract_of(flat_source).shape[0] - 1
    order = cumsum(F.cast(flat_mask, dt.int64), 0) - 1
    order = F.select(order < 0, F.zeros_like(order), F.select(order > last,
                                                                F.zeros_like(order) + last, order))
    picked = F.gather(F.cast(flat_source, abstract_of(input).dtype), order, 0)
    return F.select(F.reshape(flat_mask, shape), F.reshape(picked, shape), input)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The first of each run of equal consecutive elements (of the flattened input, or slices
    along `dim`); with `return_inverse` each element's run number (int64), with
    `return_counts` each run's length (int64)."""
    values, idx, counts = unique_consecutive_all(input, dim)
    if return_inverse and return_counts:
        return values, idx, counts
    if return_inverse:
        return values, idx
    if return_counts:
        return values, counts
    return values


_UNIQUE_WITH_PAD_TYPES = (dt.float32, dt.int32, dt.int64)


def unique_with_pad(x, pad_num):
    """(the distinct elements of the 1-D `x` in order of first appearance, padded with `pad_num`
    to x's length; each element's position among them): MindSpore's UniqueWithPad, whose
    positions are x's dtype (int32 for float32 input). Made of comparisons, cumsum and sums, so
    the shapes are x's and vmap batches it."""
    aval = abstract_of(x)
    check_tensor_dtype("UniqueWithPad", "x", aval.dtype, _UNIQUE_WITH_PAD_TYPES)
    if aval.ndim != 1:
        raise ShapeError(f"For primitive[UniqueWithPad], the input_shape_size must be equal to "
                         f"1, but got {aval.ndim}.")
    if aval.dtype.is_int and not (isinstance(pad_num, numbers.Integral)
                                  or is_tensor(pad_num)) or isinstance(pad_num, bool):
        raise DTypeError(f"For primitive[UniqueWithPad], pad_num must be an int for x of "
                         f"{aval.dtype}, got {pad_num!r}")
    n = aval.shape[0]
    same = F.equal(F.expand_dims(x, 1), F.expand_dims(x, 0))  # same[i, j]: x[i] == x[j]
    earlier = _const(np.tri(n, n, -1, dtype=bool), dt.bool_)  # j < i
    first = F.logical_not(F.reduce_max(F.cast(F.logical_and(same, earlier), dt.int32), 1) > 0)
    rank = cumsum(F.cast(first, dt.int32), 0) - 1  # a first appearance's place among them
    idx_dtype = dt.int32 if aval.dtype == dt.float32 else aval.dtype
    idx = F.cast(F.gather(rank, argmax(F.cast(same, dt.int32), 1), 0), idx_dtype)
    places = _const(np.arange(n, dtype=np.int32).reshape(n, 1), dt.int32)
    lands = F.logical_and(F.expand_dims(first, 0), F.equal(F.expand_dims(rank, 0), places))
    zero = F.zeros((), aval.dtype)
    values = F.reduce_sum(F.where(lands, F.expand_dims(x, 0), zero), 1)
    filled = F.reduce_max(F.cast(lands, dt.int32), 1) > 0
    return F.where(filled, values, F.cast(pad_num, aval.dtype)), idx


def unique_consecutive_all(input, axis=None):
    """(runs' first elements, each element's run number, each run's length)."""
    if axis is None:
        flat, axis, idx_shape = F.reshape(input, (-1,)), 0, abstract_of(input).shape
    else:
        axis = normalize_axis(axis, abstract_of(input).ndim)
        flat, idx_shape = input, (abstract_of(input).shape[axis],)
    length = abstract_of(flat).shape[axis]
    if length == 0:
        raise ShapeError("unique_consecutive: the input has no elements along the axis")
    index = [slice(None)] * abstract_of(flat).ndim
    head, tail = list(index), list(index)
    head[axis], tail[axis] = slice(1, None), slice(None, -1)
    changed = F.not_equal(flat[tuple(head)], flat[tuple(tail)])
    others = tuple(d for d in range(abstract_of(flat).ndim) if d != axis)
    if others:
        changed = F.reduce_max(F.cast(changed, dt.int32), others) > 0
    starts = F.concat([_const(np.ones(1, bool), dt.bool_), changed], 0)
    run = cumsum(F.cast(starts, dt.int64), 0) - 1
    first = F.reshape(nonzero(starts), (-1,))
    return F.gather(flat, first, axis), F.reshape(run, idx_shape), bin_counts(run)


def _rows(x, v, indices, op: str, tensors: bool):
    """The row indices `indices` names (an int or a tuple of ints; a 1-D integer Tensor too
    where `tensors`), as (n, 1) index tuples, after MindSpore's checks of `v` against `x`."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        indices = (indices,)
    if isinstance(indices, tuple) and all(isinstance(i, int) and not isinstance(i, bool)
                                          for i in indices):
        rows = _const(np.array(indices, np.int64).reshape(-1, 1), dt.int64)
    elif tensors and is_tensor(indices):
        rows = F.reshape(indices, (-1, 1))
    else:
        raise DTypeError(f"For '{op}', the type of 'indices' should be one of "
                         f"{['tuple', 'int'] + (['Tensor'] if tensors else [])}, but got type "
                         f"'{type(indices).__name__}'.")
    if len(v.shape) != len(x.shape):
        raise ShapeError(f"For primitive[{op}], the rank of x must be equal to rank of v which "
                         f"is {len(v.shape)} , but got {len(x.shape)}.")
    return rows


def inplace_add(x, v, indices):
    """x with v's rows added to its rows `indices` (a new Tensor; repeated rows add up)."""
    return F.tensor_scatter_add(x, _rows(x, v, indices, "InplaceAdd", False),
                                F.cast(v, abstract_of(x).dtype))


def inplace_sub(x, v, indices):
    """x with v's rows taken from its rows `indices` (a new Tensor)."""
    return F.tensor_scatter_sub(x, _rows(x, v, indices, "InplaceSub", False),
                                F.cast(v, abstract_of(x).dtype))


def inplace_update(x, v, indices):
    """x with its rows `indices` replaced by v's rows (a new Tensor; a repeated row takes the
    last)."""
    return F.tensor_scatter_update(x, _rows(x, v, indices, "InplaceUpdate", True),
                                   F.cast(v, abstract_of(x).dtype))


def put_along(input, index, source, accumulate=False):
    """input, read as flat, with `source` written at the flat positions `index` (negative ones
    counted from the end), or added there with `accumulate` (repeated positions add up)."""
    shape = _shape(input)
    size = int(np.prod(shape, dtype=np.int64))
    positions = F.reshape(_int_operand(index, "index", "put_"), (-1, 1))
    positions = F.select(F.less(positions, 0), F.add(positions, size), positions)
    values = F.reshape(F.cast(source, abstract_of(input).dtype), (-1,))
    flat = F.reshape(input, (-1,))
    scatter = F.tensor_scatter_add if accumulate else F.tensor_scatter_update
    return F.reshape(scatter(flat, positions, values), shape)


_LIST_DIFF_TYPES = (dt.float16, dt.float32, dt.float64, dt.int16, dt.int32, dt.int64, dt.int8,
                    dt.uint16, dt.uint8)


def list_diff(x, y, out_idx=dt.int32):
    """(the elements of the 1-D `x` that are not in the 1-D `y`, in x's order with repeats kept;
    their positions in x, of dtype `out_idx`): MindSpore's ListDiff. The result's length is
    known only at run time."""
    op = "ListDiff"
    for name, value in (("x", x), ("y", y)):
        if not is_tensor(value):
            raise not_tensor_error(op, name, value)
        check_tensor_dtype(op, name, abstract_of(value).dtype, _LIST_DIFF_TYPES)
    if abstract_of(x).dtype != abstract_of(y).dtype:
        raise DTypeError(f"For ListDiff, type of 'x' and 'y' should be same. But get "
                         f"x[{abstract_of(x).dtype}], y[{abstract_of(y).dtype}].")
    if abstract_of(x).ndim != 1 or abstract_of(y).ndim != 1:
        raise ShapeError(f"For ListDiff, input x, y should be 1D, but get x dims = "
                         f"{abstract_of(x).ndim}, y dims = {abstract_of(y).ndim}.")
    found = F.equal(F.expand_dims(x, 1), F.expand_dims(y, 0))  # found[i, j]: x[i] == y[j]
    keep = F.logical_not(F.reduce_max(F.cast(found, dt.int32), 1) > 0) \
        if abstract_of(y).shape[0] else F.ones(abstract_of(x).shape, dt.bool_)
    positions = _const(np.arange(abstract_of(x).shape[0]), out_idx)
    return F.masked_select(x, keep), F.masked_select(positions, keep)
