"""`mindspore.ops.operations._csr_ops`: MindSpore's primitives over the parts of a CSR matrix
(row pointers `indptr`, column `indices`, `values`, `dense_shape`), which its CSRTensor
operations (ops.csr_mul, csr_mv, ...) are built on; here each is that operation on a CSRTensor
made of the parts. The products' and quotients' results are the stored values' Tensor."""
from __future__ import annotations

from cellgraph.ops.function import sparse_func
from cellgraph.ops.primitive_class import PrimitiveClass, _init
from cellgraph.primitives import functional as F

__all__ = [
    "COO2CSR",
    "CSR2COO",
    "CSRMM",
    "CSRMV",
    "CSRDiv",
    "CSRGather",
    "CSRMul",
    "CSRReduceSum",
]


def _csr(indptr, indices, values, dense_shape):
    from cellgraph.sparse import CSRTensor

    return CSRTensor(indptr, indices, values, tuple(dense_shape))


class _CSROp(PrimitiveClass):
    _init_names, _defaults = _init()


class CSRReduceSum(_CSROp):
    """`CSRReduceSum()(indptr, indices, values, dense_shape, axis)`: ops.csr_reduce_sum."""

    def __call__(self, indptr, indices, values, dense_shape, axis):
        return sparse_func.csr_reduce_sum(_csr(indptr, indices, values, dense_shape), axis)


class CSRMV(_CSROp):
    """`CSRMV()(indptr, indices, values, dense_shape, dense_tensor)`: ops.csr_mv."""

    def __call__(self, indptr, indices, values, dense_shape, dense_tensor):
        return sparse_func.csr_mv(_csr(indptr, indices, values, dense_shape), dense_tensor)


class CSRMM(_CSROp):
    """`CSRMM()(indptr, indices, values, dense_shape, dense)`: the dense product."""

    def __call__(self, indptr, indices, values, dense_shape, dense):
        return _csr(indptr, indices, values, dense_shape).mm(dense)


class CSRMul(_CSROp):
    """`CSRMul()(indptr, indices, values, dense_shape, dense_tensor)`: the stored values times
    the dense tensor (broadcast to the dense shape) at their positions."""

    def __call__(self, indptr, indices, values, dense_shape, dense_tensor):
        csr = _csr(indptr, indices, values, dense_shape)
        return F.mul(values, csr._at_entries(dense_tensor))


class CSRDiv(_CSROp):
    """`CSRDiv()(indptr, indices, values, dense_shape, dense_tensor)`: the stored values over
    the dense tensor (broadcast to the dense shape) at their positions."""

    def __call__(self, indptr, indices, values, dense_shape, dense_tensor):
        csr = _csr(indptr, indices, values, dense_shape)
        return F.div(values, csr._at_entries(dense_tensor))


class CSRGather(_CSROp):
    """`CSRGather()(indptr, indices, dense, dense_shape)`: ops.csr_gather."""

    def __call__(self, indptr, indices, dense, dense_shape):
        return sparse_func.csr_gather(indptr, indices, dense, dense_shape)


class CSR2COO(_CSROp):
    """`CSR2COO()(indptr, nnz)`: ops.csr2coo."""

    def __call__(self, indptr, nnz):
        return sparse_func.csr2coo(indptr, nnz)


class COO2CSR(_CSROp):
    """`COO2CSR()(row_indices, height)`: ops.coo2csr."""

    def __call__(self, row_indices, height):
        return sparse_func.coo2csr(row_indices, height)
