"""Compositions of ops/function/ (triangles, distances, statistics, activations) against
NumPy, eager and inside a graph, with
their gradients against finite differences."""
import math

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4))
Y = RNG.normal(size=(3, 4))


def np_softplus(x):
    return np.log1p(np.exp(x))


def np_elu(x, a=1.0):
    return np.where(x > 0, x, a * (np.exp(x) - 1))


UNARY = {
    "relu6": (ops.relu6, lambda x: np.clip(x, 0, 6)),
    "leaky_relu": (ops.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    "elu": (lambda x: ops.elu(x, 0.5), lambda x: np_elu(x, 0.5)),
    "celu": (lambda x: ops.celu(x, 2.0),
             lambda x: np.maximum(x, 0) + np.minimum(0, 2.0 * (np.exp(x / 2.0) - 1))),
    "selu": (ops.selu, lambda x: 1.0507009873554805 * np_elu(x, 1.6732632423543772)),
    "hardtanh": (ops.hardtanh, lambda x: np.clip(x, -1, 1)),
    "hardsigmoid": (ops.hardsigmoid, lambda x: np.clip(x + 3, 0, 6) / 6),
    "hardswish": (ops.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "logsigmoid": (ops.logsigmoid, lambda x: -np_softplus(-x)),
    "softsign": (ops.softsign, lambda x: x / (1 + np.abs(x))),
    "mish": (ops.mish, lambda x: x * np.tanh(np_softplus(x))),
    "softmin": (ops.softmin, lambda x: np.exp(-x) / np.exp(-x).sum(-1, keepdims=True)),
    "glu": (ops.glu, lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
    "tril": (lambda x: ops.tril(x, -1), lambda x: np.tril(x, -1)),
    "triu": (lambda x: ops.triu(x, 1), lambda x: np.triu(x, 1)),
    "band": (lambda x: ops.matrix_band_part(x, 1, 0),
             lambda x: np.tril(x) - np.tril(x, -2)),
    "diagonal": (lambda x: ops.diagonal(x, 1), lambda x: np.diagonal(x, 1)),
    "trace": (ops.trace, np.trace),
    "std": (lambda x: ops.std(x, axis=1, ddof=1), lambda x: x.std(axis=1, ddof=1)),
    "var": (lambda x: ops.var(x, axis=0, keepdims=True),
            lambda x: x.var(axis=0, keepdims=True)),
    "movedim": (lambda x: ops.movedim(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    "narrow": (lambda x: ops.narrow(x, 1, 1, 2), lambda x: x[:, 1:3]),
    "repeat_interleave": (lambda x: ops.repeat_interleave(x, [1, 0, 2], axis=0),
                          lambda x: np.repeat(x, [1, 0, 2], axis=0)),
    "logit": (lambda x: ops.logit(ops.sigmoid(x)), lambda x: x),
}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_compositions_match_numpy_and_differentiate(name):
    fn, reference = UNARY[name]

    class Graph(nn.Cell):
        def construct(self, x):
            return fn(x)

    x = Tensor(X)
    np.testing.assert_allclose(fn(x).asnumpy(), reference(X), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(Graph()(x).asnumpy(), reference(X), rtol=1e-6, atol=1e-12)
    check_grads(fn, (x,), order=1, rtol=1e-4)


def test_binary_compositions():
    x, y = Tensor(X), Tensor(Y)
    np.testing.assert_allclose(ops.cosine_similarity(x, y).asnumpy(),
                               (X * Y).sum(1) / np.linalg.norm(X, axis=1)
                               / np.linalg.norm(Y, axis=1), rtol=1e-6)
    np.testing.assert_allclose(ops.logaddexp(x, y).asnumpy(), np.logaddexp(X, Y), rtol=1e-6)
    np.testing.assert_allclose(ops.lerp(x, y, 0.25).asnumpy(), X + 0.25 * (Y - X))
    np.testing.assert_allclose(ops.xlogy(Tensor(np.array([0.0, 2.0])),
                                     Tensor(np.array([0.0, 3.0]))).asnumpy(),
                               [0.0, 2 * math.log(3)])
    bias = RNG.normal(size=(3, 3))
    np.testing.assert_allclose(ops.addmm(Tensor(bias), x, y.T, beta=0.5, alpha=2).asnumpy(),
                               0.5 * bias + 2 * X @ Y.T, rtol=1e-6)
    check_grads(ops.cosine_similarity, (x, y), order=2, rtol=1e-4)
    check_grads(ops.logaddexp, (x, y), order=2, rtol=1e-4)


def test_cdist_norms_and_zero_distance_gradient():
    a, b = RNG.normal(size=(2, 5, 3)), RNG.normal(size=(2, 4, 3))
    diff = a[:, :, None] - b[:, None]
    for p, reference in ((2.0, np.sqrt((diff ** 2).sum(-1))), (1.0, np.abs(diff).sum(-1)),
                         (3.0, (np.abs(diff) ** 3).sum(-1) ** (1 / 3)),
                         (float("inf"), np.abs(diff).max(-1)), (0.0, (diff != 0).sum(-1))):
        np.testing.assert_allclose(ops.cdist(Tensor(a), Tensor(b), p).asnumpy(), reference,
                                   rtol=1e-6)
    check_grads(lambda u, v: ops.cdist(u, v), (Tensor(a), Tensor(b)), order=1, rtol=1e-4)
    same = Tensor(a[0])
    grad = ops.grad(lambda u: ops.cdist(u, same).sum())(Tensor(a[0])).asnumpy()
    assert np.all(np.isfinite(grad))


def test_shape_helpers():
    v = Tensor(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(ops.diag(v).asnumpy(), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(ops.full_like(v, 7).asnumpy(), [7.0, 7.0, 7.0])
    assert ops.full_like(v, 7, dtype=ms.int32).dtype == ms.int32
    np.testing.assert_array_equal(ops.hstack([v, v]).asnumpy(), np.hstack([[1, 2, 3]] * 2))
    np.testing.assert_array_equal(ops.vstack([v, v]).asnumpy(), np.vstack([[1, 2, 3]] * 2))
    np.testing.assert_array_equal(ops.repeat_interleave(v, 2).asnumpy(), np.repeat([1, 2, 3], 2))
    np.testing.assert_array_equal(ops.count_nonzero(Tensor(np.array([[0, 1], [2, 3]])),
                                                    axis=1).asnumpy(), [1, 2])
    nan = Tensor(np.array([np.nan, np.inf, -np.inf, 1.0], np.float32))
    np.testing.assert_array_equal(ops.nan_to_num(nan, 0.0, 5.0, -5.0).asnumpy(),
                                  [0.0, 5.0, -5.0, 1.0])
    x = RNG.normal(size=(1, 8, 2, 3))
    shuffled = ops.pixel_shuffle(Tensor(x), 2)
    assert shuffled.shape == (1, 2, 4, 6)
    np.testing.assert_array_equal(shuffled.asnumpy()[0, 1, 1, 3], x[0, 4 + 2 + 1, 0, 1])
    np.testing.assert_array_equal(ops.pixel_unshuffle(shuffled, 2).asnumpy(), x)
    weight = Tensor(np.array([0.1, 0.5]))
    image = Tensor(RNG.normal(size=(1, 2, 2, 2)))
    expected = np.where(image.asnumpy() > 0, image.asnumpy(),
                        image.asnumpy() * np.array([0.1, 0.5])[:, None, None])
    np.testing.assert_allclose(ops.prelu(image, weight).asnumpy(), expected)
    with pytest.raises(ValueError, match="counts"):
        ops.repeat_interleave(v, [1, 2], axis=0)
    with pytest.raises(ValueError, match="rank >= 2"):
        ops.triu(v)


def test_unsorted_segment_reductions():
    x = RNG.normal(size=(5, 2))
    ids = np.array([1, 0, 1, -1, 7])                 # -1 and 7 (>= num_segments) are dropped
    kept = {0: [1], 1: [0, 2], 2: []}
    got = {name: getattr(ops, f"unsorted_segment_{name}")(Tensor(x), Tensor(ids), 3).asnumpy()
           for name in ("sum", "max", "min", "prod")}
    for s, rows in kept.items():
        if rows:
            np.testing.assert_allclose(got["sum"][s], x[rows].sum(0))
            np.testing.assert_allclose(got["max"][s], x[rows].max(0))
            np.testing.assert_allclose(got["min"][s], x[rows].min(0))
            np.testing.assert_allclose(got["prod"][s], x[rows].prod(0))
    np.testing.assert_array_equal(got["sum"][2], [0.0, 0.0])
    assert np.all(got["max"][2] == np.finfo(np.float64).min)
    np.testing.assert_array_equal(got["prod"][2], [1.0, 1.0])
    segment_sum = ops.UnsortedSegmentSum()
    check_grads(lambda v: segment_sum(v, Tensor(ids), 3) ** 2, (Tensor(x),), order=2)
    check_grads(lambda v: ops.unsorted_segment_max(v, Tensor(ids[:3]), 2), (Tensor(x[:3]),))
    with pytest.raises(ValueError, match="prefix"):
        segment_sum(Tensor(x), Tensor(np.array([0, 1])), 2)
    with pytest.raises(TypeError, match="integer"):
        segment_sum(Tensor(x), Tensor(np.zeros(5)), 2)
