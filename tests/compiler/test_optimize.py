"""The optimiser's arithmetic rewrites: what they fold, what they must leave alone, and the size
of higher-order derivative graphs they keep small."""

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.compiler.ir import verify
from cellgraph.compiler.optimize import node_count
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.primitives import functional as core

X = Tensor(np.array([0.5, -1.25, 2.0], np.float32))


def optimised(fn, *args):
    graph = compile_callable(fn, args).graph
    verify(graph)
    return graph


def names(graph) -> list[str]:
    return [n.callee.name for n in graph.nodes]


def test_double_negation_and_sign_in_a_product_fold_away():
    def f(x):
        return ops.neg(-x) * -(x * 3.0) * -2.0

    graph = optimised(f, X)
    assert names(graph) == ["mul", "mul"]  # (x * x) * 6.0
    np.testing.assert_allclose(cellgraph.jit(f)(X).asnumpy(), X.asnumpy() ** 2 * 6.0,
                               rtol=1e-6)


def test_double_conjugation_folds_away_in_complex_gradients():
    z = Tensor(np.array([1 + 2j, 0.5 - 1j]))
    assert names(optimised(lambda a: ops.conj(ops.conj(a)) * a, z)) == ["mul"]
    # a chain of holomorphic rules: the conjugations between them cancel
    grad = cellgraph.grad(lambda a: ops.real(ops.exp(ops.sin(a) * a)).sum())
    assert names(optimised(grad, z)).count("conj") <= 2


def test_like_terms_are_collected():
    def f(x):
        y = ops.sin(x)
        return y + y * 2.0 + -y * 0.5 - (-y)

    graph = optimised(f, X)
    assert names(graph) == ["sin", "mul"]  # sin(x) * 3.5
    np.testing.assert_allclose(cellgraph.jit(f)(X).asnumpy(), np.sin(X.asnumpy()) * 3.5,
                               rtol=1e-6)


def test_x_minus_x_is_not_folded_to_zero():
    def f(x):
        return x * 2.0 + x * -2.0  # inf and nan inputs must still give nan

    x = Tensor(np.array([np.inf, np.nan, 1.0], np.float32))
    with np.errstate(invalid="ignore"):
        out = cellgraph.jit(f)(x).asnumpy()
    assert np.isnan(out[0]) and np.isnan(out[1]) and out[2] == 0.0


def test_a_broadcasting_constant_is_not_turned_into_a_number():
    c = np.full((2, 3), 2.0, np.float32)

    def f(x):
        return x * Tensor(c)

    graph = optimised(f, X)
    assert graph.outputs[0].aval.shape == (2, 3)
    np.testing.assert_allclose(cellgraph.jit(f)(X).asnumpy(), c * X.asnumpy())


def test_integer_products_keep_their_dtype():
    def f(x):
        return ops.neg(-x) * 2 * 3

    n = Tensor(np.array([1, 2, 3], np.int32))
    out = cellgraph.jit(f)(n)
    assert out.dtype == cellgraph.int32
    np.testing.assert_array_equal(out.asnumpy(), [6, 12, 18])


def nth_grad(fn, n):
    for _ in range(n):
        fn = cellgraph.grad(fn)
    return fn


def tanh_derivative(x, n):
    p = np.polynomial.Polynomial([0.0, 1.0])
    for _ in range(n):
        p = p.deriv() * np.polynomial.Polynomial([1.0, 0.0, -1.0])
    return p(np.tanh(x))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_nth_derivative_of_tanh_is_small_and_right(n):
    def f(x):
        return ops.tanh(x)

    x = Tensor(np.linspace(-2, 2, 9))
    grad_n = nth_grad(f, n)
    np.testing.assert_allclose(grad_n(x).asnumpy(), tanh_derivative(x.asnumpy(), n),
                               rtol=1e-9, atol=1e-9)
    assert node_count(optimised(grad_n, x)) <= [3, 5, 7, 9, 16][n - 1]


def test_derivatives_of_tanh_grow_linearly():
    """Collected into polynomials in tanh(x) and 1 - tanh(x)^2, the n-th derivative has a few
    nodes per order (it used to double); which values the collector takes as its bases varies
    with the order, so the bound is on the size, not on each step."""
    def f(x):
        return ops.tanh(x)

    x = Tensor(np.linspace(-2, 2, 5))
    sizes = {n: node_count(optimised(nth_grad(f, n), x)) for n in range(5, 11)}
    assert all(size <= 3 * n for n, size in sizes.items()), sizes
    np.testing.assert_allclose(nth_grad(f, 8)(x).asnumpy(), tanh_derivative(x.asnumpy(), 8),
                               rtol=1e-8, atol=1e-8)


def test_a_polynomial_is_collected_but_one_minus_t_squared_stays_whole():
    def f(t):
        s = 1.0 - t * t
        return t * s * t + s * t * t - (t * t) * (s * 2.0)  # 0 * t^2 s: cancels, stays

    def g(t):
        s = 1.0 - t * t
        return t * s * t + s * t * t + (t * t) * (s * 2.0)  # 4 t^2 s

    t = Tensor(np.array([0.5, -0.25], np.float32))
    graph = optimised(g, t)
    assert names(graph) == ["mul", "sub", "mul", "mul"]  # t*t, 1 - t*t, * s, * 4
    tn = t.asnumpy()
    np.testing.assert_allclose(cellgraph.jit(g)(t).asnumpy(), 4 * tn * tn * (1 - tn * tn),
                               rtol=1e-6)
    np.testing.assert_allclose(cellgraph.jit(f)(t).asnumpy(), [0.0, 0.0], atol=1e-7)


def test_nth_derivative_of_sin_folds_to_one_function_and_a_sign():
    def f(x):
        return ops.sin(x)

    for n in range(1, 7):
        graph = optimised(nth_grad(f, n), X)
        assert node_count(graph) <= 2, (n, names(graph))


def test_stop_gradient_survives_the_inner_optimisation():
    def f(x):
        return ops.stop_gradient(x * x) * x

    x = Tensor(np.array([0.5, -1.0]))
    np.testing.assert_allclose(nth_grad(f, 2)(x).asnumpy(), [0.0, 0.0])


def test_inner_dimension_one_matmul_becomes_a_broadcast_product():
    w = Tensor(np.array([[1.0, -2.0, 0.5]], np.float32))
    col = Tensor(np.array([[2.0], [3.0]], np.float32))

    def f(x):
        return ops.matmul(x, w) * 2.0

    graph = optimised(f, col)
    assert "matmul" not in names(graph)
    np.testing.assert_allclose(cellgraph.jit(f)(col).asnumpy(), col.asnumpy() @ w.asnumpy() * 2)


def test_batched_outer_products_become_broadcast_products_with_the_sign_on_the_small_side():
    """Per-example weight gradients under vmap: a batch of (128, 1) @ (1, 10) products."""
    rng = np.random.default_rng(0)
    h = Tensor(rng.standard_normal((4, 1, 5)).astype(np.float32))
    d = Tensor(rng.standard_normal((4, 1, 3)).astype(np.float32))

    def f(h, d):
        return ops.matmul(ops.transpose(h, (0, 2, 1)), -d)

    graph = optimised(f, h, d)
    assert "matmul" not in names(graph) and "transpose" not in names(graph)
    neg = next(n for n in graph.nodes if n.callee.name == "neg")
    assert neg.outputs[0].aval.shape == (4, 1, 3)  # not on the (4, 5, 3) product
    np.testing.assert_allclose(cellgraph.jit(f)(h, d).asnumpy(),
                               -h.asnumpy().transpose(0, 2, 1) @ d.asnumpy(), rtol=1e-6)


# the core's reductions, which take keep_dims (ops' leave it to the ReduceXxx classes)
@pytest.mark.parametrize("reduce", [core.reduce_sum, core.reduce_mean, core.reduce_max])
def test_a_reduction_over_axes_of_size_one_is_a_reshape(reduce):
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 1, 3))

    def f(x):
        return reduce(x, 1) * 2.0, reduce(x, 1, keep_dims=True)

    graph = optimised(f, x)
    assert not any(name.startswith("reduce") for name in names(graph))
    flat, kept = cellgraph.jit(f)(x)
    np.testing.assert_allclose(flat.asnumpy(), x.asnumpy().reshape(2, 3) * 2)
    np.testing.assert_allclose(kept.asnumpy(), x.asnumpy())


def test_ones_matmul_in_a_gradient_stays_a_row():
    w = Tensor(np.array([[1.0, -2.0, 0.5]], np.float32))

    def f(x):
        return ops.reduce_sum(ops.tanh(ops.matmul(x, w)))

    x = Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1))
    graph = optimised(cellgraph.grad(f), x)
    assert all(n.outputs[0].aval.size <= 24 for n in graph.nodes)
    t = np.tanh(x.asnumpy() @ w.asnumpy())
    np.testing.assert_allclose(cellgraph.grad(f)(x).asnumpy(),
                               ((1 - t * t) * w.asnumpy()).sum(1, keepdims=True), rtol=1e-5)


def test_a_reduction_of_a_row_product_is_a_matrix_vector_product():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    r = Tensor(np.array([[0.5, -1.0]], np.float32))

    def f(a, r):
        return ops.ReduceSum(keep_dims=True)(a * r * 3.0, 1)

    graph = optimised(f, a, r)
    assert sorted(names(graph)) == ["matmul", "mul"]  # the factor scales the (1, 2) row
    np.testing.assert_allclose(cellgraph.jit(f)(a, r).asnumpy(),
                               (a.asnumpy() * r.asnumpy() * 3).sum(1, keepdims=True))


def test_relu_gradient_is_one_masked_pass():
    def f(x, y):
        return ops.reduce_sum(ops.relu(x) * y)

    # two elements per row, so reverse mode (one element per row takes forward mode, whose
    # tangent relu_grad(x, 1) is then weighted by y: see compiler/separable.py)
    x = Tensor(np.array([[1.0, -2.0], [3.0, -0.5]], np.float32))
    y = Tensor(np.array([[2.0, 3.0], [-4.0, 5.0]], np.float32))
    graph = optimised(cellgraph.grad(f), x, y)
    assert names(graph) == ["relu_grad"]
    np.testing.assert_allclose(cellgraph.grad(f)(x, y).asnumpy(), [[2.0, 0.0], [-4.0, 0.0]])


def test_a_product_chain_reuses_a_product_already_computed():
    def f(a, b, c):
        shared = a * c
        return shared + a * b * c  # (a * b) * c -> (a * c) * b

    args = [Tensor(np.array([1.5, -2.0], np.float32)) for _ in range(3)]
    graph = optimised(f, *args)
    assert names(graph) == ["mul", "mul", "add"]
    a, b, c = (t.asnumpy() for t in args)
    np.testing.assert_allclose(cellgraph.jit(f)(*args).asnumpy(), a * c + a * b * c)


# ----- fused primitives narrowed to the result that is read -------------------------------------

def _conv_loss(x, w):
    return ops.reduce_sum(ops.conv2d(x, w, pad_mode="pad", padding=1) ** 2)


@pytest.mark.parametrize("wrt, kept, dropped", [
    ((0, 1), "conv2d_grad", "conv2d_backprop_filter"),
    ((1,), "conv2d_backprop_filter", "conv2d_grad"),
    ((0,), "conv2d_backprop_input", "conv2d_grad"),
])
def test_conv2d_grad_narrows_to_the_gradient_that_is_read(wrt, kept, dropped):
    rng = np.random.default_rng(3)
    x = Tensor(rng.standard_normal((2, 3, 5, 5)))
    w = Tensor(rng.standard_normal((3, 3, 3, 3)))
    grad_fn = cellgraph.grad(_conv_loss, grad_position=wrt)
    kinds = names(optimised(grad_fn, x, w))
    assert kept in kinds and dropped not in kinds, kinds
    # the narrowed node computes what the fused one gives for that input
    both = cellgraph.grad(_conv_loss, grad_position=(0, 1))(x, w)
    grads = grad_fn(x, w)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for position, g in zip(wrt, grads):
        np.testing.assert_allclose(g.asnumpy(), both[position].asnumpy(), rtol=1e-12)


def test_a_factor_on_a_product_scales_the_smaller_operand():
    rng = np.random.default_rng(0)
    q = Tensor(rng.standard_normal((2, 8, 4)).astype(np.float32))
    k = Tensor(rng.standard_normal((2, 8, 4)).astype(np.float32))

    def scores(q, k):
        return ops.matmul(q, ops.transpose(k, (0, 2, 1))) * 0.5

    graph = optimised(scores, q, k)
    scaling = [n for n in graph.nodes if n.callee.name == "mul"]
    assert len(scaling) == 1 and scaling[0].outputs[0].aval.shape == (2, 8, 4)
    want = q.asnumpy() @ k.asnumpy().transpose(0, 2, 1) * 0.5
    np.testing.assert_allclose(cellgraph.jit(scores)(q, k).asnumpy(), want, rtol=1e-6)


def test_a_factor_stays_on_a_product_that_is_read_twice():
    a = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    b = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))

    def f(a, b):
        p = ops.matmul(a, b)
        return p * 0.5 + ops.exp(p)

    graph = optimised(f, a, b)
    assert names(graph).count("matmul") == 1
    p = a.asnumpy() @ b.asnumpy()
    np.testing.assert_allclose(cellgraph.jit(f)(a, b).asnumpy(), p * 0.5 + np.exp(p), rtol=1e-6)


def test_a_float_times_zero_keeps_infinities_and_nans():
    # MindSpore 2.10 in jit, and PyNative: inf * 0 and nan * 0 are NaN, x % 0 is NaN
    values = Tensor(np.array([np.inf, 1.0, np.nan], np.float32))
    calls = {
        "x * 0": (lambda a: a * 0, [np.nan, 0.0, np.nan]),
        "0 * x + 1": (lambda a: 0 * a + 1, [np.nan, 1.0, np.nan]),
        "zeros_like(x) * x": (lambda a: ops.zeros_like(a) * a, [np.nan, 0.0, np.nan]),
        "x % 0": (lambda a: a % 0, [np.nan, np.nan, np.nan]),
    }
    for name, (call, expected) in calls.items():
        for run in (call, cellgraph.jit(call)):
            np.testing.assert_array_equal(run(values).asnumpy(), np.float32(expected), name)
    counts = Tensor(np.array([3, -2], np.int32))  # an integer product by 0 is 0 exactly
    np.testing.assert_array_equal(cellgraph.jit(lambda n: n * 0)(counts).asnumpy(), [0, 0])


def test_a_read_after_an_assignment_is_its_value_once_no_gradient_follows():
    """assigned_read(w, v) is v on values; it stays while the graph will be differentiated
    again (its gradient goes to w)."""
    from cellgraph.compiler.compile_context import CompileContext
    from cellgraph.compiler.ir import print_graph, verify
    from cellgraph.compiler.ir_parser import parse_ir
    from cellgraph.compiler.optimize import REWRITES
    from cellgraph.compiler.passes import dce_pass, simplify_pass

    text = """\
graph @f(%w: f32[2], %v: f32[2]) {
  %1 = assigned_read(%w, %v)
  %2 = mul(%1, %w)
  return %2
}
"""
    for differentiable, kept in ((False, False), (True, True)):
        ctx = CompileContext(differentiable=differentiable,
                             rewrites={"assigned_read": REWRITES["assigned_read"]})
        out = dce_pass(simplify_pass(parse_ir(text), ctx), ctx)
        verify(out)
        printed = print_graph(out)
        assert ("assigned_read" in printed) is kept, printed
        if not kept:
            assert "mul(%v, %w)" in printed, printed
