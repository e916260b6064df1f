"""Tensor operators as people use them, in a Cell's construct (graph mode) and in PyNative:
arithmetic with Python scalars on either side, floor division and modulo with MindSpore's
(Python's) sign rule, powers, matmul, the bitwise and logical operators on int and bool
tensors, shifts, comparisons, unary operators and the in-place forms."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

A = np.array([[7, -7, 5], [-3, 8, 1]], np.int32)
B = np.array([[2, 3, -2], [2, -3, 1]], np.int32)
X = np.array([[1.5, -2.25, 3.0], [0.5, 4.0, -1.0]], np.float32)
Y = np.array([[2.0, 0.5, -1.5], [1.0, 2.0, 3.0]], np.float32)


class Arithmetic(nn.Cell):
    def construct(self, x, y):
        return (x + y, x - y, x * y, x / y, -x, 2 - x, 3 / y, x ** 2, 2 ** y, abs(x),
                x @ y.T, x > y, x <= 1.5, x == y, x != y)


class IntegerOps(nn.Cell):
    def construct(self, a, b):
        return a // b, a % b, a & b, a | b, a ^ b, ~a, a << 1, a >> 1, a % 3, 17 // b


class InPlace(nn.Cell):
    def construct(self, x, y):
        z = x
        z += y
        z *= 2
        z -= 1.0
        z /= y
        z **= 2
        return z


def expected_arithmetic(x, y):
    return (x + y, x - y, x * y, x / y, -x, 2 - x, 3 / y, x ** 2, 2 ** y, abs(x),
            x @ y.T, x > y, x <= 1.5, x == y, x != y)


def expected_integer(a, b):
    # MindSpore's `~` on a Tensor is logical_not whatever its dtype (a bool Tensor), not
    # NumPy's bitwise invert: ~Tensor([1, 2]) is [False, False] in MindSpore 2.10
    return a // b, a % b, a & b, a | b, a ^ b, np.logical_not(a), a << 1, a >> 1, a % 3, 17 // b


def check(got, expected):
    for g, e in zip(got, expected):
        g = g.asnumpy()
        assert g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-6)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_float_operators(mode):
    ms.set_context(mode=mode)
    check(Arithmetic()(Tensor(X), Tensor(Y)), expected_arithmetic(X, Y))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_integer_operators(mode):
    ms.set_context(mode=mode)
    check(IntegerOps()(Tensor(A), Tensor(B)), expected_integer(A, B))


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_float_floor_division_and_modulo(mode):
    ms.set_context(mode=mode)
    x, y = Tensor(X), Tensor(Y)
    np.testing.assert_allclose((x // y).asnumpy(), X // Y)
    np.testing.assert_allclose((x % y).asnumpy(), X % Y, rtol=1e-6)
    np.testing.assert_allclose((x % 2).asnumpy(), X % 2, rtol=1e-6)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_in_place_forms(mode):
    ms.set_context(mode=mode)
    expected = (((X + Y) * 2 - 1.0) / Y) ** 2
    np.testing.assert_allclose(InPlace()(Tensor(X), Tensor(Y)).asnumpy(), expected, rtol=1e-5)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_boolean_masks(mode):
    ms.set_context(mode=mode)

    class Masks(nn.Cell):
        def construct(self, x):
            positive = x > 0
            big = abs(x) > 1.0
            return positive & big, positive | big, positive ^ big, ~positive

    got = Masks()(Tensor(X))
    positive, big = X > 0, np.abs(X) > 1.0
    for g, e in zip(got, (positive & big, positive | big, positive ^ big, ~positive)):
        assert g.dtype == ms.bool_
        np.testing.assert_array_equal(g.asnumpy(), e)


def test_gradient_through_operators():
    def f(x, y):
        return ((x ** 3) / y + 2.0 ** x - (x @ y.T).sum()).sum()

    dx, dy = ms.grad(f, grad_position=(0, 1))(Tensor(X), Tensor(Y))
    expected_dx = 3 * X ** 2 / Y + np.log(2.0) * 2.0 ** X - X.size * Y.sum(0, keepdims=True)
    expected_dy = -X ** 3 / Y ** 2 - X.size * X.sum(0, keepdims=True)
    np.testing.assert_allclose(dx.asnumpy(), expected_dx, rtol=1e-5)
    np.testing.assert_allclose(dy.asnumpy(), expected_dy, rtol=1e-5)
