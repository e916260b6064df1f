"""`cellgraph.mint`, the PyTorch-style API: values against NumPy (and PyTorch where it is
installed), eagerly and inside compiled functions, and the layers' parameter names."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mint
from cellgraph.mint.nn import functional as F
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.testing import check_grads

X = np.array([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]], np.float32)
IDX = np.array([[0, 2], [1, 0]], np.int64)

CASES = {
    "div_floor": (lambda x: mint.div(x, 2.0, rounding_mode="floor"), np.floor(X / 2)),
    "div_trunc": (lambda x: mint.div(x, 2.0, rounding_mode="trunc"), np.trunc(X / 2)),
    "remainder": (lambda x: mint.remainder(x, 1.5), np.mod(X, 1.5)),
    "all": (lambda x: mint.all(x > -3, dim=1), np.all(X > -3, 1)),
    "any": (lambda x: mint.any(x > 3), np.any(X > 3)),
    "round": (lambda x: mint.round(x * 1.25, decimals=1), np.round(X * 1.25, 1)),
    "sinc": (lambda x: mint.sinc(x / 4), np.sinc(X / 4)),
    "dot": (lambda x: mint.dot(x[0], x[1]), X[0] @ X[1]),
    "mm_t": (lambda x: mint.mm(x, mint.t(x)), X @ X.T),
    "expand_as": (lambda x: mint.expand_as(x[:1], x), np.broadcast_to(X[:1], X.shape)),
    "clone": (mint.clone, X),
    "gather": (lambda x: mint.gather(x, 1, Tensor(IDX)), np.take_along_axis(X, IDX, 1)),
    "scatter": (lambda x: mint.scatter(x * 0, 1, Tensor(IDX), 5.0),
                np.array([[5, 0, 5], [5, 5, 0]])),
    "scatter_add": (lambda x: mint.scatter_add(x * 0, 1, Tensor(np.array([[0, 0], [1, 1]])),
                                               x[:, :2]),
                    np.array([[2.0, 0, 0], [0, 4.5, 0]])),
    "diag_of_matrix": (lambda x: mint.diag(x, 1), np.diag(X, 1)),
    "diag_from_vector": (lambda x: mint.diag(x[0], -1), np.diag(X[0], -1)),
    "sort": (lambda x: mint.sort(x, dim=1, descending=True)[0], -np.sort(-X, 1)),
    "argsort": (lambda x: mint.argsort(x, dim=1), np.argsort(X, 1)),
    "topk": (lambda x: mint.topk(x, 2)[1], np.argsort(-X, 1)[:, :2]),
    "median": (mint.median, np.sort(X.ravel())[(X.size - 1) // 2]),
    "log_softmax": (lambda x: mint.log_softmax(x, dim=1),
                    X - np.log(np.exp(X).sum(1, keepdims=True))),
    "logsumexp": (lambda x: mint.logsumexp(x, 1), np.log(np.exp(X).sum(1))),
    "norm_fro": (mint.norm, np.linalg.norm(X)),
    "norm_1": (lambda x: mint.norm(x, 1, dim=1), np.abs(X).sum(1)),
    "norm_inf": (lambda x: mint.norm(x, float("inf")), np.abs(X).max()),
    "std": (lambda x: mint.std(x, dim=1), X.std(1, ddof=1)),
    "var_biased": (lambda x: mint.var(x, correction=0), X.var()),
    "cummax": (lambda x: mint.cummax(x, 1)[0], np.maximum.accumulate(X, 1)),
    "tril": (mint.tril, np.tril(X)),
    "repeat_interleave": (lambda x: mint.repeat_interleave(x, 2, dim=0), np.repeat(X, 2, 0)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_mint_functions_eagerly_and_compiled(name):
    fn, expected = CASES[name]
    np.testing.assert_allclose(fn(Tensor(X)).asnumpy(), expected, rtol=1e-6, atol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(ms.jit(fn)(Tensor(X)).asnumpy(), expected, rtol=1e-6, atol=1e-6)


def test_mint_functions_returning_python_values_and_tuples():
    x = Tensor(X)
    assert mint.allclose(x, x + 1e-9) is True and mint.allclose(x, x + 1) is False
    np.testing.assert_array_equal(mint.nonzero(x > 1).asnumpy(), np.argwhere(X > 1))
    values, inverse, counts = mint.unique(Tensor(np.array([3, 1, 3, 2])), return_inverse=True,
                                          return_counts=True)
    assert values.asnumpy().tolist() == [1, 2, 3]
    assert inverse.asnumpy().tolist() == [2, 0, 2, 1] and counts.asnumpy().tolist() == [1, 1, 2]
    with pytest.raises(ArgumentValueError, match="rounding_mode"):
        mint.div(x, 2.0, rounding_mode="up")
    with pytest.raises(ArgumentValueError, match="1-D"):
        mint.dot(x, x)


def test_mint_random_functions():
    ms.set_seed(0)
    ints = mint.randint(0, 5, (200,)).asnumpy()
    assert ints.dtype == np.int64 and ints.min() >= 0 and ints.max() < 5
    assert mint.randint(3, (4,)).asnumpy().max() < 3
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    assert mint.normal(0.0, 1.0, (3, 2)).shape == (3, 2)
    shifted = mint.normal(Tensor(np.full(4000, 5.0, np.float32)), 0.1).asnumpy()
    assert abs(shifted.mean() - 5.0) < 0.01
    draws = mint.bernoulli(Tensor(np.full(4000, 0.25, np.float32))).asnumpy()
    assert set(np.unique(draws)) <= {0.0, 1.0} and abs(draws.mean() - 0.25) < 0.03
    assert mint.rand_like(Tensor(X)).shape == X.shape and mint.empty_like(Tensor(X)).shape == X.shape


def test_functional_layers():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 6, 6)).astype(np.float32)
    pooled = F.adaptive_avg_pool2d(Tensor(x), (2, 3)).asnumpy()
    np.testing.assert_allclose(pooled[..., 0, 0], x[..., :3, :2].mean((-1, -2)), rtol=1e-5)
    np.testing.assert_allclose(F.adaptive_avg_pool1d(Tensor(x[:, :, 0]), 3).asnumpy(),
                               x[:, :, 0].reshape(2, 4, 3, 2).mean(-1), rtol=1e-5)
    grouped = F.group_norm(Tensor(x), 2).asnumpy().reshape(2, 2, -1)
    np.testing.assert_allclose(grouped.mean(-1), 0, atol=1e-5)
    np.testing.assert_allclose(grouped.std(-1), 1, rtol=1e-3)
    table = rng.standard_normal((5, 3))
    ids = Tensor(np.array([[0, 4], [2, 0]]))
    np.testing.assert_allclose(F.embedding(ids, Tensor(table)).asnumpy(), table[[[0, 4], [2, 0]]])
    grad = ms.grad(lambda t: F.embedding(ids, t, padding_idx=0).sum())(Tensor(table)).asnumpy()
    np.testing.assert_allclose(grad[:, 0], [0, 0, 1, 0, 1])  # row 0 gets no gradient
    w = rng.standard_normal((3, 4, 3, 3)).astype(np.float32)
    assert F.conv2d(Tensor(x), Tensor(w), padding=1).shape == (2, 3, 6, 6)
    assert F.conv2d(Tensor(x), Tensor(w), padding=(1, 0), stride=2).shape == (2, 3, 3, 2)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    np.testing.assert_allclose(F.pairwise_distance(Tensor(a), Tensor(b)).asnumpy(),
                               np.linalg.norm(a - b + 1e-6, axis=-1), rtol=1e-10)
    check_grads(lambda v: F.group_norm(v, 2), (rng.standard_normal((2, 4, 3)),), order=2)


def test_layers_and_their_parameter_names():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    y = rng.standard_normal((2, 4, 5, 5)).astype(np.float32)
    ours = mint.nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
    theirs = torch.nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1, output_padding=1)
    assert [n for n, _ in ours.parameters_and_names()] == ["weight", "bias"]
    ours.weight.set_data(theirs.weight.detach().numpy())
    ours.bias.set_data(theirs.bias.detach().numpy())
    np.testing.assert_allclose(ours(Tensor(y)).asnumpy(),
                               theirs(torch.from_numpy(y)).detach().numpy(), atol=1e-5)
    conv1 = mint.nn.Conv1d(4, 5, 3, padding=1)
    assert conv1(Tensor(y[:, :, 0])).shape == (2, 5, 5)
    t = torch.from_numpy(y)
    for ours, theirs in [(mint.nn.Softplus(2.0, 3.0), torch.nn.Softplus(2.0, 3.0)),
                         (mint.nn.LeakyReLU(0.1), torch.nn.LeakyReLU(0.1)),
                         (mint.nn.ReplicationPad2d((1, 0, 2, 0)),
                          torch.nn.ReplicationPad2d((1, 0, 2, 0)))]:
        np.testing.assert_allclose(ours(Tensor(y)).asnumpy(), theirs(t).numpy(), atol=1e-6)
    target = np.abs(y) / np.abs(y).sum()
    np.testing.assert_allclose(
        mint.nn.KLDivLoss("sum")(Tensor(y), Tensor(target)).asnumpy(),
        torch.nn.KLDivLoss(reduction="sum")(t, torch.from_numpy(target)).numpy(), rtol=1e-5)
    np.testing.assert_allclose(
        mint.nn.SmoothL1Loss()(Tensor(y), Tensor(y * 0)).asnumpy(),
        torch.nn.SmoothL1Loss()(t, t * 0).numpy(), rtol=1e-6)
