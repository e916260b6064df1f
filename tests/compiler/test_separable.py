"""Row separability (compiler/separable.py) and the forward-mode gradients autodiff takes where
it holds: the analysis on small graphs, and derivatives of orders 1..4 of separable and
non-separable functions against finite differences and against reverse mode."""
import numpy as np
import pytest

import cellgraph
from bench.w16_pinn_higher_order import nested_grad  # order nested grads of sums (PINN style)
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler import autodiff
from cellgraph.compiler.builder import build_graph
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.compiler.separable import MIXED, row_axis, row_states, split_rows
from cellgraph.primitives.core import TensorType
from cellgraph.primitives.dtype import float64
from cellgraph.testing import check_grads

RNG = np.random.default_rng(7)
W1 = RNG.standard_normal((1, 8)) * 0.8
B1 = RNG.standard_normal(8) * 0.3
W2 = RNG.standard_normal((8, 8)) * 0.5
B2 = RNG.standard_normal(8) * 0.3
W3 = RNG.standard_normal((8, 1)) * 0.5


class MLP(nn.Cell):
    """1-8-8-1, tanh: the weights are Parameters, as in a network being trained."""

    def __init__(self):
        super().__init__()
        for name, value in (("w1", W1), ("b1", B1), ("w2", W2), ("b2", B2), ("w3", W3)):
            setattr(self, name, Parameter(Tensor(value), name=name))

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        h = ops.tanh(ops.matmul(h, self.w2) + self.b2)
        return ops.matmul(h, self.w3)


mlp = MLP()


def graph_of(fn, *shapes):
    graph, _ = build_graph("f", fn, [TensorType(s, float64) for s in shapes])
    return graph


def states_by_name(graph, index=0):
    axis = row_axis(graph.params[index].aval.shape)
    states = row_states(graph, index, axis)
    return [(n.callee.name, states.get(id(n.outputs[0]))) for n in graph.nodes]


# ----- the analysis ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape, axis", [((5, 1), 0), ((5,), 0), ((1, 5), 1), ((1, 1), 0),
                                         ((5, 3), None), ((), None)])
def test_the_row_axis_is_the_only_long_one(shape, axis):
    assert row_axis(shape) == axis


def test_an_mlp_keeps_its_rows_apart_until_the_sum():
    graph = graph_of(lambda x: ops.reduce_sum(mlp(x)), (6, 1))
    states = states_by_name(graph)
    assert states[-1] == ("reduce_sum", MIXED)
    assert all(state == 0 for _, state in states[:-1] if state is not None)
    split = split_rows(graph, 0)
    assert [n.callee.name for n in split.mixed] == ["reduce_sum"]
    assert [axis for _, axis in split.boundary] == [0]


def test_a_matrix_times_columns_keeps_the_columns_apart():
    w = Tensor(RNG.standard_normal((3, 4)))
    graph = graph_of(lambda x: ops.tanh(ops.matmul(w, x)), (4, 1))  # contracts x's rows
    assert states_by_name(graph)[0] == ("matmul", MIXED)
    column = Tensor(RNG.standard_normal((3, 1)))
    graph = graph_of(lambda x: ops.tanh(ops.matmul(column, x)), (1, 4))  # rows as columns
    assert states_by_name(graph) == [("matmul", 1), ("tanh", 1)]


@pytest.mark.parametrize("fn", [
    lambda x: ops.tanh(x * ops.reduce_mean(x)),                       # a sum over the rows
    lambda x: ops.softmax(x, axis=0),                                 # normalised across rows
    lambda x: ops.matmul(ops.transpose(x, (1, 0)), x),                # rows contracted
    lambda x: ops.reshape(ops.tile(x, (1, 2)), (6, 2)),               # tile: no rule
    lambda x: ops.reshape(x * Tensor(np.ones((6, 2))), (2, 6)),       # rows regrouped
])
def test_operations_that_mix_rows_are_mixed(fn):
    graph = graph_of(fn, (6, 1))
    states = states_by_name(graph)
    assert states[-1][1] == MIXED


def test_reshapes_and_transposes_follow_the_rows():
    graph = graph_of(lambda x: ops.transpose(ops.reshape(x * Tensor(np.ones((6, 4))),
                                                         (6, 2, 2)), (1, 0, 2)), (6, 1))
    assert states_by_name(graph) == [("mul", 0), ("reshape", 0), ("transpose", 1)]


def test_an_input_with_several_long_axes_is_left_to_reverse_mode():
    graph = graph_of(lambda x: ops.reduce_sum(ops.tanh(x)), (4, 3))
    assert split_rows(graph, 0) is None


# ----- numbers ---------------------------------------------------------------------------------

def taylor_mlp(x, order):
    """d^order mlp / dx^order by finite differences of high order in float64 (5-point)."""
    h = 1e-2
    steps = {1: [(-2, 1 / 12), (-1, -8 / 12), (1, 8 / 12), (2, -1 / 12)],
             2: [(-2, -1 / 12), (-1, 16 / 12), (0, -30 / 12), (1, 16 / 12), (2, -1 / 12)],
             3: [(-2, -1 / 2), (-1, 1), (1, -1), (2, 1 / 2)],
             4: [(-2, 1), (-1, -4), (0, 6), (1, -4), (2, 1)]}[order]

    def u(v):
        a = np.tanh(v @ W1 + B1)
        a = np.tanh(a @ W2 + B2)
        return a @ W3

    return sum(c * u(x + k * h) for k, c in steps) / h ** order


X = np.linspace(-1.5, 1.5, 7).reshape(7, 1)


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_nested_derivatives_of_an_mlp_match_finite_differences(order):
    out = nested_grad(mlp, order)(Tensor(X)).asnumpy()
    np.testing.assert_allclose(out, taylor_mlp(X, order), rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_forward_and_reverse_mode_agree(order, monkeypatch):
    forward = nested_grad(mlp, order)(Tensor(X)).asnumpy()
    monkeypatch.setattr(autodiff, "split_rows", lambda graph, index: None)
    reverse = nested_grad(mlp, order)(Tensor(X)).asnumpy()
    np.testing.assert_allclose(forward, reverse, rtol=1e-10, atol=1e-10)


def matmuls(fn, x) -> int:
    graph = compile_callable(fn, (Tensor(x),)).graph
    return sum(n.callee.name == "matmul" for n in graph.nodes)


def test_forward_over_forward_takes_fewer_products(monkeypatch):
    """d4u/dx4 of a 1-8-8-1 MLP: one product per derivative order and layer."""
    forward = matmuls(nested_grad(mlp, 4), X)
    monkeypatch.setattr(autodiff, "split_rows", lambda graph, index: None)
    reverse = matmuls(nested_grad(mlp, 4), X)
    assert forward == 6  # z, z', ..., z'''' of the hidden layer, and the output's 4th
    assert reverse > 2 * forward


SEPARABLE = {
    "mlp": (mlp, (7, 1)),
    "row vector": (lambda x: ops.sin(ops.matmul(Tensor(W2[:, :1] * 0.7), x)) * x, (1, 5)),
    "vector": (lambda x: ops.exp(x) * ops.tanh(x) - x * x, (6,)),
    "reductions over columns": (lambda x: ops.reduce_max(ops.sin(x * Tensor(W1)), 1)
                                + ops.reduce_mean(ops.cos(x * Tensor(W1)), -1), (5, 1)),
    "mixed tail": (lambda x: ops.reduce_sum(ops.tanh(x * Tensor(W1))) ** 2 + x, (5, 1)),
}

NON_SEPARABLE = {
    "row mean": (lambda x: ops.tanh(x * ops.reduce_mean(x)), (6, 1)),
    "softmax over rows": (lambda x: ops.softmax(x * 2.0, axis=0), (6, 1)),
    "gram": (lambda x: ops.sin(ops.matmul(x, ops.transpose(x, (1, 0)))), (5, 1)),
    "several long axes": (lambda x: ops.tanh(ops.matmul(x, Tensor(W2[:3, :4]))), (5, 3)),
    "shifted rows": (lambda x: ops.sin(x[1:]) * x[:-1], (6, 1)),
}


@pytest.mark.parametrize("name", SEPARABLE)
def test_separable_functions_match_finite_differences(name):
    fn, shape = SEPARABLE[name]
    graph = graph_of(lambda x: ops.reduce_sum(fn(x)), shape)
    assert split_rows(graph, 0).separable  # differentiated in forward mode
    x = Tensor(np.linspace(-0.9, 1.1, int(np.prod(shape))).reshape(shape))
    check_grads(fn, (x,), order=3, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", NON_SEPARABLE)
def test_non_separable_functions_match_finite_differences(name):
    fn, shape = NON_SEPARABLE[name]
    x = Tensor(np.linspace(-0.9, 1.1, int(np.prod(shape))).reshape(shape))
    check_grads(fn, (x,), order=3, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("name", list(SEPARABLE) + list(NON_SEPARABLE))
def test_gradients_with_a_cotangent_agree_with_reverse_mode(name, monkeypatch):
    """GradOperation with sens_param: the cotangent weights each row's tangent."""
    fn, shape = {**SEPARABLE, **NON_SEPARABLE}[name]
    x = Tensor(np.linspace(-0.9, 1.1, int(np.prod(shape))).reshape(shape))
    out_shape = fn(x).shape
    sens = Tensor(np.random.default_rng(3).standard_normal(out_shape))

    def first_and_second(v, s):
        grad = ops.GradOperation(sens_param=True)(fn)
        return grad(v, s), cellgraph.grad(lambda u: ops.reduce_sum(grad(u, s) * u))(v)

    forward = [t.asnumpy() for t in cellgraph.jit(first_and_second)(x, sens)]
    monkeypatch.setattr(autodiff, "split_rows", lambda graph, index: None)
    reverse = [t.asnumpy() for t in cellgraph.jit(first_and_second)(x, sens)]
    for f, r in zip(forward, reverse):
        np.testing.assert_allclose(f, r, rtol=1e-10, atol=1e-10)


def test_a_random_draw_is_made_once():
    """sum(x * r) with r drawn in the graph: its gradient is the r its value was made with."""
    def f(x):
        return ops.reduce_sum(x * ops.rand(6, 1, dtype=cellgraph.float64))

    value, grad = cellgraph.value_and_grad(f)(Tensor(np.ones((6, 1))))
    np.testing.assert_allclose(value.asnumpy(), grad.asnumpy().sum(), rtol=1e-12)
