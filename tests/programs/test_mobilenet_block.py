"""MobileNetV2's building blocks as the model zoo writes them: ConvBNReLU with
pad_mode='pad' and group=in_planes for depthwise convolution, ReLU6, the InvertedResidual block
with its expand ratio and identity shortcut, a GlobalAvgPooling cell over ops.ReduceMean, and
the zoo's _initialize_weights loop over cells_and_names with set_data; trained with Momentum
and a cosine-decay schedule. The depthwise convolution is checked against NumPy."""
import math

import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


def _make_divisible(v, divisor, min_value=None):
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class ConvBNReLU(nn.Cell):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super().__init__()
        padding = (kernel_size - 1) // 2
        in_channels = in_planes
        out_channels = out_planes
        if groups == 1:
            conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode="pad",
                             padding=padding)
        else:
            out_channels = in_planes
            conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode="pad",
                             padding=padding, group=in_channels)
        layers = [conv, nn.BatchNorm2d(out_planes), nn.ReLU6()]
        self.features = nn.SequentialCell(layers)

    def construct(self, x):
        return self.features(x)


class InvertedResidual(nn.Cell):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        assert stride in [1, 2]
        hidden_dim = round(inp * expand_ratio)
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
            nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
            nn.BatchNorm2d(oup),
        ])
        self.conv = nn.SequentialCell(layers)
        self.cast = ops.Cast()

    def construct(self, x):
        identity = x
        x = self.conv(x)
        if self.use_res_connect:
            return ops.add(identity, x)
        return x


class GlobalAvgPooling(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mean = ops.ReduceMean(keep_dims=False)

    def construct(self, x):
        return self.mean(x, (2, 3))


class TinyMobileNetV2(nn.Cell):
    def __init__(self, num_classes=3, width_mult=1.0):
        super().__init__()
        input_channel = _make_divisible(8 * width_mult, 4)
        settings = [[1, 8, 1, 1], [4, 12, 2, 2]]   # t, c, n, s
        features = [ConvBNReLU(3, input_channel, stride=1)]
        for t, c, n, s in settings:
            output_channel = _make_divisible(c * width_mult, 4)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(InvertedResidual(input_channel, output_channel, stride, t))
                input_channel = output_channel
        self.features = nn.SequentialCell(features)
        self.pool = GlobalAvgPooling()
        self.head = nn.Dense(input_channel, num_classes, has_bias=True)
        self._initialize_weights()

    def construct(self, x):
        return self.head(self.pool(self.features(x)))

    def _initialize_weights(self):
        self.init_parameters_data()
        for _, m in self.cells_and_names():
            if isinstance(m, nn.Conv2d):
                n = m.kernel_size[0] * m.kernel_size[1] * m.out_channels
                m.weight.set_data(Tensor(np.random.normal(0, np.sqrt(2. / n),
                                                          m.weight.data.shape).astype("float32")))
                if m.bias is not None:
                    m.bias.set_data(Tensor(np.zeros(m.bias.data.shape, dtype="float32")))
            elif isinstance(m, nn.BatchNorm2d):
                m.gamma.set_data(Tensor(np.ones(m.gamma.data.shape, dtype="float32")))
                m.beta.set_data(Tensor(np.zeros(m.beta.data.shape, dtype="float32")))
            elif isinstance(m, nn.Dense):
                m.weight.set_data(Tensor(np.random.normal(
                    0, 0.01, m.weight.data.shape).astype("float32")))
                if m.bias is not None:
                    m.bias.set_data(Tensor(np.zeros(m.bias.data.shape, dtype="float32")))


def test_depthwise_conv_matches_numpy():
    conv = nn.Conv2d(3, 3, 3, 1, pad_mode="pad", padding=1, group=3, has_bias=False)
    assert conv.weight.shape == (3, 1, 3, 3)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 5, 5)).astype(np.float32)
    w = conv.weight.asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.zeros_like(x)
    for c in range(3):
        for i in range(5):
            for j in range(5):
                expected[:, c, i, j] = (padded[:, c, i:i + 3, j:j + 3] * w[c, 0]).sum((1, 2))
    np.testing.assert_allclose(conv(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_block_structure_and_relu6():
    np.random.seed(0)
    net = TinyMobileNetV2()
    blocks = [c for c in net.features.cells() if isinstance(c, InvertedResidual)]
    assert [b.use_res_connect for b in blocks] == [True, False, True]
    depthwise = blocks[1].conv[1].features[0]
    assert depthwise.group == 32 and depthwise.stride == (2, 2)
    relu6 = nn.ReLU6()
    np.testing.assert_allclose(relu6(Tensor(np.array([-1.0, 3.0, 7.0], np.float32))).asnumpy(),
                               [0.0, 3.0, 6.0])
    assert net(Tensor(np.zeros((2, 3, 8, 8), np.float32))).shape == (2, 3)


def test_mobilenet_learns_colour_classes():
    ms.set_seed(0)
    np.random.seed(0)
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 3, size=24).astype(np.int32)
    images = rng.normal(scale=0.3, size=(24, 3, 8, 8)).astype(np.float32)
    images[np.arange(24), labels] += 1.0          # the class is the brightest channel
    net = TinyMobileNetV2()
    steps = 30
    lr = nn.CosineDecayLR(min_lr=0.001, max_lr=0.05, decay_steps=steps)
    decay = [p for p in net.trainable_params() if "beta" not in p.name and "gamma" not in p.name
             and "bias" not in p.name]
    decay_names = {p.name for p in decay}
    rest = [p for p in net.trainable_params() if p.name not in decay_names]
    opt = nn.Momentum([{"params": decay, "weight_decay": 4e-5}, {"params": rest}],
                      learning_rate=lr, momentum=0.9)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    train.set_train()
    x, y = Tensor(images), Tensor(labels)
    losses = [float(train(x, y).asnumpy()) for _ in range(steps)]
    assert losses[-1] < 0.5 * losses[0]
    assert isinstance(net.head.weight, Parameter)
    np.testing.assert_allclose(float(lr(Tensor(steps, ms.int32)).asnumpy()),
                               0.001 + 0.5 * 0.049 * (1 + math.cos(math.pi)), atol=1e-7)
