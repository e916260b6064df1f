"""jacrev, jacfwd and hessian against closed forms, including the cases where MindSpore's
documented workarounds go wrong (seed 002), has_aux, several inputs and outputs, and errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

RNG = np.random.default_rng(3)
JACOBIANS = [ops.jacrev, ops.jacfwd]
IDS = ["jacrev", "jacfwd"]


def _t(a):
    return Tensor(np.asarray(a, np.float32))


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_square_of_matmul(jac):
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    x = RNG.standard_normal(4).astype(np.float32)

    def f(x):
        return ops.matmul(_t(a), x) ** 2

    got = jac(f)(_t(x))
    wanted = 2 * (a @ x)[:, None] * a  # d (Ax)_i^2 / dx_j = 2 (Ax)_i A_ij
    assert got.shape == (3, 4)
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-5, atol=1e-5)


class _IndexNet(nn.Cell):
    """Seed 002: z_i = y[index_i] * x[index_i]; grad(net) sums the rows, and broadcasting x as
    the blog does puts y's values where zeros belong. The Jacobian has one entry per row."""

    def __init__(self, y, index):
        super().__init__()
        self.y, self.index = y, index

    def construct(self, x):
        return self.y[self.index].squeeze(-1) * x[self.index]


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_indexed_product_from_the_seed_blog(jac):
    x = _t([1, 2, 3])
    y = _t([[1], [2], [3]])
    index = Tensor(np.array([0, 2, 1], np.int32))
    got = jac(_IndexNet(y, index))(x)
    np.testing.assert_array_equal(got.asnumpy(), [[1, 0, 0], [0, 0, 3], [0, 2, 0]])


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_tanh_of_matmul(jac):
    a = RNG.standard_normal((5, 5)).astype(np.float32)
    x = RNG.standard_normal(5).astype(np.float32)
    got = jac(lambda x: ops.tanh(ops.matmul(_t(a), x)))(_t(x))
    wanted = (1 - np.tanh(a @ x) ** 2)[:, None] * a
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_elementwise_cube_of_a_matrix_is_four_dimensional(jac):
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    got = jac(lambda x: x ** 3)(_t(x))
    wanted = np.zeros((2, 2, 2, 2), np.float32)
    for i in range(2):
        for j in range(2):
            wanted[i, j, i, j] = 3 * x[i, j] ** 2
    assert got.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-6)


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_has_aux_returns_the_aux_output_untouched(jac):
    x, y = _t([[1, 2], [3, 4]]), _t([[1, 1], [2, 2]])

    def fn(x, y):
        return x ** 2 + y ** 2, x * y

    jacobian, aux = jac(fn, grad_position=0, has_aux=True)(x, y)
    wanted = np.zeros((2, 2, 2, 2), np.float32)
    for i in range(2):
        for j in range(2):
            wanted[i, j, i, j] = 2 * x.asnumpy()[i, j]
    np.testing.assert_allclose(jacobian.asnumpy(), wanted)
    np.testing.assert_allclose(aux.asnumpy(), [[1, 2], [6, 8]])


@pytest.mark.parametrize("jac", JACOBIANS, ids=IDS)
def test_several_positions_and_outputs(jac):
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    x = RNG.standard_normal(3).astype(np.float32)
    s = np.float32(1.5)

    def f(x, s):
        return ops.matmul(_t(a), x) * s, (x * x).sum()

    (dy_dx, dy_ds), (dz_dx, dz_ds) = jac(f, grad_position=(0, 1))(_t(x), _t(s))
    np.testing.assert_allclose(dy_dx.asnumpy(), a * s, rtol=1e-6)
    np.testing.assert_allclose(dy_ds.asnumpy(), a @ x, rtol=1e-6)
    np.testing.assert_allclose(dz_dx.asnumpy(), 2 * x, rtol=1e-6)
    assert dy_ds.shape == (2,) and dz_ds.shape == () and float(dz_ds.asnumpy()) == 0.0


def test_hessian_of_a_quadratic_form():
    a = RNG.standard_normal((4, 4)).astype(np.float32)
    x = RNG.standard_normal(4).astype(np.float32)
    got = ops.hessian(lambda x: ops.matmul(x, ops.matmul(_t(a), x)))(_t(x))
    np.testing.assert_allclose(got.asnumpy(), a + a.T, rtol=1e-5, atol=1e-6)


def test_hessian_of_a_nonlinear_function():
    x = RNG.standard_normal(3).astype(np.float64)
    got = ops.hessian(lambda x: ops.sin(x).sum() * ops.exp(x[0]))(Tensor(x))
    s, e = np.sin(x).sum(), np.exp(x[0])
    wanted = np.diag(-np.sin(x) * e)
    wanted[0, :] += np.cos(x) * e
    wanted[:, 0] += np.cos(x) * e
    wanted[0, 0] += s * e
    np.testing.assert_allclose(got.asnumpy(), wanted, rtol=1e-10)


def test_jacobians_inside_construct_and_under_grad():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_t(RNG.standard_normal((3, 3))), name="w")

        def f(self, x):
            return ops.tanh(ops.matmul(self.w, x))

        def construct(self, x):
            return ops.jacrev(self.f)(x), ops.jacfwd(self.f)(x)

    net = Net()
    x = RNG.standard_normal(3).astype(np.float32)
    rev, fwd = net(_t(x))
    w = net.w.asnumpy()
    wanted = (1 - np.tanh(w @ x) ** 2)[:, None] * w
    np.testing.assert_allclose(rev.asnumpy(), wanted, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fwd.asnumpy(), wanted, rtol=1e-5, atol=1e-6)

    # d/dx of the Jacobian's trace: sum_i -2 t_i (1 - t_i^2) w_ii w_i:
    trace_grad = ops.grad(lambda x: (ops.jacrev(net.f)(x) * _t(np.eye(3))).sum())(_t(x))
    t = np.tanh(w @ x)
    wanted = ((-2 * t * (1 - t ** 2) * np.diag(w))[:, None] * w).sum(0)
    np.testing.assert_allclose(trace_grad.asnumpy(), wanted, rtol=1e-4, atol=1e-5)


def test_jacobian_is_batched_not_one_row_per_call():
    a = _t(RNG.standard_normal((6, 6)))
    text = ms.dump_ir(ops.jacrev(lambda x: ops.tanh(ops.matmul(a, x))), _t(np.ones(6)))
    assert text.count("= tanh(") == 1  # the forward, once
    assert text.count("= matmul(") == 1  # the forward's: no product with an identity matrix
    assert text.count("const(<f32[6,6]>)") == 2  # A, in the forward and scaled: no identity


def test_errors_name_the_api_the_values_and_the_line():
    with pytest.raises(ValueError) as info:
        ops.jacrev(lambda x: x * 2, grad_position=1)(_t([1.0]))
    assert "jacrev: grad_position 1 is out of range for a call with 1 inputs" in str(info.value)
    assert "test_jacobians.py" in str(info.value)
    with pytest.raises(TypeError) as info:
        ops.jacfwd(lambda x: x * 2)(Tensor(np.array([1, 2], np.int32)))
    assert "jacfwd: expected a floating-point Tensor at grad_position 0, got Int32" in str(
        info.value)
    with pytest.raises(ValueError, match="jacrev: has_aux=True needs `fn` to return a tuple"):
        ops.jacrev(lambda x: x * 2, has_aux=True)(_t([1.0]))


def test_float64_jacobians_keep_python_constants_in_double_precision():
    x = Tensor(np.array([1.0, 2.0]))
    third = np.eye(2) / 3.0
    np.testing.assert_allclose(ms.jacrev(lambda x: x / 3.0)(x).asnumpy(), third,
                               rtol=1e-15)
    np.testing.assert_allclose(ms.jacfwd(lambda x: x / 3.0)(x).asnumpy(), third,
                               rtol=1e-15)
    hess = ms.hessian(lambda x: ops.reduce_sum(x * x * x * 0.1))(x).asnumpy()
    np.testing.assert_allclose(hess, np.diag(0.6 * np.array([1.0, 2.0])), rtol=1e-15)


# ----- derivatives found crashing or imprecise by differential fuzzing ------------------------

def _fd_jacobian(f, x, eps=1e-6):
    """Central finite differences in float64: (out..., in...)."""
    x = np.asarray(x, np.float64)
    cols = []
    for i in range(x.size):
        step = np.zeros(x.size)
        step[i] = eps
        step = step.reshape(x.shape)
        hi = f(Tensor(x + step)).asnumpy()
        lo = f(Tensor(x - step)).asnumpy()
        cols.append((hi - lo) / (2 * eps))
    return np.stack(cols, -1).reshape(cols[0].shape + x.shape)


def _index_fill_net(x):
    return ops.index_fill(x, 0, Tensor(np.array([1], np.int32)), 2.0) ** 2 * x


@pytest.mark.parametrize("api", ["jacrev", "jacfwd"])
def test_index_fill_with_a_python_number_differentiates(api):
    # the number broadcast to x's shape was folded as a Python scalar and crashed any graph
    x = RNG.standard_normal((3, 2))
    got = getattr(ops, api)(_index_fill_net)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, _fd_jacobian(_index_fill_net, x), atol=1e-7)
    np.testing.assert_allclose(ms.jit(_index_fill_net)(Tensor(x)).asnumpy(),
                               np.where(np.arange(3)[:, None] == 1, 2.0, x) ** 2 * x)
    hess = ops.hessian(lambda t: _index_fill_net(t).sum())(Tensor(x)).asnumpy()
    np.testing.assert_allclose(hess, _fd_jacobian(
        lambda t: ms.grad(lambda u: _index_fill_net(u).sum())(t), x), atol=1e-6)


def _branches_of_different_lengths(x):
    if x.sum() > 0:
        y = x[:2] * x[:2]
    else:
        y = ops.sin(x)
    return y


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["short", "long"])
def test_jacobians_of_branches_of_different_lengths(sign):
    # the output's length is known only when the graph runs; grad and vjp were right, jacrev,
    # jacfwd, jvp and hessian crashed
    x = sign * np.array([0.3, 0.5, 0.1])
    want = _fd_jacobian(_branches_of_different_lengths, x)
    for api in (ops.jacrev, ops.jacfwd):
        np.testing.assert_allclose(api(_branches_of_different_lengths)(Tensor(x)).asnumpy(),
                                   want, atol=1e-7)
    v = np.array([1.0, -2.0, 0.5])
    out, tangent = ms.jvp(_branches_of_different_lengths, Tensor(x), Tensor(v))
    np.testing.assert_allclose(tangent.asnumpy(), want @ v, atol=1e-7)
    np.testing.assert_allclose(out.asnumpy(), x[:2] ** 2 if sign > 0 else np.sin(x))
    total = lambda t: _branches_of_different_lengths(t).sum()
    hess = ops.hessian(total)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(hess, _fd_jacobian(lambda t: ms.grad(total)(t), x), atol=1e-6)


def test_mean_derivatives_keep_float64():
    # 1/n was folded in float32 (1/21 -> 0.0476190485...) inside float64 programs: error 6e-9
    x = Tensor(RNG.standard_normal((3, 7)))
    n = 21
    exact = (2 / n * (np.eye(n) - 1 / n)).reshape(3, 7, 3, 7)
    np.testing.assert_allclose(ops.hessian(ops.var)(x).asnumpy(), exact, rtol=0, atol=1e-16)
    mean_sq = lambda t: ops.mean(t * t)
    np.testing.assert_allclose(ops.jacfwd(mean_sq)(x).asnumpy(), 2 * x.asnumpy() / n,
                               rtol=0, atol=1e-16)
    np.testing.assert_allclose(ops.hessian(mean_sq)(x).asnumpy(),
                               (2 / n * np.eye(n)).reshape(3, 7, 3, 7), rtol=0, atol=1e-16)
