"""`jet` and `derivative`: higher-order derivatives along an input path, against hand-derived
Taylor coefficients and finite differences, from Python and inside graphs."""
import numpy as np
import pytest

from cellgraph import Tensor, float64, jit, nn, ops
from cellgraph.ops.functional import derivative, jet

TOL = {"rtol": 1e-5, "atol": 1e-5}


def f32(values):
    return Tensor(np.asarray(values, np.float32))


def f64(values):
    return Tensor(np.asarray(values, np.float64))


class Cube(nn.Cell):
    def construct(self, x):
        return x ** 3


class Product(nn.Cell):
    def construct(self, x, y):
        return x * y


class SinAndExp(nn.Cell):
    def construct(self, x, y):
        return ops.sin(x), ops.exp(y)


def test_jet_of_sin_along_the_identity_path_gives_its_derivatives():
    x = np.array([0.3, 1.2, -2.0], np.float32)
    series = np.stack([np.ones(3), np.zeros(3), np.zeros(3)]).astype(np.float32)
    primal, out = jet(ops.sin, f32(x), f32(series))
    np.testing.assert_allclose(primal.asnumpy(), np.sin(x), **TOL)
    assert out.shape == (3, 3)
    np.testing.assert_allclose(out.asnumpy(), [np.cos(x), -np.sin(x), -np.cos(x)], **TOL)


def test_jet_of_a_cube_along_a_curved_path_matches_faa_di_bruno():
    # x(t) = x0 + a t + b t^2/2 + c t^3/6 and g(t) = x(t)^3:
    # g' = 3x^2 a, g'' = 6x a^2 + 3x^2 b, g''' = 6a^3 + 18x a b + 3x^2 c.
    x0, a, b, c = 1.5, 2.0, -1.0, 0.5
    primal, out = jet(Cube(), f32([x0]), f32([[a], [b], [c]]))
    expected = [3 * x0 ** 2 * a, 6 * x0 * a ** 2 + 3 * x0 ** 2 * b,
                6 * a ** 3 + 18 * x0 * a * b + 3 * x0 ** 2 * c]
    np.testing.assert_allclose(primal.asnumpy(), [x0 ** 3], **TOL)
    np.testing.assert_allclose(out.asnumpy()[:, 0], expected, **TOL)


def test_jet_of_two_inputs_moves_both_along_their_series():
    # g(t) = x(t) y(t): g' = x'y + xy', g'' = x''y + 2x'y' + xy''.
    x, y = 2.0, -3.0
    (xa, xb), (ya, yb) = (1.0, 4.0), (0.5, -2.0)
    primal, out = jet(Product(), (f32([x]), f32([y])), (f32([[xa], [xb]]), f32([[ya], [yb]])))
    np.testing.assert_allclose(primal.asnumpy(), [x * y], **TOL)
    np.testing.assert_allclose(out.asnumpy()[:, 0],
                               [xa * y + x * ya, xb * y + 2 * xa * ya + x * yb], **TOL)


def test_jet_of_several_outputs_returns_lists_per_output():
    primals, series = jet(SinAndExp(), (f32([0.5]), f32([1.0])),
                          (f32([[1.0], [0.0]]), f32([[2.0], [0.0]])))
    assert isinstance(primals, list) and isinstance(series, list)
    np.testing.assert_allclose(primals[0].asnumpy(), np.sin([0.5]), **TOL)
    np.testing.assert_allclose(series[0].asnumpy()[:, 0], [np.cos(0.5), -np.sin(0.5)], **TOL)
    # exp(y0 + 2t): derivatives 2 e^y0 and 4 e^y0.
    np.testing.assert_allclose(series[1].asnumpy()[:, 0], [2 * np.e, 4 * np.e], **TOL)


def test_a_series_shaped_like_the_primal_is_one_derivative():
    primal, out = jet(Cube(), f32([2.0, 3.0]), f32([1.0, -1.0]))
    np.testing.assert_allclose(primal.asnumpy(), [8.0, 27.0], **TOL)
    assert out.shape == (1, 2)
    np.testing.assert_allclose(out.asnumpy()[0], [12.0, -27.0], **TOL)


def test_integer_primals_are_differentiated_as_float32():
    primal, out = jet(Cube(), Tensor(np.array([2], np.int32)), Tensor(np.array([[1]], np.int32)))
    assert primal.dtype == out.dtype and str(out.dtype).lower().startswith("float32")
    np.testing.assert_allclose(out.asnumpy(), [[12.0]], **TOL)


@pytest.mark.parametrize("order", [1, 2])
def test_derivative_matches_finite_differences(order):
    def fn(x):
        return ops.exp(ops.sin(x)) * x

    def numpy_fn(x):
        return np.exp(np.sin(x)) * x

    x = np.array([0.4, -1.1], np.float64)
    _, d = derivative(fn, f64(x), order)
    h = 1e-4
    if order == 1:
        fd = (numpy_fn(x + h) - numpy_fn(x - h)) / (2 * h)
    else:
        fd = (numpy_fn(x + h) - 2 * numpy_fn(x) + numpy_fn(x - h)) / h ** 2
    assert d.dtype == float64
    np.testing.assert_allclose(d.asnumpy(), fd, rtol=1e-5, atol=1e-6)


def test_derivative_of_several_inputs_moves_all_of_them_at_unit_speed():
    # d^2/dt^2 of (x0 + t)(y0 + t) is 2.
    _, d = derivative(Product(), (f32([3.0]), f32([5.0])), 2)
    np.testing.assert_allclose(d.asnumpy(), [2.0], **TOL)


def test_derivative_of_several_outputs_gives_the_last_order_of_each():
    primals, ds = derivative(SinAndExp(), (f32([0.5]), f32([1.0])), 3)
    np.testing.assert_allclose(ds[0].asnumpy(), -np.cos([0.5]), **TOL)
    np.testing.assert_allclose(ds[1].asnumpy(), np.exp([1.0]), **TOL)
    np.testing.assert_allclose(primals[1].asnumpy(), np.exp([1.0]), **TOL)


def test_jet_and_derivative_inside_graphs_match_python_calls():
    class Taylor(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, s):
            p, series = jet(self.net, x, s)
            _, second = derivative(self.net, x, 2)
            return p, series, second

    @jit
    def in_function(x, s):
        return jet(ops.tanh, x, s)

    x, s = f32([0.7, -0.2]), f32([[1.0, 2.0], [0.5, 0.0]])
    p, series, second = Taylor(Cube())(x, s)
    expected = jet(Cube(), x, s)
    np.testing.assert_allclose(p.asnumpy(), expected[0].asnumpy(), **TOL)
    np.testing.assert_allclose(series.asnumpy(), expected[1].asnumpy(), **TOL)
    np.testing.assert_allclose(second.asnumpy(), 6 * x.asnumpy(), **TOL)
    tanh_p, tanh_series = in_function(x, s)
    np.testing.assert_allclose(tanh_p.asnumpy(), np.tanh(x.asnumpy()), **TOL)
    np.testing.assert_allclose(tanh_series.asnumpy()[0],
                               (1 - np.tanh(x.asnumpy()) ** 2) * s.asnumpy()[0], **TOL)


def test_bad_arguments_are_refused_with_the_builtin_types():
    with pytest.raises(TypeError, match="both Tensors or both tuples"):
        jet(Cube(), f32([1.0]), (f32([1.0]),))
    with pytest.raises(ValueError, match="shape of its primal"):
        jet(Cube(), f32([1.0, 2.0]), f32([[1.0, 2.0, 3.0]]))
    with pytest.raises(TypeError, match="`order` must be an int"):
        derivative(Cube(), f32([1.0]), 1.5)
    with pytest.raises(ValueError, match="`order` must be >= 1"):
        derivative(Cube(), f32([1.0]), 0)
