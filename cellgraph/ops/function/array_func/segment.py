"""Reductions per segment id: `unsorted_segment_sum`, `_max`, `_min`, `_prod`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.creation import full_like
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import scatter_ops as S
from cellgraph.primitives.check_convert import check_tensor_dtype, check_tensor_types_same
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

# (the sorted segment reductions below are MindSpore's classes only: operations.array_ops)
__all__ = ["sparse_segment_mean", "unsorted_segment_max", "unsorted_segment_min",
           "unsorted_segment_prod", "unsorted_segment_sum"]


def _segments(input_x, segment_ids, num_segments, op: str):
    """(ids as scatter indices, the rows that count, the output shape). Negative ids are
    dropped and an id >= num_segments is a run-time error, as MindSpore's CPU kernels have
    them. A Tensor `num_segments` is a value input (its value sets the output's shape)."""
    if hasattr(num_segments, "aval") or hasattr(num_segments, "asnumpy"):
        num_segments = value_input(num_segments, op, "num_segments").reshape(-1)[0].item()
    if not isinstance(num_segments, numbers.Integral) or num_segments < 0:
        raise DTypeError(f"{op}: `num_segments` must be a non-negative int (a shape), got "
                         f"{num_segments!r}")
    x_shape, ids_type = abstract_of(input_x).shape, abstract_of(segment_ids)
    if not ids_type.dtype.is_int:
        raise DTypeError(f"{op}: expected integer `segment_ids`, got {ids_type.dtype}")
    if x_shape[:ids_type.ndim] != ids_type.shape:
        raise ShapeError(f"{op}: `segment_ids` of shape {ids_type.shape} must be a prefix of "
                         f"the input's shape {x_shape}")
    checked = check_range(M.maximum(segment_ids, A.zeros_like(segment_ids)), low=0,
                          high=max(int(num_segments), 1), what="segment_ids value", op=op)
    segment_ids = M.select(segment_ids >= 0, checked, segment_ids)
    valid = M.logical_and(segment_ids >= 0, segment_ids < int(num_segments))
    ids = M.select(valid, segment_ids, A.zeros_like(segment_ids))
    row_valid = F.reshape(valid, ids_type.shape + (1,) * (len(x_shape) - ids_type.ndim))
    out_shape = (int(num_segments),) + tuple(x_shape[ids_type.ndim:])
    return F.expand_dims(ids, -1), row_valid, out_shape


_LABELS = {"add": "UnsortedSegmentSum", "mul": "UnsortedSegmentProd",
           "max": "UnsortedSegmentMax", "min": "UnsortedSegmentMin"}


def _segment_reduce(scatter, neutral):
    def reduce(x, segment_ids, num_segments):
        op = _LABELS[scatter.name.rsplit('_', 1)[-1]]
        indices, valid, out_shape = _segments(x, segment_ids, num_segments, op)
        dtype = abstract_of(x).dtype
        fill = neutral(dtype)
        start = F.fill(dtype, out_shape, fill)
        return scatter(start, indices, M.select(valid, x, full_like(x, fill)))
    return reduce


def _lowest(dtype):
    return float(dt.finfo(dtype).min) if dtype.is_float else int(np.iinfo(dtype.np).min)


def _highest(dtype):
    return float(dt.finfo(dtype).max) if dtype.is_float else int(np.iinfo(dtype.np).max)


_segment_sum = _segment_reduce(S.tensor_scatter_add, lambda dtype: 0)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Row sums per segment id: out[s] = sum of x[i] with ids[i] == s."""
    return _segment_sum(input_x, segment_ids, num_segments)


unsorted_segment_max = _segment_reduce(S.tensor_scatter_max, _lowest)


unsorted_segment_max.__doc__ = "Row maxima per segment; an empty segment holds the lowest value."


unsorted_segment_min = _segment_reduce(S.tensor_scatter_min, _highest)


unsorted_segment_min.__doc__ = "Row minima per segment; an empty segment holds the highest value."


unsorted_segment_prod = _segment_reduce(S.tensor_scatter_mul, lambda dtype: 1)


unsorted_segment_prod.__doc__ = "Row products per segment; an empty segment holds one."


# ----- sorted segments (MindSpore's SegmentSum, SegmentMean, ...): as many segments as the
# last id + 1, so the ids are a value input (core.value_input) -----------------------------------


def _sorted_segments(input_x, segment_ids, op: str) -> int:
    """The number of segments: the last of the ascending `segment_ids` + 1."""
    ids = value_input(segment_ids, op, "segment_ids").reshape(-1)
    if not abstract_of(segment_ids).dtype.is_int or abstract_of(segment_ids).ndim != 1:
        raise DTypeError(f"For '{op}', segment_ids must be a 1-D integer Tensor, got "
                         f"{abstract_of(segment_ids)}")
    if ids.size != abstract_of(input_x).shape[0]:
        raise ShapeError(f"For '{op}', the length of segment_ids ({ids.size}) must equal the "
                         f"first dimension of input_x ({abstract_of(input_x).shape[0]})")
    if ids.size and ((ids[1:] < ids[:-1]).any() or ids[0] < 0):
        raise ArgumentValueError("For 'SegmentOp', segment_ids must be a tensor with element "
                                 "values sorted in ascending order.")
    return int(ids[-1]) + 1 if ids.size else 0


def _present(segment_ids, count: int, like):
    """Per segment, whether any row falls in it, shaped to broadcast over `like`'s rows."""
    ones = F.cast(A.ones_like(segment_ids), dt.float32)
    rows = _segment_sum(ones, segment_ids, count)
    shape = (count,) + (1,) * (abstract_of(like).ndim - 1)
    return F.reshape(rows, shape)


def segment_sum(input_x, segment_ids):
    """Row sums per segment of the ascending `segment_ids` (as many as the last id + 1; a
    segment no row falls in is 0)."""
    return _segment_sum(input_x, segment_ids, _sorted_segments(input_x, segment_ids,
                                                                 "SegmentSum"))


def segment_mean(input_x, segment_ids):
    """Row means per segment (an empty segment is 0)."""
    count = _sorted_segments(input_x, segment_ids, "SegmentMean")
    sums = _segment_sum(input_x, segment_ids, count)
    rows = F.cast(_present(segment_ids, count, input_x), abstract_of(input_x).dtype)
    return F.div(sums, M.maximum(rows, full_like(rows, 1)))


def _extreme(unsorted, op: str):
    def reduce(input_x, segment_ids):
        count = _sorted_segments(input_x, segment_ids, op)
        out = unsorted(input_x, segment_ids, count)
        present = M.greater(_present(segment_ids, count, input_x), 0)
        return M.select(F.broadcast_to(present, abstract_of(out).shape), out, A.zeros_like(out))
    reduce.__doc__ = f"MindSpore's {op}: per segment of the ascending ids; an empty one is 0."
    return reduce


segment_max = _extreme(unsorted_segment_max, "SegmentMax")
segment_min = _extreme(unsorted_segment_min, "SegmentMin")


def segment_prod(input_x, segment_ids):
    """Row products per segment (an empty segment is 1)."""
    return unsorted_segment_prod(input_x, segment_ids,
                                 _sorted_segments(input_x, segment_ids, "SegmentProd"))


def sparse_segment_mean(x, indices, segment_ids):
    """(segment_ids[-1] + 1, *x.shape[1:]): row s the mean of the rows x[indices[j]] with
    segment_ids[j] == s, 0 where no id is s (MindSpore's SparseSegmentMean, its CPU checks).
    The ids set the result's size, so they are read when the graph is built; an index outside
    x's rows fails when the graph runs."""
    op = "SparseSegmentMean"
    x_dtype = check_tensor_dtype(op, "x", abstract_of(x).dtype,
                                 (dt.float16, dt.float32, dt.float64))
    check_tensor_types_same(op, {"indices": abstract_of(indices).dtype,
                                 "segment_ids": abstract_of(segment_ids).dtype},
                            (dt.int32, dt.int64))
    for name, value in (("indices", indices), ("segment_ids", segment_ids)):
        if abstract_of(value).ndim != 1:
            raise ShapeError(f"For '{op}', '{name}' must be a 1-D tensor, but got rank "
                             f"{abstract_of(value).ndim}.")
    if abstract_of(x).ndim < 1:
        raise ShapeError(f"For '{op}', 'x' must have at least one dimension.")
    if abstract_of(indices).shape != abstract_of(segment_ids).shape:
        raise ShapeError(f"For '{op}', the size of 'indices' and 'segment_ids' must be the "
                         f"same, but got {abstract_of(indices).shape[0]} vs "
                         f"{abstract_of(segment_ids).shape[0]}.")
    ids = np.asarray(value_input(segment_ids, op, "segment_ids")).reshape(-1).astype(np.int64)
    if np.any(np.diff(ids) < 0) or (ids.size and ids[0] < 0):
        raise ArgumentValueError(f"For '{op}', 'segment_ids' must be sorted and non-negative.")
    segments = int(ids[-1]) + 1 if ids.size else 0
    checked = check_range(indices, low=0, high=max(abstract_of(x).shape[0], 1), what="index",
                          op=op, error="value")
    inner = tuple(abstract_of(x).shape[1:])
    where = A.cast(ids.reshape(-1, 1), dtype=dt.int64)
    sums = F.tensor_scatter_add(F.zeros((segments,) + inner, x_dtype), where,
                                F.gather(x, checked, 0))
    counts = np.maximum(np.bincount(ids, minlength=segments), 1)
    divisor = A.cast(counts.reshape((segments,) + (1,) * len(inner)), dtype=x_dtype)
    return F.div(sums, divisor)
