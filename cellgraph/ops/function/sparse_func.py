"""MindSpore's `ops.function.sparse_func`, the operations over COOTensor and CSRTensor that are not
elementwise: `coo_add`, `coo_concat`, `csr_add`, `csr_softmax`, `csr_mul`, `csr_mv`, `csr_mm`,
`coalesce`, ... (the conversions from dense are `dense_to_sparse_coo` and `dense_to_sparse_csr`,
with the Tensor methods), and the makers and part getters `ops.functional` has
(`make_csr_tensor`, `csr_tensor_get_indptr`, ...)."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.segment import unsorted_segment_max, unsorted_segment_sum
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_dtype
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    IndexValueError,
    ShapeError,
    ShapeRunError,
    UnsupportedError,
)
from cellgraph.primitives.sort_ops import argsort

__all__ = ["coalesce", "coo2csr", "coo_add", "coo_concat", "coo_tensor_get_dense_shape",
           "coo_tensor_get_indices", "coo_tensor_get_values", "csr2coo", "csr_add", "csr_div",
           "csr_gather", "csr_mm", "csr_mul", "csr_mv", "csr_reduce_sum", "csr_softmax",
           "csr_tensor_get_dense_shape", "csr_tensor_get_indices", "csr_tensor_get_indptr",
           "csr_tensor_get_values", "csr_to_coo", "csr_to_dense", "make_coo_tensor",
           "make_csr_tensor", "make_row_tensor", "make_row_tensor_inner", "make_sparse_tensor",
           "row_tensor_get_dense_shape", "row_tensor_get_indices", "row_tensor_get_values"]


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


def _csr(op: str, value, what: str = "input argument"):
    _, csr_tensor = _sparse_classes()
    if not isinstance(value, csr_tensor):
        raise DTypeError(f"For functional operator {op}, {what} must be a CSRTensor.")
    return value


def _two_dimensional(csr):
    if len(csr.shape) > 2:
        raise ArgumentValueError("Currently only support 2-D CSRTensor when converting to "
                                 "COOTensor.")


def csr_to_coo(tensor):
    """The entries of the 2-D CSRTensor `tensor` as a COOTensor (indices of its indices' dtype)."""
    _two_dimensional(_csr("csr_to_coo", tensor))
    return tensor.to_coo()


def csr_to_dense(csr_tensor):
    """The dense Tensor of the 2-D CSRTensor `csr_tensor`."""
    _two_dimensional(_csr("csr_to_dense", csr_tensor))
    return csr_tensor.to_dense()


def _number_or_tensor(y):
    if isinstance(y, (bool, int, float)):
        from cellgraph.runtime.tensor import Tensor

        return Tensor(y)
    return y


def _elementwise(op: str, x, y, combine):
    """x (CSRTensor) combined with the dense `y` broadcast to x's shape: a CSRTensor, or, for a
    `y` of one element (of rank 2 at most), the stored values' Tensor, as MindSpore's."""
    _csr(op, x, "x")
    y = _number_or_tensor(y)
    aval = abstract_of(y)
    if int(np.prod(aval.shape)) == 1 and len(aval.shape) <= 2:
        if len(aval.shape) > len(x.shape):
            raise ArgumentValueError("dense tensor cannot broadcast to the sparse tensor.")
        return F.reshape(combine(x.values, y), tuple(abstract_of(x.values).shape))
    dtype = dt.promote(abstract_of(x.values).dtype, aval.dtype)
    x = x.astype(dtype)
    return x._with_values(combine(x.values, x._at_entries(F.cast(y, dtype))))


def csr_mul(x, y):
    """x * y for the CSRTensor x and the dense y (broadcast to x's shape): a CSRTensor of x's
    pattern; for a y of one element, the product's values (a Tensor), as MindSpore's."""
    return _elementwise("csr_mul", x, y, F.mul)


def csr_div(x, y):
    """x / y for the CSRTensor x and the dense y (broadcast to x's shape): a CSRTensor of x's
    pattern; for a y of one element, the quotient's values (a Tensor), as MindSpore's."""
    return _elementwise("csr_div", x, y, F.div)


def csr_mv(csr_tensor, dense):
    """csr_tensor @ dense for the (N, 1) dense: an (M, 1) Tensor, in the dtype both promote
    to."""
    _csr("csr_mv", csr_tensor, "csr_tensor")
    dtype = dt.promote(abstract_of(csr_tensor.values).dtype, abstract_of(dense).dtype)
    return csr_tensor.astype(dtype).mv(F.cast(dense, dtype))


def csr_reduce_sum(csr_tensor, axis):
    """The sums of the 2-D CSRTensor along `axis` 1 (or -1), kept as an axis: (M, 1)."""
    _csr("csr_reduce_sum", csr_tensor, "csr_tensor")
    return csr_tensor.sum(axis)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """a @ b for two 2-D CSRTensors (each transposed, or conjugate-transposed by `adjoint_*`,
    first): a CSRTensor holding the entries some stored pair of a and b contributes to. Its
    number of entries depends on the data, so it runs eagerly (MindSpore runs it on GPUs
    only; the shape here is the product's for every combination of the flags)."""
    _, csr_tensor = _sparse_classes()
    if not isinstance(a, csr_tensor) or not isinstance(b, csr_tensor):
        raise DTypeError("For functional operator csr_mm, inputs a and b must be type of "
                         "CSRTensor currently.")
    from cellgraph.runtime.tensor import Tensor

    _eager("csr_mm")
    operands = []
    for csr, trans, adjoint in ((a, trans_a, adjoint_a), (b, trans_b, adjoint_b)):
        dense = csr.to_dense().asnumpy()
        pattern = csr_tensor(csr.indptr, csr.indices, F.ones_like(csr.values),
                             csr.shape).to_dense().asnumpy() != 0
        if trans or adjoint:
            dense, pattern = (dense.conj() if adjoint else dense).T, pattern.T
        operands.append((dense, pattern))
    (left, left_pattern), (right, right_pattern) = operands
    if left.shape[1] != right.shape[0]:
        raise ShapeError(f"For csr_mm, the shapes {left.shape} and {right.shape} of the "
                         f"(transposed) operands do not multiply.")
    product = left @ right
    rows, columns = np.nonzero(left_pattern.astype(np.int64) @ right_pattern.astype(np.int64))
    index_dtype = abstract_of(a.indices).dtype.np
    indptr = np.searchsorted(rows, np.arange(product.shape[0] + 1)).astype(index_dtype)
    return csr_tensor(Tensor(indptr), Tensor(columns.astype(index_dtype)),
                      Tensor(product[rows, columns].astype(abstract_of(a.values).dtype.np)),
                      product.shape)


def _row_ids(indptr, count: int):
    positions = F.expand_dims(F.cast(A.cast(np.arange(count), dtype=dt.int64),
                                     abstract_of(indptr).dtype), 1)
    ends = F.expand_dims(F.getitem(indptr, slice(1, None)), 0)
    return F.cast(F.reduce_sum(F.cast(F.greater_equal(positions, ends), dt.int64), (1,)),
                  abstract_of(indptr).dtype)


def _int32(name: str, value):
    if abstract_of(value).dtype != dt.int32:
        raise DTypeError(f"The dtype of {name} only support Int32 for now, but got "
                         f"{abstract_of(value).dtype}.")


def csr2coo(indptr, nnz):
    """The row of each of the `nnz` stored values of a CSR matrix with row pointers `indptr`
    (MindSpore's CSR2COO): shape (nnz,), int32 as indptr."""
    _int32("Indptr", indptr)
    if isinstance(nnz, bool) or not isinstance(nnz, numbers.Integral):
        raise ArgumentValueError("Currently, only support Integer nnz.")
    return _row_ids(indptr, nnz)


def coo2csr(row_indices, height):
    """The row pointers (height + 1,) of a CSR matrix whose stored values lie in the sorted
    rows `row_indices` (MindSpore's COO2CSR), int32 as row_indices."""
    _int32("row_indices", row_indices)
    if isinstance(height, bool) or not isinstance(height, numbers.Integral):
        raise ArgumentValueError("Currently, only support Integer height.")
    rows = F.expand_dims(row_indices, 0)
    bounds = F.expand_dims(F.cast(A.cast(np.arange(height + 1), dtype=dt.int64),
                                  abstract_of(row_indices).dtype), 1)
    return F.cast(F.reduce_sum(F.cast(F.less(rows, bounds), dt.int64), (1,)),
                  abstract_of(row_indices).dtype)


def csr_gather(indptr, indices, dense, dense_shape):
    """dense[row, indices[i]] for each stored value i of a CSR pattern (indptr, indices) of a
    matrix of `dense_shape`: (nnz, *dense.shape[2:]) (MindSpore's CSRGather)."""
    count = abstract_of(indices).shape[0]
    rows = F.cast(_row_ids(indptr, count), dt.int64)
    where = F.stack((rows, F.cast(indices, dt.int64)), 1)
    return F.gather_nd(F.broadcast_to(dense, tuple(dense_shape)), where)


def _eager(op: str):
    from cellgraph.compiler.builder import current_builder

    if current_builder() is not None:
        raise UnsupportedError(f"{op}: its number of entries depends on the data, so it runs "
                               f"eagerly only; call it outside construct")


def coalesce(x_indices, x_values, x_shape):
    """The COO entries (x_indices of shape (rank, nnz), int64; x_values float16, float32 or
    float64; x_shape int64) with one entry per index, repeated indices' values summed, in
    lexicographic order of the indices: (y_indices, y_values, y_shape). Runs eagerly (the
    number of entries depends on the data)."""
    from cellgraph.runtime.tensor import Tensor

    for name, value in (("x_indices", x_indices), ("x_shape", x_shape)):
        check_tensor_dtype("Coalesce", name, abstract_of(value).dtype, (dt.int64,))
    check_tensor_dtype("Coalesce", "x_values", abstract_of(x_values).dtype,
                       (dt.float16, dt.float32, dt.float64))
    _eager("coalesce")
    indices, values = x_indices.asnumpy(), x_values.asnumpy()
    shape = x_shape.asnumpy()
    if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1:
        raise ArgumentValueError("For Coalesce, x_indices must be a 2-D tensor and x_values "
                                 "and x_shape 1-D tensors.")
    if indices.shape[1] != values.shape[0]:
        raise ArgumentValueError(f"For Coalesce, second dim of x_indices and first dim of "
                                 f"x_values must be the same, but got second dim of x_indices: "
                                 f"{indices.shape[1]}, first dim of x_values: {values.shape[0]}.")
    if indices.shape[0] != shape.shape[0]:
        raise ArgumentValueError(f"For Coalesce, first dim of x_indices and first dim of "
                                 f"x_shape must be the same, but got first dim of x_indices: "
                                 f"{indices.shape[0]}, first dim of x_shape: {shape.shape[0]}.")
    for (i, j), index in np.ndenumerate(indices):
        if index < 0:
            raise ArgumentValueError(f"For Coalesce, values of elements of x_indices must be "
                                     f"non-negative, but got x_indices[{i}][{j}] = {index}")
        if index >= shape[i]:
            raise ArgumentValueError(f"For Coalesce, values of elements of x_indices can not "
                                     f"exceed the limit set by x_shape, but got "
                                     f"x_indices[{i}][{j}] = {index}, got x_shape[{i}] = "
                                     f"{shape[i]}")
    keys, where = np.unique(indices.T, axis=0, return_inverse=True)
    sums = unsorted_segment_sum(x_values, Tensor(where.reshape(-1).astype(np.int32)), len(keys))
    return Tensor(np.ascontiguousarray(keys.T)), sums, Tensor(shape)


def make_coo_tensor(indices, values, dense_shape):
    """COOTensor(indices, values, dense_shape)."""
    coo_tensor, _ = _sparse_classes()
    return coo_tensor(indices, values, dense_shape)


def make_sparse_tensor(indices, values, dense_shape):
    """COOTensor(indices, values, dense_shape): MindSpore's deprecated spelling."""
    return make_coo_tensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape):
    """CSRTensor(indptr, indices, values, dense_shape)."""
    _, csr_tensor = _sparse_classes()
    return csr_tensor(indptr, indices, values, dense_shape)


def make_row_tensor_inner(indices, values, dense_shape):
    """RowTensorInner(indices, values, dense_shape)."""
    from cellgraph.sparse import RowTensorInner

    return RowTensorInner(indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape):
    """RowTensor(indices, values, dense_shape): MindSpore's deprecated spelling."""
    from cellgraph.sparse import RowTensor

    return RowTensor(indices, values, dense_shape)


def _part_getter(name: str, kind: str, attribute: str):
    """`F.<name>(x)`: the part `attribute` of the sparse tensor `x` of `kind`."""
    label = "".join(word.capitalize() for word in name.split("_")).replace(
        "Coo", "COO").replace("Csr", "CSR")  # MindSpore's primitive name: CSRTensorGetIndptr
    kinds = {"COOTensor": "cootensor", "CSRTensor": "csrtensor", "RowTensor": "rowtensor"}

    def get(x):
        if getattr(x, "_sparse_kind", None) != kinds[kind]:
            raise DTypeError(f"For '{label}', input[0] should be {kind}, but got "
                             f"{type(x).__name__}.")
        return getattr(x, attribute)

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"The {attribute} of a {kind}."
    return get


coo_tensor_get_indices = _part_getter("coo_tensor_get_indices", "COOTensor", "indices")
coo_tensor_get_values = _part_getter("coo_tensor_get_values", "COOTensor", "values")
coo_tensor_get_dense_shape = _part_getter("coo_tensor_get_dense_shape", "COOTensor", "shape")
csr_tensor_get_indptr = _part_getter("csr_tensor_get_indptr", "CSRTensor", "indptr")
csr_tensor_get_indices = _part_getter("csr_tensor_get_indices", "CSRTensor", "indices")
csr_tensor_get_values = _part_getter("csr_tensor_get_values", "CSRTensor", "values")
csr_tensor_get_dense_shape = _part_getter("csr_tensor_get_dense_shape", "CSRTensor", "shape")
row_tensor_get_indices = _part_getter("row_tensor_get_indices", "RowTensor", "indices")
row_tensor_get_values = _part_getter("row_tensor_get_values", "RowTensor", "values")
row_tensor_get_dense_shape = _part_getter("row_tensor_get_dense_shape", "RowTensor",
                                          "dense_shape")
