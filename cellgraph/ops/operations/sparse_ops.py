"""MindSpore's `ops.operations.sparse_ops`: the primitive classes over a sparse tensor given as
COO parts, `indices` (N, rank) integers, `values` (N,) and its dense shape, whose results have
shapes known from their inputs' shapes. Each is a composition of gathers and scatters, so its
gradient is theirs:

    SparseToDense()(indices, values, (3, 3))   is   tensor_scatter_update(zeros((3, 3)), indices,
                                                                          values)

Where a result's size depends on an input's values, those values are a value input (known when
the graph is built): SparseSegmentSqrtN's segment_ids here, the CSR classes' index parts in
`sparse_matrix_ops`, the merged positions of two sparse tensors in `sparse_sparse_ops`. The
others of that kind (SparseCountSparseOutput, ...) are not
here."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.primitive_class import PrimitiveClass, _init
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    not_tensor_error,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, static_values, value_input
from cellgraph.primitives.dynamic_ops import set_operation_p
from cellgraph.primitives.errors import DTypeError, RunError, ShapeError, UnsupportedError
from cellgraph.runtime.tensor import Tensor

from .sparse_matrix_ops import SparseMatrixMatMul, SparseTensorToCSRSparseMatrix
from .sparse_sparse_ops import SparseAdd, SparseSparseMaximum, SparseSparseMinimum

__all__ = ["SparseAdd", "SparseAddmm", "SparseDenseCwiseAdd", "SparseDenseCwiseDiv",
           "SparseDenseCwiseMul", "SparseMatrixMatMul", "SparseReorder", "SparseReshape",
           "SparseSegmentMeanWithNumSegments", "SparseSegmentSqrtN",
           "SparseSegmentSqrtNWithNumSegments", "SparseSegmentSum",
           "SparseSegmentSumWithNumSegments", "SparseSparseMaximum", "SparseSparseMinimum",
           "SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseTensorToCSRSparseMatrix",
           "SparseToDense"]

_INDEX_DTYPES = ("Int32", "Int64")


def _check_index_dtype(op: str, value, name: str) -> None:
    """MindSpore's TypeError for an index operand that is not int32 or int64."""
    check_tensor_dtype(op, name, abstract_of(value).dtype, _INDEX_DTYPES)


def _check_indices(op: str, indices, name: str = "indices") -> None:
    _check_index_dtype(op, indices, name)
    if abstract_of(indices).ndim != 2:
        raise ShapeError(f"For '{op}', the '{name}' must be a 2-D Tensor, got shape "
                         f"{tuple(abstract_of(indices).shape)}")


def _dense_shape(op: str, shape) -> tuple:
    """The dense shape as ints: a tuple or list, or a Tensor whose values are known while the
    graph is built (eager, a constant, or a Tensor passed to the graph, which the graph is then
    specialised on)."""
    if hasattr(shape, "aval"):
        known = static_values(shape)
        if known is None:
            raise UnsupportedError(
                f"{op}: a dense shape computed in the graph has no values while compiling; "
                f"pass it as a tuple, a constant Tensor or a Tensor input of the graph")
        shape = tuple(np.asarray(known).reshape(-1).tolist())
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in shape):
        raise DTypeError(f"For '{op}', the dense shape must be a tuple of ints or a Tensor, got "
                         f"{shape!r}")
    return tuple(int(d) for d in shape)


def _check_rank(op: str, shape, rank: int) -> None:
    """The dense shape (a tuple, or a 1-D Tensor) has one entry per column of the indices."""
    length = abstract_of(shape).shape[0] if hasattr(shape, "aval") else len(shape)
    if length is not None and rank is not None and length != rank:
        raise ShapeError(f"For '{op}', the dense shape has {length} entries, but the indices "
                         f"have {rank} columns")


def _same_dtype(op: str, **tensors) -> None:
    dtypes = {name: abstract_of(t).dtype for name, t in tensors.items()}
    if len(set(dtypes.values())) > 1:
        listed = ", ".join(f"'{n}' {d}" for n, d in dtypes.items())
        raise DTypeError(f"For '{op}', the dtypes of the inputs must be the same, got {listed}")


def _column(indices, j: int):
    """indices[:, j] as an (N, 1) Tensor."""
    return F.gather(indices, np.array([j], np.int32), 1)


class SparseToDense(PrimitiveClass):
    """`SparseToDense()(indices, values, sparse_shape)`: zeros of `sparse_shape` with
    `values[i]` at `indices[i]`; a repeated index keeps its last value, as MindSpore's kernel."""

    _init_names, _defaults = _init()

    def __call__(self, indices, values, sparse_shape):
        _check_indices("SparseToDense", indices)
        shape = _dense_shape("SparseToDense", sparse_shape)
        zeros = F.zeros(shape, abstract_of(values).dtype)
        return F.tensor_scatter_update(zeros, indices, values)


class SparseTensorDenseAdd(PrimitiveClass):
    """`SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)`: x2 with the sparse
    tensor's values added at its indices (repeated indices add up)."""

    _init_names, _defaults = _init()

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        _check_indices("SparseTensorDenseAdd", x1_indices, "x1_indices")
        _same_dtype("SparseTensorDenseAdd", x1_values=x1_values, x2=x2)
        if not hasattr(x1_shape, "aval") or \
                abstract_of(x1_shape).dtype != abstract_of(x1_indices).dtype:
            got = f"Tensor[{abstract_of(x1_shape).dtype}]" if hasattr(x1_shape, "aval") else \
                type(x1_shape).__name__
            raise DTypeError(f"The primitive[SparseTensorDenseAdd]'s input arguments[indices, "
                             f"shape] must be all tensor and those type must be same. But got "
                             f"input argument[shape]:{got}")
        shape = _dense_shape("SparseTensorDenseAdd", x1_shape)
        if shape != tuple(abstract_of(x2).shape):
            raise ShapeError(f"For 'SparseTensorDenseAdd', the 'x1_shape' {shape} must be the "
                             f"shape of 'x2' {tuple(abstract_of(x2).shape)}")
        return F.tensor_scatter_add(x2, x1_indices, x1_values)


def _sparse_segment(op: str, x, indices, segment_ids, num_segments, mean: bool):
    """(segments, *x.shape[1:]): row s the sum of the rows x[indices[i]] with segment_ids[i] == s
    over their count (mean) or its square root, in x's dtype as MindSpore's CPU kernels; an
    empty segment 0. The segment count is read when the graph is built (num_segments passed to
    the graph specialises it)."""
    x_dtype = check_tensor_dtype(op, "x", abstract_of(x).dtype,
                                 (dt.float16, dt.float32, dt.float64))
    named = [("indices", indices), ("segment_ids", segment_ids), ("num_segments", num_segments)]
    dtypes = {name: abstract_of(v).dtype for name, v in named}
    if len(set(dtypes.values())) != 1 or str(dtypes["indices"]) not in _INDEX_DTYPES:
        raise DTypeError(f"For '{op}', the dtypes of indices, segment_ids and num_segments "
                         f"must be the same int32 or int64, but got "
                         + ", ".join(f"{k}: {v}" for k, v in dtypes.items()) + ".")
    if abstract_of(x).ndim < 1 or abstract_of(indices).ndim != 1 \
            or abstract_of(segment_ids).ndim != 1:
        raise ShapeError(f"For '{op}', x must have rank >= 1 and indices, segment_ids rank "
                         f"1, but got shapes {tuple(abstract_of(x).shape)}, "
                         f"{tuple(abstract_of(indices).shape)} and "
                         f"{tuple(abstract_of(segment_ids).shape)}.")
    if abstract_of(indices).shape != abstract_of(segment_ids).shape:
        raise ShapeError(f"For '{op}', the shapes of indices and segment_ids must be the "
                         f"same, but got {tuple(abstract_of(indices).shape)} and "
                         f"{tuple(abstract_of(segment_ids).shape)}.")
    count = np.asarray(value_input(num_segments, op, "num_segments")).reshape(-1)
    if count.size != 1:
        raise ShapeError(f"For '{op}', num_segments must hold one value, but got {count.size}.")
    segments = int(count[0])
    ids = F.reshape(segment_ids, (-1, 1))
    rows = F.gather(x, indices, 0)
    sums = F.tensor_scatter_add(F.zeros((segments,) + tuple(abstract_of(x).shape[1:]),
                                        x_dtype), ids, rows)
    counts = F.tensor_scatter_add(F.zeros((segments,), dt.float64), ids,
                                  F.ones(tuple(abstract_of(segment_ids).shape), dt.float64))
    counts = F.maximum(counts, F.ones((segments,), dt.float64))
    divisor = F.cast(counts if mean else F.sqrt(counts), x_dtype)
    return F.div(sums, F.reshape(divisor, (segments,) + (1,) * (abstract_of(x).ndim - 1)))


class SparseSegmentSqrtNWithNumSegments(PrimitiveClass):
    """`SparseSegmentSqrtNWithNumSegments()(x, indices, segment_ids, num_segments)`: segment
    sums of the gathered rows over the square root of each count, num_segments (0-D or one
    element, the indices' dtype) segments (`_sparse_segment`)."""

    _init_names, _defaults = _init()

    def __call__(self, x, indices, segment_ids, num_segments):
        return _sparse_segment("SparseSegmentSqrtNWithNumSegments", x, indices, segment_ids,
                               num_segments, mean=False)


def sparse_segment_sqrt_n(x, indices, segment_ids):
    """(segment_ids[-1] + 1, *x.shape[1:]): row s the sum of the rows x[indices[i]] with
    segment_ids[i] == s over the square root of their count, summed in float32 and given in
    x's dtype, as MindSpore's CPU kernel. segment_ids must start at 0 and grow by 0 or 1; their
    values set the result's size, so they are read when the graph is built (a Tensor passed
    to the graph specialises it); an index outside x's rows fails when the graph runs."""
    op = "SparseSegmentSqrtN"
    x_dtype = check_tensor_dtype(op, "x", abstract_of(x).dtype,
                                 (dt.float16, dt.float32, dt.float64))
    for name, value in (("indices", indices), ("segment_ids", segment_ids)):
        _check_index_dtype(op, value, name)  # each int32 or int64
    for name, value in (("indices", indices), ("segment_ids", segment_ids)):
        if abstract_of(value).ndim != 1:
            raise ShapeError(f"For '{op}', the {name}_shape must be equal to 1, but got "
                             f"{abstract_of(value).ndim}.")
    if abstract_of(x).ndim < 1:
        raise ShapeError(f"For '{op}', x's rank must be greater than 1, but got [0].")
    if abstract_of(indices).shape != abstract_of(segment_ids).shape:
        raise ShapeError(f"For '{op}', the rank of indices and segment_ids must be the same, "
                         f"but got indices [{abstract_of(indices).shape[0]}] and segment_ids "
                         f"[{abstract_of(segment_ids).shape[0]}].")
    ids = np.asarray(value_input(segment_ids, op, "segment_ids")).reshape(-1).astype(np.int64)
    if ids.size and ids[0] != 0:
        raise ShapeError(f"For '{op}', indices in 'segment_ids' should be start from 0.")
    if np.any((np.diff(ids) != 0) & (np.diff(ids) != 1)):
        raise ShapeError(f"For '{op}', segment_ids should be sorted and contiguous.")
    segments = int(ids[-1]) + 1 if ids.size else 0
    rows_count = abstract_of(x).shape[0]
    checked = check_range(indices, low=0, high=max(rows_count, 1), what="index", op=op,
                          error="value")
    rows = F.cast(F.gather(x, checked, 0), dt.float32)
    inner = tuple(abstract_of(x).shape[1:])
    where = Tensor(ids.reshape(-1, 1))
    sums = F.tensor_scatter_add(F.zeros((segments,) + inner, dt.float32), where, rows)
    counts = np.maximum(np.bincount(ids, minlength=segments), 1).astype(np.float32)
    divisor = Tensor(np.sqrt(counts).reshape((segments,) + (1,) * len(inner)))
    return F.cast(F.div(sums, divisor), x_dtype)


class SparseSegmentSqrtN(PrimitiveClass):
    """`SparseSegmentSqrtN()(x, indices, segment_ids)`: `sparse_segment_sqrt_n`."""

    _init_names, _defaults = _init()

    def __call__(self, x, indices, segment_ids):
        return sparse_segment_sqrt_n(x, indices, segment_ids)


_SEGMENT_SUM_DTYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "Float16",
                       "Float32", "Float64")


def _segment_sum_ids(op: str, x, indices, segment_ids):
    """MindSpore's checks of SparseSegmentSum(WithNumSegments)'s x, indices and segment_ids;
    the segment ids read when the graph is built (they set the result's size), int64."""
    check_tensor_dtype(op, "x", abstract_of(x).dtype, _SEGMENT_SUM_DTYPES)
    for name, value in (("indices", indices), ("segment_ids", segment_ids)):
        _check_index_dtype(op, value, name)
        if abstract_of(value).ndim != 1:
            raise ShapeError(f"For '{op}', {name} must be a 1-D tensor, but got rank "
                             f"{abstract_of(value).ndim}.")
    if abstract_of(x).ndim < 1:
        raise ShapeError(f"For '{op}', x's rank must be at least 1, but got 0.")
    if abstract_of(indices).shape != abstract_of(segment_ids).shape:
        raise ShapeError(f"For '{op}', the shapes of indices and segment_ids must be the same, "
                         f"but got {tuple(abstract_of(indices).shape)} and "
                         f"{tuple(abstract_of(segment_ids).shape)}.")
    ids = np.asarray(value_input(segment_ids, op, "segment_ids")).reshape(-1).astype(np.int64)
    if np.any(np.diff(ids) < 0):
        raise ShapeError(f"For '{op}', input segment_ids should be sorted.")
    return ids


def _segment_sum(op: str, x, indices, ids, segments: int):
    """(segments, *x.shape[1:]): row s the sum of the rows x[indices[i]] with ids[i] == s, in
    x's dtype; an index outside x's rows fails when the graph runs."""
    checked = check_range(indices, low=0, high=max(abstract_of(x).shape[0], 1), what="index",
                          op=op, error="value")
    rows = F.gather(x, checked, 0)
    zeros = F.zeros((segments,) + tuple(abstract_of(x).shape[1:]), abstract_of(x).dtype)
    return F.tensor_scatter_add(zeros, Tensor(ids.reshape(-1, 1)), rows)


def sparse_segment_sum(x, indices, segment_ids):
    """(segment_ids[-1] + 1, *x.shape[1:]): row s the sum of the rows x[indices[i]] with
    segment_ids[i] == s, in x's dtype (the dtypes of MindSpore's CPU kernel). segment_ids must
    start at 0, be sorted and grow by 0 or 1; they set the result's size, so they are read when
    the graph is built; an index outside x's rows fails when the graph runs."""
    op = "SparseSegmentSum"
    ids = _segment_sum_ids(op, x, indices, segment_ids)
    if ids.size and ids[0] != 0:
        raise ShapeError(f"For '{op}', indices should start from 0.")
    if np.any(np.diff(ids) > 1):
        raise ShapeError(f"For '{op}', indices in 'segment_ids' should be contiguous.")
    return _segment_sum(op, x, indices, ids, int(ids[-1]) + 1 if ids.size else 0)


def sparse_segment_sum_with_num_segments(x, indices, segment_ids, num_segments):
    """(num_segments, *x.shape[1:]): `sparse_segment_sum` with the segment count given (ids may
    be missing; those rows are 0). indices, segment_ids and num_segments (one element) are each
    int32 or int64 (MindSpore's CPU kernel takes them mixed); num_segments and segment_ids are
    read when the graph is built."""
    op = "SparseSegmentSumWithNumSegments"
    _check_index_dtype(op, num_segments, "num_segments")
    if abstract_of(num_segments).ndim > 1:
        raise ShapeError(f"For '{op}', num_segments should be at most 1-D, but got rank "
                         f"{abstract_of(num_segments).ndim}.")
    ids = _segment_sum_ids(op, x, indices, segment_ids)
    count = np.asarray(value_input(num_segments, op, "num_segments")).reshape(-1)
    if count.size != 1:
        raise ShapeError(f"For '{op}', num_segments must hold one value, but got {count.size}.")
    segments = int(count[0])
    if ids.size and ids[-1] >= segments:
        raise ShapeError(f"For '{op}', num_segments must be bigger than the largest id of "
                         f"segment_ids.")
    return _segment_sum(op, x, indices, ids, segments)


class SparseSegmentSum(PrimitiveClass):
    """`SparseSegmentSum()(x, indices, segment_ids)`: `sparse_segment_sum`."""

    _init_names, _defaults = _init()

    def __call__(self, x, indices, segment_ids):
        return sparse_segment_sum(x, indices, segment_ids)


class SparseSegmentSumWithNumSegments(PrimitiveClass):
    """`SparseSegmentSumWithNumSegments()(x, indices, segment_ids, num_segments)`:
    `sparse_segment_sum_with_num_segments`."""

    _init_names, _defaults = _init()

    def __call__(self, x, indices, segment_ids, num_segments):
        return sparse_segment_sum_with_num_segments(x, indices, segment_ids, num_segments)


class SparseSegmentMeanWithNumSegments(PrimitiveClass):
    """`SparseSegmentMeanWithNumSegments()(x, indices, segment_ids, num_segments)`: segment
    means of the gathered rows (`_sparse_segment`)."""

    _init_names, _defaults = _init()

    def __call__(self, x, indices, segment_ids, num_segments):
        return _sparse_segment("SparseSegmentMeanWithNumSegments", x, indices, segment_ids,
                               num_segments, mean=True)


def _sparse_dense_matmul(op: str, indices, values, rows: int, dense):
    """(rows, dense's columns): row indices[i, 0] gets values[i] * dense[indices[i, 1]]."""
    _check_indices(op, indices)
    if abstract_of(indices).shape[1] != 2:
        raise ShapeError(f"For '{op}', the 'indices' must be of shape (N, 2), got "
                         f"{tuple(abstract_of(indices).shape)}")
    picked = F.gather(dense, F.reshape(_column(indices, 1), (-1,)), 0)
    products = F.mul(F.expand_dims(values, -1), picked)
    out_shape = (rows, abstract_of(dense).shape[1])
    zeros = F.zeros(out_shape, abstract_of(products).dtype)
    return F.tensor_scatter_add(zeros, _column(indices, 0), products)


def _swap_columns(indices):
    return F.concat((_column(indices, 1), _column(indices, 0)), axis=1)


class SparseTensorDenseMatmul(PrimitiveClass):
    """`SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)`: the (2-D) sparse tensor times `dense`, either taken adjoint
    (conjugate transposed) first."""

    _init_names, _defaults = _init(adjoint_st=False, adjoint_dt=False)

    def __call__(self, indices, values, sparse_shape, dense):
        op = "SparseTensorDenseMatmul"
        _same_dtype(op, values=values, dense=dense)
        shape = _dense_shape(op, sparse_shape)
        if len(shape) != 2 or abstract_of(dense).ndim != 2:
            raise ShapeError(f"For '{op}', the sparse shape and 'dense' must be 2-D, got "
                             f"{shape} and {tuple(abstract_of(dense).shape)}")
        complex_ = abstract_of(values).dtype.is_complex
        if self.adjoint_st:
            indices, shape = _swap_columns(indices), shape[::-1]
            values = F.conj(values) if complex_ else values
        if self.adjoint_dt:
            dense = F.transpose(dense, (1, 0))
            dense = F.conj(dense) if complex_ else dense
        if abstract_of(dense).shape[0] != shape[1]:
            raise ShapeError(f"For '{op}', the sparse tensor's {shape[1]} columns do not match "
                             f"'dense' of shape {tuple(abstract_of(dense).shape)}")
        return _sparse_dense_matmul(op, indices, values, shape[0], dense)


class SparseAddmm(PrimitiveClass):
    """`SparseAddmm()(indices, values, sparse_shape, x2_dense, x3_dense, alpha, beta)`:
    beta * x3_dense + alpha * (sparse @ x2_dense)."""

    _init_names, _defaults = _init()

    def __call__(self, indices, values, sparse_shape, x2_dense, x3_dense, alpha, beta):
        op = "SparseAddmm"
        _same_dtype(op, values=values, x2_dense=x2_dense, x3_dense=x3_dense, alpha=alpha,
                    beta=beta)
        rows = abstract_of(x3_dense).shape[0]
        product = _sparse_dense_matmul(op, indices, values, rows, x2_dense)
        return F.add(F.mul(beta, x3_dense), F.mul(alpha, product))


def _dense_at(op: str, indices, x2):
    """x2 broadcast to the sparse tensor's shape, read at each index: x2 aligns with the
    trailing axes, and an axis of size 1 is read at 0."""
    rank, x2_shape = abstract_of(indices).shape[1], tuple(abstract_of(x2).shape)
    if len(x2_shape) > rank:
        raise ShapeError(f"For '{op}', 'x2' of shape {x2_shape} has more axes than the sparse "
                         f"tensor's {rank}")
    if not x2_shape:
        return x2
    columns = [_column(indices, j) for j in range(rank - len(x2_shape), rank)]
    keep = np.array([0 if d == 1 else 1 for d in x2_shape], abstract_of(indices).dtype.np)
    return F.gather_nd(x2, F.mul(F.concat(columns, axis=1), keep))


def _cwise_class(name: str, combine, doc: str) -> type:
    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        _check_indices(name, x1_indices, "x1_indices")
        _same_dtype(name, x1_values=x1_values, x2=x2)
        _check_rank(name, x1_shape, abstract_of(x1_indices).shape[1])
        return combine(x1_values, _dense_at(name, x1_indices, x2))

    return type(name, (PrimitiveClass,), {
        "_init_names": (), "_defaults": {}, "__call__": __call__, "__doc__": doc,
        "__module__": __name__})


SparseDenseCwiseAdd = _cwise_class(
    "SparseDenseCwiseAdd", F.add,
    "`SparseDenseCwiseAdd()(x1_indices, x1_values, x1_shape, x2)`: the sparse tensor's values "
    "plus x2 (broadcast to its shape) at its indices.")
SparseDenseCwiseMul = _cwise_class(
    "SparseDenseCwiseMul", F.mul,
    "`SparseDenseCwiseMul()(x1_indices, x1_values, x1_shape, x2)`: the sparse tensor's values "
    "times x2 (broadcast to its shape) at its indices.")
SparseDenseCwiseDiv = _cwise_class(
    "SparseDenseCwiseDiv", F.div,
    "`SparseDenseCwiseDiv()(x1_indices, x1_values, x1_shape, x2)`: the sparse tensor's values "
    "over x2 (broadcast to its shape) at its indices.")


class SparseReorder(PrimitiveClass):
    """`SparseReorder()(indices, values, shape)`: (indices, values) with the indices in
    row-major order, the values following them."""

    _init_names, _defaults = _init()

    def __call__(self, indices, values, shape):
        _check_indices("SparseReorder", indices)
        rank = abstract_of(indices).shape[1]
        _check_rank("SparseReorder", shape, rank)
        wide = F.cast(indices, dtype=dt.int64)
        # the row-major position of each index, with each axis as long as its largest index
        extent = F.add(F.reduce_max(wide, 0), 1)
        key = F.reshape(_column(wide, rank - 1), (-1,))
        stride = F.gather(extent, np.array(rank - 1, np.int32), 0)
        for j in range(rank - 2, -1, -1):
            key = F.add(key, F.mul(F.reshape(_column(wide, j), (-1,)), stride))
            stride = F.mul(stride, F.gather(extent, np.array(j, np.int32), 0))
        order = F.argsort(key)
        return F.gather(indices, order, 0), F.gather(values, order, 0)


def _reshaped_size(op: str, dense: int, new_shape: list) -> list:
    """new_shape with its -1 (at most one) inferred, MindSpore's RuntimeErrors otherwise."""
    if new_shape.count(-1) > 1:
        raise RunError(f"For '{op}', there should be at most one '-1' dimension in 'newshape' "
                       f"tensor, but got two or more.")
    for axis, size in enumerate(new_shape):
        if size < -1:
            raise RunError(f"For '{op}', the size of newshape rank-{axis} should be a "
                           f"non-negative number, but got {size}.")
    known = int(np.prod([n for n in new_shape if n != -1]))
    if -1 in new_shape:
        if known == 0 or dense % known:
            raise RunError(f"For '{op}', the requested shape should be a multiple of {known}, "
                           f"but got a SparseTensor with {dense} dense values.")
        return [dense // known if n == -1 else n for n in new_shape]
    if known != dense:
        raise RunError(f"For '{op}', the requested shape has the dense shape of {known}, but "
                       f"got the input newshape is a tensor with {dense}")
    return new_shape


class SparseReshape(PrimitiveClass):
    """`SparseReshape()(indices, shape, new_shape)`: (y_indices, y_shape), the indices of a
    sparse tensor of dense `shape` as the same elements of a tensor of `new_shape` (one -1
    inferred), in the same order: each index's row-major position, spread over the new shape.
    The shapes are value inputs (known when the graph is built); the indices are computed
    with, so their count may be known only when the graph runs."""

    _init_names, _defaults = _init()

    def __call__(self, indices, shape, new_shape):
        op = "SparseReshape"
        for name, value in (("indices", indices), ("shape", shape), ("new_shape", new_shape)):
            check_tensor_dtype(op, name, abstract_of(value).dtype, (dt.int64,))
        old = [int(n) for n in np.asarray(value_input(shape, op, "shape")).reshape(-1)]
        rank = abstract_of(indices).shape[1]
        if rank is not None and rank != len(old):
            raise ShapeError(f"For '{op}', the rank of input tensor must match input shape "
                             f"length, but got input tensor rank = {rank}, and input shape "
                             f"length = {len(old)}.")
        wanted = [int(n) for n in np.asarray(value_input(new_shape, op, "new_shape")).reshape(-1)]
        sizes = _reshaped_size(op, int(np.prod(old)), wanted)
        old_strides = np.cumprod([1, *old[:0:-1]])[::-1].astype(np.int64)
        position = F.reduce_sum(F.mul(indices, Tensor(old_strides)), 1, keep_dims=True)
        new_strides = np.cumprod([1, *sizes[:0:-1]])[::-1].astype(np.int64)
        y_indices = F.floor_mod(F.floor_div(position, Tensor(new_strides)),
                                Tensor(np.asarray(sizes, np.int64)))
        return y_indices, Tensor(np.asarray(sizes, np.int64))


_SET_OPERATIONS = ("a-b", "b-a", "intersection", "union")


class _SetOperation(PrimitiveClass):
    def __init__(self, set_operation="", validate_indices=True):
        name = type(self).__name__
        if not isinstance(set_operation, str):
            raise DTypeError(f"For '{name}', the type of 'set_operation' should be 'str', but "
                             f"got type '{type(set_operation).__name__}'.")
        if not isinstance(validate_indices, bool):
            raise DTypeError(f"For '{name}', the type of 'validate_indices' should be 'bool', "
                             f"but got type '{type(validate_indices).__name__}'.")
        if set_operation.lower() not in _SET_OPERATIONS:
            raise ValueError(f"For '{name}', the attr set_operation must be any one of "
                             f"['a-b','b-a','intersection','union'], but got {set_operation}.")
        self.set_operation, self.validate_indices = set_operation.lower(), validate_indices


class DenseToDenseSetOperation(_SetOperation):
    """`DenseToDenseSetOperation(set_operation, validate_indices=True)(x1, x2)`: the set
    operation of each row of the last axis of x1 with the same row of x2, as a sparse tensor
    (indices (N, rank) int64, the sorted distinct values, the dense shape int64)."""

    def __call__(self, x1, x2):
        a, b = abstract_of(x1), abstract_of(x2)
        if a.ndim < 2 or b.ndim != a.ndim or b.shape[:-1] != a.shape[:-1]:
            raise ValueError(f"For 'DenseToDenseSetOperation', 'x1' and 'x2' must be of rank "
                             f">= 2 and agree on all but the last axis, but got shapes "
                             f"{list(a.shape)} and {list(b.shape)}.")
        coords = Tensor(np.argwhere(np.ones(b.shape, bool)).astype(np.int64))
        return set_operation_p(x1, coords, F.reshape(x2, (-1,)),
                               set_operation=self.set_operation)


class DenseToSparseSetOperation(_SetOperation):
    """`DenseToSparseSetOperation(set_operation, validate_indices=True)(x1, x2_indices,
    x2_values, x2_shape)`: as DenseToDenseSetOperation, x2 given as a sparse tensor whose
    indices are checked against its shape when `validate_indices`."""

    def __call__(self, x1, x2_indices, x2_values, x2_shape):
        a = abstract_of(x1)
        if a.ndim < 2:
            raise ValueError(f"For 'DenseToSparseSetOperation', the rank of the shape of input "
                             f"'x1' must be at least 2, but got {a.ndim}.")
        shape = static_values(x2_shape)
        if shape is not None:
            shape = tuple(int(v) for v in np.asarray(shape).reshape(-1))
            if len(shape) != a.ndim or shape[:-1] != tuple(a.shape[:-1]):
                raise ValueError(f"For 'DenseToSparseSetOperation', the dense shape of x2 "
                                 f"{list(shape)} must agree with x1's {list(a.shape)} on all "
                                 f"but the last axis.")
            indices = static_values(x2_indices)
            if self.validate_indices and indices is not None:
                indices = np.asarray(indices).reshape(-1, len(shape))
                if ((indices < 0) | (indices >= np.asarray(shape))).any():
                    raise ValueError("For 'DenseToSparseSetOperation', the indices of x2 must "
                                     f"lie inside its shape {list(shape)}.")
        return set_operation_p(x1, x2_indices, x2_values, set_operation=self.set_operation)


__all__ += ["DenseToDenseSetOperation", "DenseToSparseSetOperation"]


class SparseSlice(PrimitiveClass):
    """`ops.SparseSlice()(indices, values, shape, start, size)`: the part of a sparse Tensor
    inside the box [start, start + size): (its entries' indices less `start`, their values,
    the box's shape clipped to the dense shape). Which entries fall inside sets the result's
    size, so `indices`, `shape`, `start` and `size` are read when the graph is built; the
    values are gathered where it runs (differentiable, as MindSpore's bprop)."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, indices, values, shape, start, size):
        op = "SparseSlice"
        for name, value in (("indices", indices), ("shape", shape), ("start", start),
                            ("size", size)):
            if not hasattr(value, "aval"):
                raise not_tensor_error(op, name, value)
            check_tensor_dtype(op, name, abstract_of(value).dtype, (dt.int64,))
        if abstract_of(indices).ndim != 2 or abstract_of(values).ndim != 1 or \
                abstract_of(values).shape[0] != abstract_of(indices).shape[0]:
            raise ShapeError(f"For {op}, indices must be (N, R) and values (N,), but got "
                             f"{abstract_of(indices).shape} and {abstract_of(values).shape}.")
        for name, value in (("start", start), ("size", size)):
            if abstract_of(value).shape != abstract_of(shape).shape:
                raise ShapeError(f"For {op}, shape.shape must equal to {name}.shape, but got "
                                 f"shape.shape = {list(abstract_of(shape).shape)} and "
                                 f"{name}.shape = {list(abstract_of(value).shape)}.")
        if abstract_of(shape).shape != abstract_of(indices).shape[1:]:
            raise ShapeError(f"For {op}, the shape must have one entry per column of indices, "
                             f"but got {list(abstract_of(shape).shape)} and "
                             f"{list(abstract_of(indices).shape)}.")
        points = np.asarray(value_input(indices, op, "indices")).astype(np.int64)
        dense, low, extent = (np.asarray(value_input(v, op, name)).astype(np.int64)
                              for v, name in ((shape, "shape"), (start, "start"),
                                              (size, "size")))
        inside = np.all((points >= low) & (points < low + extent), axis=1)
        kept = np.flatnonzero(inside)
        out_shape = np.minimum(extent, np.maximum(dense - low, 0))
        return (Tensor((points[kept] - low).reshape(-1, points.shape[1]).astype(np.int64)),
                F.gather(values, Tensor(kept.astype(np.int64)), 0),
                Tensor(out_shape.astype(np.int64)))


__all__ += ["SparseSlice"]
