"""Tensor idioms that model code leans on, each inside a small realistic function compared with
NumPy: a causal mask from ops.triu + masked_fill for GPT-style attention, k-nearest-neighbour
voting with ops.cdist + ops.topk + ops.one_hot, a relative-position table from ops.meshgrid,
label smoothing with ops.full_like and Tensor.scatter, mixup with ops.randperm-free index
shuffles, ops.chunk/ops.split/ops.unbind for gate splitting, ops.repeat_interleave and
Tensor.repeat/tile for grouped-query heads, and ops.einsum for a bilinear score."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class CausalSelfAttention(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Dense(dim, 3 * dim)
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        b, t, c = x.shape
        q, k, v = ops.chunk(self.qkv(x), 3, axis=-1)
        q = q.view(b, t, self.heads, c // self.heads).transpose(0, 2, 1, 3)
        k = k.view(b, t, self.heads, c // self.heads).transpose(0, 2, 1, 3)
        v = v.view(b, t, self.heads, c // self.heads).transpose(0, 2, 1, 3)
        att = ops.matmul(q, k.swapaxes(-2, -1)) / (k.shape[-1] ** 0.5)
        mask = ops.triu(ops.ones((t, t), ms.bool_), diagonal=1)
        att = att.masked_fill(mask, float("-inf"))
        att = ops.softmax(att, axis=-1)
        y = ops.matmul(att, v).transpose(0, 2, 1, 3).reshape(b, t, c)
        return self.proj(y)


def test_causal_attention_ignores_the_future():
    attn = CausalSelfAttention(8, 2)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 5, 8)).astype(np.float32)
    out = attn(Tensor(x)).asnumpy()
    changed = x.copy()
    changed[:, 3:] += 10.0
    out2 = attn(Tensor(changed)).asnumpy()
    np.testing.assert_allclose(out[:, :3], out2[:, :3], rtol=1e-5, atol=1e-5)
    assert not np.allclose(out[:, 3:], out2[:, 3:])
    grad = ops.grad(lambda inp: attn(inp)[:, 1].sum())(Tensor(x)).asnumpy()
    assert np.all(grad[:, 2:] == 0) and np.any(grad[:, :2] != 0)


def knn_predict(train_x, train_y, query, k, classes):
    distances = ops.cdist(query, train_x)
    _, idx = ops.topk(-distances, k)
    votes = ops.one_hot(train_y[idx], classes, Tensor(1.0, ms.float32),
                        Tensor(0.0, ms.float32)).sum(axis=1)
    return votes.argmax(axis=-1)


def test_knn_voting_matches_numpy():
    rng = np.random.default_rng(1)
    train_x = rng.normal(size=(30, 2)).astype(np.float32)
    train_y = (train_x[:, 0] > 0).astype(np.int32) + (train_x[:, 1] > 0).astype(np.int32)
    query = rng.normal(size=(7, 2)).astype(np.float32)
    got = knn_predict(Tensor(train_x), Tensor(train_y), Tensor(query), 5, 3).asnumpy()
    d = np.sqrt(((query[:, None] - train_x[None]) ** 2).sum(-1))
    nearest = np.argsort(d, axis=1)[:, :5]
    expected = np.array([np.bincount(train_y[row], minlength=3).argmax() for row in nearest])
    np.testing.assert_array_equal(got, expected)


def test_relative_position_index_from_meshgrid():
    window = 3
    coords_h, coords_w = ops.meshgrid(ops.arange(window), ops.arange(window), indexing="ij")
    coords = ops.stack([coords_h, coords_w]).reshape(2, -1)
    relative = coords[:, :, None] - coords[:, None, :]
    relative = relative.transpose(1, 2, 0)
    index = (relative[..., 0] + window - 1) * (2 * window - 1) + relative[..., 1] + window - 1
    h, w = np.meshgrid(np.arange(window), np.arange(window), indexing="ij")
    c = np.stack([h, w]).reshape(2, -1)
    r = (c[:, :, None] - c[:, None, :]).transpose(1, 2, 0)
    np.testing.assert_array_equal(index.asnumpy(),
                                  (r[..., 0] + 2) * 5 + r[..., 1] + 2)


def test_label_smoothing_with_scatter():
    logits = Tensor(np.zeros((3, 4), np.float32))
    labels = Tensor(np.array([[1], [3], [0]], np.int64))
    eps = 0.1
    smooth = ops.full_like(logits, eps / 3)
    target = smooth.scatter(1, labels, ops.full(labels.shape, 1 - eps, dtype=ms.float32))
    expected = np.full((3, 4), eps / 3, np.float32)
    expected[[0, 1, 2], [1, 3, 0]] = 1 - eps
    np.testing.assert_allclose(target.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(target.sum(axis=1).asnumpy(), np.ones(3), rtol=1e-6)


def test_gate_splitting_and_grouped_heads():
    rng = np.random.default_rng(2)
    gates = rng.normal(size=(2, 12)).astype(np.float32)
    _, f, _, _ = ops.split(Tensor(gates), 3, axis=1)
    np.testing.assert_allclose(f.asnumpy(), gates[:, 3:6])
    a, b = ops.split(Tensor(gates), [4, 8], axis=1)
    assert a.shape == (2, 4) and b.shape == (2, 8)
    rows = ops.unbind(Tensor(gates), dim=0)
    assert len(rows) == 2 and rows[1].shape == (12,)
    kv = Tensor(rng.normal(size=(2, 2, 5, 3)).astype(np.float32))   # 2 kv heads
    expanded = ops.repeat_interleave(kv, 3, axis=1)                  # 6 query heads
    np.testing.assert_allclose(expanded.asnumpy(), np.repeat(kv.asnumpy(), 3, axis=1))
    tiled = kv.tile((1, 3, 1, 1))
    np.testing.assert_allclose(tiled.asnumpy(), np.tile(kv.asnumpy(), (1, 3, 1, 1)))


def test_bilinear_score_with_einsum_and_its_gradient():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 3)).astype(np.float32)
    y = rng.normal(size=(4, 5)).astype(np.float32)
    w = rng.normal(size=(3, 5)).astype(np.float32)
    score = ops.einsum("bi,ij,bj->b", Tensor(x), Tensor(w), Tensor(y))
    np.testing.assert_allclose(score.asnumpy(), np.einsum("bi,ij,bj->b", x, w, y), rtol=1e-5)
    grad_w = ops.grad(lambda m: ops.einsum("bi,ij,bj->b", Tensor(x), m, Tensor(y)).sum())(
        Tensor(w))
    np.testing.assert_allclose(grad_w.asnumpy(), x.T @ y, rtol=1e-5)
