"""Parameters passed as arguments to a jit function or a Cell's construct: read, assigned in the
graph (ops.assign, assign_add/sub, assign_value, set_data, `p[i] = v`), written back into the
caller's Parameter after the call, aliased to one slot when passed twice or also read as an
attribute, differentiated by grad_position or weights=, and compiled apart from plain Tensor
arguments."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops


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
    plain = Tensor(np.zeros(2, np.float32))  # a Tensor argument is updated in place too
    step(plain, g)
    np.testing.assert_allclose(plain.asnumpy(), [1.0, 1.0])


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


def test_attribute_parameter_set_data_in_construct_is_refused_as_in_mindspore():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = param([0.0], "total")

        def construct(self, x):
            self.total.set_data(self.total + x.sum())
            return self.total * 1

    # MindSpore 2.10 refuses Parameter.set_data in a graph (ops.assign is the graph's way)
    with pytest.raises(RuntimeError, match="the 'Parameter' object's method 'set_data' is not "
                                           "supported in 'construct'"):
        Counter()(Tensor(np.ones(2, np.float32)))


def f32(*values):
    return Tensor(np.array(values, np.float32))


def param_of(*values, name="p"):
    return Parameter(f32(*values), name=name)


@pytest.fixture(params=["graph", "pynative"])
def both_modes(request):
    """Each test runs in both modes; Cells run construct as Python in PyNative mode."""
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "graph" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.GRAPH_MODE)


def test_requires_grad_is_part_of_the_key():
    @ms.jit
    def scaled(p):
        return p * (2 if p.requires_grad else 3)

    frozen = Parameter(f32(1.0), name="frozen", requires_grad=False)
    np.testing.assert_allclose(scaled(param_of(1.0)).asnumpy(), [2.0])
    np.testing.assert_allclose(scaled(frozen).asnumpy(), [3.0])


@ms.jit
def sgd_update(w, g):
    ops.assign(w, w - 0.1 * g)
    return w


def test_every_way_of_assigning_reads_the_new_value_afterwards(both_modes):
    @ms.jit
    def update(p, x):
        before = p * 1
        ops.assign_add(p, x)            # p = 1 + x
        ops.assign_sub(p, 0.5 * x)      # p = 1 + x / 2
        after_sub = p * 1
        p.assign_value(p * 2)           # p = 2 + x
        p[0] = 10.0
        return before, after_sub, p + 0

    p = param_of(1.0, 1.0)
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


def test_momentum_over_parameter_tuples_matches_numpy_over_several_steps(both_modes):
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


def test_the_same_parameter_passed_twice_is_one_slot(both_modes):
    @ms.jit
    def twice(a, b):
        ops.assign_add(a, f32(1.0, 1.0))
        ops.assign_add(b, f32(1.0, 1.0))  # reads a's update when b is a
        return a + b

    r = param_of(0.0, 0.0)
    np.testing.assert_allclose(twice(r, r).asnumpy(), [4.0, 4.0])
    np.testing.assert_allclose(r.asnumpy(), [2.0, 2.0])
    s = param_of(0.0, 0.0, name="s")  # two Parameters: another graph, two slots
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
        self.w = param_of(1.0, 2.0, 3.0, name="w")

    def construct(self, x, q):
        ops.assign(q, q * 2)
        return self.w + x


def test_a_parameter_argument_that_is_also_an_attribute_is_one_slot(both_modes):
    net, one = ScalesArgument(), f32(1.0, 1.0, 1.0)
    other = param_of(0.0, 0.0, 0.0, name="o")
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

    p, t = param_of(1.0, 2.0), f32(1.0, 2.0)
    read_or_assign(t)
    read_or_assign(p)
    assert len(read_or_assign._cache.entries) == 2
    t = f32(1.0, 2.0, 3.0)
    sgd_update(t, f32(1.0, 1.0, 1.0))  # a Tensor is updated in place, with its own graph
    np.testing.assert_allclose(t.asnumpy(), [0.9, 1.9, 2.9], rtol=1e-6)
    p = param_of(1.0, 2.0, 3.0)
    sgd_update(p, f32(1.0, 1.0, 1.0))
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

    p = param_of(0.0)
    np.testing.assert_allclose(count_down(p, Tensor(3, ms.int32)).asnumpy(), [30.0])
    np.testing.assert_allclose(p.asnumpy(), [30.0])
    q = param_of(0.0, name="q")
    np.testing.assert_allclose(count_down(q, Tensor(2, ms.int32)).asnumpy(), [2.0])
    np.testing.assert_allclose(q.asnumpy(), [2.0])


def test_a_sub_cell_and_a_nested_jit_function_update_the_argument(both_modes):
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

    p = param_of(1.0, 1.0)
    np.testing.assert_allclose(Outer()(p, f32(1.0, 2.0)).asnumpy(), [1.9, 2.8], rtol=1e-6)
    np.testing.assert_allclose(p.asnumpy(), [1.9, 2.8], rtol=1e-6)


def square_sum(w, x):
    return (w * w * x).sum()


def test_grad_with_respect_to_a_parameter_argument():
    p, x = param_of(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
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
            self.w = param_of(1.0, -2.0, name="w")

        def construct(self, x, q):
            return (self.w * x * q * q).sum()

    net, x, q = Net(), f32(3.0, 0.5), param_of(2.0, 4.0, name="q")
    gq, (gw,) = ms.grad(net, grad_position=1, weights=net.trainable_params())(x, q)
    np.testing.assert_allclose(gq.asnumpy(), 2 * net.w.asnumpy() * x.asnumpy() * q.asnumpy())
    np.testing.assert_allclose(gw.asnumpy(), x.asnumpy() * q.asnumpy() ** 2)


def test_a_training_step_differentiates_then_assigns_its_parameter_argument():
    @ms.jit
    def step(w, x):
        loss, g = ms.value_and_grad(square_sum, grad_position=0)(w, x)
        ops.assign(w, w - 0.1 * g)
        return loss

    w, x = param_of(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
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

    w, x = param_of(1.0, 2.0, 3.0), f32(0.5, -1.0, 2.0)
    np.testing.assert_allclose(ms.grad(accumulate, grad_position=0)(w, x).asnumpy(),
                               x.asnumpy())
    np.testing.assert_allclose(w.asnumpy(), [1.5, 1.0, 5.0])


def test_parameter_arguments_show_as_argument_updates_in_the_ir():
    p = param_of(1.0, 2.0, 3.0, name="weight")
    text = ms.dump_ir(sgd_update.fn, p, f32(1.0, 1.0, 1.0), stage="parse")
    assert "# the last 1 outputs update weight" in text


def test_parameters_of_one_graph_have_distinct_names():
    """Two Parameter objects of one name in a graph where one is an argument: ValueError, as
    MindSpore 2.10 raises; ParameterTuple refuses them too (one object repeated is fine)."""


    a = Parameter(Tensor([1.0], ms.float32), name="name_a")
    b = Parameter(Tensor([2.0], ms.float32), name="name_a")

    class ReadsA(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = a

        def construct(self, x):
            return self.a + x

    @ms.jit
    def both_passed(x, y):
        return x + y

    message = "its name 'name_a' already exists. Please set a unique name for the parameter."
    with pytest.raises(ValueError, match=message):
        ReadsA()(b)
    with pytest.raises(ValueError, match=message):
        both_passed(a, b)
    np.testing.assert_allclose(both_passed(a, a).asnumpy(), [2.0])
    with pytest.raises(ValueError, match=message):
        ParameterTuple((a, b))
    assert len(ParameterTuple((a, a))) == 2
