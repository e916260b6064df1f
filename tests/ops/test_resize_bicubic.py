"""ops.ResizeBicubic: MindSpore 2.10 CPU's outputs (TensorFlow's kernel: Keys' cubic with
a = -0.75, or -0.5 and renormalised edge taps with half-pixel centres; align_corners), the
dtype kept, gradients as the transposed interpolation, and the errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from tests.ops.nn_helpers import both_ways

X = np.sin(np.arange(2 * 3 * 4 * 5)).reshape(2, 3, 4, 5).astype(np.float32)


@pytest.mark.parametrize("align, half, size, head, total", [
    # MindSpore 2.10 CPU: the first 10 values and the sum
    (False, False, (6, 7), [0.0, 0.611661, 1.018753, 0.833625, 0.305339, -0.440186, -0.855,
                            -0.703479, -0.151551, 0.55019], -0.48558),
    (True, False, (7, 3), [0.0, 0.909297, -0.756802, -0.518359, 0.895038, -0.226575, -0.958924,
                           0.656987, 0.412118, -0.953338], -0.04229),
    (False, True, (6, 9), [-0.006273, 0.29759, 0.848434, 1.024457, 0.925922, 0.510851, -0.023167,
                           -0.609562, -0.90873, -0.543482], -0.30743),
    (False, True, (3, 2), [0.52476, 0.006028, -0.840134, 0.8823, -0.141042, -0.409005, 0.88314,
                           -0.820364, -0.028197, 0.556188], -0.0323),
])
def test_as_mindspore(align, half, size, head, total):
    op = ops.ResizeBicubic(align, half)
    for got in both_ways(lambda x: op(x, Tensor(np.array(size, np.int32))), X):
        assert got.shape == (2, 3) + size and got.dtype == np.float32
        np.testing.assert_allclose(got.ravel()[:10], head, atol=2e-6)
        np.testing.assert_allclose(got.sum(), total, atol=1e-4)


def test_mindspore_example_and_dtypes():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.resize = ops.ResizeBicubic(False, False)

        def construct(self, images, size):
            return self.resize(images, size)

    images = Tensor(np.array([1, 2, 3, 4]).reshape(1, 1, 2, 2).astype(np.float32))
    out = Net()(images, Tensor([1, 4], cellgraph.int32))
    np.testing.assert_allclose(out.asnumpy(), [[[[1, 1.5, 2, 2.09375]]]], rtol=1e-6)
    for dtype in (cellgraph.float16, cellgraph.float64):
        out = ops.ResizeBicubic()(Tensor(X).astype(dtype), Tensor([5, 5], cellgraph.int32))
        assert out.dtype == dtype


def test_gradient_is_the_interpolation_transposed():
    op = ops.ResizeBicubic(False, True)
    size = Tensor([6, 9], cellgraph.int32)
    weights = np.cos(np.arange(6 * 9)).reshape(1, 1, 6, 9).astype(np.float32)
    x = X[:1, :1]
    grad = ops.grad(lambda x: (op(x, size) * Tensor(weights)).sum())(Tensor(x)).asnumpy()
    columns = [op(Tensor(np.eye(20, dtype=np.float32)[i].reshape(x.shape)), size).asnumpy()
               .ravel() for i in range(20)]
    np.testing.assert_allclose(grad.ravel(), np.array(columns) @ weights.ravel(), rtol=1e-5,
                               atol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.ResizeBicubic()(Tensor(X), Tensor([5, 5, 5], cellgraph.int32)), ValueError,
     "the number of size must be equal to 2, but got 3"),
    (lambda: ops.ResizeBicubic()(Tensor(X[0]), Tensor([5, 5], cellgraph.int32)), ValueError,
     "the image rank must be equal to 4, but got 3"),
    (lambda: ops.ResizeBicubic()(Tensor(X), Tensor([5.0, 5.0], cellgraph.float32)), TypeError,
     "can not be converted to tuple of int"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
