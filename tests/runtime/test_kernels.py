"""Kernels of the shared table (runtime/kernels.py) whose numbers follow MindSpore's CPU kernels
in a precision detail."""
import numpy as np

from cellgraph import Tensor, grad, ops


def test_sigmoid_float16_rounds_each_step_as_mindspore():
    # 1 / (1 + exp(-x)) with each step in float16: 0.7573 at 1.14 (the correctly rounded value
    # is 0.7578), 1.67e-5 at -11 and 0 past float16's exp range (-11.09)
    x = Tensor(np.array([-12.0, -11.0, -4.0, 0.0, 1.14, 3.0, 12.0], np.float16))
    out = ops.sigmoid(x).asnumpy()
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.array(
        [0.0, 1.6689300537109375e-05, 0.0179901123046875, 0.5, 0.75732421875,
         0.95263671875, 1.0], np.float16))
    slope = grad(lambda t: ops.sigmoid(t).sum())(x).asnumpy()
    np.testing.assert_array_equal(slope, np.array(
        [0.0, 1.6689300537109375e-05, 0.017669677734375, 0.25, 0.183837890625,
         0.04510498046875, 0.0], np.float16))


def test_sigmoid_float16_keeps_nan_and_infinities():
    x = Tensor(np.array([np.nan, -np.inf, np.inf], np.float16))
    out = ops.sigmoid(x).asnumpy()
    assert np.isnan(out[0]) and out[1] == 0 and out[2] == 1


def test_sigmoid_float32_is_unchanged():
    x = np.linspace(-30, 30, 61, dtype=np.float32)
    out = ops.sigmoid(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-x.astype(np.float64))), rtol=1e-6, atol=1e-7)
