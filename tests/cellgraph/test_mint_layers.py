"""cellgraph.mint.nn layers: torch's constructor arguments and parameter names, forward against
NumPy in PyNative and graph mode."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import mint
from cellgraph.mint import nn
from cellgraph.mint.nn import functional as F
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.testing import check_grads

RNG = np.random.default_rng(11)
IMAGE = RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)


def _param_shapes(cell):
    return {name: tuple(p.shape) for name, p in cell.parameters_and_names()}


def _run(cell, *args, mode):
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE)
    try:
        return cell(*(ms.Tensor(a) for a in args)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _conv_transpose_reference(x, w, stride, padding, output_padding):
    """Scatter every input pixel times the kernel into the output (groups=1, dilation=1)."""
    n, _, h, wd = x.shape
    _, out_c, kh, kw = w.shape
    full = np.zeros((n, out_c, (h - 1) * stride + kh + output_padding,
                     (wd - 1) * stride + kw + output_padding))
    for i in range(h):
        for j in range(wd):
            full[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += np.einsum(
                "nc,cokl->nokl", x[:, :, i, j], w)
    rows = (h - 1) * stride - 2 * padding + kh + output_padding
    cols = (wd - 1) * stride - 2 * padding + kw + output_padding
    return full[:, :, padding:padding + rows, padding:padding + cols]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_conv1d_and_conv_transpose2d(mode):
    conv = nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2)
    assert _param_shapes(conv) == {"weight": (6, 2, 3), "bias": (6,)}
    x = IMAGE[:, :, 0]
    w, b = conv.weight.asnumpy(), conv.bias.asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1)))
    want = np.stack([np.stack([(padded[:, (o // 3) * 2:(o // 3) * 2 + 2, 2 * t:2 * t + 3] * w[o]
                                ).sum((1, 2)) for t in range(3)], -1) for o in range(6)], 1)
    np.testing.assert_allclose(_run(conv, x, mode=mode), want + b[:, None], rtol=1e-4, atol=1e-5)

    up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
    assert _param_shapes(up) == {"weight": (4, 3, 3, 3), "bias": (3,)}
    want = _conv_transpose_reference(IMAGE, up.weight.asnumpy(), 2, 1, 1)
    got = _run(up, IMAGE, mode=mode)
    assert got.shape == (2, 3, 10, 12)
    np.testing.assert_allclose(got, want + up.bias.asnumpy()[:, None, None], rtol=1e-4,
                               atol=1e-5)


def test_conv_transpose2d_differentiates():
    weight = RNG.standard_normal((2, 1, 2, 2))
    check_grads(lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1),
                (RNG.standard_normal((1, 2, 3, 3)), weight), order=1, rtol=1e-4)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_batch_norm_running_statistics_follow_torch_momentum(mode):
    bn = nn.BatchNorm1d(4, momentum=0.25)
    assert _param_shapes(bn) == {**{name: (4,) for name in (
        "weight", "bias", "running_mean", "running_var")}, "num_batches_tracked": ()}
    x = IMAGE[:, :, :, 0]  # (N, C, L)
    bn.set_train(True)
    got = _run(bn, x, mode=mode)
    mean, var = x.mean((0, 2)), x.var((0, 2))
    np.testing.assert_allclose(got, (x - mean[:, None]) / np.sqrt(var[:, None] + 1e-5),
                               rtol=1e-4, atol=1e-4)
    count = x.size // 4
    np.testing.assert_allclose(bn.running_mean.asnumpy(), 0.25 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.running_var.asnumpy(), 0.75 + 0.25 * var * count / (count - 1),
                               rtol=1e-5)
    bn.set_train(False)
    running_mean, running_var = bn.running_mean.asnumpy(), bn.running_var.asnumpy()
    np.testing.assert_allclose(_run(bn, x, mode=mode), (x - running_mean[:, None]) / np.sqrt(
        running_var[:, None] + 1e-5), rtol=1e-4, atol=1e-4)
    bn3 = nn.BatchNorm3d(4, track_running_stats=False)
    five = IMAGE[:, :, None]
    np.testing.assert_allclose(_run(bn3, five, mode=mode), (five - five.mean(
        (0, 2, 3, 4), keepdims=True)) / np.sqrt(five.var((0, 2, 3, 4), keepdims=True) + 1e-5),
        rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_batch_norm_momentum_none_averages_every_batch(mode):
    """momentum=None: the running statistics are the plain average of the batches' (the
    factor 1 / num_batches_tracked), counted in the int64 num_batches_tracked."""
    bn = nn.BatchNorm2d(4, momentum=None)
    bn.set_train(True)
    means, variances = [], []
    for scale in (1.0, 2.0, 3.0):
        x = IMAGE * scale + scale
        _run(bn, x, mode=mode)
        count = x.size // 4
        means.append(x.mean((0, 2, 3)))
        variances.append(x.var((0, 2, 3)) * count / (count - 1))
    assert bn.num_batches_tracked.dtype == ms.int64 and int(bn.num_batches_tracked) == 3
    np.testing.assert_allclose(bn.running_mean.asnumpy(), np.mean(means, 0), rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.asnumpy(), np.mean(variances, 0), rtol=1e-5)


def test_batch_norm_without_affine_or_statistics_holds_no_such_parameters():
    """As MindSpore's mint: affine=False has no weight and bias, track_running_stats=False no
    statistics, so checkpoints hold the same names."""
    assert [p.name for p in nn.BatchNorm2d(3, affine=False).get_parameters()] == [
        "running_mean", "running_var", "num_batches_tracked"]
    plain = nn.BatchNorm2d(3, track_running_stats=False)
    assert [p.name for p in plain.get_parameters()] == ["weight", "bias"]
    assert plain.running_mean is None and plain.num_batches_tracked is None


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_norms_and_embedding_hold_mint_parameter_names(mode):
    ln = nn.LayerNorm((5, 6), eps=1e-3)
    assert _param_shapes(ln) == {"weight": (5, 6), "bias": (5, 6)}
    assert _param_shapes(nn.LayerNorm(6, bias=False)) == {"weight": (6,)}
    ln.weight.set_data(ms.Tensor(np.full((5, 6), 2.0, np.float32)))
    flat = IMAGE.reshape(2, 4, -1)
    want = (flat - flat.mean(-1, keepdims=True)) / np.sqrt(flat.var(-1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(_run(ln, IMAGE, mode=mode), 2 * want.reshape(IMAGE.shape),
                               rtol=1e-4, atol=1e-4)
    gn = nn.GroupNorm(2, 4)
    assert _param_shapes(gn) == {"weight": (4,), "bias": (4,)}
    grouped = IMAGE.reshape(2, 2, -1)
    want = (grouped - grouped.mean(-1, keepdims=True)) / np.sqrt(
        grouped.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(_run(gn, IMAGE, mode=mode), want.reshape(IMAGE.shape), rtol=1e-4,
                               atol=1e-4)
    emb = nn.Embedding(5, 3, padding_idx=2)
    assert _param_shapes(emb) == {"weight": (5, 3)}
    table = emb.weight.asnumpy()
    assert not table[2].any() and 0.3 < table.std() < 3  # N(0, 1) rows, the padding row zero
    ids = np.array([[0, 2], [4, 4]], np.int32)
    np.testing.assert_allclose(_run(emb, ids, mode=mode), table[ids])


def _softplus(x, beta, threshold):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


LAYERS = {
    "Hardswish": (lambda: nn.Hardswish(), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "Hardsigmoid": (lambda: nn.Hardsigmoid(), lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    "ReLU6": (lambda: nn.ReLU6(), lambda x: np.clip(x, 0, 6)),
    "LeakyReLU": (lambda: nn.LeakyReLU(0.1), lambda x: np.where(x > 0, x, 0.1 * x)),
    "Softplus": (lambda: nn.Softplus(beta=2.0, threshold=1.0), lambda x: _softplus(x, 2.0, 1.0)),
    "Softshrink": (lambda: nn.Softshrink(0.5),
                   lambda x: np.where(np.abs(x) > 0.5, x - 0.5 * np.sign(x), 0)),
    "Hardshrink": (lambda: nn.Hardshrink(), lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    "GLU": (lambda: nn.GLU(1), lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    "PReLU": (lambda: nn.PReLU(4, 0.3), lambda x: np.where(x > 0, x, 0.3 * x)),
    "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d(1), lambda x: x.mean((2, 3),
                                                                            keepdims=True)),
    "Upsample": (lambda: nn.Upsample(scale_factor=2.0, recompute_scale_factor=True),
                 lambda x: x.repeat(2, 2).repeat(2, 3)),
    "PixelShuffle": (lambda: nn.PixelShuffle(2), lambda x: x.reshape(
        2, 1, 2, 2, 5, 6).transpose(0, 1, 4, 2, 5, 3).reshape(2, 1, 10, 12)),
    "Unfold": (lambda: nn.Unfold(2, stride=2), lambda x: x[:, :, :4].reshape(
        2, 4, 2, 2, 3, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 16, 6)),
    "ZeroPad2d": (lambda: nn.ZeroPad2d((1, 0, 2, 1)),
                  lambda x: np.pad(x, ((0, 0), (0, 0), (2, 1), (1, 0)))),
    "ConstantPad2d": (lambda: nn.ConstantPad2d(1, 3.5),
                      lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=3.5)),
    "ReflectionPad2d": (lambda: nn.ReflectionPad2d(2),
                        lambda x: np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), "reflect")),
    "ReplicationPad2d": (lambda: nn.ReplicationPad2d((0, 1, 2, 3)),
                         lambda x: np.pad(x, ((0, 0), (0, 0), (2, 3), (0, 1)), "edge")),
    "ReplicationPad1d": (lambda: nn.ReplicationPad1d(2),
                         lambda x: np.pad(x, ((0, 0), (0, 0), (0, 0), (2, 2)), "edge")),
    "ZeroPad3d": (lambda: nn.ZeroPad3d(1), lambda x: np.pad(x, ((0, 0), (1, 1), (1, 1), (1, 1)))),
}


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers_against_numpy(name, mode):
    make, ref = LAYERS[name]
    np.testing.assert_allclose(_run(make(), IMAGE, mode=mode), ref(IMAGE), rtol=1e-4, atol=1e-5)


def test_fold_undoes_unfold_where_blocks_do_not_overlap():
    blocks = nn.Unfold(kernel_size=(2, 3), stride=(2, 3))(ms.Tensor(IMAGE[:, :, :4]))
    back = nn.Fold((4, 6), (2, 3), stride=(2, 3))(blocks)
    np.testing.assert_allclose(back.asnumpy(), IMAGE[:, :, :4])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_losses_take_torch_arguments(mode):
    x, y = IMAGE[0], IMAGE[1]
    diff = np.abs(x - y)
    huber = np.where(diff < 0.5, 0.5 * diff ** 2 / 0.5, diff - 0.25)
    np.testing.assert_allclose(_run(nn.SmoothL1Loss(beta=0.5), x, y, mode=mode), huber.mean(),
                               rtol=1e-5)
    np.testing.assert_allclose(_run(nn.SmoothL1Loss("sum"), x, y, mode=mode), np.where(
        diff < 1, 0.5 * diff ** 2, diff - 0.5).sum(), rtol=1e-5)
    logp = np.log(np.full((3, 4), 0.25, np.float32))
    target = np.array([[0.1, 0.2, 0.3, 0.4]] * 3, np.float32)
    kl = target * (np.log(target) - logp)
    np.testing.assert_allclose(_run(nn.KLDivLoss("sum"), logp, target, mode=mode), kl.sum(),
                               rtol=1e-5)
    np.testing.assert_allclose(_run(nn.KLDivLoss("batchmean", log_target=True), logp,
                                    np.log(target), mode=mode), kl.sum() / 3, rtol=1e-5)
    p = 1 / (1 + np.exp(-x))
    t = (y > 0).astype(np.float32)
    np.testing.assert_allclose(_run(nn.BCELoss(), p, t, mode=mode), -(
        t * np.log(p) + (1 - t) * np.log(1 - p)).mean(), rtol=1e-5)


def test_layers_train_in_a_graph():
    net = nn.Conv1d(4, 2, 3, padding="same")
    loss_fn = nn.SmoothL1Loss()
    x, target = ms.Tensor(IMAGE[:, :, 0]), ms.Tensor(np.zeros((2, 2, 6), np.float32))

    def forward(x, t):
        return loss_fn(net(x), t)

    grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
    loss, grads = ms.jit(grad_fn)(x, target)
    assert float(loss.asnumpy()) > 0 and [g.shape for g in grads] == [(2, 4, 3), (2,)]


def test_constructor_errors():
    with pytest.raises(ArgumentValueError, match="padding_mode='zeros'"):
        nn.Conv1d(1, 1, 3, padding_mode="reflect")
    with pytest.raises(ArgumentValueError, match="ReplicationPad2d: expected an int or 4"):
        nn.ReplicationPad2d((1, 2))
    with pytest.raises(ArgumentValueError, match="momentum"):
        nn.BatchNorm2d(3, momentum=1.5)
    assert mint.nn.BatchNorm2d(3).running_var.shape == (3,)
