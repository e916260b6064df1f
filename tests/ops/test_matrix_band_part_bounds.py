"""matrix_band_part with Tensor bounds: 0-d Tensors (graph values too, batched by vmap), the
band computed in the graph. Expected values recorded from MindSpore 2.10 (CPU, graph mode)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import functional as F

X = np.arange(60, dtype=np.float32).reshape(2, 2, 3, 5)


class Band(nn.Cell):
    def construct(self, x, lower, upper):
        return ops.matrix_band_part(x, lower, upper)


def test_vmap_over_tensor_bounds():
    lower = Tensor(np.array([1, 0], np.int32))
    upper = Tensor(np.array([1, 0], np.int32))
    got = F.vmap(F.matrix_band_part, (0, 0, 0), 0)(Tensor(X), lower, upper).asnumpy()
    expected = X.copy()
    keep0 = np.array([[1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0]], bool)
    keep1 = np.eye(3, 5, dtype=bool)
    expected[0] *= keep0
    expected[1] *= keep1
    np.testing.assert_array_equal(got, expected)
    got = F.vmap(F.matrix_band_part, (0, 0, None), 0)(
        Tensor(np.ones((2, 2, 3, 5), np.float32)), Tensor(np.array([1, 0], np.int64)), 1)
    np.testing.assert_array_equal(got.asnumpy()[0, 0], keep0)
    np.testing.assert_array_equal(got.asnumpy()[1, 0], np.triu(np.tril(np.ones((3, 5)), 1)))


def test_tensor_bounds_in_a_graph_with_grad():
    lower, upper = Tensor(1, ms.int64), Tensor(-1, ms.int64)
    got = Band()(Tensor(X), lower, upper).asnumpy()
    np.testing.assert_array_equal(got, np.triu(X, -1))
    grad = ops.GradOperation()(Band())(Tensor(X), lower, upper).asnumpy()
    np.testing.assert_array_equal(grad, np.triu(np.ones_like(X), -1))


def test_bounds_must_be_0d():
    with pytest.raises(ValueError, match=r"For primitive\[MatrixBandPart\], the rank of 'lower' "
                                         r"must be equal to 0, but got 1\."):
        Band()(Tensor(X), Tensor(np.array([0, 1]), ms.int64), 1)
