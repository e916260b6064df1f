"""Model-zoo 1.x code built on primitive classes: a CNN whose construct calls P.Conv2D,
P.BiasAdd, P.ReLU, P.MaxPool and P.Reshape made in __init__, a loss cell combining
P.SparseSoftmaxCrossEntropyWithLogits with L2 regularisation summed over weights by P.L2Loss,
a TrainOneStepCell subclass with GradOperation and a HyperMap of ops.ApplyMomentum, and
P.SigmoidCrossEntropyWithLogits for a multi-label head; numbers checked against NumPy."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn
from cellgraph import dtype as mstype
from cellgraph.common.initializer import Normal, initializer
from cellgraph.ops import composite as C
from cellgraph.ops import functional as F
from cellgraph.ops import operations as P

_momentum = C.MultitypeFuncGraph("momentum")


@_momentum.register("Function", "Number", "Number", "Tensor", "Tensor", "Tensor")
def _apply(opt, lr, momentum, grad, weight, moment):
    return F.depend(True, opt(weight, moment, lr, grad, momentum))


class PrimitiveCNN(nn.Cell):
    def __init__(self, classes=3):
        super().__init__()
        self.conv_w = Parameter(initializer(Normal(0.3), (4, 1, 3, 3), mstype.float32),
                                name="conv_w")
        self.conv_b = Parameter(initializer("zeros", (4,), mstype.float32), name="conv_b")
        self.fc_w = Parameter(initializer(Normal(0.1), (classes, 4 * 3 * 3), mstype.float32),
                              name="fc_w")
        self.fc_b = Parameter(initializer("zeros", (classes,), mstype.float32), name="fc_b")
        self.conv = P.Conv2D(out_channel=4, kernel_size=3, pad_mode="same")
        self.bias_add = P.BiasAdd()
        self.relu = P.ReLU()
        self.pool = P.MaxPool(kernel_size=2, strides=2)
        self.reshape = P.Reshape()
        self.matmul = P.MatMul(transpose_b=True)

    def construct(self, x):
        x = self.relu(self.bias_add(self.conv(x, self.conv_w), self.conv_b))
        x = self.pool(x)
        x = self.reshape(x, (F.shape(x)[0], -1))
        return self.bias_add(self.matmul(x, self.fc_w), self.fc_b)


class LossWithL2(nn.Cell):
    def __init__(self, network, l2_coef=1e-3):
        super().__init__(auto_prefix=False)
        self.network = network
        self.ce = P.SparseSoftmaxCrossEntropyWithLogits()
        self.l2 = P.L2Loss()
        self.weights = ParameterTuple(p for p in network.trainable_params()
                                      if p.name.endswith("_w"))
        self.l2_coef = l2_coef

    def construct(self, x, label):
        loss = self.ce(self.network(x), label)
        l2 = 0.0
        for w in self.weights:
            l2 = l2 + self.l2(w)
        return loss + self.l2_coef * l2


class TrainStep(nn.TrainOneStepCell):
    def __init__(self, network, optimizer, lr=0.05, momentum=0.9):
        super().__init__(network, optimizer)
        self.grad_op = C.GradOperation(get_by_list=True)
        self.moments = optimizer.parameters.clone(prefix="moments", init="zeros")
        self.apply_momentum = P.ApplyMomentum()
        self.lr, self.momentum = lr, momentum
        self.hyper_map = C.HyperMap()

    def construct(self, x, label):
        loss = self.network(x, label)
        grads = self.grad_op(self.network, self.weights)(x, label)
        success = self.hyper_map(F.partial(_momentum, self.apply_momentum, self.lr,
                                           self.momentum), grads, self.weights, self.moments)
        return F.depend(loss, success)


def bars(n, seed):
    """Class = position of a bright vertical bar: left, middle or right third."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, size=n).astype(np.int32)
    images = rng.normal(scale=0.3, size=(n, 1, 6, 6)).astype(np.float32)
    for img, label in zip(images, labels):
        img[0, :, 2 * label:2 * label + 2] += 1.5
    return images, labels


def test_l2_regularised_loss_matches_numpy():
    net = PrimitiveCNN()
    loss_net = LossWithL2(net, l2_coef=0.01)
    x, y = bars(4, 0)
    logits = net(Tensor(x)).asnumpy().astype(np.float64)
    shifted = logits - logits.max(1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    ce = -log_probs[np.arange(4), y].mean()
    l2 = sum((w.asnumpy().astype(np.float64) ** 2).sum() / 2 for w in (net.conv_w, net.fc_w))
    np.testing.assert_allclose(loss_net(Tensor(x), Tensor(y)).asnumpy(), ce + 0.01 * l2,
                               rtol=1e-5)
    assert [w.name for w in loss_net.weights] == ["conv_w", "fc_w"]


def test_zoo_train_step_with_apply_momentum_learns():
    ms.set_seed(0)
    net = PrimitiveCNN()
    loss_net = LossWithL2(net)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = TrainStep(loss_net, opt)
    step.set_train()
    x, y = bars(48, 1)
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(30)]
    assert losses[-1] < 0.3 * losses[0]
    assert opt.global_step.asnumpy().item() == 0       # the zoo step never called the optimizer
    assert np.any(step.moments[0].asnumpy() != 0)
    test_x, test_y = bars(30, 2)
    predicted = net(Tensor(test_x)).asnumpy().argmax(1)
    assert np.mean(predicted == test_y) > 0.9


def test_sigmoid_cross_entropy_multilabel_head():
    logits = np.array([[2.0, -1.0], [0.5, 3.0]], np.float32)
    labels = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    loss = P.SigmoidCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    expected = np.log1p(np.exp(-np.abs(logits))) + np.maximum(logits, 0) - logits * labels
    np.testing.assert_allclose(loss.asnumpy(), expected, rtol=1e-6)
