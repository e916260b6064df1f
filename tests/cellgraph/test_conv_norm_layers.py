"""Conv2d, MaxPool2d, AvgPool2d, BatchNorm1d/2d and LayerNorm against direct NumPy
references (forward) and finite differences (gradients, float64)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph.primitives.errors import ArgumentValueError, ShapeError

from .nn_checks import check_cell_grads, t64, to_float64

f32 = cellgraph.float32


def same_pad(size, kernel, stride, dilation=1):
    out = -(-size // stride)
    need = max((out - 1) * stride + dilation * (kernel - 1) + 1 - size, 0)
    return need // 2, need - need // 2


def np_conv2d(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """Direct NCHW/OIHW convolution: a sum over kernel offsets of strided input slices."""
    x = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]))
    n, _, h, width = x.shape
    o, cg, kh, kw = w.shape
    ho = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (width - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, ho, wo))
    og = o // groups
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dilation[0], j * dilation[1]
                patch = xs[:, :, r0:r0 + stride[0] * (ho - 1) + 1:stride[0],
                           c0:c0 + stride[1] * (wo - 1) + 1:stride[1]]
                out[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch,
                                                         w[g * og:(g + 1) * og, :, i, j])
    return out


def np_pool(x, kernel, stride, pad, kind, count_include_pad=True):
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]), constant_values=fill)
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), pad[:2], pad[2:]))
    ho = (xp.shape[2] - kernel[0]) // stride[0] + 1
    wo = (xp.shape[3] - kernel[1]) // stride[1] + 1
    out = np.zeros(x.shape[:2] + (ho, wo))
    for r in range(ho):
        for c in range(wo):
            window = (slice(None), slice(None), slice(r * stride[0], r * stride[0] + kernel[0]),
                      slice(c * stride[1], c * stride[1] + kernel[1]))
            if kind == "max":
                out[:, :, r, c] = xp[window].max(axis=(2, 3))
            else:
                count = kernel[0] * kernel[1] if count_include_pad else ones[window].sum((2, 3))
                out[:, :, r, c] = xp[window].sum(axis=(2, 3)) / count
    return out


CONV_CASES = [
    {"kernel_size": 3, "pad_mode": "same"},
    {"kernel_size": 3, "pad_mode": "valid", "stride": 2},
    {"kernel_size": (2, 3), "pad_mode": "pad", "padding": (1, 0, 2, 1), "has_bias": True},
    {"kernel_size": 2, "pad_mode": "same", "stride": 2, "dilation": 2},
    {"kernel_size": 3, "pad_mode": "pad", "padding": 1, "group": 2, "has_bias": True},
]


def _conv_ref(conv, x):
    w = conv.weight.asnumpy().astype(np.float64)
    kh, kw = conv.kernel_size
    if conv.pad_mode == "same":
        pad = same_pad(x.shape[2], kh, conv.stride[0], conv.dilation[0]) + same_pad(
            x.shape[3], kw, conv.stride[1], conv.dilation[1])
    elif conv.pad_mode == "pad":
        p = conv.padding
        pad = (p,) * 4 if isinstance(p, int) else tuple(p)
    else:
        pad = (0, 0, 0, 0)
    out = np_conv2d(x, w, conv.stride, pad, conv.dilation, conv.group)
    if conv.has_bias:
        out += conv.bias.asnumpy().reshape(1, -1, 1, 1)
    return out


@pytest.mark.parametrize("kwargs", CONV_CASES, ids=lambda k: "-".join(
    f"{a}={b}" for a, b in k.items()))
def test_conv2d_forward_and_gradients(rng, kwargs):
    conv = nn.Conv2d(4, 6, **kwargs)
    x = rng.standard_normal((2, 4, 7, 6))
    got = conv(Tensor(x, f32)).asnumpy()
    np.testing.assert_allclose(got, _conv_ref(conv, x), rtol=1e-4, atol=1e-4)
    check_cell_grads(to_float64(conv), (t64(x[:1]),))


def test_conv2d_errors():
    conv = nn.Conv2d(3, 4, 3)
    # MindSpore's words, and its RuntimeError (a ShapeError, a ValueError, too)
    for error in (ShapeError, RuntimeError):
        with pytest.raises(error, match=r"For 'Conv2D', 'C_in' of input 'x' shape divide by "
                                        r"parameter 'group' must be equal to 'C_in' of input "
                                        r"'weight' shape: 3, but got 'C_in' of input 'x' shape: 2, "
                                        r"and 'group': 1."):
            conv(Tensor(np.ones((1, 2, 5, 5), np.float32)))
    with pytest.raises(ShapeError, match=r"For primitive\[Conv2D\], the x shape size must be "
                                         r"equal to 4, but got 3\."):
        conv(Tensor(np.ones((3, 5, 5), np.float32)))
    with pytest.raises(ArgumentValueError, match="pad_mode"):
        nn.Conv2d(3, 4, 3, pad_mode="full")
    with pytest.raises(ArgumentValueError, match="the 'pad' must be zero when 'pad_mode' is not "
                                                 "'pad', but got 'pad': 1 and 'pad_mode': same"):
        nn.Conv2d(3, 4, 3, padding=1)
    with pytest.raises(ArgumentValueError, match="The argument 'group' should be divisible by "
                                                 "'in_channels' and 'out_channels', but got "
                                                 "group:2, in_channels:3, out_channels:4"):
        nn.Conv2d(3, 4, 3, group=2)


POOL_CASES = [
    {"kernel_size": 2, "stride": 2},
    {"kernel_size": 3, "stride": 1, "pad_mode": "same"},
    {"kernel_size": (3, 2), "stride": (2, 1), "pad_mode": "pad", "padding": 1},
]


def _pool_pad(pool, x):
    if pool.pad_mode == "same":
        return same_pad(x.shape[2], pool.kernel_hw[0], pool.stride_hw[0]) + same_pad(
            x.shape[3], pool.kernel_hw[1], pool.stride_hw[1])
    if pool.pad_mode == "pad":
        return (pool.padding,) * 4
    return (0, 0, 0, 0)


@pytest.mark.parametrize("kwargs", POOL_CASES, ids=str)
@pytest.mark.parametrize("cls, kind", [(nn.MaxPool2d, "max"), (nn.AvgPool2d, "avg")],
                         ids=["max", "avg"])
def test_pooling_forward_and_gradients(rng, cls, kind, kwargs):
    pool = cls(**kwargs)
    x = rng.permutation(2 * 3 * 6 * 5).reshape(2, 3, 6, 5) / 10.0  # distinct: no max ties
    include = kind == "avg" and pool.pad_mode == "pad"
    ref = np_pool(x, pool.kernel_hw, pool.stride_hw, _pool_pad(pool, x), kind, include)
    np.testing.assert_allclose(pool(Tensor(x, f32)).asnumpy(), ref, rtol=1e-5, atol=1e-5)
    check_cell_grads(pool, (t64(x),), weights=False)


# ----- normalisation ---------------------------------------------------------------------------

def np_batch_norm(x, gamma, beta, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(
        shape) + beta.reshape(shape)


@pytest.mark.parametrize("cls, shape", [(nn.BatchNorm1d, (6, 3)), (nn.BatchNorm1d, (4, 3, 5)),
                                        (nn.BatchNorm2d, (2, 3, 4, 5))],
                         ids=["1d-NC", "1d-NCL", "2d"])
def test_batch_norm_train_uses_batch_stats_and_updates_running_stats(rng, cls, shape):
    gamma, beta = rng.standard_normal(3), rng.standard_normal(3)
    bn = cls(3, momentum=0.8, gamma_init=Tensor(gamma, f32), beta_init=Tensor(beta, f32))
    x = rng.standard_normal(shape) * 2 + 1
    axes = (0,) + tuple(range(2, len(shape)))
    mean, var = x.mean(axes), x.var(axes)
    bn.set_train()
    got = bn(Tensor(x, f32)).asnumpy()
    np.testing.assert_allclose(got, np_batch_norm(x, gamma, beta, mean, var, 1e-5), rtol=1e-4,
                               atol=1e-4)
    count = x.size // 3
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(),
                               0.8 + 0.2 * var * count / (count - 1), rtol=1e-5)
    bn.set_train(False)  # evaluation: the running statistics
    ref = np_batch_norm(x, gamma, beta, bn.moving_mean.asnumpy(),
                        bn.moving_variance.asnumpy(), 1e-5)
    np.testing.assert_allclose(bn(Tensor(x, f32)).asnumpy(), ref, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_batch_norm_gradients(rng, train):
    bn = to_float64(nn.BatchNorm2d(2, gamma_init="normal", beta_init="normal"))
    bn.moving_mean.set_data(rng.standard_normal(2))
    bn.set_train(train)
    check_cell_grads(bn, (t64(rng.standard_normal((3, 2, 2, 3))),))


def test_batch_norm_errors():
    with pytest.raises(ShapeError, match=r"BatchNorm2d: expected an input of rank 4, got shape "
                                         r"\(2, 3\)"):
        nn.BatchNorm2d(3)(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ShapeError, match="BatchNorm1d: expected 4 channels"):
        nn.BatchNorm1d(4)(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ArgumentValueError, match="momentum"):
        nn.BatchNorm1d(4, momentum=1.5)


@pytest.mark.parametrize("shape, begin", [((4, 6), -1), ((2, 3, 4), 1)])
def test_layer_norm_forward_and_gradients(rng, shape, begin):
    normalized = shape[begin % len(shape):]
    gamma, beta = rng.standard_normal(normalized), rng.standard_normal(normalized)
    ln = nn.LayerNorm(normalized, begin_norm_axis=begin, begin_params_axis=begin,
                      gamma_init=Tensor(gamma, f32), beta_init=Tensor(beta, f32), epsilon=1e-5)
    x = rng.standard_normal(shape)
    axes = tuple(range(begin % len(shape), len(shape)))
    ref = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5)
    np.testing.assert_allclose(ln(Tensor(x, f32)).asnumpy(), ref * gamma + beta, rtol=1e-4,
                               atol=1e-4)
    check_cell_grads(to_float64(ln), (t64(x),))


def test_layer_norm_shape_error():
    ln = nn.LayerNorm((5,))
    with pytest.raises(ShapeError, match=r"LayerNorm: expected the input's axes from "
                                         r"begin_params_axis=-1 on to be normalized_shape=\(5,\)"):
        ln(Tensor(np.ones((2, 4), np.float32)))


def test_batch_norm_under_grad_updates_running_stats_once(rng):
    bn = nn.BatchNorm1d(3).set_train()
    x = rng.standard_normal((6, 3)).astype(np.float32)

    def loss(x):
        return (bn(x) ** 2).sum()

    cellgraph.grad(loss)(Tensor(x))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * x.mean(0), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("transform", ["jvp", "vjp"])
def test_transforms_that_cannot_carry_updates_refuse_them(rng, transform):
    bn = nn.BatchNorm1d(3).set_train()
    x = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    call = {"jvp": lambda: cellgraph.jvp(bn, x, x), "vjp": lambda: cellgraph.vjp(bn, x, x)}
    with pytest.raises(cellgraph.CompileError, match=f"{transform}: the function assigns "
                                                     f"Parameters .'mean'"):
        call[transform]()


def test_vmap_refuses_running_statistics_of_the_batch():
    # MindSpore 2.10 refuses a training BatchNorm under vmap with a ValueError: every example
    # would write the one moving mean
    bn = nn.BatchNorm1d(3).set_train()
    with pytest.raises(ValueError, match="execution order of operator `Assign` cannot be "
                                         "guaranteed"):
        cellgraph.vmap(bn)(Tensor(np.ones((2, 4, 3), np.float32)))


def test_pool2d_keeps_its_arguments_as_given():
    """MindSpore's AvgPool2d(3, 2).kernel_size is 3 and .stride 2 (a tuple stays a tuple)."""
    avg, mx = nn.AvgPool2d(3, 2), nn.MaxPool2d((3, 2), 1)
    assert (avg.kernel_size, avg.stride) == (3, 2)
    assert (mx.kernel_size, mx.stride) == ((3, 2), 1)
    assert avg.kernel_hw == (3, 3) and mx.stride_hw == (1, 1)


def test_batch_norm_runs_its_bn_train_and_bn_infer_primitives():
    """MindSpore's BatchNorm layers hold `bn_train` and `bn_infer` (ops.BatchNorm, momentum the
    batch's weight: 1 - the layer's), which programs shard and set attributes on; the layer
    computes through them: the running averages move by momentum as before."""
    bn = nn.BatchNorm2d(3, momentum=0.8)
    assert (bn.bn_train.is_training, bn.bn_infer.is_training) == (True, False)
    assert bn.bn_train.momentum == pytest.approx(0.2)
    assert bn.bn_train.epsilon == bn.bn_infer.epsilon == 1e-5
    assert bn.bn_train.shard(((2, 1, 1, 1), (1,), (1,), (1,), (1,))) is bn.bn_train
    x = np.random.default_rng(0).normal(size=(4, 3, 2, 2)).astype(np.float32)
    bn.set_train(True)
    y = bn(Tensor(x)).asnumpy()
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    expected = (x - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 + 0.2 * var * 16 / 15,
                               rtol=1e-5)
    bn.set_train(False)
    running = bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()
    expected = (x - running[0][:, None, None]) / np.sqrt(running[1][:, None, None] + 1e-5)
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("cls, kernel", [(nn.Conv3d, (2, 2, 2)), (nn.Conv3dTranspose, (2, 2, 2))])
def test_conv3d_layers_take_tensors_as_initial_values(cls, kernel):
    # MindSpore's own tests give weight_init (and bias_init) as the Tensor of initial values
    weight = np.arange(2 * 2 * 8, dtype=np.float32).reshape(2, 2, *kernel) / 10
    bias = np.array([0.5, -1.0], np.float32)
    layer = cls(2, 2, kernel, weight_init=Tensor(weight), has_bias=True, bias_init=Tensor(bias))
    np.testing.assert_array_equal(layer.weight.asnumpy(), weight)
    np.testing.assert_array_equal(layer.bias.asnumpy(), bias)


class _StdConv2d(nn.Conv2d):
    """Weight standardisation as the zoos write it (mindcv's BiT): MindSpore's `self.conv2d`
    primitive applied to a weight computed in construct, then `self.bias_add`."""

    def construct(self, x):
        w = self.weight
        m = w.mean((1, 2, 3), keep_dims=True)
        v = w.var((1, 2, 3), keepdims=True)
        out = self.conv2d(x, (w - m) / cellgraph.ops.sqrt(v + 1e-10))
        return self.bias_add(out, self.bias) if self.has_bias else out


@pytest.mark.parametrize("has_bias", [False, True])
def test_conv2d_subclass_calls_conv2d_and_bias_add(has_bias):
    rng = np.random.RandomState(0)
    net = _StdConv2d(3, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=has_bias)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    net.weight.set_data(Tensor(w))
    if has_bias:
        net.bias.set_data(Tensor(np.arange(4, dtype=np.float32)))
    x = rng.standard_normal((2, 3, 7, 7)).astype(np.float32)
    ws = (w - w.mean((1, 2, 3), keepdims=True)) / np.sqrt(w.var((1, 2, 3), keepdims=True) + 1e-10)
    want = np_conv2d(x, ws, stride=(2, 2), pad=(1, 1, 1, 1))
    if has_bias:
        want = want + np.arange(4).reshape(1, 4, 1, 1)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-4)
    assert net.conv2d.group == 1 and net.bias_add.data_format == "NCHW"


class _ChannelsFirstLayerNorm(nn.LayerNorm):
    """mindcv's ConvNextLayerNorm: MindSpore's `self.layer_norm` primitive on the input moved
    to channels-last."""

    def construct(self, x):
        x = cellgraph.ops.transpose(x, (0, 2, 3, 1))
        y, mean, var = self.layer_norm(x, self.gamma, self.beta)
        return cellgraph.ops.transpose(y, (0, 3, 1, 2)), mean.shape, var.shape


def test_layer_norm_subclass_calls_layer_norm():
    net = _ChannelsFirstLayerNorm((4,), epsilon=1e-6)
    net.gamma.set_data(Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
    x = np.random.RandomState(1).standard_normal((2, 4, 3, 5)).astype(np.float32)
    y, mean_shape, var_shape = net(Tensor(x))
    mu = x.mean(1, keepdims=True)
    want = (x - mu) / np.sqrt(x.var(1, keepdims=True) + 1e-6) * np.arange(1, 5).reshape(1, 4, 1, 1)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-4, atol=1e-5)
    assert tuple(mean_shape) == tuple(var_shape) == (2, 3, 5, 1)


X3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7 - 1.5


@pytest.mark.parametrize("layer, shape, head", [
    # MindSpore 2.10's values (the first four) for an unbatched (C, H, W) input
    (lambda: nn.MaxPool2d(2), (2, 2, 3), [-0.7857, -0.6429, -0.5, -0.2143]),
    (lambda: nn.MaxPool2d(2, 2), (2, 1, 2), [-0.7857, -0.5, 0.9286, 1.2143]),
    (lambda: nn.AvgPool2d(2), (2, 2, 3), [-1.1429, -1.0, -0.8571, -0.5714]),
    (lambda: nn.MaxPool2d(2, 2, pad_mode="same"), (2, 2, 2), [-0.7857, -0.5, -0.2143, 0.0714]),
    (lambda: nn.AvgPool2d(2, 2, pad_mode="pad", padding=1), (2, 2, 3),
     [-0.375, -0.6429, -0.2679, -0.3214]),
    (lambda: nn.MaxPool2d(3, 2, pad_mode="pad", ceil_mode=True), (2, 1, 2),
     [-0.0714, 0.0714, 1.6429, 1.7857]),
])
def test_2d_pools_take_an_unbatched_input(layer, shape, head):
    for run in (lambda x: layer()(x), cellgraph.jit(lambda x: layer()(x))):
        out = run(Tensor(X3))
        assert out.shape == shape
        np.testing.assert_allclose(out.asnumpy().ravel()[:4], head, atol=1e-4)
    with pytest.raises(ShapeError, match="MaxPool2d: expected an input of rank 3 or 4"):
        nn.MaxPool2d(2)(Tensor(X3[0]))


def test_layer_and_group_norm_take_a_float16_input_with_float32_parameters():
    # MindSpore 2.10: the output is float16; its values (rounded to 4 places)
    x = Tensor(np.array([[0.5, -1.5, 2.0], [3.0, -0.25, 1.0]], np.float16))
    out = nn.LayerNorm((3,))(x)
    assert out.dtype == cellgraph.float16
    np.testing.assert_allclose(out.asnumpy(), [[0.1163, -1.2783, 1.1631],
                                               [1.3066, -1.1201, -0.1868]], atol=2e-3)
    grouped = nn.GroupNorm(1, 2)(Tensor(X3.reshape(1, 2, 3, 4).astype(np.float16)))
    assert grouped.dtype == cellgraph.float16
    np.testing.assert_allclose(grouped.asnumpy().ravel()[:4], [-1.6611, -1.5176, -1.3721, -1.2275],
                               atol=3e-3)
    with pytest.raises(TypeError, match="LayerNorm: the input has dtype Int32"):
        nn.LayerNorm((3,))(Tensor(np.ones((2, 3), np.int32)))


def test_layer_norm_shape_is_a_tuple_or_list():
    x = Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    want = (x.asnumpy() - 2.0) / np.sqrt(2.0 / 3.0 + 1e-7)
    np.testing.assert_allclose(nn.LayerNorm([3])(x).asnumpy(), want, rtol=1e-5)
    with pytest.raises(TypeError, match="the type of 'normalized_shape' must be tuple\\[int\\] "
                                        "or list\\[int\\], but got 3"):
        nn.LayerNorm(3)
