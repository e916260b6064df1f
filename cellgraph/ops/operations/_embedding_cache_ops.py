"""MindSpore's `ops.operations._embedding_cache_ops`: the embedding cache's operations.
`UpdateCache` writes rows of a cache Parameter in place, skipping the rows whose index is
negative or not below `max_num` (the cache's marker for "not cached"); `SubAndFilter` keeps the
ids of one cache shard (those in [offset, offset + max_num)), a result of run-time length;
`MapUniform` spreads keys over groups (key % group_num * per_group_size + key // group_num,
C++'s truncating division); `PadAndShift` places a slice of its input in a row of -1s, where
a cumulative-sum table says."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.ops.function.math_func.elementwise import truncate_div
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    element_dtype_error,
    tensor_dtype_error,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, running_eagerly, value_input
from cellgraph.primitives.dynamic_ops import masked_select, nonzero_p
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError
from cellgraph.runtime.tensor import Tensor

__all__ = ["MapUniform", "PadAndShift", "SubAndFilter", "UpdateCache"]

_INT_TYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32, dt.uint64)


def update_cache(input_x, indices, updates, max_num):
    """input_x viewed as rows of updates.shape[1] elements; row indices[i] becomes row i of
    `updates` where 0 <= indices[i] < max_num, in order (a repeated index keeps the last);
    an index past input_x's rows fails when the graph runs. Returns [0] of input_x's dtype,
    as MindSpore's kernel does."""
    op = "UpdateCache"
    if abstract_of(indices).dtype not in _INT_TYPES:
        raise DTypeError(f"For '{op}', the 'indices' must be a Tensor of an integer type, but "
                         f"got Tensor[{abstract_of(indices).dtype}].")
    x_dtype = abstract_of(input_x).dtype
    update_shape = tuple(abstract_of(updates).shape)
    if len(update_shape) < 2:
        raise ArgumentValueError(f"For '{op}', the dimension of 'update' must be at least 2D, "
                                 f"but got: {len(update_shape)}D")
    length = update_shape[1]
    rows = F.reshape(input_x, (-1, length))
    count = abstract_of(rows).shape[0]
    index = F.reshape(indices, (-1,))
    batch = abstract_of(index).shape[0]
    new_rows = F.reshape(F.cast(updates, x_dtype), (-1, length))[:batch]
    limit = F.cast(max_num, abstract_of(index).dtype) if isinstance(max_num, Tensor) or \
        hasattr(max_num, "aval") else max_num
    valid = F.logical_and(F.greater_equal(index, 0), F.less(index, limit))
    # row 0 is a scratch row that the skipped entries write; the cache's rows follow it
    kept = check_range(F.select(valid, index, F.zeros_like(index)), low=0, high=count,
                       what="row index", op=op)
    target = F.select(valid, F.add(kept, 1), F.zeros_like(index))
    padded = F.concat((F.zeros((1, length), x_dtype), rows), 0)
    written = F.tensor_scatter_update(padded, F.expand_dims(target, -1), new_rows)
    assign(input_x, F.reshape(written[1:count + 1], tuple(abstract_of(input_x).shape)))
    return F.zeros((1,), x_dtype)


class UpdateCache(PrimitiveClass):
    """`UpdateCache()(input_x, indices, updates, max_num)`: `update_cache`."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, input_x, indices, updates, max_num):
        return update_cache(input_x, indices, updates, max_num)


def sub_and_filter(input_x, max_num, offset):
    """(input_x - offset where it lies in [0, max_num), the flat positions of those elements),
    both 1-D in input_x's dtype, in the input's order."""
    op = "SubAndFilter"
    dtype = check_tensor_dtype(op, "x", abstract_of(input_x).dtype, (dt.int32, dt.int64))
    shifted = F.sub(F.reshape(input_x, (-1,)), F.cast(offset, dtype) if isinstance(
        offset, Tensor) else offset)
    limit = F.cast(max_num, dtype) if isinstance(max_num, Tensor) else max_num
    kept = F.logical_and(F.greater_equal(shifted, 0), F.less(shifted, limit))
    positions = F.squeeze(nonzero_p(kept), (1,))
    return masked_select(shifted, kept), F.cast(positions, dtype)


class SubAndFilter(PrimitiveClass):
    """`SubAndFilter()(input_x, max_num, offset)`: `sub_and_filter`."""

    _fn = staticmethod(sub_and_filter)


def map_uniform(input, per_group_size, group_num):
    """key % group_num * per_group_size + key / group_num (both rounded toward zero, as
    MindSpore's kernel computes them in C++), of the input's shape and integer dtype; an
    output of per_group_size * group_num or more fails when the graph runs."""
    op = "MapUniform"
    dtype, ints = abstract_of(input).dtype, (dt.int8, dt.int16, dt.int32, dt.int64)
    if dtype not in ints and running_eagerly():
        raise tensor_dtype_error(op, "input", ints, dtype)
    if dtype not in ints:  # in a graph, MindSpore's Python check of the primitive refuses it
        raise element_dtype_error(op, "input", ints, f"Tensor[{dtype}]")
    for name, value in (("per_group_size", per_group_size), ("group_num", group_num)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DTypeError(f"For '{op}', the '{name}' must be int, but got "
                             f"{type(value).__name__}.")
    if group_num <= 0:
        raise RunError(f"For '{op}', the 'group_num' must be greater than 0, but got "
                       f"{group_num}")
    quotient = truncate_div(input, group_num)
    remainder = F.sub(input, F.mul(quotient, group_num))
    out = F.add(F.mul(remainder, per_group_size), quotient)
    low, high = int(np.iinfo(dtype.np).min), per_group_size * group_num
    if high <= low:
        raise RunError(f"For '{op}', all elements in output must be less than {high}")
    return check_range(out, low=low, high=high, what="output element", op=op, error="runtime")


class MapUniform(PrimitiveClass):
    """`MapUniform()(input, per_group_size, group_num)`: `map_uniform`."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, input, per_group_size, group_num):
        return map_uniform(input, per_group_size, group_num)


def pad_and_shift(input_x, cum_sum_arr, shift_idx):
    """cum_sum_arr[-1] elements of -1 with input_x[:end - start] written at [start, end),
    start and end cum_sum_arr[shift_idx] and cum_sum_arr[shift_idx + 1]. The table sets the
    result's length, so its values are read when the graph is built (a value input)."""
    op = "PadAndShift"
    x = abstract_of(input_x)
    for name, value in (("input_x", x), ("cum_sum_arr", abstract_of(cum_sum_arr))):
        if value.dtype not in (dt.int32, dt.int64):
            raise DTypeError(f"For '{op}', the '{name}' must be a Tensor of int32 or int64, but "
                             f"got Tensor[{value.dtype}].")
    if x.ndim != 1:
        raise RunError(f"Rank of {op}'s input must be 1, but got {x.ndim}.")
    if isinstance(shift_idx, bool) or not isinstance(shift_idx, int):
        raise DTypeError(f"For '{op}', the 'shift_idx' must be int, but got "
                         f"{type(shift_idx).__name__}.")
    table = [int(v) for v in np.asarray(value_input(cum_sum_arr, op, "cum_sum_arr")).reshape(-1)]
    if not 0 <= shift_idx < len(table) - 1:
        raise ArgumentValueError(f"For '{op}', the 'shift_idx' must be in [0, {len(table) - 1}) "
                                 f"(the length of 'cum_sum_arr' less one), but got {shift_idx}.")
    start, end, length = table[shift_idx], table[shift_idx + 1], table[-1]
    if not 0 <= start <= end <= length or end - start > x.shape[0]:
        raise RunError(f"For '{op}', the slice [{start}, {end}) of 'cum_sum_arr' must lie in "
                       f"[0, {length}] and hold at most the {x.shape[0]} elements of 'input_x'.")
    before, after = F.full((start,), -1, dtype=x.dtype), F.full((length - end,), -1, dtype=x.dtype)
    return F.concat((before, input_x[:end - start], after), 0)


class PadAndShift(PrimitiveClass):
    """`PadAndShift()(input_x, cum_sum_arr, shift_idx)`: `pad_and_shift`."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, input_x, cum_sum_arr, shift_idx):
        return pad_and_shift(input_x, cum_sum_arr, shift_idx)
