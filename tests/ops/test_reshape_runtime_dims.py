"""Reshape of a value with a dim known only at run time (after Unique and a gather): that dim is
the one -1, and the target's own unknown dim (from another shape) too; its gradient reshapes
back the same way. Expected values recorded from MindSpore 2.10 (CPU, graph mode)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P

X = np.arange(48).reshape(4, 12, 1, 1).astype(np.float32)
IDS = np.array([2, 0, 2])


class Blocks(nn.Cell):
    def construct(self, x, ids):
        rows = ops.gather(x, ops.unique(ids)[0], 0)
        return ops.reshape(rows, (-1, 2, 2, 3, 1, 1)), P.DepthToSpace(2)(rows)


class Loss(nn.Cell):
    def construct(self, x, ids):
        rows = ops.gather(x, ops.unique(ids)[0], 0)
        return (ops.expand_dims(ops.reshape(rows, (-1, 12)), 1) ** 2 * 3).sum()


def test_reshape_and_depth_to_space_of_a_runtime_dim():
    blocks, space = Blocks()(Tensor(X), Tensor(IDS))
    assert blocks.shape == (2, 2, 2, 3, 1, 1)
    np.testing.assert_array_equal(blocks.asnumpy().reshape(2, 12), X[[2, 0]].reshape(2, 12))
    assert space.shape == (2, 3, 2, 2)
    np.testing.assert_array_equal(space.asnumpy().ravel(), [
        24, 27, 30, 33, 25, 28, 31, 34, 26, 29, 32, 35, 0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11])


def test_gradient_through_a_runtime_dim_reshape():
    assert Loss()(Tensor(X), Tensor(IDS)).asnumpy() == 33276.0
    grad = ops.GradOperation()(Loss())(Tensor(X), Tensor(IDS)).asnumpy().reshape(4, 12)
    expected = np.zeros((4, 12), np.float32)
    expected[[0, 2]] = 6 * X[[0, 2]].reshape(2, 12)
    np.testing.assert_array_equal(grad, expected)


class Resized(nn.Cell):
    def __init__(self, align_corners, half_pixel_centers):
        super().__init__()
        self.op = ops.ResizeBilinearV2(align_corners, half_pixel_centers)

    def construct(self, x, ids):
        columns = ops.gather(x, ops.unique(ids)[0], 3)  # a width known only at run time
        return (self.op(columns, (2, 3)) * ops.arange(3).astype(ms.float32)).sum()


@pytest.mark.parametrize("align_corners, half_pixel, value, grad", [
    (False, False, 10.333333, [8 / 3, 0.0, 1 / 3]),
    (True, False, 11.0, [2.5, 0.0, 0.5]),
    (False, True, 11.0, [2.5, 0.0, 0.5]),
])
def test_resize_bilinear_of_a_runtime_width(align_corners, half_pixel, value, grad):
    x, ids = Tensor(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)), Tensor(IDS)
    net = Resized(align_corners, half_pixel)
    np.testing.assert_allclose(net(x, ids).asnumpy(), value, rtol=1e-6)
    got = ops.GradOperation()(net)(x, ids).asnumpy().reshape(2, 3)
    np.testing.assert_allclose(got, [grad, grad], rtol=1e-6)


class Blocked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.to_batch = ops.SpaceToBatchND([2, 2], [[0, 0], [0, 0]])
        self.to_space = ops.BatchToSpaceND([2, 2], [[0, 0], [0, 0]])

    def construct(self, x, ids):
        batch = self.to_batch(ops.gather(x, ops.unique(ids)[0], 0))  # a run-time batch
        return batch, self.to_space(batch)


def test_space_to_batch_and_back_of_a_runtime_batch():
    x = np.arange(16).reshape(2, 1, 2, 4).astype(np.float32)
    ids = Tensor(np.array([1, 0, 1], np.int32))
    batch, space = Blocked()(Tensor(x), ids)
    assert batch.shape == (8, 1, 1, 2)
    np.testing.assert_array_equal(batch.asnumpy().ravel(), [
        8, 10, 0, 2, 9, 11, 1, 3, 12, 14, 4, 6, 13, 15, 5, 7])
    np.testing.assert_array_equal(space.asnumpy(), x[[1, 0]])
    grad = ops.GradOperation()(Blocked())(Tensor(x), ids)
    np.testing.assert_array_equal(grad.asnumpy(), np.full_like(x, 2.0))
