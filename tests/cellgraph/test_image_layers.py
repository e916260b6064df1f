"""Padding Cells, PixelShuffle/Unshuffle, InstanceNorm and Dropout2d against NumPy."""
import numpy as np
import pytest

import cellgraph
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
    # as MindSpore's: fewer pairs pad fewer axes (the last first); a list, an odd length or a
    # tuple longer than the layer's axes are refused
    np.testing.assert_array_equal(nn.ZeroPad2d((1, 2))(Tensor(X)).asnumpy(),
                                  np.pad(X, ((0, 0), (0, 0), (0, 0), (1, 2))))
    with pytest.raises(TypeError, match="padding"):
        nn.ZeroPad2d([1, 2])
    with pytest.raises(ValueError, match="multiple of 2"):
        nn.ZeroPad2d((1, 2, 3))
    with pytest.raises(ValueError, match="no more than 4"):
        nn.ConstantPad2d((1, 1, 1, 1, 1, 1), 0.0)
    with pytest.raises(ValueError, match="must be >= 0"):
        nn.ReflectionPad1d((-1, 2))
    with pytest.raises(ValueError, match="the dimension of the tensor should be at least 4"):
        nn.ReflectionPad1d((1,) * 8)(Tensor(np.ones((2, 3), np.float32)))
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


@pytest.fixture(params=[cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE], ids=["eager", "graph"])
def ms_mode(request):
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=request.param)
    yield request.param
    cellgraph.set_context(mode=before)


def test_dropout1d_drops_whole_channels(ms_mode):
    drop = nn.Dropout1d(0.5)
    drop.set_train(True)
    for shape in ((4, 8, 5), (8, 5)):
        out = drop(Tensor(np.ones(shape, np.float32))).asnumpy()
        assert set(np.unique(out)) <= {0.0, 2.0}  # MindSpore: [0. 2.]
        assert all(np.unique(row).size == 1 for row in out.reshape(-1, shape[-1]))
    drop.set_train(False)
    x = np.array([[0.3, -1.2, 2.0], [0.9, 0.4, -0.2]], np.float32)
    np.testing.assert_array_equal(drop(Tensor(x)).asnumpy(), x)
    drop.set_train(True)
    with pytest.raises(ValueError):  # MindSpore: ValueError (input shape should be 2D or 3D)
        drop(Tensor(np.ones((2, 2, 2, 2), np.float32)))


def test_dropout1d_arguments_and_gradient():
    for bad, error in ((1, TypeError), (1.5, ValueError), (-0.1, ValueError)):
        with pytest.raises(error):  # MindSpore's error types
            nn.Dropout1d(bad)
    drop = nn.Dropout1d(0.0)
    drop.set_train(True)
    check_grads(drop, (Tensor(np.random.default_rng(0).standard_normal((2, 3, 4))),))


MS_CHANNEL_SHUFFLE = [0.0, 1.0, 4.0, 5.0, 8.0, 9.0, 2.0, 3.0, 6.0, 7.0, 10.0, 11.0]  # MindSpore


def test_channel_shuffle_matches_mindspore(ms_mode):
    x = np.arange(24, dtype=np.float32).reshape(2, 6, 2)
    out = nn.ChannelShuffle(3)(Tensor(x)).asnumpy()
    assert out.shape == (2, 6, 2)
    np.testing.assert_array_equal(out[0].ravel(), MS_CHANNEL_SHUFFLE)
    x4 = np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)
    np.testing.assert_array_equal(nn.ChannelShuffle(2)(Tensor(x4)).asnumpy().ravel(),
                                  [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15])
    with pytest.raises(ValueError):  # MindSpore: ValueError, 5 channels in 3 groups
        nn.ChannelShuffle(3)(Tensor(np.ones((2, 5, 2), np.float32)))


def test_channel_shuffle_arguments_and_gradient():
    with pytest.raises(TypeError):
        nn.ChannelShuffle(1.5)
    with pytest.raises(ValueError):
        nn.ChannelShuffle(0)
    check_grads(nn.ChannelShuffle(2), (Tensor(np.random.default_rng(1).standard_normal((2, 4, 3))),))


def test_tanhshrink_matches_mindspore(ms_mode):
    x = np.array([-2.0, -0.5, 0.0, 0.7, 3.0], np.float32)
    np.testing.assert_allclose(nn.Tanhshrink()(Tensor(x)).asnumpy(),
                               [-1.0359724, -0.03788283, 0.0, 0.0956322, 2.0049443], rtol=1e-6)
    out = nn.Tanhshrink()(Tensor(np.array([1, 2], np.int32)))  # MindSpore computes ints as float
    assert out.dtype == cellgraph.float32
    np.testing.assert_allclose(out.asnumpy(), [0.23840582, 1.0359724], rtol=1e-6)


def test_tanhshrink_gradient_and_errors():
    check_grads(nn.Tanhshrink(), (Tensor(np.random.default_rng(2).standard_normal((3, 4))),))
    with pytest.raises(TypeError):  # MindSpore: TypeError
        nn.Tanhshrink()(1.0)


def test_msssim_values_and_checks_as_mindspore():
    """MindSpore 2.10's MSSSIM values (graph mode) for the same images, float and uint8, an even
    filter_size (its off-centre window); its argument and input checks."""
    rng = np.random.default_rng(0)
    a = rng.random((2, 3, 64, 64)).astype(np.float32)
    b = np.clip(a + 0.1 * rng.standard_normal(a.shape).astype(np.float32), 0, 1)
    got = nn.MSSSIM(power_factors=(0.2, 0.3, 0.5))(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_allclose(got, [0.9476321339607239, 0.9412782788276672], rtol=1e-5)
    got = nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=4, filter_sigma=1.0)(
        Tensor(a[:, :1]), Tensor(b[:, :1])).asnumpy()
    np.testing.assert_allclose(got, [0.9398718476295471, 0.9329639077186584], rtol=1e-5)
    au, bu = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    got = nn.MSSSIM(max_val=255, power_factors=(0.3, 0.7))(Tensor(au), Tensor(bu)).asnumpy()
    np.testing.assert_allclose(got, [0.9449810981750488, 0.9414808750152588], rtol=1e-5)
    for kwargs, error in (({"max_val": -1.0}, ValueError), ({"max_val": True}, TypeError),
                          ({"power_factors": {0.1}}, TypeError),
                          ({"filter_size": 1.1}, TypeError), ({"filter_size": 0}, ValueError),
                          ({"filter_sigma": 0.0}, ValueError)):
        with pytest.raises(error):
            nn.MSSSIM(**kwargs)
    net = nn.MSSSIM(power_factors=(0.5, 0.5))
    with pytest.raises(ValueError):
        net(Tensor(a), Tensor(np.ones((2, 3, 32, 32), np.float32)))
    with pytest.raises(TypeError):
        net(Tensor(a), Tensor(a.astype(np.float16)))
    with pytest.raises(ValueError):
        net(Tensor(a[None]), Tensor(a[None]))


def test_upsample_recompute_scale_factor_matches_mindspore(ms_mode):
    # MindSpore 2.10's values: with recompute_scale_factor the output size is floor(in * scale)
    # and the samples lie in / out apart, not 1 / scale
    x = Tensor(np.arange(15, dtype=np.float32).reshape(1, 1, 3, 5))
    out = nn.Upsample(scale_factor=(0.5, 1.5), mode="bilinear", recompute_scale_factor=True)(x)
    np.testing.assert_allclose(out.asnumpy(), [[[[5.0, 5.5714283, 6.285714, 7.0, 7.714286,
                                                  8.428572, 9.0]]]], rtol=1e-6)
    out = nn.Upsample(scale_factor=(1.7, 1.5), mode="bilinear", recompute_scale_factor=True)(x)
    np.testing.assert_allclose(out.asnumpy()[0, 0, :, 1],
                               [0.5714285, 2.5714288, 5.5714283, 8.571429, 10.571428], rtol=1e-6)
    out = nn.Upsample(scale_factor=(0.5, 1.5), mode="nearest", recompute_scale_factor=True)(x)
    np.testing.assert_array_equal(out.asnumpy(), [[[[0.0, 0.0, 1.0, 2.0, 2.0, 3.0, 4.0]]]])


def test_upsample_checks_its_sizes_when_called():
    x = Tensor(np.ones((1, 1, 3, 5), np.float32))
    with pytest.raises(ValueError, match="cannot be both empty"):
        nn.Upsample()(x)
    with pytest.raises(ValueError, match="cannot be set simultaneously"):
        nn.Upsample(size=(2, 2), scale_factor=2.0)(x)
    with pytest.raises(ValueError, match="recompute_scale_factor"):
        nn.Upsample(size=(2, 2), recompute_scale_factor=True)(x)
