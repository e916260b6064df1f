"""SparseMatrixMatMul (a CSR matrix, or a batch of them, times a dense one) and
SparseTensorToCSRSparseMatrix, against MindSpore 2.10's results, in both modes, with gradients in the values and the dense operand."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, nn
from cellgraph.ops.operations import sparse_ops as S
from cellgraph.testing import check_grads

I32 = ms.int32
# a 4 x 5 matrix: row 0 holds 1 at column 0, row 2 holds 5 and -1 at columns 3 and 4, row 3 -2
CSR = (Tensor([4, 5], I32), Tensor([0, 4], I32), Tensor([0, 1, 1, 3, 4], I32),
       Tensor([0, 3, 4, 0], I32))
VALUES = Tensor([1.0, 5.0, -1.0, -2.0], ms.float32)


def _arange(*shape, dtype=np.float32):
    return Tensor(np.arange(np.prod(shape)).reshape(shape).astype(dtype))


# flags, x2 -> MindSpore 2.10's product
CASES = [
    ({}, _arange(5, 3), [[0, 1, 2], [0, 0, 0], [33, 37, 41], [0, -2, -4]]),
    ({"transpose_x2": True}, _arange(3, 5), [[0, 5, 10], [0, 0, 0], [11, 31, 51], [0, -10, -20]]),
    ({"transpose_x1": True}, _arange(4, 3),
     [[-18, -19, -20], [0, 0, 0], [0, 0, 0], [30, 35, 40], [-6, -7, -8]]),
    ({"transpose_output": True}, _arange(5, 3),
     [[0, 0, 33, 0], [1, 0, 37, -2], [2, 0, 41, -4]]),
]


class _Net(nn.Cell):
    def __init__(self, **flags):
        super().__init__()
        self.op = S.SparseMatrixMatMul(**flags)

    def construct(self, shape, batches, rows, cols, values, x2):
        return self.op(shape, batches, rows, cols, values, x2)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("flags", "x2", "expected"), CASES)
def test_sparse_matrix_matmul(mode, flags, x2, expected):
    context.set_context(mode=mode)
    try:
        out = _Net(**flags)(*CSR, VALUES, x2)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)


def test_sparse_matrix_matmul_batched_and_adjoint():
    # two 2 x 3 matrices: [[0, 0, 1.5], [-1, 0, 0]] and [[0, 2, 0], [0, 0, 0]]
    batched = (Tensor([2, 2, 3], I32), Tensor([0, 2, 3], I32), Tensor([0, 1, 2, 0, 1, 1], I32),
               Tensor([2, 0, 1], I32), Tensor([1.5, -1.0, 2.0], ms.float32))
    out = S.SparseMatrixMatMul()(*batched, _arange(2, 3, 2))
    np.testing.assert_allclose(out.asnumpy(), [[[6, 7.5], [0, -1]], [[16, 18], [0, 0]]])
    values = Tensor(np.array([1 + 2j, 3 - 1j, 2j, 1], np.complex64))
    x2 = Tensor((np.arange(12).reshape(4, 3) + 1j).astype(np.complex64))
    out = S.SparseMatrixMatMul(adjoint_x1=True, conjugate_output=True)(*CSR, values, x2)
    np.testing.assert_allclose(out.asnumpy(), [[11 - 2j, 13, 15 + 2j], [0] * 3, [0] * 3,
                                               [17 - 9j, 20 - 10j, 23 - 11j],
                                               [2 + 12j, 2 + 14j, 2 + 16j]])


def test_sparse_matrix_matmul_gradients():
    op = S.SparseMatrixMatMul(transpose_x2=True)
    values = np.array([1.0, 5.0, -1.0, -2.0])
    x2 = np.random.default_rng(0).normal(size=(3, 5))
    check_grads(lambda v, x: op(*CSR, v, x), (values, x2), order=1)


def test_sparse_matrix_matmul_errors():
    x2 = _arange(5, 3)
    with pytest.raises(ValueError, match="only one of adjoint_x1 and transpose_x1"):
        S.SparseMatrixMatMul(transpose_x1=True, adjoint_x1=True)(*CSR, VALUES, x2)
    with pytest.raises(ValueError, match="rank of x2_dense must be the same"):
        S.SparseMatrixMatMul()(*CSR, VALUES, _arange(2, 5, 3))
    with pytest.raises(TypeError, match="the input type must be same"):
        S.SparseMatrixMatMul()(Tensor([4, 5], ms.int64), *CSR[1:], VALUES, x2)
    with pytest.raises(TypeError, match=r"x1_values\] must be a type of"):
        S.SparseMatrixMatMul()(*CSR, Tensor([1, 5, -1, -2], I32), _arange(5, 3, dtype=np.int32))
    with pytest.raises(TypeError, match="'transpose_x1' should be 'bool'"):
        S.SparseMatrixMatMul(transpose_x1=1)


class _ToCSR(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = S.SparseTensorToCSRSparseMatrix()

    def construct(self, indices, values, shape):
        return self.op(indices, values, shape)


# indices, values, dense shape -> MindSpore 2.10's parts (the entries keep their order)
TO_CSR = [
    ((np.array([[0, 0, 1], [0, 1, 2], [0, 1, 3], [1, 0, 1], [1, 1, 2], [1, 1, 3]], np.int64),
      np.array([1, 4, 3, 1, 4, 3], np.float32), np.array([2, 2, 4], np.int64)),
     ([2, 2, 4], [0, 3, 6], [0, 1, 3, 0, 1, 3], [1, 2, 3, 1, 2, 3], [1, 4, 3, 1, 4, 3])),
    ((np.array([[2, 3], [0, 1], [2, 0]], np.int32), np.array([1, 2, 3], np.float32),
      np.array([3, 4], np.int32)),
     ([3, 4], [0, 3], [0, 1, 1, 3], [3, 1, 0], [1, 2, 3])),
]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("inputs", "expected"), TO_CSR)
def test_sparse_tensor_to_csr_sparse_matrix(mode, inputs, expected):
    indices, values, shape = inputs
    context.set_context(mode=mode)
    try:
        parts = _ToCSR()(Tensor(indices), Tensor(values), Tensor(shape))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    for got, want in zip(parts, expected):
        np.testing.assert_array_equal(got.asnumpy(), want)
    assert [p.dtype for p in parts] == [Tensor(shape).dtype] + [Tensor(indices).dtype] * 3 + [
        Tensor(values).dtype]


def test_csr_parts_multiply_as_their_matrix():
    (indices, values, shape), _ = TO_CSR[0]  # entries in row order
    parts = S.SparseTensorToCSRSparseMatrix()(Tensor(indices), Tensor(values), Tensor(shape))
    x2 = _arange(2, 4, 3)
    dense = np.zeros(tuple(shape), np.float32)
    dense[tuple(indices.T)] = values
    np.testing.assert_allclose(S.SparseMatrixMatMul()(*parts, x2).asnumpy(),
                               dense @ x2.asnumpy())


def test_sparse_tensor_to_csr_sparse_matrix_errors():
    op = S.SparseTensorToCSRSparseMatrix()
    with pytest.raises(ValueError, match="x_dense_shape should have rank 2 or 3, but got 4"):
        op(Tensor([[0, 1, 1, 1]], I32), Tensor([1.0], ms.float32), Tensor([3, 4, 2, 2], I32))
    with pytest.raises(TypeError, match=r"x_values\] must be a type of"):
        op(Tensor([[0, 1]], I32), Tensor([1], I32), Tensor([3, 4], I32))
