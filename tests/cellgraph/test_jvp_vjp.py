"""jvp / vjp in both API generations, nn.Jvp / nn.Vjp, and forward mode composed with reverse
mode, against closed forms."""
import inspect

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, context, nn, ops
from cellgraph.primitives.errors import ArgumentError, DTypeError, GradValueError, ShapeError

RTOL = {"rtol": 1e-5, "atol": 1e-6}


def t(values):
    return Tensor(np.asarray(values, np.float32))


X = t([[1, 2], [3, 4]])
Y = t([[-2, 3], [-1, 2]])
V = t([[-1, 3], [2, 1]])
xn, yn, vn = X.asnumpy(), Y.asnumpy(), V.asnumpy()


class Cube(nn.Cell):
    def construct(self, x, y):
        return x ** 3 + y


class SinCos(nn.Cell):
    def construct(self, x, y):
        return ops.sin(x) * y, ops.cos(y) + x


def close(actual, expected):
    np.testing.assert_allclose(actual.asnumpy(), expected, **RTOL)


# ----- jvp -------------------------------------------------------------------------------------

def test_jvp_two_inputs_from_python():
    out, tangent = ops.jvp(Cube(), (X, Y), (V, Y))
    close(out, xn ** 3 + yn)
    close(tangent, 3 * xn ** 2 * vn + yn)


def test_jvp_single_input_and_functional_namespace():
    def f(x):
        return ops.sin(x) * x

    out, tangent = cellgraph.ops.functional.jvp(f, X, V)
    close(out, np.sin(xn) * xn)
    close(tangent, (np.cos(xn) * xn + np.sin(xn)) * vn)


def test_jvp_tuple_output_keeps_its_structure():
    out, tangent = ops.jvp(SinCos(), (X, Y), (V, V))
    assert isinstance(out, tuple) and isinstance(tangent, tuple) and len(tangent) == 2
    close(tangent[0], np.cos(xn) * yn * vn + np.sin(xn) * vn)
    close(tangent[1], -np.sin(yn) * vn + vn)


def test_jvp_has_aux_returns_the_rest_untouched():
    def f(x, y):
        return x ** 3 + y, y * 2

    out, tangent, aux = ops.jvp(f, (X, Y), (V, V), has_aux=True)
    close(out, xn ** 3 + yn)
    close(tangent, 3 * xn ** 2 * vn + vn)
    close(aux, yn * 2)


def test_jvp_inside_construct_and_in_pynative_mode():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = SinCos()

        def construct(self, x, y, v):
            out, tangent = ops.jvp(self.inner, (x, y), (v, y))
            return tangent[0] * 2, out[1]

    expected = 2 * (np.cos(xn) * yn * vn + np.sin(xn) * yn)
    for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):
        cellgraph.set_context(mode=mode)
        tangent, out1 = Net()(X, Y, V)
        close(tangent, expected)
        close(out1, np.cos(yn) + xn)


def test_jvp_of_a_net_with_weights():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t([[0.5, -1.0], [2.0, 3.0]]), name="w")

        def construct(self, x):
            return ops.matmul(x, self.w) * x

    net = Scale()
    w = net.w.asnumpy()
    _, tangent = ops.jvp(net, X, V)
    close(tangent, (vn @ w) * xn + (xn @ w) * vn)


def test_jvp_program_is_straight_line_forward_code():
    """After optimisation the dummy cotangent u is gone: no grad, no fill, one tangent per op."""
    class Net(nn.Cell):
        def construct(self, x, v):
            return ops.jvp(lambda a: ops.exp(ops.sin(a)), x, v)

    text = cellgraph.dump_ir(Net(), X, V, stage="optimize")
    body = [line.split("=", 1)[1].split("(")[0].strip() for line in text.splitlines()
            if line.strip().startswith("%")]
    assert sorted(body) == ["cos", "exp", "mul", "mul", "sin"], text


# ----- vjp -------------------------------------------------------------------------------------

def test_vjp_legacy_form_returns_one_cotangent_per_input():
    out, (dx, dy) = ops.vjp(Cube(), (X, Y), V)
    close(out, xn ** 3 + yn)
    close(dx, 3 * xn ** 2 * vn)
    close(dy, vn)


def test_vjp_legacy_form_with_one_input_returns_a_tensor():
    def f(x):
        return ops.exp(x) * 2

    out, dx = ops.vjp(f, X, V)
    close(out, np.exp(xn) * 2)
    close(dx, 2 * np.exp(xn) * vn)


def test_vjp_v2_form_returns_a_function():
    out, vjp_fn = ops.vjp(Cube(), X, Y)
    close(out, xn ** 3 + yn)
    dx, dy = vjp_fn(V)
    close(dx, 3 * xn ** 2 * vn)
    close(dy, vn)
    dx2, _ = vjp_fn(Y)  # a second cotangent reuses the compiled graph
    close(dx2, 3 * xn ** 2 * yn)


def test_vjp_v2_tuple_output_and_has_aux():
    out, vjp_fn = ops.vjp(SinCos(), X, Y)
    dx, dy = vjp_fn(V, Y)
    close(dx, np.cos(xn) * yn * vn + Y.asnumpy())
    close(dy, np.sin(xn) * vn - np.sin(yn) * yn)

    def f(x, y):
        return 2 * x + y, y ** 3

    out, vjp_fn, aux = ops.vjp(f, X, Y, has_aux=True)
    close(out, 2 * xn + yn)
    close(aux, yn ** 3)
    dx, dy = vjp_fn(V)
    close(dx, 2 * vn)
    close(dy, vn)


def test_vjp_v2_with_weights():
    class Affine(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(t([[0.5, -1.0], [2.0, 3.0]]), name="w")
            self.b = Parameter(t([1.0, -1.0]), name="b")

        def construct(self, x):
            return ops.matmul(x, self.w) + self.b

    net = Affine()
    _, vjp_fn = ops.vjp(net, X, weights=net.trainable_params())
    (dx,), (dw, db) = vjp_fn(V)
    close(dx, vn @ net.w.asnumpy().T)
    close(dw, xn.T @ vn)
    close(db, vn.sum(0))


def test_vjp_v2_inside_construct_shares_the_forward_pass():
    class Net(nn.Cell):
        def construct(self, x, y, v):
            out, vjp_fn = ops.vjp(lambda a, b: a * ops.sin(b), x, y)
            dx, dy = vjp_fn(v)
            return out, dx, dy

    out, dx, dy = Net()(X, Y, V)
    close(out, xn * np.sin(yn))
    close(dx, np.sin(yn) * vn)
    close(dy, xn * np.cos(yn) * vn)
    text = cellgraph.dump_ir(Net(), X, Y, V, stage="optimize")
    assert text.count("= sin(") == 1, text


def test_vjp_legacy_inside_construct():
    class Net(nn.Cell):
        def construct(self, x, y, v):
            return ops.vjp(Cube(), (x, y), v)

    out, (dx, dy) = Net()(X, Y, V)
    close(out, xn ** 3 + yn)
    close(dx, 3 * xn ** 2 * vn)
    close(dy, vn)


# ----- nn.Jvp / nn.Vjp -------------------------------------------------------------------------

class JvpNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.grad_op = nn.Jvp(net)

    def construct(self, x, y, v):
        return self.grad_op(x, y, (v, v))


class VjpNet(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.grad_op = nn.Vjp(net)

    def construct(self, x, y, v):
        return self.grad_op(x, y, v)


def test_nn_jvp_and_vjp_cells():
    out, tangent = JvpNet(Cube())(X, Y, V)
    close(out, xn ** 3 + yn)
    close(tangent, 3 * xn ** 2 * vn + vn)
    out, (dx, dy) = VjpNet(Cube())(X, Y, V)
    close(dx, 3 * xn ** 2 * vn)
    close(dy, vn)


def test_nn_jvp_direct_call_single_input_and_pynative():
    class Square(nn.Cell):
        def construct(self, x):
            return x * x

    for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):
        cellgraph.set_context(mode=mode)
        out, tangent = nn.Jvp(Square())(X, V)
        close(out, xn * xn)
        close(tangent, 2 * xn * vn)
        _, dx = nn.Vjp(Square())(X, V)
        close(dx, 2 * xn * vn)


# ----- composition -----------------------------------------------------------------------------

A = np.array([[2.0, 1.0, 0.0], [0.5, 3.0, 1.0], [1.0, -1.0, 4.0]], np.float32)
X3, V3 = t([1.0, -2.0, 0.5]), t([0.3, 1.0, -1.0])


def quadratic(x):
    return ops.reduce_sum(x * ops.matmul(Tensor(A), x))


def test_forward_over_reverse_hessian_vector_product():
    _, hvp = ops.jvp(cellgraph.grad(quadratic), X3, V3)
    close(hvp, (A + A.T) @ V3.asnumpy())


def test_reverse_over_forward_hessian_vector_product():
    def directional(x, v):
        return ops.jvp(quadratic, x, v)[1]

    close(cellgraph.grad(directional)(X3, V3), (A + A.T) @ V3.asnumpy())


def test_hessian_columns_by_forward_over_reverse_match_nested_grad():
    grad_fn = cellgraph.grad(quadratic)
    hessian = np.stack([ops.jvp(grad_fn, X3, t(np.eye(3)[i]))[1].asnumpy() for i in range(3)])
    np.testing.assert_allclose(hessian, A + A.T, **RTOL)


def test_jvp_of_jvp_is_the_second_directional_derivative():
    def f(x):
        return ops.sin(x) * x

    def first(x):
        return ops.jvp(f, x, V3)[1]

    x, v = X3.asnumpy(), V3.asnumpy()
    _, second = ops.jvp(first, X3, V3)
    close(second, (2 * np.cos(x) - x * np.sin(x)) * v * v)


def test_jvp_of_jvp_inside_construct_with_two_directions():
    class Net(nn.Cell):
        def construct(self, x, u, w):
            inner = lambda a: ops.jvp(ops.exp, a * a, u)[1]
            return ops.jvp(inner, x, w)[1]

    x, u, w = X3.asnumpy(), V3.asnumpy(), np.array([1.0, 0.5, -2.0], np.float32)
    # d/dx [exp(x²) u] · w = 2x exp(x²) u w
    close(Net()(X3, V3, t(w)), 2 * x * np.exp(x * x) * u * w)


# ----- the 1.x / 2.x rule and user errors ------------------------------------------------------

def test_call_shape_picks_the_api_generation():
    def one(x):
        return x * 3

    def two(x, y):
        return x * y

    out, dx = ops.vjp(one, X, V)  # fn takes one input: the second Tensor is the cotangent
    close(out, 3 * xn)
    close(dx, 3 * vn)
    out, vjp_fn = ops.vjp(two, X, Y)  # fn takes two inputs: 2.x
    assert callable(vjp_fn)
    out, (dx, dy) = ops.vjp(two, (X, Y), V)  # a tuple of inputs: 1.x
    close(out, xn * yn)
    close(dx, yn * vn)
    close(dy, xn * vn)
    (dx,) = ops.vjp(one, X)[1](V)  # one positional argument: 2.x
    close(dx, 3 * vn)


def test_errors_name_the_op_and_the_line():
    with pytest.raises(ShapeError) as err:
        call_line = inspect.currentframe().f_lineno + 1
        ops.jvp(Cube(), (X, Y), (V, t([1.0, 2.0])))
    msg = str(err.value)
    assert "jvp" in msg and "(2, 2)" in msg and "(2,)" in msg
    assert err.value.loc.line == call_line and "ops.jvp(Cube()" in err.value.loc.text

    with pytest.raises(ArgumentError, match=r"jvp: .*structure of `inputs`"):
        ops.jvp(Cube(), (X, Y), V)
    with pytest.raises(DTypeError, match=r"jvp: `inputs\[1\]` must be a Tensor, got int 3"):
        ops.jvp(Cube(), (X, 3), (V, V))
    with pytest.raises(GradValueError, match="has_aux=True needs"):
        ops.jvp(lambda a: a * 2, X, V, has_aux=True)
    with pytest.raises(ShapeError, match=r"vjp: `v` must match the output"):
        ops.vjp(Cube(), (X, Y), t([1.0]))

    class Bad(nn.Cell):
        def construct(self, x, v):
            return ops.jvp(ops.exp, x, (v, v))  # in-graph

    with pytest.raises(ArgumentError) as err:
        Bad()(X, V)
    assert err.value.loc is not None and "# in-graph" in err.value.loc.text


# ----- linearize -------------------------------------------------------------------------------

def test_linearize_gives_the_output_and_the_tangent_map_at_the_inputs():
    out, jvp_fn = ops.linearize(Cube(), (X, Y))
    np.testing.assert_allclose(out.asnumpy(), xn ** 3 + yn, **RTOL)
    for vx, vy in ((V, V), (V, X)):
        np.testing.assert_allclose(jvp_fn((vx, vy)).asnumpy(),
                                   3 * xn ** 2 * vx.asnumpy() + vy.asnumpy(), **RTOL)


def test_linearize_of_one_input_and_two_outputs():
    def two(x):
        return ops.sin(x), 2 * x

    (s, d), jvp_fn = ops.functional.linearize(two, X)
    np.testing.assert_allclose(s.asnumpy(), np.sin(xn), **RTOL)
    np.testing.assert_allclose(d.asnumpy(), 2 * xn, **RTOL)
    ts, td = jvp_fn(V)
    np.testing.assert_allclose(ts.asnumpy(), np.cos(xn) * vn, **RTOL)
    np.testing.assert_allclose(td.asnumpy(), 2 * vn, **RTOL)


def test_linearize_inside_a_graph_applies_the_map_to_several_tangents():
    class Twice(nn.Cell):
        def construct(self, x, v, w):
            out, jvp_fn = ops.linearize(ops.exp, x)
            return out, jvp_fn(v), jvp_fn(w)

    out, tv, tw = Twice()(X, V, Y)
    np.testing.assert_allclose(out.asnumpy(), np.exp(xn), rtol=1e-5)
    np.testing.assert_allclose(tv.asnumpy(), np.exp(xn) * vn, rtol=1e-5)
    np.testing.assert_allclose(tw.asnumpy(), np.exp(xn) * yn, rtol=1e-5)


def test_linearize_refuses_a_tangent_of_the_wrong_shape():
    _, jvp_fn = ops.linearize(Cube(), (X, Y))
    with pytest.raises(ShapeError, match="must match the input"):
        jvp_fn((V, t([1.0])))


def test_nn_jvp_and_vjp_take_the_networks_inputs_one_by_one():
    """As MindSpore's nn.Jvp/nn.Vjp: a tuple of inputs is no input of the network, and with one
    input the vector is a Tensor (TypeError otherwise)."""
    import numpy as np
    import pytest

    from cellgraph import Tensor, nn

    class Two(nn.Cell):
        def construct(self, x, y):
            return x * y

    class One(nn.Cell):
        def construct(self, x):
            return x * x

    x = Tensor(np.ones((2, 2), np.float32))
    for cell in (nn.Jvp, nn.Vjp):
        with pytest.raises(TypeError):
            cell(Two())((x, x), (x, x))
        with pytest.raises(TypeError):
            cell(One())(x, (x,))
        cell(One())(x, x)
