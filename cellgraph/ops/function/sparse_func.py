"""MindSpore's `ops.function.sparse_func`, the operations over COOTensor and CSRTensor that are not
elementwise: `coo_add`, `coo_concat`, `csr_add`, `csr_softmax` (the conversions are
`dense_to_sparse_coo` and `dense_to_sparse_csr`, with the Tensor methods)."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.segment import unsorted_segment_max, unsorted_segment_sum
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    IndexValueError,
    ShapeRunError,
)
from cellgraph.primitives.sort_ops import argsort

__all__ = ["coo_add", "coo_concat", "csr_add", "csr_softmax"]


def _sparse_classes():
    from cellgraph.sparse import COOTensor, CSRTensor

    return COOTensor, CSRTensor


def coo_add(x1, x2, thresh):
    """x1 + x2 (COOTensors of one shape) as a COOTensor, one entry per index in row-major
    order; sums whose magnitude is below `thresh` dropped (their number depends on the data,
    so this runs eagerly)."""
    coo_tensor, _ = _sparse_classes()
    for name, value in (("x1", x1), ("x2", x2)):
        if not isinstance(value, coo_tensor):
            raise DTypeError(f"For coo_add, '{name}' must be a COOTensor, but got "
                             f"{type(value).__name__}.")
    return x1.add(x2, thresh)


def csr_add(a, b, alpha, beta):
    """alpha * a + beta * b (CSRTensors of one shape) as a CSRTensor."""
    _, csr_tensor = _sparse_classes()
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, csr_tensor):
            raise DTypeError(f"For csr_add, '{name}' must be a CSRTensor, but got "
                             f"{type(value).__name__}.")
    return a.add(b, alpha, beta)


def coo_concat(sp_input, concat_dim=0):
    """The COOTensors of `sp_input` (two or more) joined along `concat_dim`, their entries in
    row-major order, as MindSpore's SparseConcat."""
    coo_tensor, _ = _sparse_classes()
    parts = list(sp_input)
    if len(parts) < 2:
        raise ArgumentValueError("For coo_concat, not support COOTensor input number < 2.")
    for part in parts:
        if not isinstance(part, coo_tensor):
            raise DTypeError(f"For coo_concat, the inputs must be COOTensors, but got "
                             f"{type(part).__name__}.")
    rank = len(parts[0].shape)
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, numbers.Integral):
        raise DTypeError(f"For 'SparseConcat', the type of 'concat_dim' should be 'int', but "
                         f"got type '{type(concat_dim).__name__}'.")
    if not -rank <= concat_dim < rank:
        raise IndexValueError(f"For coo_concat, 'concat_dim' must be in [{-rank}, {rank}), "
                              f"but got {concat_dim}.")
    axis = concat_dim % rank
    shape = list(parts[0].shape)
    for part in parts[1:]:
        if part.indices.dtype != parts[0].indices.dtype or part.dtype != parts[0].dtype:
            raise DTypeError(f"For primitive[SparseConcat], the input type must be same: "
                             f"indices {parts[0].indices.dtype} and values {parts[0].dtype} "
                             f"first, then indices {part.indices.dtype} and values "
                             f"{part.dtype}.")
        if any(a != b for i, (a, b) in enumerate(zip(part.shape, shape)) if i != axis):
            raise ShapeRunError(f"For coo_concat, the shapes {tuple(parts[0].shape)} and "
                                f"{tuple(part.shape)} must agree except at 'concat_dim' "
                                f"{axis}.")
    index_type = parts[0].indices.dtype
    offsets, start = [], 0
    for part in parts:
        offset = [0] * rank
        offset[axis] = start
        offsets.append(offset)
        start += part.shape[axis]
    shape[axis] = start
    indices = F.concat([F.add(F.cast(p.indices, index_type), F.cast(_row(o), index_type))
                        for p, o in zip(parts, offsets)], 0)
    values = F.concat([F.cast(p.values, parts[0].dtype) for p in parts], 0)
    key = F.cast(F.getitem(indices, (slice(None), 0)), dt.int64)
    for column in range(1, rank):
        key = F.add(F.mul(key, shape[column]),
                    F.cast(F.getitem(indices, (slice(None), column)), dt.int64))
    order = argsort(key)
    return coo_tensor(F.gather(indices, order, 0), F.gather(values, order, 0), tuple(shape))


def _row(values):
    return np.asarray(values, np.int64)[None]


def csr_softmax(logits, dtype):
    """Softmax over the stored values of each row of the 2-D CSRTensor `logits` (the zeros it
    does not store take no part). `dtype` must be float32 or float64; the values keep the
    logits' dtype, as MindSpore's SparseMatrixSoftmax gives them (its CPU kernel also writes the
    result into `logits`' own values, which this does not)."""
    _, csr_tensor = _sparse_classes()
    if not isinstance(logits, csr_tensor):
        raise DTypeError("For functional operator sparse_matrix_softmax, logits must be type of "
                         "CSRTensor.")
    if dt.as_dtype(dtype) not in (dt.float32, dt.float64):
        raise DTypeError(f"For csr_softmax, 'dtype' must be float32 or float64, but got "
                         f"{dtype}.")
    logits._two_dimensional()
    rows, count = logits._row_ids(), logits.shape[0]
    values = logits.values
    peak = F.gather(unsorted_segment_max(values, rows, count), rows, 0)
    powers = F.exp(F.sub(values, peak))
    totals = F.gather(unsorted_segment_sum(powers, rows, count), rows, 0)
    return csr_tensor(logits.indptr, logits.indices, F.div(powers, totals), logits.shape)
