"""Parameters passed as arguments of a top-level graph-mode call: read and assigned like
Parameter attributes, the new values written back into the caller's objects."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph.ops.errors import DTypeError


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def param(values, name):
    return Parameter(Tensor(np.asarray(values, np.float32)), name=name)


def test_assign_writes_back_and_later_reads_see_the_new_value():
    @ms.jit
    def step(p, g):
        ops.assign(p, p - 0.5 * g)
        return p * 2  # reads the assigned value

    p, g = param([1.0, 2.0], "p"), Tensor(np.ones(2, np.float32))
    np.testing.assert_allclose(step(p, g).asnumpy(), [1.0, 3.0])
    np.testing.assert_allclose(p.asnumpy(), [0.5, 1.5])
    np.testing.assert_allclose(step(p, g).asnumpy(), [0.0, 2.0])  # the cached graph
    np.testing.assert_allclose(p.asnumpy(), [0.0, 1.0])
    other = param([10.0, 10.0], "other")  # another Parameter of the same type: its own slot
    step(other, g)
    np.testing.assert_allclose(other.asnumpy(), [9.5, 9.5])
    np.testing.assert_allclose(p.asnumpy(), [0.0, 1.0])


def test_a_tensor_argument_is_not_served_the_parameter_graph():
    @ms.jit
    def step(p, g):
        ops.assign(p, g)
        return g

    g = Tensor(np.ones(2, np.float32))
    step(param([0.0, 0.0], "p"), g)
    with pytest.raises(DTypeError, match="expected a Parameter as `variable`, got a Tensor"):
        step(Tensor(np.zeros(2, np.float32)), g)


def test_momentum_over_a_parameter_tuple_matches_numpy():
    @ms.jit
    def momentum(params, moments, grads, lr):
        for p, m, g in zip(params, moments, grads):
            ops.assign(m, m * 0.9 + g)
            ops.assign_sub(p, lr * m)
        return lr

    ms.set_seed(1)
    net = nn.Dense(3, 2)
    params = ParameterTuple(net.trainable_params())
    moments = params.clone(prefix="m", init="zeros")
    rng = np.random.default_rng(0)
    grads = tuple(Tensor(rng.standard_normal(p.shape).astype(np.float32)) for p in params)
    expected = [p.asnumpy().astype(np.float64) for p in params]
    velocity = [np.zeros_like(e) for e in expected]
    for _ in range(3):
        momentum(params, moments, grads, Tensor(0.1, ms.float32))
        for i, g in enumerate(grads):
            velocity[i] = 0.9 * velocity[i] + g.asnumpy()
            expected[i] = expected[i] - 0.1 * velocity[i]
    for p, e in zip(params, expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-5)


def test_one_parameter_passed_twice_is_one_value():
    @ms.jit
    def bump(a, b):
        ops.assign_add(a, ops.ones_like(a))
        ops.assign_add(b, ops.ones_like(b))
        return a + 0

    q = param([0.0, 0.0], "q")
    np.testing.assert_allclose(bump(q, q).asnumpy(), [2.0, 2.0])
    np.testing.assert_allclose(q.asnumpy(), [2.0, 2.0])


def test_assign_under_tensor_control_flow():
    @ms.jit
    def signed(r, x):
        if x.sum() > 0:
            ops.assign(r, x)
        else:
            ops.assign(r, -2 * x)
        return r + 1

    @ms.jit
    def count(s, n):
        i = 0
        while i < n:
            ops.assign_add(s, ops.ones_like(s))
            i += 1
        return s

    r = param([0.0, 0.0], "r")
    np.testing.assert_allclose(signed(r, Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(),
                               [2.0, 3.0])
    np.testing.assert_allclose(r.asnumpy(), [1.0, 2.0])
    signed(r, Tensor(np.array([-1.0, -2.0], np.float32)))
    np.testing.assert_allclose(r.asnumpy(), [2.0, 4.0])
    s = param([0.0], "s")
    np.testing.assert_allclose(count(s, Tensor(3)).asnumpy(), [3.0])
    np.testing.assert_allclose(s.asnumpy(), [3.0])


class Accumulate(nn.Cell):
    def construct(self, w, x):
        w.assign_value(w + x)
        return w * 1


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_cell_argument_assign_value_in_both_modes(mode):
    ms.set_context(mode=mode)
    w, x = param([0.0, 1.0], "w"), Tensor(np.ones(2, np.float32))
    cell = Accumulate()
    np.testing.assert_allclose(cell(w, x).asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(cell(w, x).asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(w.asnumpy(), [2.0, 3.0])


def test_attribute_parameter_assign_value_in_construct():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = param([0.0], "total")

        def construct(self, x):
            self.total.set_data(self.total + x.sum())
            return self.total * 1

    counter = Counter()
    for expected in (2.0, 4.0):
        np.testing.assert_allclose(counter(Tensor(np.ones(2, np.float32))).asnumpy(), [expected])
    np.testing.assert_allclose(counter.total.asnumpy(), [4.0])


def test_gradient_with_respect_to_a_parameter_argument():
    z = param([1.0, 2.0], "z")
    grad = ms.grad(lambda z, x: (z * z * x).sum())(z, Tensor(np.full(2, 3.0, np.float32)))
    np.testing.assert_allclose(grad.asnumpy(), [6.0, 12.0])
