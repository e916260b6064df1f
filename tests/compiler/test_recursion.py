"""Functions that call themselves under a Tensor condition compile to a graph that calls itself;
recursion on Python values still unrolls."""
import numpy as np
import pytest

from cellgraph import Tensor, grad, jit, nn, ops
from cellgraph.compiler.pipeline import compile_callable


def i32(v):
    return Tensor(np.array(v, np.int32))


def steps_to_zero(x):
    """How many times x can be halved (rounding down, by subtraction) before it reaches 0."""
    if x > 0:
        return steps_to_zero((x - 1) * 0.5) + 1.0
    return x * 0.0


def python_steps(x):
    return python_steps((x - 1) * 0.5) + 1.0 if x > 0 else 0.0


@pytest.mark.parametrize("x", [0.0, 1.0, 5.0, 40.0])
def test_recursion_under_a_tensor_if(x):
    out = jit(steps_to_zero)(Tensor(np.array(x)))
    np.testing.assert_allclose(out.asnumpy(), python_steps(x))


def test_recursion_compiles_once_and_calls_itself():
    graph = compile_callable(steps_to_zero, (Tensor(np.array(3.0)),)).graph
    assert [n.callee.name for n in graph.nodes].count("call_graph") == 1
    for x in (2.0, 7.0, 100.0):  # one graph serves every depth
        np.testing.assert_allclose(jit(steps_to_zero)(Tensor(np.array(x))).asnumpy(),
                                   python_steps(x))


def choose(n, k):
    """Binomial coefficients by Pascal's rule, recursing on two paths."""
    if k == 0:
        out = n * 0 + 1
    elif k == n:
        out = n * 0 + 2 - 1
    else:
        out = choose(n - 1, k - 1) + choose(n - 1, k)
    return out


@pytest.mark.parametrize("n,k", [(4, 2), (6, 3), (5, 0), (7, 7)])
def test_two_recursive_calls_in_a_cell(n, k):
    class Binomial(nn.Cell):
        def construct(self, n, k):
            return choose(n, k)

    from math import comb
    assert int(Binomial()(i32(n), i32(k)).asnumpy()) == comb(n, k)


def countdown(x):
    if x > 0:
        return countdown(x - 1)
    return countdown(x + 1)


def test_recursion_on_every_path_is_an_endless_loop_error():
    with pytest.raises(RuntimeError, match="calls itself on every path"):
        jit(countdown)(i32(3))


def test_recursion_on_python_values_unrolls():
    def power(x, n):
        if n == 0:
            return x * 0 + 1
        return x * power(x, n - 1)

    graph = compile_callable(lambda x: power(x, 4), (Tensor(np.array(1.5)),)).graph
    assert "call_graph" not in [n.callee.name for n in graph.nodes]
    np.testing.assert_allclose(jit(lambda x: power(x, 4))(Tensor(np.array(1.5))).asnumpy(),
                               1.5 ** 4)


def test_an_undefined_name_is_a_name_error():
    def broken(x):
        if x > 0:
            return broken(x - 1)
        return not_defined_anywhere  # noqa: F821

    with pytest.raises(NameError, match="not_defined_anywhere"):
        jit(broken)(i32(2))


def test_differentiating_a_recursion_is_a_clear_error():
    from cellgraph import ops

    with pytest.raises(RuntimeError, match="calls itself under a Tensor condition"):
        ops.GradOperation()(jit(steps_to_zero))(Tensor(np.array(3.0)))


def _summed(fn):
    def total(x):
        return ops.reduce_sum(fn(x))
    return total


def test_closures_of_one_def_over_different_values_are_not_a_recursion():
    """grad(total_2) calls total_1 inside: one `def`, two closures, the same argument types."""
    third = ops.sin
    for _ in range(3):
        third = grad(_summed(third))
    x = np.linspace(-1.0, 1.0, 5)
    np.testing.assert_allclose(third(Tensor(x)).asnumpy(), -np.cos(x), rtol=1e-12)
