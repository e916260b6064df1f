"""The gradients of maximum and minimum at ties and NaNs, as MindSpore 2.10 gives them: half
to each operand at a tie (an integer halved toward zero), all of it to both where either is NaN;
its MaximumGrad / MinimumGrad kernels give half to each at a NaN. Values recorded from it."""
import numpy as np

from cellgraph import Tensor, ops
from cellgraph.ops.operations import _grad_ops as G

nan = np.nan
X = np.array([1.7, 9.6, 5.8, nan, 1.0, nan, 2.0], np.float32)
Y = np.array([1.7, 3.0, 5.8, 2.0, nan, nan, 2.0], np.float32)
SENS = np.array([1.0, -1.0, 0., 2., 3., 4., 5.], np.float32)


def _grads(fn, x, y, sens):
    gx, gy = ops.GradOperation(get_all=True, sens_param=True)(fn)(Tensor(x), Tensor(y),
                                                                 Tensor(sens))
    return gx.asnumpy().tolist(), gy.asnumpy().tolist()


def test_ties_and_nans():
    assert _grads(ops.minimum, X, Y, SENS) == ([0.5, 0.0, 0.0, 2.0, 3.0, 4.0, 2.5],
                                               [0.5, -1.0, 0.0, 2.0, 3.0, 4.0, 2.5])
    assert _grads(ops.maximum, X, Y, SENS) == ([0.5, -1.0, 0.0, 2.0, 3.0, 4.0, 2.5],
                                               [0.5, 0.0, 0.0, 2.0, 3.0, 4.0, 2.5])
    # no negative zeros where an operand loses
    assert np.signbit(_grads(ops.minimum, X, Y, SENS)[0][1]) == np.False_


def test_broadcast_ties_and_integers():
    x = np.array([[1., 2.], [2., 3.]], np.float32)
    assert _grads(ops.minimum, x, np.array([2.], np.float32), np.ones((2, 2), np.float32)) == (
        [[1.0, 0.5], [0.5, 0.0]], [2.0])
    xi, yi = np.array([1, 5, 3], np.int32), np.array([1, 2, 3], np.int32)
    assert _grads(ops.minimum, xi, yi, np.array([4, 4, 4], np.int32)) == ([2, 0, 2], [2, 4, 2])


def test_the_grad_kernels_halve_at_nans():
    x = np.array([1.7, 9.6, nan, 2.0], np.float32)
    y = np.array([1.7, 3.0, 2.0, 2.0], np.float32)
    g = np.array([1., -1., 2., 5.], np.float32)
    for cls, expected in ((G.MaximumGrad, ([0.5, -1.0, 1.0, 2.5], [0.5, 0.0, 1.0, 2.5])),
                          (G.MinimumGrad, ([0.5, 0.0, 1.0, 2.5], [0.5, -1.0, 1.0, 2.5]))):
        a, b = cls()(Tensor(x), Tensor(y), Tensor(g))
        assert (a.asnumpy().tolist(), b.asnumpy().tolist()) == expected
