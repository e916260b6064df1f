"""A ResNet basic block written the 1.x way: primitive instances (ops.ReLU(), ops.Add()) made
in __init__, BatchNorm2d whose running statistics move in training, TrainOneStepCell."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


def conv3x3(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride, padding=1,
                     pad_mode='pad', has_bias=False)


class ResidualBlock(nn.Cell):
    expansion = 1

    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        self.conv1 = conv3x3(in_channel, out_channel, stride)
        self.bn1 = nn.BatchNorm2d(out_channel, momentum=0.9)
        self.conv2 = conv3x3(out_channel, out_channel)
        self.bn2 = nn.BatchNorm2d(out_channel, momentum=0.9)
        self.relu = ops.ReLU()
        self.add = ops.Add()
        self.down_sample = stride != 1 or in_channel != out_channel
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([
                nn.Conv2d(in_channel, out_channel, 1, stride=stride, has_bias=False),
                nn.BatchNorm2d(out_channel, momentum=0.9)])

    def construct(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        out = self.add(out, identity)
        out = self.relu(out)
        return out


class TinyResNet(nn.Cell):
    def __init__(self, num_classes=2):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, pad_mode='same', has_bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.relu = ops.ReLU()
        self.layer1 = ResidualBlock(8, 8)
        self.layer2 = ResidualBlock(8, 16, stride=2)
        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = nn.Dense(16, num_classes)

    def construct(self, x):
        x = self.relu(self.bn(self.stem(x)))
        x = self.layer2(self.layer1(x))
        x = self.mean(x, (2, 3))
        return self.end_point(self.flatten(x))


def test_resnet_block_trains_and_tracks_statistics():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, size=16).astype(np.int32)
    images = rng.normal(size=(16, 3, 8, 8)).astype(np.float32)
    images[labels == 1, 0] += 1.5  # class 1: a brighter red channel
    x, y = Tensor(images), Tensor(labels)

    net = TinyResNet()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    train_net.set_train()
    moving_mean_before = net.bn.moving_mean.asnumpy().copy()
    losses = [float(train_net(x, y).asnumpy()) for _ in range(15)]
    assert losses[-1] < 0.5 * losses[0]
    # running statistics moved toward the batch statistics of the stem's output
    assert not np.allclose(net.bn.moving_mean.asnumpy(), moving_mean_before)
    assert len(net.trainable_params()) == 3 + 6 + 9 + 2  # stem+bn, block 1, block 2 with its shortcut, head
    names = [p.name for p in net.get_parameters()]
    assert "layer2.down_sample_layer.1.moving_variance" in names

    net.set_train(False)
    logits = net(x)
    accuracy = (logits.argmax(axis=1).asnumpy() == labels).mean()
    assert accuracy > 0.9
    # inference uses the running statistics: a single example gives the same logits alone
    single = net(Tensor(images[:1]))
    np.testing.assert_allclose(single.asnumpy(), logits.asnumpy()[:1], rtol=1e-4, atol=1e-5)
    assert ms.ops.ReLU()(Tensor([-1.0, 2.0])).asnumpy().tolist() == [0.0, 2.0]
