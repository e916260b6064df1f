"""Custom backward rules in a Cell's bprop (straight-through rounding, gradient clipping),
used inside a network trained by TrainOneStepCell, and jit-decorated helper functions."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class StraightThroughRound(nn.Cell):
    def construct(self, x):
        return ops.round(x)

    def bprop(self, x, out, dout):
        return (dout,)


class ClipGrad(nn.Cell):
    """Identity forward; the backward clips the incoming gradient to [-limit, limit]."""

    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout, -self.limit, self.limit),)


class MulAdd(nn.Cell):
    def construct(self, x, y):
        return 2 * x * x + 3 * y

    def bprop(self, x, y, out, dout):
        return 4 * x * dout, 3 * dout


class QuantNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 1)
        self.quant = StraightThroughRound()
        self.clip = ClipGrad(0.5)

    def construct(self, x):
        return self.clip(self.fc(self.quant(x * 4.0) / 4.0))


def test_bprop_rules_are_used():
    x = Tensor(np.array([0.2, 1.7, -0.6], np.float32))
    np.testing.assert_allclose(ops.grad(StraightThroughRound())(x).asnumpy(), [1, 1, 1])
    clip = ClipGrad(0.5)
    grad = ms.grad(lambda t: (clip(t) * 10.0).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), [0.5, 0.5, 0.5])
    gx, gy = ms.grad(MulAdd(), grad_position=(0, 1))(Tensor(2.0), Tensor(5.0))
    assert float(gx.asnumpy()) == 8.0 and float(gy.asnumpy()) == 3.0


def test_network_with_custom_bprop_trains():
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=(64, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5], [0.0]], np.float32)).astype(np.float32)
    net = QuantNet()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.SGD(net.trainable_params(), learning_rate=0.1))
    losses = [float(train(Tensor(x), Tensor(y)).asnumpy()) for _ in range(100)]
    assert losses[-1] < 0.1 * losses[0]


@ms.jit
def softmax_cross_entropy(logits, labels):
    log_probs = logits - ops.logsumexp(logits, dim=-1, keepdim=True)
    return -(ops.one_hot(labels, logits.shape[-1], Tensor(1.0), Tensor(0.0)) * log_probs).sum(-1)


def test_jit_function_matches_library_loss():
    rng = np.random.default_rng(2)
    logits = Tensor(rng.normal(size=(6, 5)).astype(np.float32))
    labels = Tensor(rng.integers(0, 5, size=6).astype(np.int32))
    expected = nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, labels)
    np.testing.assert_allclose(softmax_cross_entropy(logits, labels).asnumpy(),
                               expected.asnumpy(), rtol=1e-5)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(softmax_cross_entropy(logits, labels).asnumpy(),
                               expected.asnumpy(), rtol=1e-5)
    g = ms.grad(lambda z: softmax_cross_entropy(z, labels).sum())(logits)
    probs = np.exp(logits.asnumpy()) / np.exp(logits.asnumpy()).sum(-1, keepdims=True)
    np.testing.assert_allclose(g.asnumpy(), probs - np.eye(5)[labels.asnumpy()], rtol=1e-5,
                               atol=1e-6)
