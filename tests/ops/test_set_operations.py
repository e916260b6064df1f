"""DenseToDenseSetOperation / DenseToSparseSetOperation: the per-row set operations as sparse
results, against MindSpore 2.10's values, in both modes."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.ops.operations.sparse_ops import (
    DenseToDenseSetOperation,
    DenseToSparseSetOperation,
)

X1 = np.array([[1, 2, 4], [3, 4, 5]], np.int32)
X2 = np.array([[3, 2, 5], [1, 4, 7]], np.int32)
# MindSpore 2.10 CPU: (indices, values, shape) for each set_operation
MS = {"a-b": ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 4, 3, 5], [2, 2]),
      "b-a": ([[0, 0], [0, 1], [1, 0], [1, 1]], [3, 5, 1, 7], [2, 2]),
      "intersection": ([[0, 0], [1, 0]], [2, 4], [2, 1]),
      "union": ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1], [1, 2], [1, 3],
                 [1, 4]], [1, 2, 3, 4, 5, 1, 3, 4, 5, 7], [2, 5])}


def _check(out, want, dtype=np.int32):
    indices, values, shape = (t.asnumpy() for t in out)
    assert indices.dtype == np.int64 and shape.dtype == np.int64 and values.dtype == dtype
    assert [indices.tolist(), values.tolist(), shape.tolist()] == [list(w) for w in want]


@pytest.mark.parametrize("op", list(MS))
def test_dense_to_dense_matches_mindspore(op):
    _check(DenseToDenseSetOperation(set_operation=op)(Tensor(X1), Tensor(X2)), MS[op])


def test_in_graph_mode_and_sparse_x2():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = DenseToDenseSetOperation(set_operation="UNION")

        def construct(self, a, b):
            return self.op(a, b)

    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _check(Net()(Tensor(X1), Tensor(X2)), MS["union"])
    finally:
        ms.set_context(mode=mode)
    # x2 sparse: row 0 holds {2, 5}, row 1 holds {4}
    out = DenseToSparseSetOperation(set_operation="a-b")(
        Tensor(X1), Tensor(np.array([[0, 0], [0, 2], [1, 1]], np.int64)),
        Tensor(np.array([2, 5, 4], np.int32)), Tensor(np.array([2, 3], np.int64)))
    _check(out, ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 4, 3, 5], [2, 2]))


def test_errors():
    with pytest.raises(ValueError, match="set_operation must be any one of"):
        DenseToDenseSetOperation(set_operation="xor")
    with pytest.raises(TypeError, match="'validate_indices' should be 'bool'"):
        DenseToDenseSetOperation(set_operation="a-b", validate_indices=1)
    with pytest.raises(ValueError, match="rank of the shape of input 'x1' must be at least 2"):
        DenseToSparseSetOperation(set_operation="a-b")(
            Tensor(np.int32([1, 2])), Tensor(np.int64([[0]])), Tensor(np.int32([1])),
            Tensor(np.int64([2])))
    with pytest.raises(ValueError, match="indices of x2 must lie inside its shape"):
        DenseToSparseSetOperation(set_operation="a-b")(
            Tensor(X1), Tensor(np.int64([[0, 5]])), Tensor(np.int32([1])),
            Tensor(np.int64([2, 3])))
