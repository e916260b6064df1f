"""cellgraph.jit as a decorator for functions and for construct, in both modes."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, context, nn, ops


@ms.jit
def scaled_exp(x, scale=2.0):
    return ops.exp(x) * scale


def test_jit_function_compiles_once_per_signature():
    x = Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_allclose(scaled_exp(x).asnumpy(), 2 * np.exp([0.0, 1.0]), rtol=1e-6)
    scaled_exp(x + 1)
    assert len(scaled_exp._cache.entries) == 1
    scaled_exp(Tensor(np.ones((2, 2), np.float32)))
    assert len(scaled_exp._cache.entries) == 2
    np.testing.assert_allclose(scaled_exp(x, scale=3.0).asnumpy(), 3 * np.exp([0.0, 1.0]),
                               rtol=1e-6)


class UsesJitHelper(nn.Cell):
    def construct(self, x):
        return scaled_exp(x) + 1


def test_jit_function_called_inside_construct_is_inlined():
    x = Tensor(np.array([0.5], np.float32))
    np.testing.assert_allclose(UsesJitHelper()(x).asnumpy(), 2 * np.exp(0.5) + 1, rtol=1e-6)
    text = ms.dump_ir(UsesJitHelper(), x, stage="optimize")
    assert "exp(" in text and "grad" not in text


class JitConstruct(nn.Cell):
    @ms.jit
    def construct(self, x, y):
        if x.sum() > 0:  # a Tensor condition: only compilable as a switch
            return x * y
        return x - y


def test_jit_construct_in_pynative_mode_compiles_the_graph():
    ms.set_context(mode=context.PYNATIVE_MODE)
    net = JitConstruct()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(net(x, y).asnumpy(), [3.0, 8.0])
    np.testing.assert_allclose(net(-x, y).asnumpy(), [-4.0, -6.0])
    bound = net.construct
    assert len(bound._cache.entries) == 1  # one signature, both branches in one graph


def test_jit_construct_in_graph_mode_and_under_grad():
    net = JitConstruct()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    np.testing.assert_allclose(net(x, y).asnumpy(), [3.0, 8.0])
    dx, dy = ms.grad(net, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 4.0])
    np.testing.assert_allclose(dy.asnumpy(), [1.0, 2.0])
