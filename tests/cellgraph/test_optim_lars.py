"""nn.LARS and ops.LARSUpdate. MindSpore 2.10's CPU build has no LARSUpdate kernel, so the
values are its documented example's and a NumPy reference of the formula its docs give."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X = np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]], np.float32)
G = np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]], np.float32)


def test_lars_update_gives_mindspores_documented_example():
    out = ops.LARSUpdate()(Tensor(X), Tensor(G), Tensor((X * X).sum()), Tensor((G * G).sum()),
                           0.0, 1.0)
    np.testing.assert_allclose(out.asnumpy(), [[0.0005265, 0.0005265, 0.00065813],
                                               [0.00026325, 0.0005265, 0.00039488]], rtol=1e-4)
    with pytest.raises(TypeError, match="epsilon"):
        ops.LARSUpdate(epsilon=1)


def _reference(w, b, x, y, steps, lr, momentum, decay, eps, coefficient, use_clip):
    vw, vb, losses = np.zeros_like(w), np.zeros_like(b), []
    for _ in range(steps):
        err = x @ w.T + b - y
        losses.append((err ** 2).mean())
        gw, gb = 2 * err.T @ x / err.size, 2 * err.sum(0) / err.size
        wn, gn = np.sqrt((w * w).sum()), np.sqrt((gw * gw).sum())
        trust = coefficient * wn / (gn + decay * wn + eps)
        if use_clip:
            trust = min(trust / lr, 1.0)
        gw = trust * (gw + decay * w)  # the bias is filtered out: its gradient as it is
        vw, vb = momentum * vw + gw, momentum * vb + gb
        w, b = w - lr * vw, b - lr * vb
    return w, b, losses


@pytest.mark.parametrize("use_clip", [False, True])
def test_lars_steps_as_the_formula_gives(use_clip):
    rng = np.random.default_rng(3)
    w, b = rng.standard_normal((2, 3)), rng.standard_normal(2)
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
    net = nn.Dense(3, 2, weight_init=Tensor(w), bias_init=Tensor(b), dtype=ms.float64)
    inner = nn.Momentum(net.trainable_params(), 0.1, 0.5, weight_decay=0.01)
    opt = nn.LARS(inner, epsilon=1e-8, coefficient=0.02, use_clip=use_clip)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    losses = [float(train(Tensor(x), Tensor(y)).asnumpy()) for _ in range(3)]
    w_ref, b_ref, loss_ref = _reference(w, b, x, y, 3, float(np.float32(0.1)),
                                        float(np.float32(0.5)), 0.01, 1e-8, 0.02, use_clip)
    np.testing.assert_allclose(losses, loss_ref, rtol=1e-10)
    np.testing.assert_allclose(net.weight.asnumpy(), w_ref, rtol=1e-10)
    np.testing.assert_allclose(net.bias.asnumpy(), b_ref, rtol=1e-10)
    assert int(opt.global_step.asnumpy()[0]) == 3 and opt.global_step is inner.global_step


def test_lars_state_names_as_mindspore():
    net = nn.Dense(3, 2)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.LARS(nn.Momentum(net.trainable_params(), 0.1, 0.9)))
    assert [(n, p.name) for n, p in train.parameters_and_names()][2:] == [
        ("optimizer.global_step", "global_step"), ("optimizer.learning_rate", "fake_lr"),
        ("optimizer.fake_param", "fake_param"), ("optimizer.opt.learning_rate", "learning_rate"),
        ("optimizer.opt.momentum", "momentum"),
        ("optimizer.opt.moments.weight", "moments.weight"),
        ("optimizer.opt.moments.bias", "moments.bias")]
    with pytest.raises(TypeError, match="optimizer"):
        nn.LARS(net)
