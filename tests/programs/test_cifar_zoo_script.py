"""A model-zoo style CIFAR-10 script on tiny binary batch files: create_dataset with sharding,
the usual augmentation (padded RandomCrop, RandomHorizontalFlip, Rescale, Normalize, HWC2CHW,
TypeCast), a cosine warm-up learning-rate list built in Python, Momentum with weight decay on
conv/dense weights only, Model.train with LossMonitor and TimeMonitor, and eval."""
import math

import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
import cellgraph.dataset.transforms as C
import cellgraph.dataset.vision as CV
from cellgraph import nn
from cellgraph.train import LossMonitor, Model, TimeMonitor

COLORS = np.array([[220, 40, 40], [40, 220, 40], [40, 40, 220]])


def write_cifar_bin(folder, seed):
    rng = np.random.default_rng(seed)

    def records(n):
        labels = rng.integers(0, 3, size=n).astype(np.uint8)
        images = rng.integers(0, 80, size=(n, 32, 32, 3)) + 0.6 * COLORS[labels][:, None, None]
        chw = np.clip(images, 0, 255).astype(np.uint8).transpose(0, 3, 1, 2).reshape(n, -1)
        return np.concatenate([labels[:, None], chw], axis=1).astype(np.uint8)

    for i in range(1, 6):
        records(16).tofile(folder / f"data_batch_{i}.bin")
    records(30).tofile(folder / "test_batch.bin")


def create_dataset(data_path, do_train, batch_size=16, repeat_num=1, device_num=1, rank_id=0):
    usage = "train" if do_train else "test"
    if device_num == 1:
        data_set = ds.Cifar10Dataset(data_path, usage=usage, num_parallel_workers=2,
                                     shuffle=True)
    else:
        data_set = ds.Cifar10Dataset(data_path, usage=usage, num_parallel_workers=2,
                                     shuffle=True, num_shards=device_num, shard_id=rank_id)
    trans = []
    if do_train:
        trans += [CV.RandomCrop((32, 32), (4, 4, 4, 4)), CV.RandomHorizontalFlip(prob=0.5)]
    trans += [
        CV.Resize((24, 24)),
        CV.Rescale(1.0 / 255.0, 0.0),
        CV.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
        CV.HWC2CHW(),
    ]
    type_cast_op = C.TypeCast(ms.int32)
    data_set = data_set.map(operations=type_cast_op, input_columns="label",
                            num_parallel_workers=2)
    data_set = data_set.map(operations=trans, input_columns="image", num_parallel_workers=2)
    data_set = data_set.batch(batch_size, drop_remainder=do_train)
    return data_set.repeat(repeat_num)


def warmup_cosine_lr(base_lr, steps_per_epoch, epochs, warmup_epochs):
    total = steps_per_epoch * epochs
    warmup = steps_per_epoch * warmup_epochs
    lr = []
    for i in range(total):
        if i < warmup:
            lr.append(base_lr * (i + 1) / warmup)
        else:
            progress = (i - warmup) / max(1, total - warmup)
            lr.append(0.5 * base_lr * (1 + math.cos(math.pi * progress)))
    return np.array(lr, np.float32)


class SmallNet(nn.Cell):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, pad_mode="same", has_bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.pool = nn.AvgPool2d(kernel_size=6, stride=6)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(16, num_classes)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        return self.fc(self.flatten(self.pool(x)))


def test_cifar_script(tmp_path, capsys):
    write_cifar_bin(tmp_path, 0)
    sharded = create_dataset(str(tmp_path), True, batch_size=8, device_num=2, rank_id=1)
    assert sharded.get_dataset_size() == 5  # 80 images, half of them, batches of 8

    ms.set_seed(1)
    ds.config.set_seed(1)
    train_set = create_dataset(str(tmp_path), True)
    steps = train_set.get_dataset_size()
    assert steps == 5
    net = SmallNet()
    decayed = [p for p in net.trainable_params() if "weight" in p.name]
    others = [p for p in net.trainable_params() if "weight" not in p.name]
    lr = warmup_cosine_lr(0.1, steps, 6, 1)
    opt = nn.Momentum([{"params": decayed, "weight_decay": 1e-4}, {"params": others}],
                      learning_rate=ms.Tensor(lr), momentum=0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={"top_1_accuracy", "loss"})
    model.train(6, train_set, callbacks=[LossMonitor(steps), TimeMonitor(steps)],
                dataset_sink_mode=False)
    printed = capsys.readouterr().out
    epoch_losses = [float(line.rsplit("loss is", 1)[1]) for line in printed.splitlines()
                    if "loss is" in line]
    assert len(epoch_losses) == 6 and epoch_losses[-1] < epoch_losses[0]
    result = model.eval(create_dataset(str(tmp_path), False))
    assert result["top_1_accuracy"] > 0.8
