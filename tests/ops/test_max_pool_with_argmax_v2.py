"""MaxPoolWithArgmaxV2, MaxPool3DWithArgmax and ops.max_pool2d/max_pool3d with return_indices
(MindSpore 2.10 CPU's values and indices: padding never wins, ties keep the first position,
indices flat in the unpadded plane or volume, dilation and ceil_mode), their gradients against
finite differences, and the argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from tests.ops.nn_helpers import both_ways

X3 = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4,
               3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5],
              np.float32).reshape(1, 2, 2, 3, 4)
X2 = np.array([[5, 2, 7, 1, 0], [3, 8, 6, 4, 9], [1, 0, 2, 7, 3], [6, 5, 4, 8, 2]],
              np.float32).reshape(1, 1, 4, 5)

# MindSpore 2.10 CPU: (output, argmax) of each call
POOL3D_PAD1 = (
    np.array([3, 3, 4, 4, 1, 5, 9, 9, 6, 6, 5, 9, 9, 8, 8, 5, 5, 5, 8, 8, 9, 9, 9, 9, 3, 9, 9, 9, 9, 6,
              6, 9, 9, 8, 8, 6, 6, 6, 8, 8, 9, 9, 9, 9, 3, 9, 9, 9, 9, 4, 6, 6, 8, 8, 4,
              6, 6, 6, 6, 4, 3, 8, 8, 3, 2, 7, 9, 9, 5, 2, 7, 9, 9, 8, 4, 2, 8, 8, 8, 4,
              3, 9, 9, 7, 2, 7, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 5, 1, 9, 9, 7, 1,
              6, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 7, 7, 5],
             np.float32).reshape(1, 2, 3, 4, 5),
    np.array([0, 0, 2, 2, 3, 4, 5, 5, 7, 7, 4, 5, 5, 11, 11, 8, 8, 10, 11, 11, 12, 12, 14, 14, 15, 12,
              5, 5, 14, 7, 20, 5, 5, 11, 11, 20, 20, 22, 11, 11, 12, 12, 14, 14, 15, 12,
              12, 14, 14, 19, 20, 20, 18, 18, 19, 20, 20, 22, 22, 23, 0, 1, 1, 2, 3, 4, 5,
              5, 6, 3, 4, 5, 5, 10, 11, 8, 9, 9, 10, 11, 0, 13, 13, 14, 3, 4, 5, 5, 19,
              19, 20, 5, 5, 19, 19, 20, 20, 9, 10, 23, 12, 13, 13, 14, 15, 16, 13, 13, 19,
              19, 20, 17, 17, 19, 19, 20, 20, 22, 22, 23]).reshape(1, 2, 3, 4, 5))
POOL3D_DILATED_CEIL = (
    np.array([5, 9, 5, 8, 9, 7, 6, 4, 7, 9, 8, 8, 7, 9, 9, 5],
             np.float32).reshape(1, 2, 2, 2, 2),
    np.array([4, 5, 8, 11, 12, 13, 20, 23, 4, 5, 10, 9, 14, 13, 20, 23]).reshape(1, 2, 2, 2, 2))
POOL2D_PAD_CEIL = (
    np.array([5, 7, 1, 3, 8, 9, 6, 5, 8],
             np.float32).reshape(1, 1, 3, 3),
    np.array([0, 2, 3, 5, 6, 9, 15, 16, 18]).reshape(1, 1, 3, 3))
POOL2D_DILATED = (
    np.array([7, 8, 9, 6, 8, 9, 6, 8, 4],
             np.float32).reshape(1, 1, 3, 3),
    np.array([2, 6, 9, 7, 6, 9, 15, 18, 17]).reshape(1, 1, 3, 3))
POOL2D_K3_PAD1 = (
    np.array([8, 8, 8, 9, 9, 8, 8, 8, 9, 9, 8, 8, 8, 9, 9, 6, 6, 8, 8, 8],
             np.float32).reshape(1, 1, 4, 5),
    np.array([6, 6, 6, 9, 9, 6, 6, 6, 9, 9, 6, 6, 6, 9, 9, 15, 15, 18, 18, 18]).reshape(1, 1, 4, 5))
MAX_POOL2D_CEIL = [[[[8.0, 7.0, 9.0], [6.0, 8.0, 3.0]]]]
MAX_POOL3D_CEIL = [[[[[9.0, 6.0], [5.0, 8.0]], [[9.0, 4.0], [6.0, 4.0]]],
                    [[[9.0, 2.0], [8.0, 4.0]], [[9.0, 9.0], [9.0, 5.0]]]]]


def _check(got, expected, index_dtype):
    (values, index), (want_values, want_index) = got, expected
    np.testing.assert_array_equal(values, want_values)
    np.testing.assert_array_equal(index, want_index)
    assert index.dtype == index_dtype


@pytest.mark.parametrize("make, x, expected, index_dtype", [
    (lambda: ops.MaxPool3DWithArgmax(ksize=2, strides=1, pads=1), X3, POOL3D_PAD1, np.int64),
    (lambda: ops.MaxPool3DWithArgmax(ksize=(1, 2, 2), strides=(1, 2, 1), pads=0,
                                     dilation=(1, 1, 2), ceil_mode=True,
                                     argmax_type=cellgraph.int32), X3, POOL3D_DILATED_CEIL,
     np.int32),
    (lambda: ops.MaxPoolWithArgmaxV2(kernel_size=2, strides=(2, 2), pads=1, ceil_mode=True), X2,
     POOL2D_PAD_CEIL, np.int64),
    (lambda: ops.MaxPoolWithArgmaxV2(kernel_size=(2, 2), strides=1, dilation=(1, 2),
                                     argmax_type=cellgraph.int32), X2, POOL2D_DILATED, np.int32),
])
def test_classes_as_mindspore(make, x, expected, index_dtype):
    op = make()
    for got in both_ways(op, x):
        _check(got, expected, index_dtype)


def test_functional_forms_as_mindspore():
    for got in both_ways(lambda x: ops.max_pool2d(x, 3, 1, 1, return_indices=True), X2):
        _check(got, POOL2D_K3_PAD1, np.int64)
    for got in both_ways(lambda x: ops.max_pool3d(x, 2, 1, 1, return_indices=True), X3):
        _check(got, POOL3D_PAD1, np.int64)
    np.testing.assert_array_equal(ops.max_pool2d(Tensor(X2), 2, ceil_mode=True).asnumpy(),
                                  MAX_POOL2D_CEIL)
    np.testing.assert_array_equal(ops.max_pool3d(Tensor(X3), (1, 2, 3), ceil_mode=True)
                                  .asnumpy(), MAX_POOL3D_CEIL)
    # without indices, dilation or ceil_mode: MaxPool's own kernel, the same values
    np.testing.assert_array_equal(ops.max_pool2d(Tensor(X2), 3, 1, 1).asnumpy(),
                                  POOL2D_K3_PAD1[0])


def test_gradient_matches_finite_differences():
    x = (np.random.default_rng(0).permutation(2 * 3 * 4 * 5) * 0.05).reshape(1, 2, 3, 4, 5)
    weights = np.cos(np.arange(2 * 4 * 5 * 3)).reshape(1, 2, 4, 5, 3)
    op = ops.MaxPool3DWithArgmax(ksize=2, strides=(1, 1, 2), pads=1, ceil_mode=True)

    def f(x):
        return (op(x)[0] * Tensor(weights)).sum()

    got = ops.grad(f)(Tensor(x)).asnumpy()
    h, numeric = 1e-6, np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        bump = np.zeros_like(x)
        bump[idx] = h
        numeric[idx] = (f(Tensor(x + bump)).asnumpy() - f(Tensor(x - bump)).asnumpy()) / (2 * h)
    np.testing.assert_allclose(got, numeric, atol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.MaxPoolWithArgmaxV2(2, argmax_type=cellgraph.float32), TypeError,
     "'argmax_type' should be one of"),
    (lambda: ops.MaxPoolWithArgmaxV2(2, ceil_mode=1), TypeError,
     "the type of 'ceil_mode' should be 'bool'"),
    (lambda: ops.MaxPool3DWithArgmax(2, 1, 0, data_format="NDHWC"), ValueError,
     "'data_format' must be str and must be in"),
    (lambda: ops.MaxPoolWithArgmaxV2(0), ValueError, "'kernel_size' must be a positive int"),
    (lambda: ops.MaxPoolWithArgmaxV2(2, pads=2)(Tensor(X2)), ValueError,
     "'pads' must be no more than half"),
    (lambda: ops.MaxPool3DWithArgmax(2, 1, 2)(Tensor(X3)), ValueError,
     "'pads' must be no more than half"),
    (lambda: ops.MaxPoolWithArgmaxV2(2)(Tensor(X3)), ValueError, "must be a 4-D Tensor"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_batch_of_run_time_size():
    # MindSpore 2.10 pools a batch whose size only the run knows (after Unique and a gather):
    # (3, 16, 24, 31) for its test's (20, 16, 50, 32) input; the values are those of the
    # same rows pooled with a known batch
    pool = ops.MaxPoolWithArgmaxV2((3, 2), (2, 1), 0, 1, False, cellgraph.int64)

    class Dynamic(nn.Cell):
        def construct(self, x, indices):
            rows = ops.gather(x, ops.unique(indices)[0], 0)
            return pool(rows)

    data = np.random.RandomState(0).rand(4, 2, 7, 5).astype(np.float32)
    out, argmax = Dynamic()(Tensor(data), Tensor(np.array([0, 1, 2, 0], np.int32)))
    expected, expected_argmax = pool(Tensor(data[:3]))
    assert out.shape == (3, 2, 3, 4) and argmax.dtype == cellgraph.int64
    np.testing.assert_array_equal(out.asnumpy(), expected.asnumpy())
    np.testing.assert_array_equal(argmax.asnumpy(), expected_argmax.asnumpy())
