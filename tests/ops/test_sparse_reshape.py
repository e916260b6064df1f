"""SparseReshape against MindSpore 2.10: a sparse tensor's indices re-spread over a new dense
shape (one -1 inferred), and MindSpore's errors for shapes that do not fit."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, nn
from cellgraph.ops.operations.sparse_ops import SparseReshape

INDICES = Tensor(np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 2, 3]], np.int64))
SHAPE = Tensor(np.array([2, 3, 6], np.int64))


# MindSpore 2.10's results for the indices above in a (2, 3, 6) tensor
@pytest.mark.parametrize("new_shape, indices, shape", [
    ([9, -1], [[0, 0], [0, 1], [1, 2], [4, 2], [8, 1]], [9, 4]),
    ([4, 9], [[0, 0], [0, 1], [0, 6], [2, 0], [3, 6]], [4, 9]),
    ([-1], [[0], [1], [6], [18], [33]], [36]),
    ([36, 1], [[0, 0], [1, 0], [6, 0], [18, 0], [33, 0]], [36, 1]),
])
def test_as_mindspore(new_shape, indices, shape):
    y_indices, y_shape = SparseReshape()(INDICES, SHAPE, Tensor(np.array(new_shape, np.int64)))
    np.testing.assert_array_equal(y_indices.asnumpy(), indices)
    np.testing.assert_array_equal(y_shape.asnumpy(), shape)
    assert (y_indices.dtype, y_shape.dtype) == (ms.int64, ms.int64)


def test_same_rank_and_graph_with_run_time_count():
    """A new shape of the input's rank (row-major positions 0, 1, 6, 18, 33 in (3, 6, 2)), in a
    graph whose indices have a count known only when it runs."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = SparseReshape()

        def construct(self, indices, shape, new_shape):
            return self.op(indices, shape, new_shape)

    net = Net()
    new_shape = Tensor(np.array([3, -1, 2], np.int64))
    net.set_inputs(Tensor(shape=[None, 3], dtype=ms.int64), SHAPE, new_shape)
    context.set_context(mode=context.GRAPH_MODE)
    y_indices, y_shape = net(INDICES, SHAPE, new_shape)
    np.testing.assert_array_equal(y_indices.asnumpy(),
                                  [[0, 0, 0], [0, 0, 1], [0, 3, 0], [1, 3, 0], [2, 4, 1]])
    np.testing.assert_array_equal(y_shape.asnumpy(), [3, 6, 2])


@pytest.mark.parametrize("new_shape, message", [
    ([-1, -1], "there should be at most one '-1' dimension"),
    ([5, 7], "the requested shape has the dense shape of 35, but got .* with 36"),
    ([-2, 18], "the size of newshape rank-0 should be a non-negative number, but got -2"),
    ([7, -1], "the requested shape should be a multiple of 7"),
])
def test_shape_errors(new_shape, message):
    with pytest.raises(RuntimeError, match=message):
        SparseReshape()(INDICES, SHAPE, Tensor(np.array(new_shape, np.int64)))


def test_operand_errors():
    with pytest.raises(TypeError, match=r"argument\[indices\] must be a type of "
                                        r"\{Tensor\[Int64\]\}, but got Tensor\[Int32\]"):
        SparseReshape()(Tensor(np.array([[0, 1]], np.int32)), Tensor(np.array([2, 3], np.int64)),
                        Tensor(np.array([6], np.int64)))
    with pytest.raises(ValueError, match="the rank of input tensor must match input shape "
                                         "length"):
        SparseReshape()(Tensor(np.array([[0, 1]], np.int64)),
                        Tensor(np.array([2, 3, 1], np.int64)), Tensor(np.array([6], np.int64)))
