"""`ResizeNearestNeighborV2`: MindSpore 2.10's source pixels (its float32 scale, rounding half
away from zero with align_corners, floor otherwise, half-pixel centres) for shrinking, growing,
the same and one-pixel sizes; the size read from a Tensor passed to the compiled Cell, the
gradient, and the dtype and option errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import array_ops as A


class Net(nn.Cell):
    def __init__(self, *args):
        super().__init__()
        self.op = A.ResizeNearestNeighborV2(*args)

    def construct(self, x, size):
        return self.op(x, size)


X = np.arange(2 * 1 * 5 * 7, dtype=np.float32).reshape(2, 1, 5, 7)
# MindSpore 2.10 CPU, GRAPH_MODE: (align_corners, half_pixel_centers), size, out[1, 0] flattened
CASES = [
    ((False, False), [3, 4], [35, 36, 38, 40, 42, 43, 45, 47, 56, 57, 59, 61]),
    ((False, False), [7, 11], [35, 35, 36, 36, 37, 38, 38, 39, 40, 40, 41, 35, 35, 36, 36, 37, 38, 38, 39, 40, 40, 41, 42, 42, 43, 43, 44, 45, 45, 46, 47, 47, 48, 49, 49, 50, 50, 51, 52, 52, 53, 54, 54, 55, 49, 49, 50, 50, 51, 52, 52, 53, 54, 54, 55, 56, 56, 57, 57, 58, 59, 59, 60, 61, 61, 62, 63, 63, 64, 64, 65, 66, 66, 67, 68, 68, 69]),
    ((False, False), [5, 7], [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69]),
    ((False, False), [1, 1], [35]),
    ((False, False), [9, 2], [35, 38, 35, 38, 42, 45, 42, 45, 49, 52, 49, 52, 56, 59, 56, 59, 63, 66]),
    ((True, False), [3, 4], [35, 37, 39, 41, 49, 51, 53, 55, 63, 65, 67, 69]),
    ((True, False), [7, 11], [35, 36, 36, 37, 37, 38, 39, 39, 40, 40, 41, 42, 43, 43, 44, 44, 45, 46, 46, 47, 47, 48, 42, 43, 43, 44, 44, 45, 46, 46, 47, 47, 48, 49, 50, 50, 51, 51, 52, 53, 53, 54, 54, 55, 56, 57, 57, 58, 58, 59, 60, 60, 61, 61, 62, 56, 57, 57, 58, 58, 59, 60, 60, 61, 61, 62, 63, 64, 64, 65, 65, 66, 67, 67, 68, 68, 69]),
    ((True, False), [5, 7], [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69]),
    ((True, False), [1, 1], [35]),
    ((True, False), [9, 2], [35, 41, 42, 48, 42, 48, 49, 55, 49, 55, 56, 62, 56, 62, 63, 69, 63, 69]),
    ((False, True), [3, 4], [35, 37, 39, 41, 49, 51, 53, 55, 63, 65, 67, 69]),
    ((False, True), [7, 11], [35, 35, 36, 37, 37, 38, 39, 39, 40, 41, 41, 42, 42, 43, 44, 44, 45, 46, 46, 47, 48, 48, 42, 42, 43, 44, 44, 45, 46, 46, 47, 48, 48, 49, 49, 50, 51, 51, 52, 53, 53, 54, 55, 55, 56, 56, 57, 58, 58, 59, 60, 60, 61, 62, 62, 56, 56, 57, 58, 58, 59, 60, 60, 61, 62, 62, 63, 63, 64, 65, 65, 66, 67, 67, 68, 69, 69]),
    ((False, True), [5, 7], [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69]),
    ((False, True), [1, 1], [52]),
    ((False, True), [9, 2], [36, 40, 36, 40, 43, 47, 43, 47, 50, 54, 57, 61, 57, 61, 64, 68, 64, 68]),
]


@pytest.mark.parametrize("options, size, expected", CASES)
def test_pixels_as_mindspore(options, size, expected):
    out = Net(*options)(Tensor(X), Tensor(np.array(size, np.int32)))
    assert out.shape == (2, 1, *size)
    np.testing.assert_array_equal(out.asnumpy()[1, 0].reshape(-1), expected)


def test_gradient_as_mindspore():
    grad = ops.GradOperation()(Net())(Tensor(X), Tensor(np.array([3, 4], np.int32)))
    np.testing.assert_array_equal(grad.asnumpy().reshape(-1), [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])


def test_uint8_and_errors():
    out = Net()(Tensor(X.astype(np.uint8)), Tensor(np.array([3, 3], np.int64)))
    assert out.asnumpy().dtype == np.uint8
    with pytest.raises(TypeError, match="uint8, float16, float32 or float64"):
        Net()(Tensor(X.astype(np.int32)), Tensor(np.array([3, 3], np.int64)))
    with pytest.raises(ValueError, match="align_corners must be False"):
        A.ResizeNearestNeighborV2(True, True)
