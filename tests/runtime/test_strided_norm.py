"""The NumPy BatchNorm kernels (channel sums by a matrix-vector product, per-channel dot
products by a batched matmul) agree with the shared kernels' plain NumPy sums."""
import numpy as np
import pytest

from cellgraph.runtime import kernels, strided_norm


@pytest.mark.parametrize("dtype, tolerance", [(np.float32, 2e-5), (np.float64, 1e-12),
                                              (np.float16, 2e-2)])
@pytest.mark.parametrize("shape", [(8, 5, 6, 7), (3, 4), (2, 3, 9)])
def test_batch_norm_and_its_gradient_match_the_shared_kernels(dtype, tolerance, shape):
    rng = np.random.default_rng(0)
    c = shape[1]
    # an offset mean: the statistics are of the centred values, not of raw squares
    x = (rng.standard_normal(shape) * 3 + 5).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    scale, bias = rng.uniform(0.5, 1.5, c).astype(dtype), rng.standard_normal(c).astype(dtype)
    zeros, ones = np.zeros(c, dtype), np.ones(c, dtype)
    got = strided_norm.batch_norm(np, x, scale, bias, zeros, ones, True, 1e-5)
    want = kernels._batch_norm(np, x, scale, bias, zeros, ones, True, 1e-5)
    for g, w in zip(got, want):
        assert g.dtype == dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64),
                                   rtol=tolerance, atol=tolerance)
    mean, variance = got[1], got[2]
    got = strided_norm.batch_norm_grad(np, x, dy, scale, mean, variance, 1e-5)
    want = kernels._batch_norm_grad(np, x, dy, scale, mean, variance, 1e-5)
    for g, w in zip(got, want):
        assert g.dtype == dtype and g.shape == w.shape
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64),
                                   rtol=tolerance * 10, atol=tolerance * 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_channel_sum_is_the_sum_over_the_batch_and_the_positions(dtype):
    a = np.random.default_rng(1).standard_normal((6, 4, 33)).astype(dtype)
    got = strided_norm._channel_sum(np, a)
    assert got.dtype == dtype and got.shape == (4,)
    tolerance = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(got.astype(np.float64), a.astype(np.float64).sum(axis=(0, 2)),
                               rtol=tolerance, atol=tolerance)
    assert strided_norm._channel_sum(np, np.zeros((0, 4, 5), dtype)).tolist() == [0] * 4
