"""Transfer learning as model-zoo scripts do it: custom initialisation by walking
cells_and_names and set_data with initializer(...), pretraining and saving a checkpoint, loading
it into a new network with the head's entries removed (strict_load=False), freezing the
backbone with requires_grad=False, and a TrainOneStepCell subclass with its own construct."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common.initializer import HeUniform, TruncatedNormal, Zero, initializer


class Backbone(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="same")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.pool = nn.AvgPool2d(kernel_size=4, stride=4)
        self.flatten = nn.Flatten()

    def construct(self, x):
        return self.flatten(self.pool(self.relu(self.bn(self.conv(x)))))


class Classifier(nn.Cell):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Dense(4 * 2 * 2, num_classes)

    def construct(self, x):
        return self.head(self.backbone(x))


def init_weights(net):
    for _, cell in net.cells_and_names():
        if isinstance(cell, nn.Conv2d):
            cell.weight.set_data(initializer(HeUniform(), cell.weight.shape, cell.weight.dtype))
        elif isinstance(cell, nn.Dense):
            cell.weight.set_data(initializer(TruncatedNormal(0.02), cell.weight.shape,
                                             cell.weight.dtype))
            cell.bias.set_data(initializer(Zero(), cell.bias.shape, cell.bias.dtype))


class TrainOneStepWithClip(nn.TrainOneStepCell):
    """The zoo's pattern: reuse the parent's grad/weights/optimizer, clip each gradient."""

    def __init__(self, network, optimizer, clip_value=1.0):
        super().__init__(network, optimizer)
        self.clip_value = clip_value

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        grads = tuple([ops.clip_by_value(g, -self.clip_value, self.clip_value) for g in grads])
        return ops.depend(loss, self.optimizer(grads))


def images(n, classes, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, size=n).astype(np.int32)
    x = rng.normal(size=(n, 1, 8, 8)).astype(np.float32) * 0.3
    for i, label in enumerate(labels):
        r, c = divmod(int(label) % 4, 2)
        x[i, 0, r * 4:r * 4 + 4, c * 4:c * 4 + 4] += 1.0 + (label >= 4)
    return Tensor(x), Tensor(labels)


def train(net, x, y, steps, lr=0.05):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    step = TrainOneStepWithClip(nn.WithLossCell(net, loss), opt, clip_value=1.0)
    step.set_train()
    return [float(step(x, y).asnumpy()) for _ in range(steps)]


def test_custom_init_is_applied():
    net = Classifier(4)
    init_weights(net)
    assert np.all(net.head.bias.asnumpy() == 0)
    assert 0.01 < net.head.weight.asnumpy().std() < 0.03
    fan_in = 1 * 3 * 3
    assert np.abs(net.backbone.conv.weight.asnumpy()).max() <= np.sqrt(6 / fan_in) + 1e-6


def test_pretrain_save_load_freeze_finetune(tmp_path):
    ms.set_seed(0)
    pretrained = Classifier(4)
    init_weights(pretrained)
    x, y = images(64, 4, 0)
    losses = train(pretrained, x, y, 30)
    assert losses[-1] < 0.3 * losses[0]
    ms.save_checkpoint(pretrained, str(tmp_path / "pretrained.ckpt"))

    net = Classifier(8)  # a new task: another head
    param_dict = ms.load_checkpoint(str(tmp_path / "pretrained.ckpt"))
    for key in list(param_dict):
        if key.startswith("head."):
            del param_dict[key]
    param_not_load, _ = ms.load_param_into_net(net, param_dict, strict_load=False)
    assert sorted(param_not_load) == ["head.bias", "head.weight"]
    np.testing.assert_array_equal(net.backbone.conv.weight.asnumpy(),
                                  pretrained.backbone.conv.weight.asnumpy())
    np.testing.assert_array_equal(net.backbone.bn.moving_mean.asnumpy(),
                                  pretrained.backbone.bn.moving_mean.asnumpy())

    for param in net.backbone.get_parameters():
        param.requires_grad = False
    assert [p.name for p in net.trainable_params()] == ["head.weight", "head.bias"]
    frozen = net.backbone.conv.weight.asnumpy().copy()
    x8, y8 = images(96, 8, 1)
    losses = train(net, x8, y8, 40, lr=0.1)
    assert losses[-1] < 0.6 * losses[0]
    np.testing.assert_array_equal(net.backbone.conv.weight.asnumpy(), frozen)
