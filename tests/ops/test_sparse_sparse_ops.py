"""SparseSparseMinimum, SparseSparseMaximum and SparseAdd: the elementwise minimum, maximum
and sum of two COO sparse tensors over the positions either holds, merged in MindSpore's order,
against MindSpore 2.10's results."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, context, nn, ops
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


class _Add(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = S.SparseAdd()

    def construct(self, *operands):
        return self.op(*operands)


def _add_inputs(thresh, dtype=np.float32):
    i1, v1, shape, i2, v2, _ = _inputs([[0, 1], [1, 2], [2, 0]], [1, 2, 3],
                                       [[0, 0], [1, 2], [2, 0], [2, 3]], [5, -2.5, -2.9, 4],
                                       [3, 4], dtype)
    return i1, v1, shape, i2, v2, shape, Tensor(np.array(thresh, dtype))


# thresh -> MindSpore 2.10's (indices, values, gradient of x1_values, of x2_values): a position
# both hold is dropped where |x1 + x2| < thresh, and its gradient with it
ADD_CASES = [
    (0.0, [[0, 0], [0, 1], [1, 2], [2, 0], [2, 3]], [5, 1, -0.5, 0.0999999046, 4], [1, 1, 1],
     [1, 1, 1, 1]),
    (0.2, [[0, 0], [0, 1], [1, 2], [2, 3]], [5, 1, -0.5, 4], [1, 1, 0], [1, 1, 0, 1]),
    (1.0, [[0, 0], [0, 1], [2, 3]], [5, 1, 4], [1, 0, 0], [1, 0, 0, 1]),
]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("thresh", "indices", "values", "grad1", "grad2"), ADD_CASES)
def test_sparse_add(mode, thresh, indices, values, grad1, grad2):
    context.set_context(mode=mode)
    try:
        operands = _add_inputs(thresh)
        out_indices, out_values, out_shape = _Add()(*operands)
        grads = ops.GradOperation(get_all=True)(_Add())(*operands)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_array_equal(out_indices.asnumpy(), indices)
    np.testing.assert_allclose(out_values.asnumpy(), values, rtol=1e-6)
    np.testing.assert_array_equal(out_shape.asnumpy(), [3, 4])
    np.testing.assert_array_equal(grads[1].asnumpy(), grad1)
    np.testing.assert_array_equal(grads[4].asnumpy(), grad2)
    for position in (0, 2, 3, 5, 6):  # indices, shapes and thresh get zeros, as MindSpore's
        assert not grads[position].asnumpy().any()


def test_sparse_add_integers_and_errors():
    operands = _add_inputs(1, np.int32)
    operands = operands[:4] + (Tensor(np.array([5, -2, -2, 4], np.int32)),) + operands[5:]
    _, values, _ = S.SparseAdd()(*operands)
    assert values.dtype == ms.int32
    np.testing.assert_array_equal(values.asnumpy(), [5, 1, 1, 4])  # 2 + -2 dropped
    i1, v1, shape, i2, v2, _, thresh = _add_inputs(0.0)
    with pytest.raises(TypeError, match="the type of x1_values, and x2_values should be the same"):
        S.SparseAdd()(i1, v1, shape, i2, v2.astype(ms.float64), shape, thresh)
    with pytest.raises(TypeError, match="type of thresh is Int32"):
        S.SparseAdd()(i1, v1, shape, i2, v2, shape, Tensor(0, ms.int32))
    with pytest.raises(TypeError, match=r"x1_indices\] must be a type of \{Tensor\[Int64\]\}"):
        S.SparseAdd()(i1.astype(ms.int32), v1, shape, i2, v2, shape, thresh)
    with pytest.raises(ValueError, match="length of x1_indices is 3, and length of x1_values is 2"):
        S.SparseAdd()(i1, v1[:2], shape, i2, v2, shape, thresh)
    with pytest.raises(ValueError, match="thresh must be a 0-dimensional tensor"):
        S.SparseAdd()(i1, v1, shape, i2, v2, shape, Tensor([0.0]))


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
