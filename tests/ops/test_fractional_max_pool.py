"""ops.fractional_max_pool2d / 3d: MindSpore 2.10's values and indices for given random samples
(recorded), output_ratio, the drawn-samples form, a gradient, and its checks."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops

X = np.arange(1 * 2 * 5 * 6, dtype=np.float32).reshape(1, 2, 5, 6) * np.array(
    [1, -1, 1, 1, -1, 1], np.float32)
SAMPLES = Tensor(np.array([[[0.3, 0.7], [0.9, 0.1]]], np.float32))


def test_2d_matches_mindspore():
    values, indices = ops.fractional_max_pool2d(Tensor(X), 2, output_size=(3, 3),
                                                return_indices=True, _random_samples=SAMPLES)
    np.testing.assert_array_equal(values.asnumpy(), [[[[6, 9, 11], [12, 15, 17], [24, 27, 29]],
                                                      [[36, 39, 41], [42, 45, 47],
                                                       [54, 57, 59]]]])
    assert indices.dtype == cg.int64
    np.testing.assert_array_equal(indices.asnumpy()[0, 1], [[6, 9, 11], [12, 15, 17],
                                                            [24, 27, 29]])
    halved = ops.fractional_max_pool2d(Tensor(X), (2, 2), output_ratio=(0.5, 0.5),
                                       _random_samples=SAMPLES)
    np.testing.assert_array_equal(halved.asnumpy()[0, 0], [[6, 9, 11], [24, 27, 29]])
    rng = np.random.RandomState(3)
    x = rng.randn(2, 3, 9, 11).astype(np.float32)
    samples = rng.rand(2, 3, 2).astype(np.float32)
    values, indices = ops.fractional_max_pool2d(Tensor(x), (3, 2), output_size=(4, 5),
                                                return_indices=True,
                                                _random_samples=Tensor(samples))
    np.testing.assert_allclose(values.asnumpy().sum(), 161.8949, rtol=1e-5)
    assert indices.asnumpy().sum() == 5856
    np.testing.assert_array_equal(indices.asnumpy()[1, 2], [[0, 3, 5, 28, 32],
                                                            [33, 36, 37, 51, 32],
                                                            [67, 58, 70, 73, 64],
                                                            [78, 79, 93, 94, 87]])


def test_3d_matches_mindspore():
    rng = np.random.RandomState(3)
    rng.randn(2, 3, 9, 11), rng.rand(2, 3, 2)  # the same draws as the recorded program
    x = rng.randn(1, 2, 6, 7, 8).astype(np.float32)
    samples = rng.rand(1, 2, 3).astype(np.float32)
    values, indices = ops.fractional_max_pool3d(Tensor(x), (2, 3, 2), output_size=(3, 3, 4),
                                                return_indices=True,
                                                _random_samples=Tensor(samples))
    np.testing.assert_allclose(values.asnumpy().sum(), 117.4538, rtol=1e-5)
    assert indices.asnumpy().sum() == 11994
    np.testing.assert_array_equal(indices.asnumpy()[0, 1, 1], [[129, 115, 180, 135],
                                                               [145, 139, 188, 135],
                                                               [153, 218, 213, 223]])


def test_drawn_samples_gradient_and_checks():
    out = ops.fractional_max_pool2d(Tensor(X[0]), 2, output_size=(2, 2))
    assert out.shape == (2, 2, 2)
    grad = cg.grad(lambda x: ops.fractional_max_pool2d(
        x, 2, output_size=(3, 3), _random_samples=SAMPLES).sum())(Tensor(X)).asnumpy()
    assert grad.sum() == 18 and set(np.unique(grad)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="can not be None at the same time"):
        ops.fractional_max_pool2d(Tensor(X), 2)
    with pytest.raises(ValueError, match="must be <= the input size"):
        ops.fractional_max_pool2d(Tensor(X), 3, output_size=(4, 4))
