"""Conv1d, Conv3d, transposed convolutions, the small layers (OneHot, Pad, GroupNorm, ...),
the added activations and losses against NumPy references, with gradients."""
import math

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.common import dtype as mstype
from cellgraph.primitives.errors import UnsupportedError
from cellgraph.testing import check_grads

from .nn_checks import check_cell_grads, check_weight_grads, t64, to_float64


def np_conv_nd(x, w, stride, pad):
    """Direct N-D cross-correlation, x (N, C, *S), w (O, C, *K), pad per axis (before, after)."""
    x = np.pad(x, [(0, 0), (0, 0)] + list(pad))
    kernel = w.shape[2:]
    out_shape = [(x.shape[2 + i] - kernel[i]) // stride[i] + 1 for i in range(len(kernel))]
    out = np.zeros((x.shape[0], w.shape[0], *out_shape))
    for index in np.ndindex(*out_shape):
        window = tuple(slice(index[i] * stride[i], index[i] * stride[i] + kernel[i])
                       for i in range(len(kernel)))
        patch = x[(slice(None), slice(None)) + window]
        axes = list(range(1, patch.ndim))
        out[(slice(None), slice(None)) + index] = np.tensordot(patch, w, (axes, axes))
    return out


def np_conv_transpose2d(y, w, stride, out_hw, pad):
    """Scatter each input pixel times the kernel; w (C_in, C_out, kh, kw)."""
    n, _, h, wd = y.shape
    kh, kw = w.shape[2:]
    big = np.zeros((n, w.shape[1], out_hw[0] + pad[0] + pad[1] + kh,
                    out_hw[1] + pad[2] + pad[3] + kw))
    for i in range(h):
        for j in range(wd):
            big[:, :, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw] += \
                np.einsum("nc,cokl->nokl", y[:, :, i, j], w)
    return big[:, :, pad[0]:pad[0] + out_hw[0], pad[2]:pad[2] + out_hw[1]]


def test_conv1d_matches_numpy_and_weight_shape(rng):
    conv = nn.Conv1d(3, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
    assert conv.weight.shape == (4, 3, 1, 3)
    x = rng.standard_normal((2, 3, 7)).astype(np.float32)
    ref = np_conv_nd(x, conv.weight.asnumpy()[:, :, 0], (2,), [(1, 1)]) + \
        conv.bias.asnumpy()[:, None]
    np.testing.assert_allclose(conv(Tensor(x)).asnumpy(), ref, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pad_mode,padding,stride", [("valid", 0, 1), ("pad", (1, 0, 1, 1, 0, 2),
                                                                        (2, 1, 2)),
                                                     ("same", 0, 2)])
def test_conv3d_matches_numpy(pad_mode, padding, stride, rng):
    conv = nn.Conv3d(2, 3, (2, 3, 2), stride=stride, pad_mode=pad_mode, padding=padding)
    x = rng.standard_normal((2, 2, 5, 6, 5)).astype(np.float32)
    out = conv(Tensor(x)).asnumpy()
    s = (stride,) * 3 if isinstance(stride, int) else stride
    if pad_mode == "pad":
        pads = [padding[0:2], padding[2:4], padding[4:6]]
    elif pad_mode == "same":
        pads = []
        for size, k, st in zip((5, 6, 5), (2, 3, 2), s):
            need = max(0, (-(-size // st) - 1) * st + k - size)
            pads.append((need // 2, need - need // 2))
    else:
        pads = [(0, 0)] * 3
    np.testing.assert_allclose(out, np_conv_nd(x, conv.weight.asnumpy(), s, pads), rtol=1e-4,
                               atol=1e-4)


def test_conv3d_gradients(rng):
    conv = to_float64(nn.Conv3d(2, 2, 2, stride=(1, 2, 1), pad_mode="valid", has_bias=True))
    x = rng.standard_normal((1, 2, 3, 4, 3))
    check_grads(conv, (x,), order=2, rtol=1e-4)
    check_weight_grads(conv, (t64(x),))


@pytest.mark.parametrize("pad_mode,padding", [("same", 0), ("valid", 0), ("pad", 1)])
def test_conv2d_transpose_matches_numpy(pad_mode, padding, rng):
    conv = nn.Conv2dTranspose(3, 2, 3, stride=2, pad_mode=pad_mode, padding=padding)
    assert conv.weight.shape == (3, 2, 3, 3)
    y = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    out = conv(Tensor(y)).asnumpy()
    expected_hw = {"same": (8, 10), "valid": (9, 11), "pad": (7, 9)}[pad_mode]
    assert out.shape == (2, 2) + expected_hw
    pad = {"same": (0, 1, 0, 1), "valid": (0, 0, 0, 0), "pad": (1, 1, 1, 1)}[pad_mode]
    ref = np_conv_transpose2d(y, conv.weight.asnumpy(), (2, 2), expected_hw, pad)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_transposed_convolutions_gradients(rng):
    conv = to_float64(nn.Conv2dTranspose(2, 3, 2, stride=2, has_bias=True))
    check_cell_grads(conv, (t64(rng.standard_normal((1, 2, 3, 2))),))
    check_grads(conv, (rng.standard_normal((1, 2, 3, 2)),), order=2)
    conv1 = nn.Conv1dTranspose(2, 3, 3, stride=2, pad_mode="valid")
    assert conv1(Tensor(np.ones((1, 2, 4), np.float32))).shape == (1, 3, 9)


def test_pool1d(rng):
    x = rng.standard_normal((2, 3, 8)).astype(np.float32)
    np.testing.assert_allclose(nn.MaxPool1d(2, 2)(Tensor(x)).asnumpy(),
                               x.reshape(2, 3, 4, 2).max(-1), rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool1d(4, 4)(Tensor(x)).asnumpy(),
                               x.reshape(2, 3, 2, 4).mean(-1), rtol=1e-5)


@pytest.mark.parametrize("name,ref", [
    ("ELU", lambda x: np.where(x > 0, x, np.expm1(x))),
    ("HSigmoid", lambda x: np.clip(x + 3, 0, 6) / 6),
    ("HSwish", lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("LogSigmoid", lambda x: -np.log1p(np.exp(-x))),
    ("Softsign", lambda x: x / (1 + np.abs(x))),
    ("Mish", lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    ("FastGelu", lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))),
    ("PReLU", lambda x: np.where(x > 0, x, 0.25 * x)),
    ("SeLU", lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x))),
])
def test_activations(name, ref, rng):
    x = rng.standard_normal((3, 4)) * 2
    cell = getattr(nn, name)()
    np.testing.assert_allclose(cell(Tensor(x.astype(np.float32))).asnumpy(), ref(x), rtol=1e-5,
                               atol=1e-6)
    key = {"FastGelu": "fast_gelu"}.get(name, name.lower())  # MindSpore's names (no "selu")
    if name != "SeLU":
        assert isinstance(nn.get_activation(key), getattr(nn, name))
    smooth = x[np.abs(x) > 0.1]  # away from the kinks
    check_grads(to_float64(cell), (smooth,), order=2)


def test_prelu_per_channel_slope_gradient(rng):
    cell = to_float64(nn.PReLU(3, 0.1))
    assert cell.w.name == "a"
    check_weight_grads(cell, (t64(rng.standard_normal((2, 3, 4))),))


def test_prelu_takes_mindspores_slopes():
    # MindSpore 2.10's nn.PReLU: w a float, a list of `channel` floats, or a float16/float32
    # Tensor of shape (channel,), cast to the input's dtype; values recorded from it
    x = Tensor(np.array([[-1.0, 2.0], [-3.0, -4.0]], np.float32))
    cases = [((1, [np.float32(0.25)]), "Float32", [[-0.25, 2.0], [-0.75, -1.0]]),
             ((2, [0.1, 0.5]), "Float32", [[-0.1, 2.0], [-0.3, -2.0]]),
             ((2, Tensor(np.array([0.1, 0.2], np.float16))), "Float16",
              [[-0.09997559, 2.0], [-0.29992676, -0.7998047]])]
    for args, w_dtype, expected in cases:
        cell = nn.PReLU(*args)
        assert str(cell.w.dtype) == w_dtype
        out = cell(x)
        assert out.dtype == mstype.float32
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    errors = [((1, [1]), ValueError, "all elements in 'w' must be float"),
              ((2, [0.1]), ValueError, "the length of 'w' must be equal to the 'channel'"),
              ((1, 1), TypeError, "the 'w' only supported float, list and tensor, but got int"),
              ((1, Tensor(np.array([0.1], np.int32))), ValueError, "must be float16 or float32"),
              ((2, Tensor(np.array([[0.1, 0.2]], np.float32))), ValueError,
               "the dimension of 'w' must be 1")]
    for args, kind, message in errors:
        with pytest.raises(kind, match=message):
            nn.PReLU(*args)


@pytest.mark.parametrize("name,ref", [
    ("MAELoss", lambda p, y: np.abs(p - y).mean()),
    ("RMSELoss", lambda p, y: np.sqrt(((p - y) ** 2).mean())),
    ("BCELoss", lambda p, y: -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()),
    ("HuberLoss", lambda p, y: np.where(np.abs(p - y) < 1, 0.5 * (p - y) ** 2,
                                        np.abs(p - y) - 0.5).mean()),
    ("SoftMarginLoss", lambda p, y: np.log1p(np.exp(-y * p)).mean()),
    ("DiceLoss", lambda p, y: 1 - 2 * (p * y).sum() / ((p * p).sum() + (y * y).sum() + 1e-5)),
])
def test_losses(name, ref, rng):
    p = rng.uniform(0.05, 0.95, (4, 3))
    y = rng.uniform(0, 1, (4, 3)) if name != "SoftMarginLoss" else np.sign(rng.standard_normal(
        (4, 3)))
    loss = getattr(nn, name)()
    np.testing.assert_allclose(loss(Tensor(p.astype(np.float32)), Tensor(y.astype(np.float32))
                                    ).asnumpy(), ref(p, y), rtol=1e-5)
    check_grads(lambda a: loss(a, t64(y)), (p,), order=2, rtol=1e-4)


def test_one_hot_pad_norm_clip():
    out = nn.OneHot(depth=4, on_value=2.0)(Tensor(np.array([1, 3], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 2, 0, 0], [0, 0, 0, 2]])
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        got = nn.Pad(((1, 2), (2, 1)), mode)(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(got, np.pad(x, ((1, 2), (2, 1)), mode.lower()
                                                  if mode != "CONSTANT" else "constant"))
    check_grads(nn.Pad(((1, 1), (2, 1)), "REFLECT"), (x.astype(np.float64),), order=2)
    np.testing.assert_allclose(nn.Norm(1)(Tensor(x)).asnumpy(), np.linalg.norm(x, axis=1),
                               rtol=1e-6)
    clipped = nn.ClipByNorm()(Tensor(x), Tensor(np.float32(1.0))).asnumpy()
    np.testing.assert_allclose(np.linalg.norm(clipped), 1.0, rtol=1e-5)
    np.testing.assert_allclose(nn.Triu()(Tensor(x), 1).asnumpy(), np.triu(x, 1))
    np.testing.assert_allclose(nn.ReduceLogSumExp(1)(Tensor(x)).asnumpy(),
                               np.log(np.exp(x).sum(1)), rtol=1e-5)


def test_group_norm_and_batchnorm3d(rng):
    x = rng.standard_normal((2, 4, 3, 2))
    norm = nn.GroupNorm(2, 4)
    g = x.reshape(2, 2, -1)
    ref = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(
        x.shape)
    np.testing.assert_allclose(norm(Tensor(x.astype(np.float32))).asnumpy(), ref, rtol=1e-4,
                               atol=1e-5)
    check_cell_grads(to_float64(nn.GroupNorm(2, 4)), (t64(x),), rtol=1e-4)
    bn = nn.BatchNorm3d(3).set_train()
    v = rng.standard_normal((2, 3, 2, 2, 2)).astype(np.float32)
    out = bn(Tensor(v)).asnumpy()
    np.testing.assert_allclose(out.mean(axis=(0, 2, 3, 4)), 0, atol=1e-5)
    np.testing.assert_allclose(bn.bn2d.moving_mean.asnumpy(), 0.1 * v.mean(axis=(0, 2, 3, 4)),
                               rtol=1e-4, atol=1e-6)


def test_adaptive_pool_and_upsample(rng):
    x = rng.standard_normal((1, 2, 7, 5))
    out = nn.AdaptiveAvgPool2d((3, 2))(Tensor(x.astype(np.float32))).asnumpy()
    ref = np.zeros((1, 2, 3, 2))
    for i in range(3):
        for j in range(2):
            h0, h1 = i * 7 // 3, -(-(i + 1) * 7 // 3)
            w0, w1 = j * 5 // 2, -(-(j + 1) * 5 // 2)
            ref[:, :, i, j] = x[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)
    check_grads(nn.AdaptiveAvgPool2d(2), (x,), order=2)
    up = nn.Upsample(scale_factor=2.0, recompute_scale_factor=True)(Tensor(x.astype(np.float32)))
    up = up.asnumpy()
    np.testing.assert_array_equal(up, x.astype(np.float32).repeat(2, 2).repeat(2, 3))


def test_dynamic_lr_functions():
    assert nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]) == [0.1, 0.1, 0.05, 0.05,
                                                                      0.05, 0.01]
    np.testing.assert_allclose(nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
                               [0.1, 0.1, 0.09, 0.09, 0.081, 0.081])
    np.testing.assert_allclose(nn.exponential_decay_lr(0.1, 0.9, 4, 1, 2, True),
                               [0.1, 0.1, 0.09, 0.09])
    np.testing.assert_allclose(nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2),
                               [0.1, 0.1, 0.055, 0.055, 0.01, 0.01])
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5),
                               [0.1, 0.1, 0.01 + 0.09 * math.sqrt(0.5),
                                0.01 + 0.09 * math.sqrt(0.5), 0.01, 0.01])
    np.testing.assert_allclose(nn.warmup_lr(0.1, 6, 2, 2), [0, 0, 0.05, 0.05, 0.1, 0.1])
    np.testing.assert_allclose(nn.natural_exp_decay_lr(0.1, 0.5, 2, 1, 1),
                               [0.1, 0.1 * math.exp(-0.5)])
    # MindSpore 2.10's: e^(-rate * epoch), decay_epoch read only for is_stair
    assert nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2) == [
        0.1, 0.1, 0.06065306597126335, 0.06065306597126335, 0.036787944117144235,
        0.036787944117144235]
    assert nn.natural_exp_decay_lr(0.1, 0.5, 8, 1, 3, True) == [
        0.1, 0.1, 0.1, 0.022313016014842986, 0.022313016014842986, 0.022313016014842986,
        0.004978706836786396, 0.004978706836786396]
    np.testing.assert_allclose(nn.inverse_decay_lr(0.1, 0.5, 2, 1, 1), [0.1, 0.1 / 1.5])
    with pytest.raises(ValueError, match="milestone"):
        nn.piecewise_constant_lr([3, 2], [0.1, 0.2])


def _one_step(opt_cls, **kwargs):
    net = nn.Dense(2, 1, weight_init=Tensor(np.array([[1.0, -1.0]], np.float32)),
                   bias_init="zeros")
    opt = opt_cls(net.trainable_params(), **kwargs)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = np.array([[1.0, 2.0]], np.float32), np.array([[0.5]], np.float32)
    step(Tensor(x), Tensor(y))
    grad_w = 2 * (x @ np.array([1.0, -1.0]) - y[0]) * x  # d loss / d w
    return net.weight.asnumpy()[0], grad_w[0], opt


def test_adaptive_optimizers_one_step():
    w, g, opt = _one_step(nn.RMSProp, learning_rate=0.1, decay=0.9)
    ms = 0.9 * 1.0 + 0.1 * g ** 2  # the mean square starts at one
    np.testing.assert_allclose(w, [1.0, -1.0] - 0.1 * g / np.sqrt(ms + 1e-10), rtol=1e-5)
    assert opt.mean_square[0].name == "mean_square.weight"
    w, g, _ = _one_step(nn.Adagrad, learning_rate=0.1, accum=0.1)
    np.testing.assert_allclose(w, [1.0, -1.0] - 0.1 * g / np.sqrt(0.1 + g ** 2), rtol=1e-5)
    w, g, _ = _one_step(nn.Adadelta, learning_rate=1.0, rho=0.9, epsilon=1e-6)
    update = np.sqrt(1e-6) / np.sqrt(0.1 * g ** 2 + 1e-6) * g
    np.testing.assert_allclose(w, [1.0, -1.0] - update, rtol=1e-5)


def test_module_paths_resolve():
    from cellgraph.nn.layer.activation import get_activation
    from cellgraph.nn.layer.rnns import LSTM
    from cellgraph.nn.loss.loss import LossBase
    from cellgraph.nn.optim.optimizer import Optimizer, opt_init_args_register

    assert LSTM is nn.LSTM and LossBase is nn.LossBase and Optimizer is nn.Optimizer
    assert get_activation("relu").__class__ is nn.ReLU

    class MyOpt(nn.Optimizer):
        @opt_init_args_register
        def __init__(self, params, learning_rate=0.1):
            super().__init__(learning_rate, params)

    params = nn.Dense(2, 2).trainable_params()
    opt = MyOpt(params, learning_rate=0.5)
    # as MindSpore keeps them: the parameters and the rate apart from the other arguments
    assert opt.init_learning_rate == 0.5 and opt.init_params["params"] is params
    assert opt.init_args == {}
    assert ops.composite.HyperMap is ops.HyperMap


def np_conv_transpose_nd(x, w, stride, start, out_shape):
    """Scatter every input element times the kernel, then keep out_shape from `start`."""
    spatial = x.shape[2:]
    kernel = w.shape[2:]
    full = np.zeros((x.shape[0], w.shape[1]) + tuple(
        (s - 1) * st + k + max(0, o + b - ((s - 1) * st + k))
        for s, st, k, o, b in zip(spatial, stride, kernel, out_shape, start)))
    for index in np.ndindex(*spatial):
        corner = tuple(i * st for i, st in zip(index, stride))
        window = tuple(slice(c, c + k) for c, k in zip(corner, kernel))
        full[(slice(None), slice(None)) + window] += np.einsum(
            "nc,co...->no...", x[(slice(None), slice(None)) + index], w)
    keep = tuple(slice(b, b + o) for b, o in zip(start, out_shape))
    return full[(slice(None), slice(None)) + keep]


@pytest.mark.parametrize("pad_mode,padding,stride,out,start", [
    ("valid", 0, (2, 1, 2), (4, 5, 7), (0, 0, 0)),
    ("same", 0, 2, (4, 6, 6), (0, 0, 0)),
    ("pad", 1, (1, 2, 1), (1, 5, 3), (1, 1, 1)),
])
def test_conv3d_transpose_matches_numpy(pad_mode, padding, stride, out, start, rng):
    conv = nn.Conv3dTranspose(2, 3, (2, 3, 3), stride=stride, pad_mode=pad_mode,
                              padding=padding)
    assert conv.weight.shape == (2, 3, 2, 3, 3)
    x = rng.standard_normal((1, 2, 2, 3, 3)).astype(np.float32)
    got = conv(Tensor(x)).asnumpy()
    s = (stride,) * 3 if isinstance(stride, int) else stride
    if pad_mode == "same":  # the forward conv's "same" padding before each axis
        start = tuple(max(0, (-(-o // st) - 1) * st + k - o) // 2
                      for o, st, k in zip(out, s, (2, 3, 3)))
    assert got.shape == (1, 3) + out
    ref = np_conv_transpose_nd(x.astype(np.float64), conv.weight.asnumpy().astype(np.float64), s,
                               start, out)
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def test_conv3d_transpose_gradients(rng):
    conv = to_float64(nn.Conv3dTranspose(2, 2, 2, stride=2, has_bias=True))
    x = rng.standard_normal((1, 2, 2, 2, 2))
    check_grads(conv, (x,), order=2, rtol=1e-4)
    check_weight_grads(conv, (t64(x),))


def test_pool3d(rng):
    x = rng.standard_normal((2, 3, 4, 4, 6))
    out = nn.MaxPool3d(2, 2)(Tensor(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(out, x.reshape(2, 3, 2, 2, 2, 2, 3, 2).max(axis=(3, 5, 7)),
                               rtol=1e-6)
    avg = nn.AvgPool3d((2, 2, 3), (2, 2, 3))(Tensor(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(avg, x.reshape(2, 3, 2, 2, 2, 2, 2, 3).mean(axis=(3, 5, 7)),
                               rtol=1e-5, atol=1e-6)
    padded = nn.AvgPool3d(3, 1, pad_mode="pad", padding=1)(Tensor(x.astype(np.float32)))
    full = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)))
    np.testing.assert_allclose(padded.asnumpy()[0, 0, 1, 1, 1],
                               full[0, 0, 1:4, 1:4, 1:4].mean(), rtol=1e-5)
    check_grads(nn.AvgPool3d(2, 2), (x,), order=2)
    with pytest.raises(ValueError, match="return_indices"):
        nn.MaxPool3d(2, return_indices=True)


def test_linear_and_maxpool3d_primitive(rng):
    linear = nn.Linear(3, 2, bias=False)
    assert [n for n, _ in linear.parameters_and_names()] == ["weight"]
    x = rng.standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(linear(Tensor(x)).asnumpy(), x @ linear.weight.asnumpy().T,
                               rtol=1e-5, atol=1e-6)
    v = rng.standard_normal((1, 2, 4, 4, 4)).astype(np.float32)
    np.testing.assert_allclose(ops.MaxPool3D(2, 2)(Tensor(v)).asnumpy(),
                               v.reshape(1, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7)), rtol=1e-6)


def test_layer_constructors_take_mindspore_parameters():
    x = Tensor(np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5))
    assert nn.Flatten(2)(x).shape == (2, 3, 20)          # the first argument is start_dim
    assert nn.Flatten(1, 2)(x).shape == (2, 12, 5)
    with pytest.raises(TypeError):
        nn.ReLU(auto_prefix=False)                        # MindSpore's ReLU() takes nothing
    with pytest.raises(TypeError):
        nn.ConstantPad1d(1)                               # `value` is required
    with pytest.raises(TypeError):
        nn.ReduceLogSumExp()                              # so is `axis`
    seq = Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 8))
    np.testing.assert_array_equal(
        nn.MaxPool1d(2, 2, "valid", 0, 1, False, False)(seq).asnumpy(),
        seq.asnumpy().reshape(1, 2, 4, 2).max(-1))
    np.testing.assert_array_equal(
        nn.AvgPool1d(2, 2, "valid", 0, False, True)(seq).asnumpy(),
        seq.asnumpy().reshape(1, 2, 4, 2).mean(-1))
    with pytest.raises(ValueError, match="ceil_mode"):
        nn.MaxPool2d(2, ceil_mode=True)
    cube = Tensor(np.ones((1, 1, 5, 5, 5), np.float32))
    assert nn.AvgPool3d(2, 2, "valid", 0, True)(cube).shape == (1, 1, 3, 3, 3)  # ceil_mode
    assert nn.Linear(2, 3).weight.dtype == mstype.float32       # dtype None is float32
    cell = nn.LSTMCell(2, 3, dtype=mstype.float16)
    assert {p.dtype for p in cell.get_parameters()} == {mstype.float16}



def test_batchnorm3d_parameters_take_dtype():
    bn = nn.BatchNorm3d(2, dtype=mstype.float16)
    assert {p.dtype for p in bn.get_parameters()} == {mstype.float16}
    assert nn.Dense(2, 2).recompute(use_reentrant=False, output_recompute=True) is not None
    with pytest.raises(TypeError):
        nn.Dense(2, 2).recompute(False)                  # the options are keyword-only


def test_batchnorm_takes_float16_input_with_float32_parameters():
    # MindSpore 2.10 prints these values for the same program (train mode, float16 input)
    bn = nn.BatchNorm1d(4)
    bn.set_train()
    x = np.array([[0.7, 0.5, 0.5, 0.6], [0.5, 0.4, 0.6, 0.9], [0.1, 0.2, 0.3, 0.4]], np.float16)
    y = bn(Tensor(x))
    assert y.dtype == mstype.float16 and bn.moving_mean.dtype == mstype.float32
    np.testing.assert_allclose(y.asnumpy().astype(np.float64),
                               [[1.069, 1.069, 0.267, -0.162], [0.267, 0.267, 1.069, 1.298],
                                [-1.336, -1.336, -1.336, -1.136]], atol=2e-3)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), [0.04334, 0.03666, 0.04667, 0.06333],
                               rtol=1e-4)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(),
                               [0.90934, 0.90233, 0.90233, 0.90633], rtol=1e-4)
    bn.set_train(False)
    assert bn(Tensor(x.astype(np.float32))).dtype == mstype.float32
    with pytest.raises(TypeError):
        bn(Tensor(np.ones((2, 4), np.int32)))


BIDENSE_W = np.round(np.random.default_rng(0).standard_normal((4, 3, 2)), 2).astype(np.float32)
BIDENSE_X1 = np.array([[0.9, 0.09, -0.74], [-0.92, -0.46, 0.22]], np.float32)
BIDENSE_X2 = np.array([[-1.01, -0.21], [-0.16, 0.54]], np.float32)
MS_BIDENSE = [[-0.4013180434703827, -1.9307889938354492, 2.1336476802825928, -1.0296939611434937],
              [0.2677600085735321, -0.1900760382413864, 0.13664403557777405, -0.7410320043563843]]
MS_BIDENSE_NO_BIAS = [[-0.5013180375099182, -1.7307889461517334, 1.8336477279663086,
                       -1.0296939611434937],
                      [0.1677599996328354, 0.009923964738845825, -0.1633559763431549,
                       -0.7410320043563843]]


@pytest.mark.parametrize("mode", [cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE])
def test_bidense_matches_mindspore(mode):
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=mode)
    try:
        bias = Tensor(np.array([0.1, -0.2, 0.3, 0.0], np.float32))
        net = nn.BiDense(3, 2, 4, weight_init=Tensor(BIDENSE_W), bias_init=bias)
        assert [(name, p.shape) for name, p in net.parameters_and_names()] == \
            [("weight", (4, 3, 2)), ("bias", (4,))]
        np.testing.assert_allclose(net(Tensor(BIDENSE_X1), Tensor(BIDENSE_X2)).asnumpy(),
                                   MS_BIDENSE, rtol=1e-5, atol=1e-6)
        plain = nn.BiDense(3, 2, 4, weight_init=Tensor(BIDENSE_W), has_bias=False)
        out = plain(Tensor(BIDENSE_X1.reshape(1, 2, 3)), Tensor(BIDENSE_X2.reshape(1, 2, 2)))
        assert out.shape == (1, 2, 4)
        np.testing.assert_allclose(out.asnumpy()[0], MS_BIDENSE_NO_BIAS, rtol=1e-5, atol=1e-6)
    finally:
        cellgraph.set_context(mode=before)


def test_bidense_gradient_and_errors():
    net = nn.BiDense(3, 2, 4, dtype=cellgraph.float64)
    check_grads(net, (Tensor(BIDENSE_X1.astype(np.float64)), Tensor(BIDENSE_X2.astype(np.float64))))
    for bad, error in (({"in1_channels": 0}, ValueError), ({"in1_channels": 1.5}, TypeError),
                       ({"has_bias": 1}, TypeError),
                       ({"weight_init": Tensor(np.ones((4, 3, 3), np.float32))}, ValueError)):
        kwargs = {"in1_channels": 3, "in2_channels": 2, "out_channels": 4, **bad}
        with pytest.raises(error):  # MindSpore's error types
            nn.BiDense(**kwargs)
    with pytest.raises(ValueError):  # leading dimensions differ
        nn.BiDense(3, 2, 4)(Tensor(BIDENSE_X1), Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(ValueError):  # input2's last dimension is not in2_channels
        nn.BiDense(3, 2, 4)(Tensor(BIDENSE_X1), Tensor(np.ones((2, 3), np.float32)))


LP_X1 = np.array([[[0.5, -1.0, 2.0, 1.5, -0.3, 0.8, 1.1]],
                  [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]], np.float32)
LP_X2 = np.arange(40, dtype=np.float32).reshape(2, 1, 4, 5) / 10 - 1
MS_LPPOOL = {  # MindSpore 2.10's outputs on LP_X1 (1-d) and LP_X2 (2-d)
    ("1d", 2, 3, None, False): [[[2.291287899017334, 1.726267695426941]],
                                [[3.7416574954986572, 8.774964332580566]]],
    ("1d", 1, 3, 2, False): [[[1.5, 3.200000286102295, 1.6000001430511475]], [[6.0, 12.0, 18.0]]],
    ("1d", 2, 3, None, True): [[[2.291287899017334, 1.726267695426941, 1.905255913734436]],
                               [[3.7416574954986572, 8.774964332580566, 12.12435531616211]]],
    ("2d", 2, 2, None, False): [[[[1.4899665117263794, 1.1224972009658813],
                                  [0.7874007821083069, 1.1224972009658813]]],
                                [[[2.6495280265808105, 3.043024778366089],
                                  [4.628174781799316, 5.025932788848877]]]],
    ("2d", 2.0, (2, 3), (1, 2), False): [[[[1.7175564765930176, 1.276714563369751],
                                           [0.7416198253631592, 0.6557437777519226],
                                           [1.072380542755127, 1.4933184385299683]]],
                                         [[[3.36897611618042, 3.8509740829467773],
                                           [4.577116966247559, 5.062608242034912],
                                           [5.792236328125, 6.279331207275391]]]],
    ("2d", 2, 3, None, True): [[[[1.7320507764816284, 1.3133925199508667],
                                 [1.8165903091430664, 2.554407835006714]]],
                               [[[4.959838390350342, 5.685507297515869],
                                 [7.803844928741455, 8.551315307617188]]]],
}


@pytest.mark.parametrize("mode", [cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE])
@pytest.mark.parametrize("case", list(MS_LPPOOL), ids=str)
def test_lp_pool_matches_mindspore(mode, case):
    kind, norm_type, kernel_size, stride, ceil_mode = case
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=mode)
    try:
        cls, x = (nn.LPPool1d, LP_X1) if kind == "1d" else (nn.LPPool2d, LP_X2)
        pool = cls(norm_type, kernel_size, stride=stride, ceil_mode=ceil_mode)
        np.testing.assert_allclose(pool(Tensor(x)).asnumpy(), MS_LPPOOL[case], rtol=1e-6)
    finally:
        cellgraph.set_context(mode=before)


def test_lp_pool1d_on_an_unbatched_input_and_gradients():
    got = nn.LPPool1d(3.0, 2)(Tensor(LP_X1[1])).asnumpy()  # (C, L)
    np.testing.assert_allclose(got, [[2.0800838470458984, 4.497941493988037, 6.986368656158447]],
                               rtol=1e-6)  # MindSpore's values
    positive = np.abs(np.random.default_rng(3).standard_normal((2, 3, 7))) + 0.5
    check_grads(nn.LPPool1d(2, 3, ceil_mode=True), (Tensor(positive),))
    check_grads(nn.LPPool2d(2, (2, 3), stride=(1, 2)), (Tensor(positive.reshape(2, 1, 3, 7)),))


def test_lp_pool_errors_are_mindspore_types():
    for cls, x in ((nn.LPPool1d, LP_X1), (nn.LPPool2d, LP_X2)):
        for bad, error in (({"norm_type": 0}, ValueError), ({"norm_type": "a"}, TypeError),
                           ({"kernel_size": 0}, ValueError), ({"kernel_size": 1.5}, TypeError)):
            with pytest.raises(error):
                cls(**{"norm_type": 2, "kernel_size": 2, **bad})(Tensor(x))
    with pytest.raises(ValueError):
        nn.LPPool1d(2, 2)(Tensor(np.ones((2, 2, 2, 2), np.float32)))
    with pytest.raises(ValueError):
        nn.LPPool2d(2, 2)(Tensor(np.ones((2, 4, 4), np.float32)))


EL_TABLE = np.arange(12, dtype=np.float32).reshape(4, 3) / 4 - 1
EL_IDS = np.array([[0, 3], [5, 1]], np.int32)
MS_EMBEDDING_LOOKUP = [[[-1.0, -0.75, -0.5], [1.25, 1.5, 1.75]],  # MindSpore 2.10: id 5 of a
                       [[0.0, 0.0, 0.0], [-0.25, 0.0, 0.25]]]     # vocabulary of 4 gives zeros


@pytest.mark.parametrize("mode", [cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE])
def test_embedding_lookup_matches_mindspore(mode):
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=mode)
    try:
        lookup = nn.EmbeddingLookup(4, 3, param_init=Tensor(EL_TABLE))
        assert [(n, p.shape) for n, p in lookup.parameters_and_names()] == \
            [("embedding_table", (4, 3))]
        out = lookup(Tensor(EL_IDS)).asnumpy()
        np.testing.assert_array_equal(out, MS_EMBEDDING_LOOKUP)
        assert not np.signbit(out[1, 0]).any()
        device = nn.EmbeddingLookup(4, 3, param_init=Tensor(EL_TABLE), target="DEVICE",
                                    sparse=False)
        np.testing.assert_array_equal(device(Tensor(np.array([3, 0], np.int32))).asnumpy(),
                                      EL_TABLE[[3, 0]])
        # each row clipped to L2 norm 1 (MindSpore 2.10's CPU ClipByNorm, which EmbeddingLookup
        # calls, scales the rows by other rows' norms: [0.811, 0.973, 1.136] for row 3)
        clipped = nn.EmbeddingLookup(4, 3, param_init=Tensor(EL_TABLE), max_norm=1.0)
        rows = EL_TABLE[[0, 3, 1]]
        norms = np.linalg.norm(rows, axis=-1, keepdims=True)
        np.testing.assert_allclose(clipped(Tensor(np.array([0, 3, 1], np.int32))).asnumpy(),
                                   rows / np.maximum(norms, 1.0), rtol=1e-6)
    finally:
        cellgraph.set_context(mode=before)


def test_embedding_lookup_gradient_and_arguments():
    lookup = nn.EmbeddingLookup(4, 3, param_init=Tensor(EL_TABLE))
    ids = Tensor(np.array([0, 3, 3, 7], np.int32))
    grad = cellgraph.grad(lambda i: lookup(i).sum(), grad_position=None,
                          weights=lookup.trainable_params())(ids)[0].asnumpy()
    np.testing.assert_array_equal(grad, [[1, 1, 1], [0, 0, 0], [0, 0, 0], [2, 2, 2]])
    for bad, error in (({"target": "GPU"}, ValueError), ({"sparse": False}, ValueError),
                       ({"sparse": 1}, TypeError), ({"vocab_size": 0}, ValueError),
                       ({"vocab_size": 1.5}, TypeError), ({"vocab_cache_size": 2}, TypeError),
                       ({"max_norm": -1.0}, ValueError)):
        with pytest.raises(error):  # MindSpore's error types
            nn.EmbeddingLookup(**{"vocab_size": 4, "embedding_size": 3, **bad})
    for bad in ({"slice_mode": "field_slice"}, {"slice_mode": "table_row_slice"},
                {"manual_shapes": (2, 2)}):
        with pytest.raises(UnsupportedError, match=next(iter(bad))):  # sharding only
            nn.EmbeddingLookup(4, 3, **bad)
    with pytest.raises(TypeError):
        nn.EmbeddingLookup(4, 3)(Tensor(np.array([0.0, 1.0], np.float32)))
