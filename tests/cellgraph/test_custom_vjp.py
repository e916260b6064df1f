"""`custom_vjp`: a function whose backward the user gives with `defbwd`, used by every gradient
transform, inside graphs and at higher order, with clear errors for a wrong backward."""
import numpy as np
import pytest

from cellgraph import Tensor, jit, nn, ops
from cellgraph.ops.function.grad.grad_func import custom_vjp
from cellgraph.testing import check_grads

grad_all = ops.GradOperation(get_all=True)
TOL = {"rtol": 1e-6, "atol": 1e-6}


def f32(values):
    return Tensor(np.asarray(values, np.float32))


def scaled_backward():
    """x + y whose backward claims 3 and 5 per unit of dout: the numbers show which ran."""
    @custom_vjp
    def add(x, y):
        return x + y

    def add_bprop(x, y, out, dout):
        return 3 * dout, 5 * dout

    add.defbwd(add_bprop)
    return add


def test_the_user_backward_replaces_differentiation():
    add = scaled_backward()
    x, y = f32([1.0, 2.0]), f32([4.0, -1.0])
    np.testing.assert_allclose(add(x, y).asnumpy(), [5.0, 1.0], **TOL)
    dx, dy = grad_all(add)(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 3.0], **TOL)
    np.testing.assert_allclose(dy.asnumpy(), [5.0, 5.0], **TOL)
    out, vjp_fn = ops.vjp(add, x, y)
    np.testing.assert_allclose(out.asnumpy(), [5.0, 1.0], **TOL)
    dx, dy = vjp_fn(f32([2.0, -1.0]))
    np.testing.assert_allclose(dx.asnumpy(), [6.0, -3.0], **TOL)
    np.testing.assert_allclose(dy.asnumpy(), [10.0, -5.0], **TOL)


def test_the_backward_reads_inputs_and_outputs():
    @custom_vjp
    def square(x):
        return x * x

    def square_bprop(x, out, dout):
        return (dout * (out + x * x) / x,)  # 2x dout, written through `out`

    square.defbwd(square_bprop)
    x = f32([1.5, -2.0])
    (dx,) = grad_all(square)(x)
    np.testing.assert_allclose(dx.asnumpy(), 2 * x.asnumpy(), rtol=1e-6)


def test_calls_inside_jit_functions_and_cells_use_the_backward():
    add = scaled_backward()

    @jit
    def uses_add(x, y):
        return add(x, y) * 2 + x

    class UsesAdd(nn.Cell):
        def construct(self, x, y):
            return add(x, y) - y

    x, y = f32([1.0]), f32([2.0])
    dx, dy = grad_all(uses_add)(x, y)
    np.testing.assert_allclose([dx.asnumpy()[0], dy.asnumpy()[0]], [7.0, 10.0], **TOL)
    dx, dy = grad_all(UsesAdd())(x, y)
    np.testing.assert_allclose([dx.asnumpy()[0], dy.asnumpy()[0]], [3.0, 4.0], **TOL)


def test_a_true_backward_passes_finite_differences_at_order_two():
    @custom_vjp
    def sin(x):
        return ops.sin(x)

    def sin_bprop(x, out, dout):
        return (dout * ops.cos(x),)  # differentiable itself: second order goes through it

    sin.defbwd(sin_bprop)
    check_grads(sin, (Tensor(np.array([0.3, -1.2], np.float64)),), order=2)


def test_without_a_backward_the_function_is_differentiated_as_written():
    @custom_vjp
    def cube(x):
        return x ** 3

    (dx,) = grad_all(cube)(f32([2.0]))
    np.testing.assert_allclose(dx.asnumpy(), [12.0], **TOL)


def test_a_backward_with_the_wrong_number_of_gradients_is_refused():
    @custom_vjp
    def add(x, y):
        return x + y

    def one_gradient(x, y, out, dout):
        return (dout,)

    add.defbwd(one_gradient)
    with pytest.raises(ValueError, match=r"add.bprop returned 1 gradient .*expected 2"):
        grad_all(add)(f32([1.0]), f32([2.0]))


def test_the_decorated_name_must_be_callable():
    with pytest.raises(TypeError, match="custom_vjp: expected a function"):
        custom_vjp(3)
