"""Reverse-mode AD on composite programs: any order, nested GradOperation, weights of nested
Cells, stop_gradient, unused and integer inputs, broadcasting Parameters, and the shape of the
optimised gradient graph."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph.compiler.ir import all_graphs
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.testing import check_grads, numerical_grad

F64 = {"rtol": 1e-10, "atol": 1e-12}


def rand(*shape, seed=0, lo=-1.0, hi=1.0):
    return Tensor(np.random.default_rng(seed).uniform(lo, hi, shape))


# ----- composite programs at order 3 ---------------------------------------------------------

def smooth_mix(x, y):
    h = ops.tanh(ops.matmul(x, y))
    return ops.reduce_sum(h * ops.sin(h) + ops.exp(-h * h), axis=1)


def softmax_loss(x, w):
    logits = ops.matmul(x, w)
    return -ops.reduce_mean(ops.log_softmax(logits, axis=1)[:, 0]) + ops.reduce_sum(w * w)


def ratio_pow(x, y):
    return ops.sqrt(x * x + 1.0) / (y + 2.0) + ops.pow(x * x + 0.5, y)


def broadcast_chain(x, b):
    return ops.reduce_max(ops.sigmoid(x * b + b) - ops.log(1.5 + ops.cos(x)), axis=0)


@pytest.mark.parametrize("fn, args", [
    (smooth_mix, (rand(2, 3, seed=1), rand(3, 2, seed=2))),
    (softmax_loss, (rand(4, 3, seed=3), rand(3, 5, seed=4))),
    (ratio_pow, (rand(3, seed=5, lo=0.2, hi=1.5), rand(3, seed=6, lo=0.1, hi=1.0))),
    (broadcast_chain, (rand(2, 3, seed=7), rand(3, seed=8))),
], ids=["tanh_matmul", "log_softmax", "sqrt_div_pow", "broadcast_max"])
def test_composite_programs_at_order_three(fn, args):
    check_grads(fn, args, order=3)


def poly(x):
    return x ** 5 + 2 * x


def test_fourth_derivative_of_a_polynomial():
    x = Tensor(np.array(1.5))
    expected = [5 * 1.5 ** 4 + 2, 20 * 1.5 ** 3, 60 * 1.5 ** 2, 120 * 1.5]
    g = poly
    for k, want in enumerate(expected, 1):
        g = cellgraph.grad(g)
        np.testing.assert_allclose(g(x).asnumpy(), want, **F64, err_msg=f"order {k}")
    assert expected[3] == 180.0


class Sin(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sin = ops.Sin()

    def construct(self, x):
        return self.sin(x)


class GradNet(nn.Cell):
    """The seed documents' GradOperation wrapper: each wrapping adds one order."""

    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation()
        self.network = network

    def construct(self, x):
        return self.grad(self.network)(x)


def test_second_and_third_order_of_sin_by_nested_cells():
    x = Tensor(np.array([1.0], np.float32))
    second = GradNet(GradNet(Sin()))
    np.testing.assert_allclose(second(x).asnumpy(), [-0.84147], rtol=1e-5)
    third = GradNet(second)
    np.testing.assert_allclose(third(x).asnumpy(), [-np.cos(1.0)], rtol=1e-6)


# ----- MLP: second derivative w.r.t. the input -----------------------------------------------

class TanhMLP(nn.Cell):
    def __init__(self, n_in=3, hidden=5, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.w1 = Parameter(Tensor(rng.standard_normal((n_in, hidden)) * 0.7), name="w1")
        self.b1 = Parameter(Tensor(rng.standard_normal((hidden,)) * 0.1), name="b1")
        self.w2 = Parameter(Tensor(rng.standard_normal((hidden, 1)) * 0.7), name="w2")
        self.b2 = Parameter(Tensor(rng.standard_normal((1,)) * 0.1), name="b2")

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        return ops.tanh(ops.matmul(h, self.w2) + self.b2)


def test_mlp_input_hessian_matches_finite_differences():
    net = TanhMLP()
    x = rand(1, 3, seed=11)
    first = cellgraph.grad(net)  # d sum(net(x)) / dx, shape (1, 3)
    for i in range(3):
        row = np.zeros((1, 3))
        row[0, i] = 1.0
        direction = Tensor(row)

        def component(x, direction=direction):
            return ops.reduce_sum(first(x) * direction)

        analytic = cellgraph.grad(component)(x).asnumpy()
        numeric = numerical_grad(first, (x,), cotangent=row)[0]
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)
    check_grads(net, (x,), order=2)


# ----- nested GradOperation with sens tuples (seed s09) --------------------------------------

class XXY(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul = ops.Mul()

    def construct(self, x, y):
        return self.mul(self.mul(x, x), y)


class FirstAll(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=False)
        self.network = network

    def construct(self, x, y):
        return self.grad(self.network)(x, y)


class SecondAll(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.network = network
        self.one = Tensor(np.array([1], np.float32))
        self.zero = Tensor(np.array([0], np.float32))

    def construct(self, x, y):
        dxdx, dxdy = self.grad(self.network)(x, y, (self.one, self.zero))
        dydx, dydy = self.grad(self.network)(x, y, (self.zero, self.one))
        return dxdx, dxdy, dydx, dydy


def test_mixed_partials_by_nested_grad_operation_with_sens_tuples():
    x = Tensor(np.array([4], np.float32))
    y = Tensor(np.array([5], np.float32))
    out = SecondAll(FirstAll(XXY()))(x, y)
    np.testing.assert_allclose([o.asnumpy()[0] for o in out], [10, 8, 8, 0])


# ----- weights of nested Cells ----------------------------------------------------------------

class Affine(nn.Cell):
    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.weight = Parameter(Tensor(rng.standard_normal((n_in, n_out)) * 0.5), name="weight")
        self.bias = Parameter(Tensor(rng.standard_normal((n_out,)) * 0.1), name="bias")

    def construct(self, x):
        return ops.matmul(x, self.weight) + self.bias


class Block(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        self.inner = Affine(3, 4, seed)
        self.outer = Affine(4, 2, seed + 1)

    def construct(self, x):
        return self.outer(ops.tanh(self.inner(x)))


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block(seed=20)
        self.gain = Parameter(Tensor(np.array([1.5, -0.5])), name="gain")

    def construct(self, x):
        return ops.reduce_sum(ops.sin(self.block(x)) * self.gain)


def _weight_fd(net, x, weight, eps=1e-6):
    """Finite differences of net(x) w.r.t. one Parameter, element by element."""
    base = weight.asnumpy().copy()
    out = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        values = []
        for sign in (1, -1):
            shifted = base.copy()
            shifted[idx] += sign * eps
            weight.set_data(shifted)
            values.append(float(net(x).asnumpy()))
        out[idx] = (values[0] - values[1]) / (2 * eps)
    weight.set_data(base)
    return out


def test_gradients_of_all_weights_two_cells_deep():
    net = Model()
    x = rand(5, 3, seed=21)
    params = net.trainable_params()
    assert {p.name for p in params} == {"gain", "block.inner.weight", "block.inner.bias",
                                        "block.outer.weight", "block.outer.bias"}
    grads = cellgraph.grad(net, grad_position=None, weights=params)(x)
    by_op = ops.GradOperation(get_by_list=True)(net, ParameterTuple(params))(x)
    assert len(grads) == len(by_op) == 5
    for p, g, g2 in zip(params, grads, by_op):
        assert g.shape == p.shape and g.dtype == p.dtype
        np.testing.assert_allclose(g.asnumpy(), _weight_fd(net, x, p), rtol=1e-6, atol=1e-8,
                                   err_msg=p.name)
        np.testing.assert_allclose(g2.asnumpy(), g.asnumpy(), **F64)


# ----- stop_gradient, unused inputs, integers, broadcasting Parameters ------------------------

class StopNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()

    def construct(self, x, y):
        out1 = self.matmul(x, y)
        out2 = ops.stop_gradient(self.matmul(x, y))
        return out1 + out2


def test_stop_gradient_halves_the_seed_example():
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], cellgraph.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], cellgraph.float32)
    dx = ops.GradOperation()(StopNet())(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [[4.51, 2.7, 3.6]] * 2, rtol=1e-6)


def stopped_square(x):
    return ops.stop_gradient(x * x) * x


def test_stop_gradient_at_second_order():
    x = Tensor(np.array([0.5, -2.0]))
    first = cellgraph.grad(stopped_square)
    np.testing.assert_allclose(first(x).asnumpy(), [0.25, 4.0], **F64)  # x², not 3x²
    np.testing.assert_allclose(cellgraph.grad(first)(x).asnumpy(), [0.0, 0.0], **F64)


def ignores_y(x, y, z):
    return ops.reduce_sum(x * z)


def test_unused_inputs_get_zero_gradients():
    x, y, z = rand(2, 3, seed=30), rand(4, seed=31), rand(2, 3, seed=32)
    gx, gy, gz = cellgraph.grad(ignores_y, grad_position=(0, 1, 2))(x, y, z)
    np.testing.assert_allclose(gx.asnumpy(), z.asnumpy(), **F64)
    np.testing.assert_allclose(gz.asnumpy(), x.asnumpy(), **F64)
    assert gy.shape == (4,) and gy.dtype == cellgraph.float64
    np.testing.assert_array_equal(gy.asnumpy(), np.zeros(4))
    # and at second order, through the gradient graph
    gy2 = cellgraph.grad(cellgraph.grad(ignores_y, grad_position=1), grad_position=1)(x, y, z)
    np.testing.assert_array_equal(gy2.asnumpy(), np.zeros(4))


class IntAffine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([6], cellgraph.int32), name="w")
        self.b = Parameter(Tensor([2], cellgraph.int32), name="b")

    def construct(self, x, y):
        return self.w * x + self.b * y


def test_integer_networks_are_differentiated_in_their_dtype():
    """MindSpore differentiates integer arithmetic: d(w*x + b*y)/dx = w, in int32."""
    net = IntAffine()
    x, y = Tensor([10], cellgraph.int32), Tensor([20], cellgraph.int32)
    dx, dy = ops.GradOperation(get_all=True)(net)(x, y)
    assert dx.dtype == cellgraph.int32
    np.testing.assert_array_equal(dx.asnumpy(), [6])
    np.testing.assert_array_equal(dy.asnumpy(), [2])
    dw, db = cellgraph.grad(net, None, net.trainable_params())(x, y)
    np.testing.assert_array_equal([dw.asnumpy()[0], db.asnumpy()[0]], [10, 20])


def lookup(table, index, scale):
    rows = ops.gather(table, index, 0)
    return ops.reduce_sum(rows * ops.cast(scale, cellgraph.float64))


def test_integer_index_and_cast_inputs_next_to_float_ones():
    table = rand(4, 3, seed=40)
    index = Tensor(np.array([0, 2, 2], np.int64))
    scale = Tensor(np.array([1, 2, 3], np.int32))
    d_table, d_index = cellgraph.grad(lookup, grad_position=(0, 1))(table, index, scale)
    want = np.zeros((4, 3))
    for i in [0, 2, 2]:
        want[i] += [1, 2, 3]
    np.testing.assert_allclose(d_table.asnumpy(), want, **F64)
    assert d_index.dtype == cellgraph.int64
    np.testing.assert_array_equal(d_index.asnumpy(), [0, 0, 0])  # indices: no gradient
    check_grads(lookup, (table, index, scale), order=2)


class Broadcasting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(Tensor(np.array([0.1, -0.2, 0.3])), name="bias")        # (3,)
        self.scale = Parameter(Tensor(np.array([[1.5, 0.5, -1.0]])), name="scale")   # (1, 3)
        self.offset = Parameter(Tensor(np.array(0.25)), name="offset")               # ()

    def construct(self, x):
        return ops.reduce_sum(ops.tanh(x * self.scale + self.bias) * (x + self.offset))


def test_broadcasting_parameters_get_gradients_of_their_own_shape():
    net = Broadcasting()
    x = rand(4, 3, seed=50)
    grads = cellgraph.grad(net, None, net.trainable_params())(x)
    for p, g in zip(net.trainable_params(), grads):
        assert g.shape == p.shape, p.name
        np.testing.assert_allclose(g.asnumpy(), _weight_fd(net, x, p), rtol=1e-6, atol=1e-8,
                                   err_msg=p.name)
    xs, s, b, o = x.asnumpy(), net.scale.asnumpy(), net.bias.asnumpy(), float(net.offset)
    t = np.tanh(xs * s + b)
    np.testing.assert_allclose(grads[0].asnumpy(), ((1 - t * t) * (xs + o)).sum(0), **F64)


def scaled(x):
    return ops.reduce_sum(x * Tensor(np.array([2.0, 3.0])))  # f32 input times an f64 constant


def test_gradient_takes_the_dtype_of_its_input():
    g = cellgraph.grad(scaled)(Tensor(np.array([1.0, 1.0], np.float32)))
    assert g.dtype == cellgraph.float32
    np.testing.assert_allclose(g.asnumpy(), [2.0, 3.0])


# ----- the optimised gradient graph -----------------------------------------------------------

def _node_kinds(fn, *args) -> list[str]:
    graph = compile_callable(fn, args).graph
    return [n.callee.name for g in all_graphs(graph) for n in g.nodes]


def test_straight_line_gradient_graph_is_plain_code():
    net = TanhMLP()
    x = rand(4, 3, seed=60)
    weights = ParameterTuple(net.trainable_params())
    for fn in (cellgraph.grad(net, 0, weights),
               ops.GradOperation(get_all=True, get_by_list=True)(net, weights),
               cellgraph.grad(cellgraph.grad(net))):
        kinds = _node_kinds(fn, x)
        assert kinds, "an empty graph"
        assert not {"grad", "zeros_like", "ones_like", "custom_vjp"} & set(kinds), kinds
        text = cellgraph.dump_ir(fn, x, stage="optimize")
        assert " = grad(" not in text and "ones_like(" not in text and "zeros_like(" not in text


def nested(x):
    return ops.tanh(ops.sin(x) * x)


def test_derivative_program_size_per_order():
    """A regression guard on the size of nested-reverse derivative programs. Each order adds the
    adjoint of the previous program (about its size again), so sizes grow by a factor close to
    2-2.6 per order here; replaying forward values without sharing them, or leaving zeros and
    seeds unsimplified, would push the factor well beyond 3."""
    x = Tensor(np.array([0.3, 0.7]))
    sizes, g = [], nested
    for _ in range(5):
        g = cellgraph.grad(g)
        sizes.append(len(_node_kinds(g, x)))
    for k in range(1, 5):
        assert sizes[k] <= 3 * sizes[k - 1], sizes


def test_a_differentiated_gelu_keeps_its_derivative_for_its_backward_pass():
    """Forward, one kernel makes GeLU and its derivative; backward is a product with it."""
    x = Tensor(np.linspace(-3, 3, 12).reshape(3, 4))

    def f(x):
        return ops.reduce_sum(ops.gelu(x) * x)

    graph = compile_callable(cellgraph.grad(f), (x,)).graph
    called = [n.callee.name for n in graph.nodes]
    assert called.count("gelu_and_slope") == 1
    assert not {"gelu", "gelu_grad", "normal_cdf", "erf", "exp"} & set(called)
    check_grads(f, (x,), order=3)


def test_gelu_forward_alone_is_narrowed_to_gelu():
    """Where no gradient flows back through GeLU its derivative is dead: plain gelu runs."""
    x = Tensor(np.linspace(-3, 3, 12).reshape(3, 4))

    def f(x):
        return ops.reduce_sum(ops.stop_gradient(ops.gelu(x)) * x)

    graph = compile_callable(cellgraph.grad(f), (x,)).graph
    called = [n.callee.name for n in graph.nodes]
    assert "gelu_and_slope" not in called and called.count("gelu") == 1
