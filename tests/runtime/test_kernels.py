"""Kernels of the shared table (runtime/kernels.py) whose numbers follow MindSpore's CPU kernels
in a precision detail."""
import numpy as np

import cellgraph as ms
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


def test_reduce_sum_float16_adds_in_float32_and_rounds_once():
    # 2048 + 1 + 1 along axis 0: 2050 as MindSpore's kernel gives it (a float16 running sum
    # stays at 2048, each 1 lost to rounding)
    x = Tensor(np.array([[2048, 1], [1, 1], [1, 1]], np.float16))
    out = ops.ReduceSum()(x, 0)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), np.array([2050, 3], np.float16))
    np.testing.assert_array_equal(ops.ReduceSum(keep_dims=True)(x, (0, 1)).asnumpy(),
                                  np.array([[2052]], np.float16))  # 2053, rounded
    values = np.random.RandomState(1).standard_normal((64, 33, 7)).astype(np.float16) * 3
    for axis in (0, 1, (0, 2)):
        expected = values.astype(np.float64).sum(axis=axis).astype(np.float16)
        np.testing.assert_array_equal(ops.ReduceSum()(Tensor(values), axis).asnumpy(), expected)
