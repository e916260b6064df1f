"""mindspore.experimental.optim: PyTorch's update rules for SGD, Adam and AdamW with parameter
groups, checked against NumPy over several steps, and the learning-rate schedulers (which
change the rates without recompiling the training step)."""
import math

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.experimental import optim
from cellgraph.experimental.optim import lr_scheduler

X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], np.float32)
Y = np.array([[1.0], [0.0], [2.0]], np.float32)


def _net():
    return nn.Dense(2, 1, weight_init=Tensor(np.array([[0.3, -0.2]], np.float32)),
                    bias_init=Tensor(np.array([0.1], np.float32)))


def _grads(w, b):
    err = X @ w.T + b - Y  # d mean(err^2)
    return 2 * err.T @ X / err.size, 2 * err.sum(0) / err.size


def _train(opt_factory, steps=4):
    net = _net()
    opt = opt_factory(net.trainable_params())
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for _ in range(steps):
        step(Tensor(X), Tensor(Y))
    return net.weight.asnumpy(), net.bias.asnumpy(), step


def _reference(update, steps=4):
    w, b = np.array([[0.3, -0.2]]), np.array([0.1])
    state = [{}, {}]
    for t in range(1, steps + 1):
        gw, gb = _grads(w, b)
        w = update(w, gw, state[0], t)
        b = update(b, gb, state[1], t)
    return w, b


def _adam(lr, betas, eps, wd, decoupled):
    def update(p, g, s, t):
        if wd and decoupled:
            p = p * (1 - lr * wd)
        elif wd:
            g = g + wd * p
        s["m"] = betas[0] * s.get("m", 0) + (1 - betas[0]) * g
        s["v"] = betas[1] * s.get("v", 0) + (1 - betas[1]) * g * g
        denom = np.sqrt(s["v"]) / math.sqrt(1 - betas[1] ** t) + eps
        return p - lr / (1 - betas[0] ** t) * s["m"] / denom
    return update


def _sgd(lr, momentum, dampening, wd, nesterov):
    def update(p, g, s, t):
        g = g + wd * p
        if momentum:
            s["buf"] = g if t == 1 else momentum * s["buf"] + (1 - dampening) * g
            g = g + momentum * s["buf"] if nesterov else s["buf"]
        return p - lr * g
    return update


@pytest.mark.parametrize("factory,update", [
    (lambda p: optim.Adam(p, lr=0.05), _adam(0.05, (0.9, 0.999), 1e-8, 0.0, False)),
    (lambda p: optim.Adam(p, lr=0.05, weight_decay=0.1), _adam(0.05, (0.9, 0.999), 1e-8, 0.1,
                                                               False)),
    (lambda p: optim.AdamW(p, lr=0.05, betas=(0.8, 0.99)), _adam(0.05, (0.8, 0.99), 1e-8, 0.01,
                                                                 True)),
    (lambda p: optim.SGD(p, lr=0.1), _sgd(0.1, 0.0, 0.0, 0.0, False)),
    (lambda p: optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
     _sgd(0.1, 0.9, 0.1, 0.01, False)),
    (lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True), _sgd(0.1, 0.9, 0, 0, True)),
])
def test_updates_match_pytorch_rules(factory, update):
    w, b, _ = _train(factory)
    ref_w, ref_b = _reference(update)
    np.testing.assert_allclose(w, ref_w, rtol=1e-4, atol=1e-5)  # float32 against float64
    np.testing.assert_allclose(b, ref_b, rtol=1e-4, atol=1e-5)


def test_parameter_groups_have_their_own_rates():
    net = _net()
    opt = optim.SGD([{"params": [net.weight], "lr": 0.0}, {"params": [net.bias]}], lr=0.1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    step(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(net.weight.asnumpy(), [[0.3, -0.2]])  # lr 0 for this group
    gb = _grads(np.array([[0.3, -0.2]]), np.array([0.1]))[1]
    np.testing.assert_allclose(net.bias.asnumpy(), 0.1 - 0.1 * gb, rtol=1e-5)


def test_schedulers_change_rates_without_recompiling():
    _, _, step = _train(lambda p: optim.SGD(p, lr=0.1), steps=1)
    opt = step.optimizer
    sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    rates = []
    for _ in range(5):
        step(Tensor(X), Tensor(Y))
        rates.append(sched.get_last_lr()[0])
        sched.step()
    np.testing.assert_allclose(rates, [0.1, 0.1, 0.05, 0.05, 0.025], rtol=1e-6)
    assert len(step._graph_cache.entries) == 1


def _rates(make, steps=6, lr=1.0):
    opt = optim.SGD(_net().trainable_params(), lr=lr)
    sched = make(opt)
    out = []
    for _ in range(steps):
        out.append(sched.get_last_lr()[0])
        sched.step()
    return out


def test_scheduler_formulas():
    np.testing.assert_allclose(_rates(lambda o: lr_scheduler.MultiStepLR(o, [2, 4], 0.1)),
                               [1, 1, 0.1, 0.1, 0.01, 0.01], rtol=1e-6)
    np.testing.assert_allclose(_rates(lambda o: lr_scheduler.ExponentialLR(o, 0.5)),
                               [0.5 ** k for k in range(6)], rtol=1e-6)
    np.testing.assert_allclose(_rates(lambda o: lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1))),
                               [1 / (k + 1) for k in range(6)], rtol=1e-6)
    np.testing.assert_allclose(_rates(lambda o: lr_scheduler.CosineAnnealingLR(o, 4, 0.0)),
                               [(1 + math.cos(math.pi * k / 4)) / 2 for k in range(6)],
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(_rates(lambda o: lr_scheduler.LinearLR(o, 0.5, 1.0, 2)),
                               [0.5, 0.75, 1, 1, 1, 1], rtol=1e-6)
    seq = _rates(lambda o: lr_scheduler.SequentialLR(
        o, [lr_scheduler.ConstantLR(o, 0.1, 2), lr_scheduler.ExponentialLR(o, 0.5)], [2]))
    np.testing.assert_allclose(seq, [0.1, 0.1, 1, 0.5, 0.25, 0.125], rtol=1e-6)


def test_reduce_on_plateau():
    opt = optim.Adam(_net().trainable_params(), lr=1.0)
    sched = lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)
    for loss in (1.0, 0.9, 0.95, 0.95, 0.95, 0.8):
        sched.step(loss)
    np.testing.assert_allclose(sched.get_last_lr(), [0.5])
    with pytest.raises(ValueError):
        lr_scheduler.ReduceLROnPlateau(opt, factor=2.0)
    assert ms.experimental.optim.AdamW is optim.AdamW
