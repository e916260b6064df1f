"""MindSpore tutorial programs, as they are written, with `mindspore` renamed `cellgraph`.
Their data are tiny files in the real formats, written here, with a pattern the networks can
learn, so each program must reach a loss and an accuracy that only training gives."""
import os
import re

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
import cellgraph.dataset.transforms.c_transforms as C
import cellgraph.dataset.vision.c_transforms as CV
from cellgraph import Model, nn
from cellgraph.common.initializer import Normal
from cellgraph.dataset.vision import Inter
from cellgraph.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint
from cellgraph.train.metrics import Accuracy
from tests.cellgraph.dataset.formats import write_cifar10, write_mnist


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(1)
    ds.config.set_seed(1)


def _digit_like(count, rng, size=28, classes=4):
    """Class k: a bright square in quadrant k, on noise."""
    labels = rng.integers(0, classes, count)
    images = rng.integers(0, 60, (count, size, size), dtype=np.uint8)
    half = size // 2
    for image, label in zip(images, labels):
        top, left = (label // 2) * half, (label % 2) * half
        image[top + 3:top + half - 3, left + 3:left + half - 3] = 255
    return images, labels


# ----- quick start (1.x): MnistDataset, LeNet5, Model.train with LossMonitor ----------------

def create_dataset(data_path, batch_size=32, repeat_size=1, num_parallel_workers=1):
    mnist_ds = ds.MnistDataset(data_path)
    resize_height, resize_width = 32, 32
    rescale = 1.0 / 255.0
    shift = 0.0
    rescale_nml = 1 / 0.3081
    shift_nml = -1 * 0.1307 / 0.3081

    resize_op = CV.Resize((resize_height, resize_width), interpolation=Inter.LINEAR)
    rescale_nml_op = CV.Rescale(rescale_nml, shift_nml)
    rescale_op = CV.Rescale(rescale, shift)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = C.TypeCast(ms.int32)

    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=resize_op, input_columns="image",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=rescale_op, input_columns="image",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=rescale_nml_op, input_columns="image",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=hwc2chw_op, input_columns="image",
                            num_parallel_workers=num_parallel_workers)

    buffer_size = 10000
    mnist_ds = mnist_ds.shuffle(buffer_size=buffer_size)
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    mnist_ds = mnist_ds.repeat(repeat_size)
    return mnist_ds


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()  # noqa: UP008  (as the tutorial writes it)
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def test_quick_start_lenet_on_mnist_files(tmp_path, capsys):
    rng = np.random.default_rng(0)
    train_images, train_labels = _digit_like(160, rng)
    test_images, test_labels = _digit_like(32, rng)
    write_mnist(tmp_path / "train", {"train": train_images}, {"train": train_labels})
    write_mnist(tmp_path / "test", {"test": test_images}, {"test": test_labels})

    net = LeNet5()
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    net_opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    config_ck = CheckpointConfig(save_checkpoint_steps=10, keep_checkpoint_max=10)
    ckpoint = ModelCheckpoint(prefix="checkpoint_lenet", directory=str(tmp_path / "ckpt"),
                              config=config_ck)
    model = Model(net, net_loss, net_opt, metrics={"Accuracy": Accuracy()})

    ds_train = create_dataset(str(tmp_path / "train"), 16, 1)
    model.train(5, ds_train, callbacks=[ckpoint, LossMonitor(5)], dataset_sink_mode=False)
    ds_eval = create_dataset(str(tmp_path / "test"), 16)
    acc = model.eval(ds_eval, dataset_sink_mode=False)

    printed = capsys.readouterr().out.splitlines()
    pattern = re.compile(r"^epoch: (\d+) step: (\d+), loss is (\d+\.\d+(e-?\d+)?)$")
    losses = [(int(m[1]), int(m[2]), float(m[3])) for m in map(pattern.match, printed) if m]
    assert [(e, s) for e, s, _ in losses] == [(e, s) for e in range(1, 6) for s in (5, 10)]
    assert np.mean([v for _, _, v in losses[-2:]]) < 0.5 * np.mean([v for _, _, v in losses[:2]])
    assert acc["Accuracy"] >= 0.75, acc  # four classes: chance is 0.25
    saved = sorted(os.listdir(tmp_path / "ckpt"))
    assert saved == [f"checkpoint_lenet-{e}_10.ckpt" for e in range(1, 6)]
    restored = LeNet5()
    ms.load_param_into_net(restored, ms.load_checkpoint(str(tmp_path / "ckpt" / saved[-1])))
    batch = next(iter(ds_eval.create_tuple_iterator()))
    np.testing.assert_allclose(Model(restored).predict(batch[0]).asnumpy(),
                               model.predict(batch[0]).asnumpy(), rtol=1e-6)


# ----- linear regression with GeneratorDataset ------------------------------------------------

def get_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise = np.random.normal(0, 1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


def create_regression_dataset(num_data, batch_size=16, repeat_size=1):
    input_data = ds.GeneratorDataset(list(get_data(num_data)), column_names=['data', 'label'])
    input_data = input_data.batch(batch_size)
    input_data = input_data.repeat(repeat_size)
    return input_data


class LinearNet(nn.Cell):
    def __init__(self):
        super(LinearNet, self).__init__()  # noqa: UP008  (as the tutorial writes it)
        self.fc = nn.Dense(1, 1, Normal(0.02), Normal(0.02))

    def construct(self, x):
        x = self.fc(x)
        return x


def test_linear_regression_with_generator_dataset(capsys):
    np.random.seed(0)
    data_number, batch_number, repeat_number = 1600, 16, 1
    ds_train = create_regression_dataset(data_number, batch_size=batch_number,
                                         repeat_size=repeat_number)
    assert ds_train.get_dataset_size() == 100
    net = LinearNet()
    net_loss = nn.loss.MSELoss()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    model = Model(net, net_loss, opt)
    model.train(2, ds_train, callbacks=[LossMonitor(50)], dataset_sink_mode=False)
    printed = capsys.readouterr().out
    assert printed.count("loss is") == 4 and "epoch: 2 step: 100, loss is " in printed
    # the last SGD iterate scatters about the fit by up to ~0.12 over shuffle orders
    np.testing.assert_allclose(net.fc.weight.asnumpy(), [[2.0]], atol=0.15)
    np.testing.assert_allclose(net.fc.bias.asnumpy(), [3.0], atol=0.3)


# ----- a CNN on CIFAR-10 binary files with vision transforms -----------------------------------

def create_cifar_dataset(data_path, usage, batch_size=8, training=True):
    data_set = ds.Cifar10Dataset(data_path, usage=usage, shuffle=training)
    trans = []
    if training:
        trans += [CV.RandomCrop((32, 32), (4, 4, 4, 4)), CV.RandomHorizontalFlip(prob=0.5)]
    trans += [CV.Resize((16, 16)), CV.Rescale(1.0 / 255.0, 0.0),
              CV.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
              CV.HWC2CHW()]
    type_cast_op = C.TypeCast(ms.int32)
    data_set = data_set.map(operations=type_cast_op, input_columns="label")
    data_set = data_set.map(operations=trans, input_columns="image")
    data_set = data_set.batch(batch_size, drop_remainder=True)
    return data_set


class SmallCNN(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, pad_mode="same")
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, pad_mode="same")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=4, stride=4)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc(self.flatten(x))


def _colour_images(count, rng, classes=3):
    """Class k: channel k bright."""
    labels = rng.integers(0, classes, count)
    images = rng.integers(0, 100, (count, 32, 32, 3), dtype=np.uint8)
    images[np.arange(count), :, :, labels] += 120
    return images, labels


def test_cnn_on_cifar10_files_with_vision_transforms(tmp_path):
    rng = np.random.default_rng(0)
    images, labels = _colour_images(64, rng)
    test = _colour_images(24, rng)
    write_cifar10(tmp_path, images, labels, test=test)
    train_set = create_cifar_dataset(str(tmp_path), "train")
    eval_set = create_cifar_dataset(str(tmp_path), "test", training=False)
    net = SmallCNN()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.02, 0.9)
    model = Model(net, loss, opt, metrics={"acc", "loss"})
    before = model.eval(eval_set)
    history = ms.History()
    model.fit(4, train_set, eval_set, callbacks=[history])
    after = model.eval(eval_set)
    assert history.epoch == {"epoch": [1, 2, 3, 4]} and len(history.history["acc"]) == 4
    assert after["loss"] < 0.5 * before["loss"], (before, after)
    assert after["acc"] >= 0.9, after  # three classes: chance is 1/3


# ----- O2 mixed precision with dynamic loss scaling ----------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # float16 overflows at 2**24
def test_o2_mixed_precision_with_dynamic_loss_scale(capsys):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 8)).astype(np.float32)
    y = (x @ rng.normal(size=(8, 3)) > 0).argmax(axis=1).astype(np.int32)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"]).batch(32)
    net = nn.SequentialCell([nn.Dense(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dense(32, 3)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 24, scale_factor=2,
                                         scale_window=50)
    model = Model(net, loss, opt, metrics={"accuracy"}, amp_level="O2",
                  loss_scale_manager=manager)
    model.train(6, data, callbacks=[LossMonitor(8)])
    step = model.train_network
    assert isinstance(step, nn.TrainOneStepWithLossScaleCell)
    scale = float(step.scale_sense.asnumpy())
    # 2**24 overflows float16 gradients: the first steps are skipped and the scale halved
    assert scale < 2 ** 24
    assert all(p.dtype == ms.float32 for p in net.trainable_params())  # master weights
    ir = ms.dump_ir(net, ms.Tensor(x[:4]), stage="parse")
    assert "f16[4,32]" in ir and "f32[4,32]" in ir  # Dense in float16, BatchNorm in float32
    lines = [line for line in capsys.readouterr().out.splitlines() if "loss is" in line]
    first, last = float(lines[0].split()[-1]), float(lines[-1].split()[-1])
    assert last < 0.6 * first
    assert model.eval(data)["accuracy"] > 0.85

