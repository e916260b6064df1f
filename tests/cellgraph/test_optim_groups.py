"""Parameter groups: per-group learning rates (fixed, per-step lists, schedules), weight decay
and gradient centralisation, order_params, against the NumPy reference updates."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Parameter, Tensor, nn
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .test_optim import STEPS, Net, _data, np_grads, np_update


def _grouped_run(kind, hp, groups_of, rng):
    """Train 3 steps with the parameter groups `groups_of(weight, bias)` builds (rates are
    stored as float32, hence the tolerances below)."""
    w, b, x, y = _data(rng)
    net = Net(w, b)
    opt = getattr(nn, kind)(groups_of(net.fc.weight, net.fc.bias), **hp)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    for _ in range(STEPS):
        train(Tensor(x), Tensor(y))
    return (w, b, x, y), net, opt


def _np_grouped(kind, w_hp, b_hp, w, b, x, y, w_lrs, b_lrs):
    states = ({}, {})
    for t in range(STEPS):
        gw, gb = np_grads(w, b, x, y)
        w = np_update(kind, w_hp, w, gw, states[0], t, w_lrs[t])
        b = np_update(kind, b_hp, b, gb, states[1], t, b_lrs[t])
    return w, b


@pytest.mark.parametrize("kind", ["SGD", "Momentum", "Adam", "AdamW"])
def test_group_learning_rates_and_weight_decay(rng, kind):
    hp = {"momentum": 0.9} if kind == "Momentum" else {}
    (w, b, x, y), net, _ = _grouped_run(kind, dict(hp, learning_rate=0.05), lambda wt, bias: [
        {"params": [wt], "weight_decay": 0.1, "lr": [0.2, 0.1, 0.05]},
        {"params": [bias], "weight_decay": 0.0}], rng)
    w_ref, b_ref = _np_grouped(kind, dict(hp, weight_decay=0.1), dict(hp, weight_decay=0.0),
                               w, b, x, y, [0.2, 0.1, 0.05], [0.05] * STEPS)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w_ref, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), b_ref, rtol=1e-6, atol=1e-8)


def test_group_schedule_and_order_params(rng):
    schedule = nn.ExponentialDecayLR(0.1, 0.5, decay_steps=1)
    (w, b, x, y), net, opt = _grouped_run("SGD", {"learning_rate": 0.03}, lambda wt, bias: [
        {"params": [bias], "lr": schedule}, {"params": [wt]},
        {"order_params": [wt, bias]}], rng)
    assert [p.name for p in opt.parameters] == ["fc.weight", "fc.bias"]
    w_ref, b_ref = _np_grouped("SGD", {}, {}, w, b, x, y, [0.03] * STEPS, [0.1, 0.05, 0.025])
    np.testing.assert_allclose(net.fc.weight.asnumpy(), w_ref, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), b_ref, rtol=1e-6, atol=1e-8)
    assert opt.get_lr_parameter(net.fc.bias) is schedule
    assert float(opt.get_lr_parameter([net.fc.weight])[0].asnumpy()) == pytest.approx(0.03)
    lrs = opt.get_lr()
    assert len(lrs) == 2 and float(lrs[1].asnumpy()) == pytest.approx(0.1 * 0.5 ** STEPS)


def test_group_decay_ignores_the_name_filter(rng):
    """Without groups, a Parameter named like a norm scale is not decayed; in a group with
    weight_decay it is, as in MindSpore."""
    gamma = Parameter(Tensor(np.ones(2)), name="bn.gamma")
    nn.SGD([gamma], learning_rate=0.5, weight_decay=0.2)((Tensor(np.zeros(2)),))
    np.testing.assert_allclose(gamma.asnumpy(), [1.0, 1.0])
    nn.SGD([{"params": [gamma], "weight_decay": 0.2}], learning_rate=0.5)(
        (Tensor(np.zeros(2)),))
    np.testing.assert_allclose(gamma.asnumpy(), [0.9, 0.9])


def test_grad_centralization():
    weight = Parameter(Tensor(np.zeros((2, 16))), name="w")
    vector = Parameter(Tensor(np.zeros(16)), name="v")
    grad = np.arange(32.0).reshape(2, 16)
    opt = nn.SGD([{"params": [weight, vector], "grad_centralization": True}], learning_rate=1.0)
    opt((Tensor(grad), Tensor(grad[0])))
    np.testing.assert_allclose(weight.asnumpy(), -(grad - grad.mean(1, keepdims=True)))
    np.testing.assert_allclose(vector.asnumpy(), -grad[0])  # vectors are left alone


def test_group_errors(rng):
    net = Net(*_data(rng)[:2])
    wt, bias = net.fc.weight, net.fc.bias
    # MindSpore's error types: an unknown group key is a KeyError, a Parameter in two groups
    # a RuntimeError
    with pytest.raises(KeyError, match="the key in group params must be one of"):
        nn.SGD([{"params": [wt], "momentum": 0.9}])
    with pytest.raises(ArgumentValueError, match="the length of order parameters must be the "
                                                 "same as the length of group parameters"):
        nn.SGD([{"params": [wt]}, {"params": [bias]}, {"order_params": [wt]}])
    with pytest.raises(RuntimeError, match="fc.weight parameter already exists"):
        nn.SGD([{"params": [wt]}, {"params": [wt, bias]}])
    with pytest.raises(DTypeError, match="must be 'Parameter' or 'dict'"):
        nn.SGD([wt, {"params": [bias]}])
    with pytest.raises(ArgumentValueError, match="the parameter fc.bias is not in optimizer"):
        nn.SGD([wt]).get_lr_parameter(bias)
    with pytest.raises(TypeError, match="must be 'Parameter' or 'list'"):
        nn.SGD([wt]).get_lr_parameter((wt,))
