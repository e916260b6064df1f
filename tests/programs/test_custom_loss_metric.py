"""The tutorial's custom loss and metric: an nn.LossBase subclass reducing through get_loss
(with weights), a multi-label loss cell wrapping a two-output network, a Metric subclass with
clear/update/eval used by Model.eval, and a loss built only from functional ops."""
import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn, ops
from cellgraph.train import Model


class MAELoss(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.abs = ops.Abs()

    def construct(self, base, target):
        x = self.abs(base - target)
        return self.get_loss(x)


class WeightedMAE(nn.LossBase):
    def construct(self, base, target, weights):
        return self.get_loss(ops.abs(base - target), weights)


class TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(1, 1)
        self.fc2 = nn.Dense(1, 1)

    def construct(self, x):
        return self.fc1(x), self.fc2(x)


class MAELossForMultiLabel(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.abs = ops.Abs()

    def construct(self, base1, base2, target1, target2):
        x1 = self.abs(base1 - target1)
        x2 = self.abs(base2 - target2)
        return (self.get_loss(x1) + self.get_loss(x2)) / 2


class CustomWithLossCell(nn.Cell):
    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label1, label2):
        output1, output2 = self._backbone(data)
        return self._loss_fn(output1, output2, label1, label2)


class MyMAE(nn.Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self.abs_error_sum = 0
        self.samples_num = 0

    def update(self, *inputs):
        y_pred = inputs[0].asnumpy()
        y = inputs[1].asnumpy()
        error_abs = np.abs(y.reshape(y_pred.shape) - y_pred)
        self.abs_error_sum += error_abs.sum()
        self.samples_num += y.shape[0]

    def eval(self):
        return self.abs_error_sum / self.samples_num


def multi_label_data(num, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(num):
        x = rng.uniform(-5.0, 5.0)
        yield (np.array([x], np.float32), np.array([2 * x + 1], np.float32),
               np.array([-x + 3], np.float32))


def test_loss_base_reductions_and_weights():
    base = Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    target = Tensor(np.array([[1.5, 2.0], [1.0, 4.0]], np.float32))
    err = np.array([[0.5, 0.0], [2.0, 1.0]])
    np.testing.assert_allclose(MAELoss()(base, target).asnumpy(), err.mean(), rtol=1e-6)
    np.testing.assert_allclose(MAELoss("sum")(base, target).asnumpy(), err.sum(), rtol=1e-6)
    np.testing.assert_allclose(MAELoss("none")(base, target).asnumpy(), err, rtol=1e-6)
    weights = Tensor(np.array([[1.0], [0.0]], np.float32))
    np.testing.assert_allclose(WeightedMAE()(base, target, weights).asnumpy(),
                               (err * [[1.0], [0.0]]).mean(), rtol=1e-6)


def test_multi_label_training_and_custom_metric():
    ms.set_seed(0)
    data = ds.GeneratorDataset(list(multi_label_data(128)), ["data", "label1", "label2"])
    data = data.batch(16)
    net = TwoHeads()
    loss_net = CustomWithLossCell(net, MAELossForMultiLabel())
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    model = Model(network=loss_net, optimizer=opt)
    model.train(40, data, dataset_sink_mode=False)
    w1, w2 = net.fc1.weight.asnumpy()[0, 0], net.fc2.weight.asnumpy()[0, 0]
    assert abs(w1 - 2.0) < 0.2 and abs(w2 + 1.0) < 0.2

    single = nn.Dense(1, 1)
    single.weight.set_data(Tensor(np.array([[2.0]], np.float32)))
    single.bias.set_data(Tensor(np.array([0.5], np.float32)))
    eval_data = ds.GeneratorDataset(
        [(x, y1) for x, y1, _ in multi_label_data(32, 1)], ["data", "label"]).batch(8)
    metric_model = Model(single, nn.L1Loss(), metrics={"mae": MyMAE()})
    result = metric_model.eval(eval_data)
    np.testing.assert_allclose(result["mae"], 0.5, rtol=1e-5)
