"""Changing the learning rate from callbacks while Model trains, as the callback tutorial does:
LearningRateScheduler with a step-decay function, ReduceLROnPlateau on the evaluation loss of
Model.fit, a custom Callback that reads cb_params.optimizer.learning_rate and records it, and
the 1.x pattern of ops.assign on the optimizer's rate from on_train_epoch_end."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn, ops
from cellgraph.train import Callback, LearningRateScheduler, ReduceLROnPlateau


def regression_data(n=64, seed=0, noise=0.0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3 + noise * rng.normal(size=(n, 1)))
    return ds.NumpySlicesDataset({"x": x, "y": y.astype(np.float32)}, shuffle=False).batch(16)


class RecordLR(Callback):
    def __init__(self):
        self.rates = []

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.rates.append(float(cb_params.optimizer.learning_rate.asnumpy()))


class HalveEveryTwoEpochs(Callback):
    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % 2 == 0:
            lr = cb_params.optimizer.learning_rate
            ops.assign(lr, lr * 0.5)


def learning_rate_function(lr, cur_step_num):
    if cur_step_num % 8 == 0:
        lr = lr * 0.1
    return lr


def make_model(lr=0.05):
    net = nn.Dense(3, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    model = ms.Model(net, nn.MSELoss(), opt, metrics={"loss": nn.Loss()})
    return net, opt, model


def test_learning_rate_scheduler_decays_every_eight_steps():
    ms.set_seed(0)
    _, _, model = make_model()
    record = RecordLR()
    model.train(4, regression_data(), callbacks=[LearningRateScheduler(learning_rate_function),
                                                 record], dataset_sink_mode=False)
    # 4 steps per epoch: the rate drops after steps 8 and 16
    np.testing.assert_allclose(record.rates, [0.05, 0.005, 0.005, 0.0005], rtol=1e-5)


def test_custom_callback_assigning_the_rate_changes_training():
    ms.set_seed(0)
    net, _, model = make_model()
    record = RecordLR()
    target = np.array([[1.0, -2.0, 0.5]])
    start = np.abs(net.weight.asnumpy() - target).max()
    model.train(6, regression_data(), callbacks=[HalveEveryTwoEpochs(), record],
                dataset_sink_mode=False)
    np.testing.assert_allclose(record.rates, [0.05, 0.025, 0.025, 0.0125, 0.0125, 0.00625],
                               rtol=1e-5)
    assert np.abs(net.weight.asnumpy() - target).max() < 0.5 * start


def test_reduce_lr_on_plateau_with_fit():
    ms.set_seed(0)
    _, _, model = make_model(lr=0.05)
    record = RecordLR()
    plateau = ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=1, min_delta=1e-3,
                                min_lr=0.01)
    model.fit(12, regression_data(noise=0.5), regression_data(32, 1, noise=0.5),
              callbacks=[plateau, record], dataset_sink_mode=False)
    assert record.rates[0] == pytest.approx(0.05)
    assert record.rates[-1] == pytest.approx(0.01)     # halved on plateaus, floored at min_lr
    assert all(a >= b for a, b in zip(record.rates, record.rates[1:]))
    with pytest.raises(ValueError, match="factor"):
        ReduceLROnPlateau(factor=1.5)


def test_scheduler_refuses_a_learning_rate_list():
    net = nn.Dense(3, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=[0.1, 0.05, 0.01, 0.01])
    model = ms.Model(net, nn.MSELoss(), opt)
    with pytest.raises(TypeError, match="fixed learning rate"):
        model.train(1, regression_data(), callbacks=[LearningRateScheduler(
            learning_rate_function)], dataset_sink_mode=False)
    assert isinstance(Tensor(1.0), Tensor)
