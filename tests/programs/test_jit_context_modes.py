"""How scripts switch between graph and PyNative execution: set_context(mode=...) variants
with device_target and jit_config, the @ms.jit decorator on functions and on a Cell method,
jit with a JitConfig, the 1.x ms_function alias, ms.jit_class, ms.mutable for a Python scalar
that should not trigger recompiles, and the same training step run in both modes giving the
same numbers."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x, scale):
        y = self.fc(x) * scale
        if y.sum() > 0:
            y = y * 2
        else:
            y = -y
        return y

    @ms.jit
    def doubled(self, x):
        return self.fc(x) * 2


@ms.jit_class
class Config:
    def __init__(self):
        self.shift = 3.0


def train_steps(mode, steps=5):
    ms.set_context(mode=mode)
    ms.set_seed(0)
    net = nn.Dense(3, 1)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    y = Tensor(np.ones((4, 1), np.float32))
    losses = []
    for _ in range(steps):
        loss, grads = grad_fn(x, y)
        opt(grads)
        losses.append(float(loss.asnumpy()))
    return losses, net.weight.asnumpy()


def test_same_training_in_graph_and_pynative_mode():
    graph_losses, graph_w = train_steps(ms.GRAPH_MODE)
    pynative_losses, pynative_w = train_steps(ms.PYNATIVE_MODE)
    np.testing.assert_allclose(graph_losses, pynative_losses, rtol=1e-6)
    np.testing.assert_allclose(graph_w, pynative_w, rtol=1e-6)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    ms.set_context(mode=ms.GRAPH_MODE)


def test_context_variants_and_jit_configs():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    assert ms.get_context("device_target") == "CPU"
    ms.set_context(jit_config={"jit_level": "O0"})
    net = Net()
    x = Tensor(np.ones((2, 4), np.float32))
    np.testing.assert_allclose(net(x, 1.5).asnumpy(), np.full((2, 2), 12.0))
    np.testing.assert_allclose(net(-x, 1.5).asnumpy(), np.full((2, 2), 6.0))
    np.testing.assert_allclose(net.doubled(x).asnumpy(), np.full((2, 2), 8.0))
    net.set_jit_config(ms.JitConfig(jit_level="O1"))
    np.testing.assert_allclose(net(x, 0.5).asnumpy(), np.full((2, 2), 4.0))


def test_jit_function_forms():
    @ms.jit
    def softplus_sum(x):
        return ops.log(1 + ops.exp(x)).sum()

    @ms.jit(jit_config=ms.JitConfig(jit_level="O2"))
    def scaled(x, factor):
        return x * factor

    def plain(x, y):
        return ops.maximum(x, y) - ops.minimum(x, y)

    jitted = ms.jit(plain)
    legacy = ms.ms_function(plain)
    x = Tensor(np.array([-1.0, 0.0, 2.0], np.float32))
    y = Tensor(np.array([1.0, 1.0, 1.0], np.float32))
    np.testing.assert_allclose(softplus_sum(x).asnumpy(), np.log1p(np.exp([-1.0, 0, 2])).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(scaled(x, 3).asnumpy(), [-3.0, 0.0, 6.0])
    np.testing.assert_allclose(jitted(x, y).asnumpy(), [2.0, 1.0, 1.0])
    np.testing.assert_allclose(legacy(x, y).asnumpy(), [2.0, 1.0, 1.0])


def test_jit_class_instance_and_mutable_scalar():
    config = Config()

    class Shift(nn.Cell):
        def __init__(self):
            super().__init__()
            self.config = config

        def construct(self, x, n):
            for _ in range(3):
                x = x + self.config.shift
            return x * n

    net = Shift()
    x = Tensor(np.zeros(2, np.float32))
    np.testing.assert_allclose(net(x, ms.mutable(2)).asnumpy(), [18.0, 18.0])
    np.testing.assert_allclose(net(x, ms.mutable(3)).asnumpy(), [27.0, 27.0])
    with pytest.raises((TypeError, ValueError)):
        ms.set_context(mode=7)


def test_calling_a_jit_class_object_without_call_is_mindsporess_value_error():
    @ms.jit_class
    class Inner:
        def __init__(self, number):
            self.number = number

    class Net(nn.Cell):
        def construct(self, x):
            return Inner(2)(x)

    with pytest.raises(ValueError, match="MsClassObject: 'Inner' has no __call__ function"):
        Net()(ms.Tensor(2))
