"""Control flow written in construct the way scripts do: a Tensor `if` choosing a branch, an
early return, a `while` on a Tensor with `break`, a `for` over a Tensor's rows, a `for` over
range with Tensor indexing, and a Python-constant `if` on a Cell attribute, each compared with
the same code run eagerly (PyNative) and differentiated."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Clip(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = -x
        return y + 1


class EarlyExit(nn.Cell):
    def construct(self, x):
        if x.max() > 10:
            return (x / 10).sum()
        x = x * x
        return x.sum()


class Newton(nn.Cell):
    """Square root by Newton's iteration, stopping when converged."""

    def construct(self, a):
        x = a
        steps = Tensor(0, ms.int32)
        while steps < 50:
            new_x = 0.5 * (x + a / x)
            if ops.abs(new_x - x) < 1e-6:
                break
            x = new_x
            steps += 1
        return x, steps


class RowSum(nn.Cell):
    def construct(self, m):
        total = ops.zeros(m.shape[1:], m.dtype)
        for row in m:
            total = total + row * row
        return total


class Horner(nn.Cell):
    def __init__(self, degree, use_bias=True):
        super().__init__()
        self.degree = degree
        self.use_bias = use_bias

    def construct(self, coeffs, x):
        acc = coeffs[self.degree] * ops.ones_like(x)
        for i in range(self.degree - 1, -1, -1):
            acc = acc * x + coeffs[i]
        if self.use_bias:
            acc = acc + 1.0
        return acc


MODES = [ms.GRAPH_MODE, ms.PYNATIVE_MODE]


@pytest.mark.parametrize("mode", MODES)
def test_tensor_if_and_early_return(mode):
    ms.set_context(mode=mode)
    pos, neg = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([-1.0, -2.0], np.float32))
    np.testing.assert_allclose(Clip()(pos).asnumpy(), [3.0, 5.0])
    np.testing.assert_allclose(Clip()(neg).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(ms.grad(Clip())(neg).asnumpy(), [-1.0, -1.0])
    np.testing.assert_allclose(EarlyExit()(Tensor(np.array([20.0, 1.0], np.float32))).asnumpy(),
                               2.1, rtol=1e-6)
    np.testing.assert_allclose(EarlyExit()(Tensor(np.array([2.0, 1.0], np.float32))).asnumpy(),
                               5.0)


@pytest.mark.parametrize("mode", MODES)
def test_while_with_break(mode):
    ms.set_context(mode=mode)
    root, steps = Newton()(Tensor(np.array(2.0, np.float64)))
    np.testing.assert_allclose(root.asnumpy(), np.sqrt(2.0), rtol=1e-10)
    assert 3 <= int(steps.asnumpy()) < 10


@pytest.mark.parametrize("mode", MODES)
def test_for_loops(mode):
    ms.set_context(mode=mode)
    m = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(RowSum()(Tensor(m)).asnumpy(), (m * m).sum(0))
    coeffs = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    x = Tensor(np.array([0.0, 1.0, 2.0], np.float32))
    xs = x.asnumpy()
    np.testing.assert_allclose(Horner(2)(coeffs, x).asnumpy(), 1 - 2 * xs + 0.5 * xs ** 2 + 1)
    np.testing.assert_allclose(Horner(2, use_bias=False)(coeffs, x).asnumpy(),
                               1 - 2 * xs + 0.5 * xs ** 2)
    grad = ms.grad(lambda c, t: Horner(2)(c, t).sum(), grad_position=1)(coeffs, x)
    np.testing.assert_allclose(grad.asnumpy(), -2 + xs, rtol=1e-6)
