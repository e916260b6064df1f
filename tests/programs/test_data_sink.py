"""Sinking a dataset into the training step: the 2.x ms.data_sink wrapper over a jit train
step, Model.train with dataset_sink_mode=True and sink_size, resuming with initial_epoch, and
Model.predict with two inputs."""
import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn
from cellgraph.train import History, Model


def regression_dataset(n=64, batch=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2)).astype(np.float32)
    y = (x @ np.array([[3.0], [-1.0]], np.float32) + 0.5).astype(np.float32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(batch)


def test_data_sink_runs_sink_size_steps_per_call():
    net = nn.Dense(2, 1)
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), 0.05)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    calls = []

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        calls.append(1)
        return loss

    data = regression_dataset()
    sink_process = ms.data_sink(train_step, data, sink_size=4)
    losses = [float(sink_process().asnumpy()) for _ in range(20)]
    assert losses[-1] < 0.05 * losses[0]
    assert opt.global_step.asnumpy().item() == 80  # 20 calls of 4 steps
    np.testing.assert_allclose(net.weight.asnumpy(), [[3.0, -1.0]], atol=0.1)


def test_model_sink_size_and_initial_epoch():
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
    history = History()
    model.train(3, regression_dataset(), callbacks=[history], dataset_sink_mode=True,
                sink_size=4)
    assert len(history.history["net_output"]) == 3
    # on the CPU, as MindSpore's, sink mode trains step by step: every epoch the whole
    # dataset (8 batches), whatever sink_size says
    assert model.train_network.optimizer.global_step.asnumpy().item() == 24
    history2 = History()
    model.train(5, regression_dataset(), callbacks=[history2], initial_epoch=3,
                dataset_sink_mode=False)
    assert len(history2.history["net_output"]) == 2  # epochs 4 and 5
    assert history2.history["net_output"][-1] < history.history["net_output"][0]


class TwoInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.Dense(2, 1)
        self.b = nn.Dense(3, 1)

    def construct(self, x, z):
        return self.a(x) + self.b(z)


def test_predict_with_two_inputs():
    net = TwoInputs()
    model = Model(net)
    x = Tensor(np.ones((4, 2), np.float32))
    z = Tensor(np.ones((4, 3), np.float32))
    np.testing.assert_allclose(model.predict(x, z).asnumpy(), net(x, z).asnumpy())
