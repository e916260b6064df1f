"""SparseSparseMinimum and SparseSparseMaximum: the elementwise minimum and maximum of two COO
sparse tensors over the positions either holds, merged in MindSpore's order, against MindSpore
2.10's results."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, nn
from cellgraph.ops.operations import sparse_ops as S
from cellgraph.testing import check_grads


class _Minimum(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = S.SparseSparseMinimum()

    def construct(self, i1, v1, s1, i2, v2, s2):
        return self.op(i1, v1, s1, i2, v2, s2)


def _inputs(i1, v1, i2, v2, shape, dtype=np.float32):
    def index(x):
        return Tensor(np.array(x, np.int64))

    return (index(i1), Tensor(np.array(v1, dtype)), index(shape), index(i2),
            Tensor(np.array(v2, dtype)), index(shape))


# (x1 indices, x1 values, x2 indices, x2 values, shape) -> MindSpore 2.10's (indices, values);
# a position only one tensor holds compares with 0, and out-of-order indices merge in one pass
CASES = [
    (([[0, 0, 0], [0, 1, 0], [0, 1, 1]], [1, 2, 3], [[0, 0, 0], [0, 1, 0], [1, 0, 0]], [2, 4, 5],
      [2, 2, 2]), ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [1, 2, 0, 0])),
    (([[0, 1], [1, 0]], [-1, 2], [[0, 0], [1, 0], [1, 1]], [3, -4, -2], [2, 2]),
     ([[0, 0], [0, 1], [1, 0], [1, 1]], [0, -1, -4, -2])),
    (([[1, 0], [0, 1]], [-1, 2], [[0, 0], [1, 1]], [3, -4], [2, 2]),
     ([[0, 0], [1, 0], [0, 1], [1, 1]], [0, -1, 0, -4])),
]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("inputs", "expected"), CASES)
def test_sparse_sparse_minimum(mode, inputs, expected):
    context.set_context(mode=mode)
    try:
        indices, values = _Minimum()(*_inputs(*inputs))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_array_equal(indices.asnumpy(), expected[0])
    np.testing.assert_array_equal(values.asnumpy(), np.array(expected[1], np.float32))
    assert (indices.dtype, values.dtype) == (ms.int64, ms.float32)


def test_sparse_sparse_minimum_dtypes_and_gradients():
    _, values = S.SparseSparseMinimum()(*_inputs([[0, 1]], [-1], [[0, 0]], [3], [2, 2], np.int32))
    assert values.dtype == ms.int32
    np.testing.assert_array_equal(values.asnumpy(), [0, -1])
    i1, _, shape, i2, _, _ = _inputs(*CASES[1][0])
    check_grads(lambda v1, v2: S.SparseSparseMinimum()(i1, v1, shape, i2, v2, shape)[1],
                (np.array([-1.0, 2.0]), np.array([3.0, -4.0, -2.0])), order=1)
    with pytest.raises(TypeError, match=r"x1_indices\] must be a type of \{Tensor\[Int64\]\}"):
        S.SparseSparseMinimum()(Tensor(np.array([[0, 1]], np.int32)), Tensor([1.0]),
                                Tensor(np.array([2, 2], np.int64)),
                                Tensor(np.array([[0, 0]], np.int64)), Tensor([3.0]),
                                Tensor(np.array([2, 2], np.int64)))


def test_sparse_sparse_maximum_as_mindspore():
    """SparseSparseMaximum over the same merged positions; MindSpore 2.10's values (a position
    one tensor lacks counts as 0), and its graph form with indices of run-time length."""
    args = _inputs([[0, 1], [1, 2], [2, 0]], [-1, 2, -3], [[0, 1], [1, 1], [2, 2]], [-3, -4, 5],
                   [3, 3])
    indices, values = S.SparseSparseMaximum()(*args)
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1], [1, 1], [1, 2], [2, 0], [2, 2]])
    np.testing.assert_array_equal(values.asnumpy(), [-1, 0, 2, 0, 5])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = S.SparseSparseMaximum()

        def construct(self, *parts):
            return self.op(*parts)

    net = Net()
    net.set_inputs(Tensor(shape=[None, 2], dtype=ms.int64), Tensor(shape=[None], dtype=ms.float32),
                   args[2], Tensor(shape=[None, 2], dtype=ms.int64),
                   Tensor(shape=[None], dtype=ms.float32), args[5])
    context.set_context(mode=context.GRAPH_MODE)
    try:
        indices, values = net(*args)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_array_equal(values.asnumpy(), [-1, 0, 2, 0, 5])
    with pytest.raises(TypeError, match="the input type must be same"):
        S.SparseSparseMaximum()(*args[:4], Tensor(np.array([1, 2, 3], np.int32)), args[5])
