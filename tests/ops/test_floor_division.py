"""`//` and `%` on Tensors (FloorDiv, FloorMod): Python's rounding and signs, the operands' dtype,
and FloorMod's gradient."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads

X = np.array([7, -7, 6, -9, 0], np.int32)
Y = np.array([2, 2, -4, -4, 3], np.int32)


def test_integer_floor_division_matches_python():
    q, r = Tensor(X) // Tensor(Y), Tensor(X) % Tensor(Y)
    np.testing.assert_array_equal(q.asnumpy(), X // Y)
    np.testing.assert_array_equal(r.asnumpy(), X % Y)
    assert q.asnumpy().dtype == np.int32 and r.asnumpy().dtype == np.int32


@pytest.mark.parametrize("scalar", [3, 2.5, -1.5])
def test_float_operands_and_python_scalars_on_either_side(scalar):
    x = np.array([2.5, -2.5, 7.0, -0.25])
    np.testing.assert_allclose((Tensor(x) // scalar).asnumpy(), x // scalar)
    np.testing.assert_allclose((Tensor(x) % scalar).asnumpy(), x % scalar)
    np.testing.assert_allclose((scalar // Tensor(x)).asnumpy(), scalar // x)
    np.testing.assert_allclose((scalar % Tensor(x)).asnumpy(), scalar % x)


def test_functional_and_class_forms():
    np.testing.assert_array_equal(ops.floor_div(Tensor(X), Tensor(Y)).asnumpy(), X // Y)
    np.testing.assert_array_equal(ops.FloorMod()(Tensor(X), Tensor(Y)).asnumpy(), X % Y)


class Remainders(nn.Cell):
    def construct(self, x, y):
        return (x % y) * x + (x // y) * y


def test_gradients_in_a_graph():
    # away from the jumps of floor(x / y)
    x, y = Tensor(np.array([2.5, -1.3, 4.1])), Tensor(np.array([0.7, 0.9, -1.7]))
    check_grads(Remainders(), (x, y), order=2)
    xs, ys = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(Remainders()(x, y).asnumpy(),
                               (xs % ys) * xs + (xs // ys) * ys)
