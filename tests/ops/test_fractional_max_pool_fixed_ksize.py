"""`ops.FractionalMaxPoolWithFixedKsize`: MindSpore 2.10's argmax indices for windows placed by
random samples of each float dtype (their starts computed in the samples' dtype), the integer
input's maxima starting from 0 as MindSpore's CPU kernel, gradients to each window's maximum
against finite differences, and the argument errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import nn_ops as N


class Net(nn.Cell):
    def __init__(self, *args):
        super().__init__()
        self.op = N.FractionalMaxPoolWithFixedKsize(*args)

    def construct(self, x, samples):
        return self.op(x, samples)


X = np.sin(np.arange(2 * 3 * 7 * 9) * 1.7).reshape(2, 3, 7, 9)
S = (np.arange(12) * 0.37 % 1).reshape(2, 3, 2)
# MindSpore 2.10 CPU, GRAPH_MODE: argmax of Net(ksize, output_shape)(X as x_dtype, S as s_dtype)
ARGMAX = {
    ((2, 3), (4, 5), np.float32, np.float32): [1, 12, 12, 5, 16, 27, 19, 23, 23, 34, 38, 38, 30, 42, 34, 45, 56, 49, 49, 60, 1, 12, 12, 4, 8, 19, 12, 23, 23, 16, 38, 38, 30, 41, 34, 45, 56, 49, 60, 60, 1, 4, 4, 15, 8, 19, 30, 30, 34, 34, 38, 30, 30, 34, 34, 56, 56, 49, 60, 60, 0, 12, 4, 4, 8, 19, 30, 30, 23, 26, 45, 37, 41, 41, 52, 56, 56, 48, 60, 52, 0, 11, 4, 15, 15, 19, 30, 30, 22, 26, 37, 30, 41, 41, 34, 56, 48, 48, 59, 52, 0, 11, 4, 15, 15, 11, 11, 22, 15, 26, 37, 37, 41, 41, 33, 56, 48, 48, 59, 52],
    (3, 3, np.float64, np.float16): [1, 12, 16, 38, 23, 34, 38, 49, 60, 19, 23, 8, 19, 23, 34, 45, 49, 60, 19, 23, 8, 19, 30, 34, 56, 41, 60, 19, 4, 8, 19, 30, 26, 56, 41, 52, 0, 4, 15, 37, 41, 26, 37, 41, 52, 0, 4, 26, 37, 22, 26, 37, 48, 52],
}


@pytest.mark.parametrize("case", list(ARGMAX))
def test_argmax_as_mindspore(case):
    ksize, output_shape, x_dtype, s_dtype = case
    y, index = Net(ksize, output_shape)(Tensor(X.astype(x_dtype)), Tensor(S.astype(s_dtype)))
    assert index.asnumpy().dtype == np.int64 and y.asnumpy().dtype == x_dtype
    np.testing.assert_array_equal(index.asnumpy().reshape(-1), ARGMAX[case])
    planes = X.astype(x_dtype).reshape(6, -1)
    expected = np.take_along_axis(planes, index.asnumpy().reshape(6, -1), 1)
    np.testing.assert_array_equal(y.asnumpy().reshape(6, -1), expected)


def test_one_cell_windows_copy_the_input():
    y, index = Net(1, (7, 9))(Tensor(X.astype(np.float32)), Tensor(S))
    np.testing.assert_array_equal(y.asnumpy(), X.astype(np.float32))
    np.testing.assert_array_equal(index.asnumpy().reshape(6, -1), np.tile(np.arange(63), (6, 1)))


def test_integer_maxima_start_from_zero():
    x = np.array([3, 9, 7, 0, 3, 5, 5, 3, 1, 8, 9, 4, 9, 8, 3, 4, 9, 9, 6, 9, 9, 1, 0, 1,
                  9]).reshape(1, 1, 5, 5)
    # MindSpore 2.10 CPU
    y, index = Net(2, (2, 2))(Tensor(x.astype(np.int32)), Tensor(np.array([[[0.8, 0.8]]],
                                                                           np.float32)))
    np.testing.assert_array_equal(y.asnumpy().reshape(-1), [9, 8, 9, 9])
    np.testing.assert_array_equal(index.asnumpy().reshape(-1), [1, 9, 16, 19])
    y, index = Net(2, (3, 2))(Tensor(-x.astype(np.int64)), Tensor(np.array([[[0.3, 0.6]]])))
    np.testing.assert_array_equal(y.asnumpy().reshape(-1), [0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(index.asnumpy().reshape(-1), [0, 3, 10, 13, 15, 18])


def test_gradient_matches_finite_differences():
    op = N.FractionalMaxPoolWithFixedKsize((2, 3), (4, 5))
    x, samples = X[:1, :1], Tensor(S[:1, :1])
    weights = np.cos(np.arange(4 * 5)).reshape(1, 1, 4, 5)

    def f(x):
        return op(x, samples)[0] * Tensor(weights)

    got = ops.grad(f)(Tensor(x)).asnumpy()
    h, numeric = 1e-6, np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        bump = np.zeros_like(x)
        bump[idx] = h
        numeric[idx] = (f(Tensor(x + bump)).asnumpy().sum()
                        - f(Tensor(x - bump)).asnumpy().sum()) / (2 * h)
    np.testing.assert_allclose(got, numeric, atol=1e-6)


@pytest.mark.parametrize("args, shape, message", [
    ((2, (2, 2), "NHWC"), (1, 1, 5, 5), "the attr data_format must be NCHW."),
    ((2, (0, 2)), (1, 1, 5, 5), "the output_shape should all be positive numbers"),
    ((2, (5, 2)), (1, 1, 5, 5), ("ksize height [2] + output_shape_h [5] too large relative to "
                                 "input height [5]")),
    (((1, 2, 3), 2), (1, 1, 5, 5), "the size of attr kszie must be equal to 1 or 2, but got 3."),
])
def test_errors(args, shape, message):
    with pytest.raises(ValueError) as info:
        N.FractionalMaxPoolWithFixedKsize(*args)(Tensor(np.ones(shape, np.float32)),
                                                 Tensor(np.ones((1, 1, 2), np.float32)))
    assert message in str(info.value)
