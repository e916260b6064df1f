"""Parameters passed as arguments to a jit function or a Cell's construct: read, assigned in the
graph (ops.assign, assign_add/sub, assign_value, `p[i] = v`), written back into the caller's
Parameter after the call, aliased to one slot when passed twice or also read as an attribute,
differentiated by grad_position or weights=, and compiled apart from plain Tensor arguments."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph.ops.errors import CompileError, DTypeError


def f32(*values):
    return Tensor(np.array(values, np.float32))


def param(*values, name="p"):
    return Parameter(f32(*values), name=name)


@pytest.fixture(params=["graph", "pynative"])
def mode(request):
    """Each test runs in both modes; Cells run construct as Python in PyNative mode."""
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit
def sgd_update(w, g):
    ops.assign(w, w - 0.1 * g)
    return w


def test_assign_to_a_parameter_argument_updates_the_callers_parameter(mode):
    p = param(1.0, 2.0, 3.0)
    out = sgd_update(p, f32(1.0, 1.0, 1.0))
    np.testing.assert_allclose(out.asnumpy(), [0.9, 1.9, 2.9], rtol=1e-6)
    np.testing.assert_allclose(p.asnumpy(), [0.9, 1.9, 2.9], rtol=1e-6)
    sgd_update(p, f32(1.0, 0.0, -1.0))
    np.testing.assert_allclose(p.asnumpy(), [0.8, 1.9, 3.0], rtol=1e-6)
    q = param(0.0, 0.0, 0.0, name="q")  # another Parameter of the same type: its own update
    sgd_update(q, f32(1.0, 1.0, 1.0))
    np.testing.assert_allclose(q.asnumpy(), [-0.1] * 3, rtol=1e-6)
    np.testing.assert_allclose(p.asnumpy(), [0.8, 1.9, 3.0], rtol=1e-6)


def test_every_way_of_assigning_reads_the_new_value_afterwards(mode):
    @ms.jit
    def update(p, x):
        before = p * 1
        ops.assign_add(p, x)            # p = 1 + x
        ops.assign_sub(p, 0.5 * x)      # p = 1 + x / 2
        after_sub = p * 1
        p.assign_value(p * 2)           # p = 2 + x
        p[0] = 10.0
        return before, after_sub, p + 0

    p = param(1.0, 1.0)
    before, after_sub, last = update(p, f32(2.0, 4.0))
    np.testing.assert_allclose(before.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(after_sub.asnumpy(), [2.0, 3.0])
    np.testing.assert_allclose(last.asnumpy(), [10.0, 6.0])
    np.testing.assert_allclose(p.asnumpy(), [10.0, 6.0])


class Momentum(nn.Cell):
    """A hand-written optimizer: the weights and moments come in as arguments."""

    def __init__(self, lr, momentum):
        super().__init__()
        self.lr, self.momentum = lr, momentum

    def construct(self, weights, moments, grads):
        for w, m, g in zip(weights, moments, grads):
            ops.assign(m, self.momentum * m + g)
            ops.assign_sub(w, self.lr * m)
        return self.lr


def test_momentum_over_parameter_tuples_matches_numpy_over_several_steps(mode):
    rng = np.random.default_rng(0)
    shapes = [(3, 2), (2,), (4,)]
    start = [rng.normal(size=s).astype(np.float32) for s in shapes]
    weights = ParameterTuple(Parameter(Tensor(w), name=f"w{i}") for i, w in enumerate(start))
    moments = weights.clone("moments", init="zeros")
    opt = Momentum(0.1, 0.9)
    ref_w, ref_m = [w.copy() for w in start], [np.zeros(s, np.float32) for s in shapes]
    for _ in range(4):
        grads = [rng.normal(size=s).astype(np.float32) for s in shapes]
        opt(weights, moments, tuple(Tensor(g) for g in grads))
        for i, g in enumerate(grads):
            ref_m[i] = 0.9 * ref_m[i] + g
            ref_w[i] = ref_w[i] - 0.1 * ref_m[i]
    for w, m, rw, rm in zip(weights, moments, ref_w, ref_m):
        np.testing.assert_allclose(w.asnumpy(), rw, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(m.asnumpy(), rm, rtol=1e-5, atol=1e-6)


def test_sgd_over_trainable_params_of_a_network_matches_numpy():
    net = nn.Dense(3, 2)
    start = [p.asnumpy().copy() for p in net.trainable_params()]

    @ms.jit
    def sgd(params, grads, lr):
        for p, g in zip(params, grads):
            ops.assign(p, p - lr * g)
        return lr

    grads = tuple(Tensor(np.full(p.shape, 0.5, np.float32)) for p in net.trainable_params())
    for _ in range(3):
        sgd(net.trainable_params(), grads, Tensor(0.2, ms.float32))
    for p, s in zip(net.trainable_params(), start):
        np.testing.assert_allclose(p.asnumpy(), s - 3 * 0.2 * 0.5, rtol=1e-5, atol=1e-6)


def test_the_same_parameter_passed_twice_is_one_slot(mode):
    @ms.jit
    def twice(a, b):
        ops.assign_add(a, f32(1.0, 1.0))
        ops.assign_add(b, f32(1.0, 1.0))  # reads a's update when b is a
        return a + b

    r = param(0.0, 0.0)
    np.testing.assert_allclose(twice(r, r).asnumpy(), [4.0, 4.0])
    np.testing.assert_allclose(r.asnumpy(), [2.0, 2.0])
    s = param(0.0, 0.0, name="s")  # two Parameters: another graph, two slots
    np.testing.assert_allclose(twice(r, s).asnumpy(), [4.0, 4.0])
    np.testing.assert_allclose(r.asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(s.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(twice(s, s).asnumpy(), [6.0, 6.0])
    np.testing.assert_allclose(s.asnumpy(), [3.0, 3.0])


class ScalesArgument(nn.Cell):
    """Assigns its Parameter argument, then reads its own attribute: the same Parameter when
    the caller passes `net.w`."""

    def __init__(self):
        super().__init__()
        self.w = param(1.0, 2.0, 3.0, name="w")

    def construct(self, x, q):
        ops.assign(q, q * 2)
        return self.w + x


def test_a_parameter_argument_that_is_also_an_attribute_is_one_slot(mode):
    net, one = ScalesArgument(), f32(1.0, 1.0, 1.0)
    other = param(0.0, 0.0, 0.0, name="o")
    np.testing.assert_allclose(net(one, other).asnumpy(), [2.0, 3.0, 4.0])
    np.testing.assert_allclose(net(one, net.w).asnumpy(), [3.0, 5.0, 7.0])  # reads the update
    np.testing.assert_allclose(net.w.asnumpy(), [2.0, 4.0, 6.0])
    np.testing.assert_allclose(net(one, other).asnumpy(), [3.0, 5.0, 7.0])
    np.testing.assert_allclose(other.asnumpy(), [0.0, 0.0, 0.0])
    np.testing.assert_allclose(net(one, net.w).asnumpy(), [5.0, 9.0, 13.0])
    np.testing.assert_allclose(net.w.asnumpy(), [4.0, 8.0, 12.0])


def test_attribute_assignment_reaches_the_argument_it_aliases():
    net = ScalesArgument()

    @ms.jit
    def update(q):
        net.w = net.w + 1  # assigns the attribute, which is the argument q here
        return q * 1

    np.testing.assert_allclose(update(net.w).asnumpy(), [2.0, 3.0, 4.0])
    np.testing.assert_allclose(net.w.asnumpy(), [2.0, 3.0, 4.0])


def test_tensor_and_parameter_arguments_compile_apart():
    @ms.jit
    def read_or_assign(x):
        return x * 2

    p, t = param(1.0, 2.0), f32(1.0, 2.0)
    read_or_assign(t)
    read_or_assign(p)
    assert len(read_or_assign._cache.entries) == 2
    with pytest.raises(DTypeError, match="expected a Parameter as `variable`, got Tensor"):
        sgd_update(f32(1.0, 2.0, 3.0), f32(1.0, 1.0, 1.0))
    p = param(1.0, 2.0, 3.0)
    sgd_update(p, f32(1.0, 1.0, 1.0))  # the failed Tensor call left no graph for Parameters
    np.testing.assert_allclose(p.asnumpy(), [0.9, 1.9, 2.9], rtol=1e-6)


def test_updates_in_tensor_branches_and_loops_reach_the_argument():
    @ms.jit
    def count_down(p, n):
        while n > 0:
            ops.assign_add(p, f32(1.0))
            n = n - 1
        if p > 2:
            p[0] = p[0] * 10
        return p * 1

    p = param(0.0)
    np.testing.assert_allclose(count_down(p, Tensor(3, ms.int32)).asnumpy(), [30.0])
    np.testing.assert_allclose(p.asnumpy(), [30.0])
    q = param(0.0, name="q")
    np.testing.assert_allclose(count_down(q, Tensor(2, ms.int32)).asnumpy(), [2.0])
    np.testing.assert_allclose(q.asnumpy(), [2.0])


def test_a_sub_cell_and_a_nested_jit_function_update_the_argument(mode):
    class Inner(nn.Cell):
        def construct(self, p, x):
            ops.assign_add(p, x)
            return p * 1

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, p, x):
            self.inner(p, x)
            return sgd_update(p, x)

    p = param(1.0, 1.0)
    np.testing.assert_allclose(Outer()(p, f32(1.0, 2.0)).asnumpy(), [1.9, 2.8], rtol=1e-6)
    np.testing.assert_allclose(p.asnumpy(), [1.9, 2.8], rtol=1e-6)


def square_sum(w, x):
    return (w * w * x).sum()


def test_grad_with_respect_to_a_parameter_argument():
    p, x = param(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
    expected = 2 * p.asnumpy() * x.asnumpy()
    np.testing.assert_allclose(ms.grad(square_sum, grad_position=0)(p, x).asnumpy(), expected)
    value, (gw,) = ms.value_and_grad(square_sum, grad_position=None, weights=[p])(p, x)
    np.testing.assert_allclose(value.asnumpy(), 14.5)
    np.testing.assert_allclose(gw.asnumpy(), expected)
    gx, gp = ms.grad(square_sum, grad_position=1, weights=p)(p, x)
    np.testing.assert_allclose(gx.asnumpy(), p.asnumpy() ** 2)
    np.testing.assert_allclose(gp.asnumpy(), expected)


def test_grad_by_weights_of_a_cell_that_also_takes_a_parameter():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = param(1.0, -2.0, name="w")

        def construct(self, x, q):
            return (self.w * x * q * q).sum()

    net, x, q = Net(), f32(3.0, 0.5), param(2.0, 4.0, name="q")
    gq, (gw,) = ms.grad(net, grad_position=1, weights=net.trainable_params())(x, q)
    np.testing.assert_allclose(gq.asnumpy(), 2 * net.w.asnumpy() * x.asnumpy() * q.asnumpy())
    np.testing.assert_allclose(gw.asnumpy(), x.asnumpy() * q.asnumpy() ** 2)


def test_a_training_step_differentiates_then_assigns_its_parameter_argument():
    @ms.jit
    def step(w, x):
        loss, g = ms.value_and_grad(square_sum, grad_position=0)(w, x)
        ops.assign(w, w - 0.1 * g)
        return loss

    w, x = param(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
    ref = np.array([1.0, 2.0, 3.0], np.float32)
    for _ in range(3):
        loss = step(w, x)
        np.testing.assert_allclose(loss.asnumpy(), (ref * ref * x.asnumpy()).sum(), rtol=1e-5)
        ref = ref - 0.1 * 2 * ref * x.asnumpy()
    np.testing.assert_allclose(w.asnumpy(), ref, rtol=1e-5)


def test_a_differentiated_function_that_assigns_its_parameter_argument():
    def accumulate(w, x):
        out = (w * x).sum()
        ops.assign_add(w, x)
        return out

    w, x = param(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
    np.testing.assert_allclose(ms.grad(accumulate, grad_position=0)(w, x).asnumpy(),
                               x.asnumpy())
    np.testing.assert_allclose(w.asnumpy(), [1.5, 1.0, 5.0])


def test_set_data_on_a_parameter_argument_in_a_graph_says_what_to_use():
    @ms.jit
    def replace(p):
        p.set_data(p * 2)
        return p

    with pytest.raises(CompileError, match="use ops.assign"):
        replace(param(1.0))


def test_parameter_arguments_show_as_argument_updates_in_the_ir():
    p = param(1.0, 2.0, 3.0, name="weight")
    text = ms.dump_ir(sgd_update.fn, p, f32(1.0, 1.0, 1.0), stage="parse")
    assert "# the last 1 outputs update weight" in text
