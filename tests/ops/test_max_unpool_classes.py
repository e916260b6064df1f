"""ops.MaxUnpool2D and MaxUnpool3D: MindSpore 2.10 CPU's outputs (strides 0 meaning the kernel,
`output_shape`, channels-last layouts) and its argument errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

X = np.array([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]], np.float32)  # (1, 2, 2, 2)
INDEX = np.array([[[[0, 3], [8, 15]], [[5, 2], [10, 13]]]], np.int64)
# MindSpore 2.10 CPU: MaxUnpool2D(ksize=2)(X, INDEX), the values' positions in each 4x4 plane
NCHW = np.zeros((1, 2, 16), np.float32)
NCHW[0, 0, [0, 3, 8, 15]] = [1, 2, 3, 4]
NCHW[0, 1, [5, 2, 10, 13]] = [5, 6, 7, 8]
# ... with data_format="NHWC" (X as (N, H, W, C) = (1, 2, 2, 2)): (1, 4, 4, 2)
NHWC = [[[[1, 0], [0, 0], [0, 6], [0, 2]], [[0, 0], [5, 0], [0, 0], [0, 0]],
         [[3, 0], [0, 0], [7, 0], [0, 0]], [[0, 0], [0, 8], [0, 0], [0, 4]]]]


def test_max_unpool2d_as_mindspore():
    for got in both_ways(ops.MaxUnpool2D(ksize=2, strides=2), X, INDEX):
        np.testing.assert_array_equal(got, NCHW.reshape(1, 2, 4, 4))
    op = ops.MaxUnpool2D(ksize=3, strides=2, pads=1, output_shape=(1, 2, 4, 4))
    np.testing.assert_array_equal(op(Tensor(X), Tensor(INDEX)).asnumpy(),
                                  NCHW.reshape(1, 2, 4, 4))
    got = ops.MaxUnpool2D(ksize=2, data_format="NHWC")(Tensor(X), Tensor(INDEX)).asnumpy()
    np.testing.assert_array_equal(got, NHWC)


def test_max_unpool3d_as_mindspore():
    x = Tensor(np.arange(1, 9, dtype=np.float32).reshape(1, 1, 2, 2, 2))
    index = np.array([0, 7, 10, 21, 36, 42, 51, 63], np.int32)
    out = ops.MaxUnpool3D(ksize=2)(x, Tensor(index.reshape(1, 1, 2, 2, 2))).asnumpy()
    assert out.shape == (1, 1, 4, 4, 4)
    np.testing.assert_array_equal(out.ravel().nonzero()[0], index)
    np.testing.assert_array_equal(out.ravel()[index], np.arange(1, 9))
    # channels last: (N, D, H, W, C) = (1, 1, 2, 2, 2), MindSpore 2.10's (1, 2, 3, 3, 2)
    out = ops.MaxUnpool3D(ksize=2, strides=1, data_format="NDHWC")(
        x, Tensor(np.arange(8, dtype=np.int32).reshape(1, 1, 2, 2, 2))).asnumpy()
    assert out.shape == (1, 2, 3, 3, 2)
    np.testing.assert_array_equal(out[0, 0], [[[1, 0], [0, 2], [3, 0]], [[0, 4], [5, 0], [0, 6]],
                                              [[7, 0], [0, 8], [0, 0]]])
    assert not out[0, 1].any()


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.MaxUnpool2D(2, data_format="NCDHW"), ValueError,
     "'data_format' must be str and must be in"),
    (lambda: ops.MaxUnpool2D(2, output_shape=[1, 2]), TypeError,
     "the type of 'output_shape' should be 'tuple'"),
    (lambda: ops.MaxUnpool2D(0), ValueError, "must be positive"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
