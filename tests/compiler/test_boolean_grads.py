"""Gradients with respect to boolean inputs, as MindSpore 2.10 computes them: booleans moved
by an operation (scattered, reshaped, transposed) carry the output's sensitivity back, cast to
bool; booleans computed (comparisons, logical operations) stop it."""
import numpy as np

from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P

X = Tensor(np.array([[True, False], [False, True]]))
Y = Tensor(np.array([[True, True], [False, False]]))


def _grads(net, *args):
    return ops.GradOperation(get_all=True, sens_param=True)(net)(*args)


class Scatter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.to_dense = P.SparseToDense()

    def construct(self, indices, values):
        return self.to_dense(indices, values, (3, 3))


def test_scattered_booleans_take_the_sensitivity_at_their_positions():
    """MindSpore's own test of SparseToDense: the gradient of bool values [7, 8] placed at
    (0, 1) and (1, 2) is the sensitivity there, arange(9) as bool: [True, True]."""
    indices = Tensor(np.array([[0, 1], [1, 2]], np.int32))
    sens = Tensor(np.arange(9).reshape(3, 3).astype(np.bool_))
    grads = _grads(Scatter(), indices, Tensor(np.array([True, True])), sens)
    np.testing.assert_array_equal(grads[1].asnumpy(), [True, True])
    np.testing.assert_array_equal(grads[0].asnumpy(), [[0, 0], [0, 0]])


class Moves(nn.Cell):
    def construct(self, x):
        return ops.transpose(ops.reshape(x, (2, 2)), (1, 0))


def test_moved_booleans_as_mindspore():
    grad = _grads(Moves(), X, Y)[0]
    assert grad.dtype == X.dtype
    np.testing.assert_array_equal(grad.asnumpy(), [[True, False], [True, False]])


class Computed(nn.Cell):
    def construct(self, x, y, z):
        return ops.logical_and(x, y), z < 1.0


def test_computed_booleans_stop_the_gradient():
    grads = _grads(Computed(), X, Y, Tensor(np.zeros((2, 2), np.float32)), (Y, Y))
    for grad in grads[:2]:
        np.testing.assert_array_equal(grad.asnumpy(), np.zeros((2, 2), np.bool_))
    np.testing.assert_array_equal(grads[2].asnumpy(), np.zeros((2, 2), np.float32))
