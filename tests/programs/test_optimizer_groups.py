"""Optimizer set-ups copied around the model zoo: parameter groups with their own weight
decay and learning rate (no decay for biases and norms), order_params, nn.Dropout(keep_prob)
from 1.x, Parameter(requires_grad=False), net.to_float, weight_init strings; each update
checked against the optimizer's formula."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8, weight_init='XavierUniform')
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Dense(8, 1, weight_init='HeUniform')
        self.dropout = nn.Dropout(keep_prob=0.9)
        self.scale = Parameter(Tensor(np.array([2.0], np.float32)), name='scale',
                               requires_grad=False)

    def construct(self, x):
        return self.fc2(self.dropout(self.bn(self.fc1(x)))) * self.scale


def decay_filter(param):
    return 'beta' not in param.name and 'gamma' not in param.name and 'bias' not in param.name


def test_group_params_weight_decay_and_learning_rates():
    net = Net()
    params = net.trainable_params()
    assert all(p.name != 'scale' for p in params)
    decay_params = list(filter(decay_filter, params))
    other_params = list(filter(lambda p: not decay_filter(p), params))
    assert {p.name for p in decay_params} == {'fc1.weight', 'fc2.weight'}
    group_params = [{'params': decay_params, 'weight_decay': 0.1},
                    {'params': other_params, 'lr': 0.0},
                    {'order_params': params}]
    opt = nn.Momentum(group_params, learning_rate=0.1, momentum=0.0)
    before = {p.name: p.asnumpy().copy() for p in params}
    grads = tuple(Tensor(np.ones(p.shape, np.float32)) for p in params)
    opt(grads)
    for p in params:
        if p.name in ('fc1.weight', 'fc2.weight'):
            expected = before[p.name] - 0.1 * (1.0 + 0.1 * before[p.name])
        else:
            expected = before[p.name]  # learning rate 0 in its group
        np.testing.assert_allclose(p.asnumpy(), expected, rtol=1e-6, atol=1e-7)


def test_adam_with_weight_decay_matches_formula():
    w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name='w')
    opt = nn.Adam([w], learning_rate=0.1, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.5)
    g = np.array([0.3, -0.4], np.float32)
    opt((Tensor(g),))
    g_total = g + 0.5 * np.array([1.0, -2.0])
    m = 0.1 * g_total
    v = 0.001 * g_total ** 2
    lr_t = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)
    expected = np.array([1.0, -2.0]) - lr_t * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-5)


def test_training_with_groups_and_dropout():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (np.sin(x[:, :1]) + x[:, 1:2] ** 2).astype(np.float32)
    net = Net()
    params = net.trainable_params()
    group_params = [{'params': list(filter(decay_filter, params)), 'weight_decay': 1e-4},
                    {'params': [p for p in params if not decay_filter(p)]}]
    opt = nn.Adam(group_params, learning_rate=0.02)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    train.set_train()
    losses = [float(train(Tensor(x), Tensor(y)).asnumpy()) for _ in range(150)]
    assert np.mean(losses[-10:]) < 0.3 * np.mean(losses[:10])
    net.set_train(False)
    a = net(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(a, net(Tensor(x)).asnumpy())  # no dropout at inference
    assert float(net.scale.asnumpy()[0]) == 2.0


def test_to_float_runs_a_cell_in_half_precision():
    net = nn.Dense(3, 2).to_float(ms.float16)
    out = net(Tensor(np.ones((1, 3), np.float32)))
    assert out.dtype == ms.float16
