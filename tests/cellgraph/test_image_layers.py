"""Padding Cells, PixelShuffle/Unshuffle, InstanceNorm and Dropout2d against NumPy."""
import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.testing import check_grads

X = np.random.default_rng(0).normal(size=(2, 3, 4, 5)).astype(np.float32)


def test_padding_cells():
    np.testing.assert_array_equal(nn.ZeroPad2d((1, 0, 2, 1))(Tensor(X)).asnumpy(),
                                  np.pad(X, ((0, 0), (0, 0), (2, 1), (1, 0))))
    np.testing.assert_array_equal(nn.ConstantPad2d(1, -2.0)(Tensor(X)).asnumpy(),
                                  np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1)),
                                         constant_values=-2.0))
    np.testing.assert_array_equal(nn.ConstantPad1d((0, 2), 1.0)(Tensor(X)).asnumpy(),
                                  np.pad(X, ((0, 0), (0, 0), (0, 0), (0, 2)),
                                         constant_values=1.0))
    np.testing.assert_array_equal(nn.ReflectionPad1d((2, 1))(Tensor(X)).asnumpy(),
                                  np.pad(X, ((0, 0), (0, 0), (0, 0), (2, 1)), "reflect"))
    check_grads(nn.ReflectionPad2d((1, 2, 2, 1)), (Tensor(X.astype(np.float64)),))
    with pytest.raises(TypeError, match="padding"):
        nn.ZeroPad2d((1, 2))
    with pytest.raises(ValueError, match="must be at most"):
        nn.ReflectionPad2d(4)(Tensor(X))


def test_pixel_shuffle_round_trip():
    x = np.arange(2 * 8 * 2 * 3, dtype=np.float32).reshape(2, 8, 2, 3)
    up = nn.PixelShuffle(2)(Tensor(x)).asnumpy()
    assert up.shape == (2, 2, 4, 6)
    assert up[1, 1, 3, 4] == x[1, 4 + 2 * 1 + 0, 1, 2]   # channel c*4 + i*2 + j -> (2h+i, 2w+j)
    np.testing.assert_array_equal(nn.PixelUnshuffle(2)(Tensor(up)).asnumpy(), x)
    with pytest.raises(ValueError, match="upscale_factor"):
        nn.PixelShuffle(0)


def test_instance_norm_ranks_and_affine():
    norm = nn.InstanceNorm2d(3, gamma_init="ones", beta_init="zeros")
    assert [p.name for p in norm.trainable_params()] == ["gamma", "beta"]
    mean, var = X.mean((2, 3), keepdims=True), X.var((2, 3), keepdims=True)
    np.testing.assert_allclose(norm(Tensor(X)).asnumpy(), (X - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-4, atol=1e-5)
    flat = X.reshape(2, 3, 20)
    norm1d = nn.InstanceNorm1d(3, affine=False)
    assert norm1d.trainable_params() == []
    m, v = flat.mean(2, keepdims=True), flat.var(2, keepdims=True)
    np.testing.assert_allclose(norm1d(Tensor(flat)).asnumpy(), (flat - m) / np.sqrt(v + 1e-5),
                               rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError):
        nn.InstanceNorm2d(3)(Tensor(flat))


def test_dropout2d_drops_whole_channels_in_training_only():
    drop = nn.Dropout2d(p=0.25)
    ones = Tensor(np.ones((64, 16, 2, 2), np.float32))
    np.testing.assert_array_equal(drop(ones).asnumpy(), ones.asnumpy())
    drop.set_train()
    out = drop(ones).asnumpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert np.all(out.min(axis=(2, 3)) == out.max(axis=(2, 3)))
    assert 0.6 < (out[:, :, 0, 0] > 0).mean() < 0.9
    with pytest.raises(ValueError):
        nn.Dropout2d(1.5)
