"""cellgraph.mint.nn.functional against NumPy, eagerly and inside a jit graph."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.mint.nn import functional as F
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.testing import check_grads

RNG = np.random.default_rng(7)
IMAGE = RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)
KERNEL = RNG.standard_normal((4, 2, 3, 2)).astype(np.float32)  # groups=2 over 4 channels
TABLE = RNG.standard_normal((5, 3)).astype(np.float32)
IDS = np.array([[0, 4, 2], [2, 2, 1]], np.int32)


def _conv2d(x, w, stride, padding, groups):
    x = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    out_c, in_per_group, kh, kw = w.shape
    rows = (x.shape[2] - kh) // stride + 1
    cols = (x.shape[3] - kw) // stride + 1
    out = np.zeros((x.shape[0], out_c, rows, cols))
    per_group_out = out_c // groups
    for o in range(out_c):
        g = o // per_group_out
        for i in range(rows):
            for j in range(cols):
                patch = x[:, g * in_per_group:(g + 1) * in_per_group,
                          i * stride:i * stride + kh, j * stride:j * stride + kw]
                out[:, o, i, j] = (patch * w[o]).sum((1, 2, 3))
    return out


def _unfold(x, kernel, stride, padding):
    x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    kh, kw = kernel
    rows = (x.shape[2] - kh) // stride + 1
    cols = (x.shape[3] - kw) // stride + 1
    columns = [x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw].reshape(
        x.shape[0], -1) for i in range(rows) for j in range(cols)]
    return np.stack(columns, -1)


def _fold(columns, size, kernel, stride, padding):
    n, ck, _ = columns.shape
    kh, kw = kernel
    channels = ck // (kh * kw)
    out = np.zeros((n, channels, size[0] + 2 * padding, size[1] + 2 * padding))
    cols = (size[1] + 2 * padding - kw) // stride + 1
    for block in range(columns.shape[2]):
        i, j = divmod(block, cols)
        out[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += columns[
            :, :, block].reshape(n, channels, kh, kw)
    return out[:, :, padding:padding + size[0], padding:padding + size[1]]


def _group_norm(x, groups, weight, bias, eps=1e-5):
    g = x.reshape(x.shape[0], groups, -1)
    g = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)
    return g.reshape(x.shape) * weight[:, None, None] + bias[:, None, None]


def _adaptive(x, size, axis):
    n = x.shape[axis]
    parts = [x.take(range((i * n) // size, -(-((i + 1) * n) // size)), axis).mean(
        axis, keepdims=True) for i in range(size)]
    return np.concatenate(parts, axis)


W4 = np.array([1.0, 2.0, -1.0, 0.5], np.float32)
B4 = np.array([0.1, 0.0, -0.2, 0.3], np.float32)

CASES = {
    "relu6": (lambda x: F.relu6(x * 4), lambda x: np.clip(x * 4, 0, 6)),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    "hardsigmoid": (lambda x: F.hardsigmoid(x * 4), lambda x: np.clip(x * 4 / 6 + 0.5, 0, 1)),
    "hardswish": (lambda x: F.hardswish(x * 4),
                  lambda x: x * 4 * np.clip(x * 4 + 3, 0, 6) / 6),
    "elu": (lambda x: F.elu(x, 0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x))),
    "selu": (lambda x: F.selu(x), lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(x))),
    "logsigmoid": (lambda x: F.logsigmoid(x), lambda x: -np.logaddexp(0, -x)),
    "mish": (lambda x: F.mish(x), lambda x: x * np.tanh(np.logaddexp(0, x))),
    "softshrink": (lambda x: F.softshrink(x, 0.7),
                   lambda x: np.where(x > 0.7, x - 0.7, np.where(x < -0.7, x + 0.7, 0))),
    "hardshrink": (lambda x: F.hardshrink(x, 0.7), lambda x: np.where(np.abs(x) > 0.7, x, 0)),
    "glu": (lambda x: F.glu(x, 1), lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    "prelu": (lambda x: F.prelu(x, ms.Tensor(W4)),
              lambda x: np.where(x > 0, x, x * W4[:, None, None])),
    "conv2d": (lambda x: F.conv2d(x, ms.Tensor(KERNEL), stride=2, padding=(1, 0), groups=2),
               lambda x: _conv2d(x, KERNEL, 2, (1, 0), 2)),
    "conv2d_bias": (lambda x: F.conv2d(x, ms.Tensor(KERNEL[:2, :, :, :]).tile((1, 2, 1, 1)),
                                       ms.Tensor(W4[:2])),
                    lambda x: _conv2d(x, np.tile(KERNEL[:2], (1, 2, 1, 1)), 1, (0, 0), 1)
                    + W4[:2, None, None]),
    "conv1d": (lambda x: F.conv1d(x[:, :, 0], ms.Tensor(KERNEL[:, :, :, 0]), padding=1,
                                  groups=2),
               lambda x: _conv2d(x[:, :, 0, :, None], KERNEL[:, :, :, :1], 1, (1, 0), 2)[..., 0]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2),
                   lambda x: x[:, :, :4].reshape(2, 4, 2, 2, 3, 2).mean((3, 5))),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2, 1),
                   lambda x: np.max([x[:, :, i:i + 4, j:j + 5] for i in (0, 1) for j in (0, 1)],
                                    0)),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 4)),
                            lambda x: _adaptive(_adaptive(x, 3, 2), 4, 3)),
    "adaptive_avg_pool1d": (lambda x: F.adaptive_avg_pool1d(x[:, :, 0], 4),
                            lambda x: _adaptive(x[:, :, 0], 4, 2)),
    "batch_norm_eval": (lambda x: F.batch_norm(x, ms.Tensor(B4), ms.Tensor(np.abs(W4)),
                                               ms.Tensor(W4)),
                        lambda x: (x - B4[:, None, None]) / np.sqrt(
                            np.abs(W4)[:, None, None] + 1e-5) * W4[:, None, None]),
    "group_norm": (lambda x: F.group_norm(x, 2, ms.Tensor(W4), ms.Tensor(B4)),
                   lambda x: _group_norm(x, 2, W4, B4)),
    "layer_norm": (lambda x: F.layer_norm(x, (6,)),
                   lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(
                       x.var(-1, keepdims=True) + 1e-5)),
    "interpolate": (lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest"),
                    lambda x: x.repeat(2, 2).repeat(2, 3)),
    "pixel_shuffle": (lambda x: F.pixel_shuffle(x, 2),
                      lambda x: x.reshape(2, 1, 2, 2, 5, 6).transpose(0, 1, 4, 2, 5, 3).reshape(
                          2, 1, 10, 12)),
    "cosine_similarity": (lambda x: F.cosine_similarity(x, x[::-1]),
                          lambda x: (x * x[::-1]).sum(1) / np.maximum(
                              np.linalg.norm(x, axis=1) * np.linalg.norm(x[::-1], axis=1),
                              1e-8)),
    "pairwise_distance": (lambda x: F.pairwise_distance(x, x[::-1], p=1.0),
                          lambda x: np.abs(x - x[::-1] + 1e-6).sum(-1)),
    "triplet_margin_loss": (lambda x: F.triplet_margin_loss(x[0, 0], x[0, 1], x[1, 0]),
                            lambda x: np.maximum(
                                np.linalg.norm(x[0, 0] - x[0, 1] + 1e-6, axis=-1)
                                - np.linalg.norm(x[0, 0] - x[1, 0] + 1e-6, axis=-1) + 1, 0
                            ).mean()),
    "embedding": (lambda x: F.embedding(ms.Tensor(IDS), ms.Tensor(TABLE), padding_idx=2),
                  lambda x: TABLE[IDS]),
    "unfold": (lambda x: F.unfold(x, (2, 3), padding=1, stride=2),
               lambda x: _unfold(x, (2, 3), 2, 1)),
    "fold": (lambda x: F.fold(F.unfold(x, 3, padding=1, stride=2), (5, 6), 3, padding=1,
                              stride=2),
             lambda x: _fold(_unfold(x, (3, 3), 2, 1), (5, 6), (3, 3), 2, 1)),
}


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_against_numpy(name, mode):
    fn, ref = CASES[name]
    got = (fn if mode == "pynative" else ms.jit(fn))(ms.Tensor(IMAGE))
    np.testing.assert_allclose(got.asnumpy(), ref(IMAGE), rtol=1e-4, atol=1e-5)


def test_batch_norm_training_updates_nothing_it_should_not():
    mean, var = ms.Tensor(np.zeros(4, np.float32)), ms.Tensor(np.ones(4, np.float32))
    got = F.batch_norm(ms.Tensor(IMAGE), mean, var, training=True).asnumpy()
    want = (IMAGE - IMAGE.mean((0, 2, 3), keepdims=True)) / np.sqrt(
        IMAGE.var((0, 2, 3), keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


SMALL = RNG.standard_normal((1, 2, 4, 4))


@pytest.mark.parametrize("fn", [
    lambda x: F.softshrink(x, 0.3),
    lambda x: F.group_norm(x, 2),
    lambda x: F.unfold(x, 2, padding=1, stride=2),
    lambda x: F.fold(F.unfold(x, 3, stride=1), (4, 4), 3),
    lambda x: F.adaptive_avg_pool2d(x, 3),
    lambda x: F.pairwise_distance(x, x * 0.5 + 1.0),
])
def test_new_compositions_differentiate(fn):
    check_grads(fn, (SMALL,), order=1, rtol=1e-4)


def test_embedding_padding_row_gets_no_gradient():
    table = ms.Tensor(TABLE)

    def loss(table):
        return F.embedding(ms.Tensor(IDS), table, padding_idx=2).sum()

    grad = ms.grad(loss)(table).asnumpy()
    np.testing.assert_allclose(grad, [[1] * 3, [1] * 3, [0] * 3, [0] * 3, [1] * 3])


def test_errors():
    with pytest.raises(ArgumentValueError, match="group_norm: 4 channels cannot be split"):
        F.group_norm(ms.Tensor(IMAGE), 3)
    with pytest.raises(ShapeError, match="fold: expected 9 blocks"):
        F.fold(ms.Tensor(np.ones((1, 9, 5), np.float32)), (5, 6), 3, padding=1, stride=2)
    with pytest.raises(ShapeError, match="unfold: expected a 4-D"):
        F.unfold(ms.Tensor(IMAGE[0]), 2)


def test_softshrink_reads_a_bool_or_int_lambd_as_a_float():
    # MindSpore 2.10: softshrink(x, True) is softshrink(x, 1.0), and False is 0.0
    from cellgraph.mint.nn.functional import softshrink

    x = ms.Tensor(np.array([-2.0, -0.7, 0.3, 0.9, 1.5], np.float32))
    for lambd in (True, 1):
        assert softshrink(x, lambd).asnumpy().tolist() == [-1.0, 0.0, 0.0, 0.0, 0.5]
    np.testing.assert_allclose(softshrink(x, False).asnumpy(), [-2.0, -0.7, 0.3, 0.9, 1.5])

    class Shrink(ms.nn.Cell):
        def construct(self, a, lambd):
            return softshrink(a, lambd)

    assert Shrink()(x, True).asnumpy().tolist() == [-1.0, 0.0, 0.0, 0.0, 0.5]
