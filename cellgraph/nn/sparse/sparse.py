"""`nn.SparseToDense` (a COOTensor to its dense Tensor) and `nn.SparseTensorDenseMatmul`, as
MindSpore's `nn.sparse.sparse`: Cells over ops.operations.sparse_ops."""
from __future__ import annotations

from cellgraph.nn.cell import Cell
from cellgraph.ops.operations.sparse_ops import SparseTensorDenseMatmul as _SparseDenseMatmul
from cellgraph.ops.operations.sparse_ops import SparseToDense as _SparseToDense


class SparseToDense(Cell):
    """`SparseToDense()(sparse_tensor)`: the dense Tensor of a COOTensor."""

    def __init__(self):
        super().__init__()
        self.sparse_to_dense = _SparseToDense()

    def construct(self, sparse_tensor):
        return self.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values,
                                    sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """`SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values,
    sparse_shape, dense)`: the sparse tensor (COO parts) times `dense`."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st = adjoint_st
        self.adjoint_dt = adjoint_dt
        self.sparse_dense_matmul = _SparseDenseMatmul(adjoint_st=adjoint_st,
                                                      adjoint_dt=adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return self.sparse_dense_matmul(indices, values, sparse_shape, dense)
