"""ops.geqrf against values recorded from MindSpore 2.10 CPU: LAPACK's packed Householder QR
(R on and above the diagonal, the reflectors below it, their scales tau)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

RECORDED = [  # (input, y, tau) as MindSpore 2.10 prints them
    (np.array([[-2.0, -1.0], [1.0, 2.0]], np.float32),
     [[2.236068, 1.7888544], [-0.236068, 1.3416407]], [1.8944271, 0.0]),
    (np.array([[-2.0, -1.0], [1.0, 2.0], [0.5, 3.0]], np.float32),
     [[2.29128790, 2.40039659], [-0.233030275, -2.87020826], [-0.116515137, 0.638529062]],
     [1.87287152, 1.42073774]),
    (np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
     [[-4.12310563, -5.33578375, -6.54846188], [0.780776406, -0.727606875, -1.45521375]],
     [1.24253563, 0.0]),
    # a zero column below the diagonal: no reflection (tau 0), the diagonal kept
    (np.array([[0.0, 1.0], [0.0, 2.0]]), [[0.0, 1.0], [0.0, 2.0]], [0.0, 0.0]),
    (np.ones((2, 2), np.float32), [[-1.41421354, -1.41421366], [0.414213538, 5.96046448e-08]],
     [1.70710683, 0.0]),
    (np.ones((2, 2), np.float16), [[-1.4141, -1.4141], [0.41431, 5.9605e-08]], [1.7070, 0.0]),
]


@pytest.mark.parametrize("x, y, tau", RECORDED)
def test_geqrf_matches_mindspore(x, y, tau):
    for out in (ops.geqrf(ms.Tensor(x)), ms.Tensor(x).geqrf(), ops.Geqrf()(ms.Tensor(x))):
        assert out[0].dtype == out[1].dtype == ms.Tensor(x).dtype
        tol = 1e-3 if x.dtype == np.float16 else 1e-6
        np.testing.assert_allclose(out[0].asnumpy(), y, rtol=tol, atol=tol)
        np.testing.assert_allclose(out[1].asnumpy(), tau, rtol=tol, atol=tol)


def test_geqrf_nested_vmap_factors_each_one_by_one_matrix():
    x = ms.Tensor(np.array([[[[-2.0, -1.0], [1.0, 2.0]]]], np.float32))
    y, tau = ops.vmap(ops.vmap(ops.geqrf, in_axes=-1, out_axes=0), in_axes=-1, out_axes=0)(x)
    np.testing.assert_array_equal(y.asnumpy(), [[[[-2.0]], [[1.0]]], [[[-1.0]], [[2.0]]]])
    np.testing.assert_array_equal(tau.asnumpy(), np.zeros((2, 2, 1)))


def test_geqrf_in_a_cell_graph():
    class Net(ms.nn.Cell):
        def construct(self, x):
            return ops.geqrf(x)

    y, tau = Net()(ms.Tensor(RECORDED[0][0]))
    np.testing.assert_allclose(y.asnumpy(), RECORDED[0][1], rtol=1e-6)
    np.testing.assert_allclose(tau.asnumpy(), RECORDED[0][2], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("x, error", [(np.ones((2, 2), np.int32), TypeError),
                                      (np.ones((2,), np.float32), ValueError)])
def test_geqrf_refuses_what_mindspore_refuses(x, error):
    with pytest.raises(error):
        ops.geqrf(ms.Tensor(x))
