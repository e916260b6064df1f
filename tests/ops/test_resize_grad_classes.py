"""ops.auto_generate.ResizeNearestNeighborGrad against MindSpore 2.10 CPU's values."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops

GRADS = np.arange(1, 71, dtype=np.float32).reshape(1, 2, 5, 7)


@pytest.mark.parametrize(("align_corners", "half_pixel", "size", "expected"), [
    (False, False, (2, 2), [[114, 117], [216, 183]]),
    (True, False, (3, 4), [[1, 5, 9, 13], [23, 52, 60, 68], [51, 108, 116, 124]]),
    # MindSpore's CPU kernel samples as without half-pixel centres
    (False, True, (3, 4), [[20, 28, 36, 21], [76, 84, 92, 49], [59, 63, 67, 35]]),
    (True, False, (2, 3), [[20, 45, 40], [135, 225, 165]]),
])
def test_resize_nearest_neighbor_grad_as_mindspore(align_corners, half_pixel, size, expected):
    op = ops.auto_generate.ResizeNearestNeighborGrad(align_corners, half_pixel)
    out = op(Tensor(GRADS), size)
    assert out.shape == (1, 2) + size
    np.testing.assert_array_equal(out.asnumpy()[0, 0], expected)


def test_resize_nearest_neighbor_grad_upsampled_and_in_a_graph():
    out = ops.auto_generate.ResizeNearestNeighborGrad()(Tensor(GRADS), (8, 9)).asnumpy()[0, 0]
    np.testing.assert_array_equal(out[0], [1, 2, 3, 4, 0, 5, 6, 7, 0])  # MindSpore's row 0
    np.testing.assert_array_equal(out[2], np.zeros(9))

    class Net(cellgraph.nn.Cell):
        def construct(self, x):
            return ops.auto_generate.ResizeNearestNeighborGrad(False)(x, (2, 2))

    x = Tensor(np.array([[[[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]]], np.float32))
    np.testing.assert_allclose(Net()(x).asnumpy(), [[[[0.2, 3.6], [0.9, -3.2]]]], rtol=1e-6)


def test_resize_nearest_neighbor_grad_errors():
    op = ops.auto_generate.ResizeNearestNeighborGrad()
    with pytest.raises(ValueError, match="dimension of size should equal to 2 but got 1"):
        op(Tensor(GRADS), (2,))
    with pytest.raises(ValueError, match="dimension of input_grads should equal to 4 but got 2"):
        op(Tensor(np.ones((2, 3), np.float32)), (2, 2))


@pytest.mark.parametrize(("align_corners", "half_pixel", "size", "expected"), [
    (False, False, (2, 2), [[114, 117], [216, 183]]),
    (True, False, (3, 4), [[1, 5, 9, 13], [23, 52, 60, 68], [51, 108, 116, 124]]),
    (False, True, (3, 4), [[20, 13, 32, 40], [31, 17, 37, 41], [104, 55, 116, 124]]),
])
def test_resize_nearest_neighbor_v2_grad_as_mindspore(align_corners, half_pixel, size,
                                                      expected):
    op = ops.auto_generate.ResizeNearestNeighborV2Grad(align_corners, half_pixel)
    np.testing.assert_array_equal(op(Tensor(GRADS), size).asnumpy()[0, 0], expected)


def test_resize_nearest_neighbor_v2_grad_errors():
    op = ops.auto_generate.ResizeNearestNeighborV2Grad()
    with pytest.raises(ValueError, match="the number of size must be equal to 2, but got 1"):
        op(Tensor(GRADS), (2,))
    with pytest.raises(ValueError, match="the image rank must be equal to 4, but got 2"):
        op(Tensor(np.ones((2, 3), np.float32)), (2, 2))
    with pytest.raises(TypeError, match="Tensor\\[Int32\\]"):
        op(Tensor(np.ones((1, 1, 2, 3), np.int32)), (2, 2))
