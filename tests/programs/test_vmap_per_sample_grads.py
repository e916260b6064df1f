"""Per-example gradients with ops.vmap over ops.grad (the DP-SGD idiom), checked against a loop
of single-example gradients; vmap with in_axes/out_axes over a Cell's method."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


def predict(weight, bias, x):
    return ops.tanh(ops.matmul(x, weight) + bias)


def loss_fn(weight, bias, x, y):
    return ops.reduce_mean((predict(weight, bias, x) - y) ** 2)


def test_per_sample_gradients_match_a_loop():
    rng = np.random.default_rng(0)
    weight = Tensor(rng.normal(size=(3, 2)).astype(np.float32))
    bias = Tensor(rng.normal(size=(2,)).astype(np.float32))
    xs = Tensor(rng.normal(size=(5, 3)).astype(np.float32))
    ys = Tensor(rng.normal(size=(5, 2)).astype(np.float32))

    per_sample = ops.vmap(ops.grad(loss_fn, grad_position=(0, 1)), in_axes=(None, None, 0, 0))
    dw, db = per_sample(weight, bias, xs, ys)
    assert dw.shape == (5, 3, 2) and db.shape == (5, 2)
    single = ops.grad(loss_fn, grad_position=(0, 1))
    for i in range(5):
        dw_i, db_i = single(weight, bias, xs[i], ys[i])
        np.testing.assert_allclose(dw.asnumpy()[i], dw_i.asnumpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(db.asnumpy()[i], db_i.asnumpy(), rtol=1e-5, atol=1e-6)
    # the mean of per-example gradients is the batch gradient
    dw_batch, _ = single(weight, bias, xs, ys)
    np.testing.assert_allclose(dw.asnumpy().mean(0), dw_batch.asnumpy(), rtol=1e-5, atol=1e-6)


def test_vmap_jit_and_out_axes():
    @ms.jit
    def scaled_dot(a, b, scale):
        return ops.reduce_sum(a * b) * scale

    a = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    b = Tensor(np.ones((4, 3), np.float32))
    out = ops.vmap(scaled_dot, in_axes=(0, 1, None))(a, b, 2.0)
    np.testing.assert_allclose(out.asnumpy(), 2.0 * a.asnumpy().sum(1))

    def outer(x, y):
        return x.reshape(-1, 1) * y.reshape(1, -1)

    stacked = ops.vmap(outer, in_axes=0, out_axes=2)(a, a)
    assert stacked.shape == (4, 4, 3)
    np.testing.assert_allclose(stacked.asnumpy()[:, :, 1], np.outer(a.asnumpy()[1],
                                                                       a.asnumpy()[1]))


def test_vmap_over_a_cell():
    net = nn.Dense(3, 2)
    xs = Tensor(np.random.default_rng(1).normal(size=(4, 6, 3)).astype(np.float32))
    out = ms.vmap(net, in_axes=0)(xs)
    np.testing.assert_allclose(out.asnumpy(), net(xs.reshape(24, 3)).asnumpy().reshape(4, 6, 2),
                               rtol=1e-5, atol=1e-6)
