"""Backward hooks on Cells: `register_backward_pre_hook(hook(cell, grad_output))` on the
gradients of a Cell's outputs and `register_backward_hook(hook(cell, grad_input,
grad_output))` on those of its Tensor inputs, run on the host during the backward pass; a
returned tuple replaces the gradients. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn
from cellgraph.ops import GradOperation


@pytest.fixture(autouse=True)
def graph_mode():
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE)


def f32(*values):
    return Tensor(np.array(values, np.float32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = nn.MatMul()
        self.relu = nn.ReLU()

    def construct(self, x, y):
        return self.relu(self.mul(x, y)) + y


def test_a_backward_hook_replaces_the_input_gradients():
    seen = []

    def hook(cell, grad_input, grad_output):
        seen.append((cell, [g.asnumpy() for g in grad_input], [g.asnumpy() for g in grad_output]))
        return f32(2, 3, 4, 5), f32(5, 6, 7, 8)

    net = Net()
    handle = net.mul.register_backward_hook(hook)
    x, y = f32(1, 2, 3, 4), f32(5, 6, 7, 8)
    grads = GradOperation(get_all=True)(net)(x, y)
    np.testing.assert_allclose(grads[0].asnumpy(), [2, 3, 4, 5])
    np.testing.assert_allclose(grads[1].asnumpy(), [6, 7, 8, 9])
    cell, grad_input, grad_output = seen[-1]
    assert cell is net.mul
    # the product is a scalar broadcast over the 4 elements of the output: its gradient is 4
    np.testing.assert_allclose(grad_output[0], 4.0)
    np.testing.assert_allclose(grad_input[0], [20, 24, 28, 32])  # before the hook
    handle.remove()
    grads = GradOperation(get_all=True)(net)(x, y)
    np.testing.assert_allclose(grads[0].asnumpy(), [20, 24, 28, 32])


def test_a_backward_pre_hook_replaces_the_output_gradients():
    net = Net()
    net.mul.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0] * 3,))
    grads = GradOperation(get_all=True)(net)(f32(1, 2), f32(3, 4))
    np.testing.assert_allclose(grads[0].asnumpy(), [18, 24])  # 3 * 2 * y
    np.testing.assert_allclose(grads[1].asnumpy(), [7, 13])  # 3 * 2 * x + 1


def test_hooks_returning_none_keep_the_gradients():
    net = Net()
    net.mul.register_backward_pre_hook(lambda cell, grad_output: None)
    net.mul.register_backward_hook(lambda cell, grad_input, grad_output: None)
    grads = GradOperation(get_all=True)(net)(f32(1, 2), f32(3, 4))
    np.testing.assert_allclose(grads[0].asnumpy(), [6, 8])
    np.testing.assert_allclose(grads[1].asnumpy(), [3, 5])
