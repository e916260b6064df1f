"""Learning-rate schedules (a dynamic_lr list, LearningRateSchedule cells), ModelCheckpoint
during Model.train, and resuming: load_checkpoint + load_param_into_net into a new network."""
import os

import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn
from cellgraph.train import Model
from cellgraph.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint


def get_data(num, w=2.0, b=3.0, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(num):
        x = rng.uniform(-10.0, 10.0)
        noise = rng.normal(0, 0.1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


def create_dataset(num_data, batch_size=16, repeat_size=1):
    input_data = ds.GeneratorDataset(list(get_data(num_data)), column_names=['data', 'label'])
    input_data = input_data.batch(batch_size, drop_remainder=True)
    input_data = input_data.repeat(repeat_size)
    return input_data


class LinearNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(1, 1, ms.common.initializer.Normal(0.02),
                           ms.common.initializer.Normal(0.02))

    def construct(self, x):
        return self.fc(x)


def test_piecewise_and_exponential_schedules():
    milestone = [2, 5, 10]
    learning_rates = [0.1, 0.05, 0.01]
    lr = nn.piecewise_constant_lr(milestone, learning_rates)
    assert lr == [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    decayed = nn.exponential_decay_lr(0.1, 0.9, total_step=6, step_per_epoch=2, decay_epoch=1)
    np.testing.assert_allclose(decayed, [0.1, 0.1, 0.09, 0.09, 0.081, 0.081], rtol=1e-6)
    cosine = nn.cosine_decay_lr(0.01, 0.1, total_step=6, step_per_epoch=2, decay_epoch=3)
    assert cosine[0] == 0.1 and abs(cosine[-1] - 0.0325) < 1e-6  # epoch 2 of 3
    schedule = nn.ExponentialDecayLR(0.1, 0.9, decay_steps=4, is_stair=True)
    np.testing.assert_allclose(schedule(Tensor(5, ms.int32)).asnumpy(), 0.09, rtol=1e-6)
    poly = nn.PolynomialDecayLR(0.1, 0.01, decay_steps=4, power=1.0)
    np.testing.assert_allclose(poly(Tensor(2, ms.int32)).asnumpy(), 0.055, rtol=1e-6)


def test_optimizer_steps_through_a_list_of_rates():
    net = LinearNet()
    lr = nn.piecewise_constant_lr([2, 4], [0.5, 0.0])
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    x, y = Tensor(np.ones((4, 1), np.float32)), Tensor(np.full((4, 1), 3.0, np.float32))
    train(x, y)
    train(x, y)
    weights = net.fc.weight.asnumpy().copy()
    train(x, y)  # steps 3 and 4 use a zero learning rate
    train(x, y)
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), weights)
    assert float(opt.get_lr().asnumpy()) == 0.0


def test_train_save_and_resume(tmp_path):
    ms.set_seed(1)
    train_set = create_dataset(160, batch_size=16)
    net = LinearNet()
    loss = nn.MSELoss()
    lr = nn.ExponentialDecayLR(0.01, 0.9, decay_steps=10)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    config = CheckpointConfig(save_checkpoint_steps=10, keep_checkpoint_max=2)
    ckpoint = ModelCheckpoint(prefix="linear", directory=str(tmp_path), config=config)
    model = Model(net, loss, opt)
    model.train(10, train_set, callbacks=[ckpoint, LossMonitor(10)], dataset_sink_mode=False)
    weight, bias = net.fc.weight.asnumpy()[0, 0], net.fc.bias.asnumpy()[0]
    assert abs(weight - 2.0) < 0.1 and abs(bias - 3.0) < 1.0

    files = sorted(f for f in os.listdir(tmp_path) if f.endswith(".ckpt"))
    assert len(files) == 2 and "linear-10_10.ckpt" in files
    param_dict = ms.load_checkpoint(os.path.join(tmp_path, "linear-10_10.ckpt"))
    assert "fc.weight" in param_dict and "fc.bias" in param_dict
    new_net = LinearNet()
    param_not_load, ckpt_not_load = ms.load_param_into_net(new_net, param_dict)
    assert param_not_load == []
    assert "moments.fc.weight" in ckpt_not_load  # the optimizer's state is saved too
    np.testing.assert_array_equal(new_net.fc.weight.asnumpy(), net.fc.weight.asnumpy())
    x = Tensor(np.array([[1.0], [-4.0]], np.float32))
    np.testing.assert_allclose(new_net(x).asnumpy(), net(x).asnumpy())

    ms.save_checkpoint(new_net, str(tmp_path / "manual.ckpt"))
    again = ms.load_checkpoint(str(tmp_path / "manual.ckpt"))
    np.testing.assert_array_equal(again["fc.bias"].asnumpy(), net.fc.bias.asnumpy())
