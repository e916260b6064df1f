"""Mixed precision as training scripts turn it on: auto_mixed_precision on a network,
build_train_network with a loss scale manager, Model(amp_level=...) and the 2.x functional
loss scaler with all_finite."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, amp, nn
from cellgraph.train import Model


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 32)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(32, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def make_data(n=96, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(scale=3.0, size=(3, 8))
    labels = rng.integers(0, 3, size=n)
    x = centers[labels] + rng.normal(size=(n, 8))
    return x.astype(np.float32), labels.astype(np.int32)


def accuracy(net, x, y):
    return float((net(Tensor(x)).argmax(axis=1).asnumpy() == y).mean())


def test_auto_mixed_precision_o2_computes_in_float16():
    net = amp.auto_mixed_precision(MLP(), "O2")
    x, _ = make_data(4)
    out = net(Tensor(x))
    assert out.dtype == ms.float32  # O2 casts the network's output back
    reference = MLP()
    ms.load_param_into_net(reference, {p.name: p for p in net.get_parameters()})
    np.testing.assert_allclose(out.asnumpy(), reference(Tensor(x)).asnumpy(), rtol=2e-2,
                               atol=2e-2)
    assert net.fc1.weight.dtype == ms.float32  # parameters stay float32


def test_build_train_network_with_loss_scale():
    x, y = make_data()
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 10, scale_factor=2,
                                         scale_window=50)
    train_net = amp.build_train_network(net, opt, loss, level="O2",
                                        loss_scale_manager=manager)
    train_net.set_train()
    losses = []
    for _ in range(40):
        out = train_net(Tensor(x), Tensor(y))
        loss_value = out[0] if isinstance(out, tuple) else out
        losses.append(float(loss_value.asnumpy()))
    assert losses[-1] < 0.3 * losses[0]
    assert accuracy(net, x, y) > 0.9


def test_model_amp_level_o3_fixed_loss_scale():
    x, y = make_data()
    import cellgraph.dataset as ds
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(32)
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9,
                      loss_scale=128.0)
    model = Model(net, loss, opt, metrics={"acc"}, amp_level="O3",
                  loss_scale_manager=ms.FixedLossScaleManager(128.0, drop_overflow_update=False))
    model.train(15, data)
    assert model.eval(data)["acc"] > 0.9


def test_functional_loss_scaler():
    x, y = make_data()
    net = amp.auto_mixed_precision(MLP(), "O1")
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=0.01)
    loss_scaler = amp.DynamicLossScaler(scale_value=2 ** 12, scale_factor=2, scale_window=20)

    def forward_fn(data, label):
        loss = loss_fn(net(data), label)
        return loss_scaler.scale(loss)

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        loss = loss_scaler.unscale(loss)
        is_finite = amp.all_finite(grads)
        if is_finite:
            grads = loss_scaler.unscale(grads)
            optimizer(grads)
        loss_scaler.adjust(is_finite)
        return loss

    losses = [float(train_step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(30)]
    assert losses[-1] < 0.3 * losses[0]
    assert np.isfinite(losses).all()
