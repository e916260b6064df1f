"""Joins MindSpore's programs rely on (tensor dtype promotion across a Tensor `if`, number lists
of different lengths, a Python number widened by an inner loop) and loop gradients whose tape
reads loop-invariant values or records nothing."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.testing import check_grads


def test_integer_and_float_tensors_promote_to_the_float_dtype():
    # MindSpore's rule: the higher kind wins, so int32 with float32 stays float32
    out = ops.add(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([0.5, 0.5], np.float32)))
    assert out.dtype == ms.float32
    out = ops.mul(Tensor(np.array([3], np.int64)), Tensor(np.array([0.5], np.float16)))
    assert out.dtype == ms.float16
    assert ops.add(Tensor(np.array([1], np.int8)), Tensor(np.array([1], np.uint8))).dtype == \
        ms.int16


def test_branches_of_int_plus_float_tensors_join():
    @ms.jit
    def pick(flag, n, w):
        y = n + w  # int32 + float32: float32, like the other branch
        if flag > 0:
            y = ops.sin(w)
        return y

    n, w = Tensor(np.array([2], np.int32)), Tensor(np.array([0.5], np.float32))
    np.testing.assert_allclose(pick(Tensor(1), n, w).asnumpy(), np.sin([0.5]), rtol=1e-6)
    np.testing.assert_allclose(pick(Tensor(0), n, w).asnumpy(), [2.5])


@pytest.mark.parametrize("x,expected", [(3, 20 * 10 + 10), (0, 7 * 10 + 8)])
def test_number_lists_of_different_lengths_join_as_a_dynamic_length_tensor(x, expected):
    @ms.jit
    def choose(v):
        if v > 1:
            seq = [10, 20]
        else:
            seq = [8, 7, 6, 5]
        return seq[1] * 10 + seq[0]

    assert int(choose(Tensor([x])).asnumpy()) == expected


def test_getitem_of_a_dynamic_dim_keeps_it_dynamic():
    @ms.jit
    def tail_sum(v):
        if v > 0:
            seq = [1.0, 2.0, 3.0]
        else:
            seq = [4.0, 5.0]
        return seq[1:].sum() + seq[-1]

    np.testing.assert_allclose(tail_sum(Tensor([1])).asnumpy(), 5.0 + 3.0)
    np.testing.assert_allclose(tail_sum(Tensor([0])).asnumpy(), 5.0 + 5.0)


def power_by_nested_loops(x, a, b, y=1):
    """y starts as the Python number 1 unless given; the inner loop multiplies it by x."""
    while a < b:
        while a < b - 1:
            y = y * x
            a += 1
        a += 1
    return y


def test_a_number_an_inner_loop_turns_into_a_tensor_does_not_join():
    """MindSpore 2.10 refuses it (TypeError, Type Join Failed); starting from a Tensor works."""
    bounds = (Tensor(2.0, ms.float32), Tensor(6.0, ms.float32))
    with pytest.raises(TypeError, match="Cannot join the return values"):
        ms.jit(power_by_nested_loops)(Tensor(1.5, ms.float32), *bounds)
    x = Tensor(1.5, ms.float32)
    out = ms.jit(power_by_nested_loops)(x, *bounds, ops.ones_like(x))
    np.testing.assert_allclose(out.asnumpy(), 1.5 ** 3, rtol=1e-6)
    check_grads(lambda x: power_by_nested_loops(x, *bounds, ops.ones_like(x)),
                (np.array(1.3),), order=2)


class BranchOnStateInLoop(nn.Cell):
    """The branch inside the loop reads both the carried state and `w * 2`, a loop-invariant
    value: the forward half of the loop's tape needs that value too."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, -1.0, 2.0], np.float32)), name="w")

    def construct(self, n, x):
        out = x
        i = 0
        while i < n:
            if out.max() < 3.0:
                out = out * self.w * 2 + x
            else:
                out = ops.sin(out) + self.w
            i = i + 1
        return out.sum()


def test_loop_tape_with_a_loop_invariant_value_in_a_branch():
    net = BranchOnStateInLoop()
    n, x = Tensor(3), Tensor(np.array([0.4, 0.2, 0.9], np.float32))
    gw = ops.grad(net, None, net.w)(n, x)
    w, xv = net.w.asnumpy().astype(np.float64), x.asnumpy().astype(np.float64)

    def forward(w_value):
        out = xv.copy()
        for _ in range(3):
            out = out * w_value * 2 + xv if out.max() < 3.0 else np.sin(out) + w_value
        return out.sum()

    eps = 1e-6
    numeric = [(forward(w + eps * e) - forward(w - eps * e)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(gw.asnumpy(), numeric, rtol=1e-4)
    check_grads(lambda v: net(n, v), (xv,), order=2)


def test_second_order_through_a_loop_that_carries_nothing():
    class IdleLoop(nn.Cell):
        def construct(self, x, y):
            while x < y:  # assigns nothing: carries nothing, and is never entered here
                pass
            return x * x * y

    x, y = np.array([2.0]), np.array([2.0])
    check_grads(lambda a, b: IdleLoop()(a, b).sum(), (x, y), order=2)


def test_a_scalar_and_a_one_element_vector_join():
    """A Tensor `if` whose branches give shapes () and (1,), and a `while` that turns a scalar
    into a one-element vector: MindSpore 2.10 joins them (its result takes the shape of the
    path that ran); here the joined value is the one-element vector either way."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Branches(nn.Cell):
        def construct(self, x):
            if x.any():
                return x.any()
            return Tensor([True])

    class Grows(nn.Cell):
        def construct(self, x, y):
            while x < 3:
                y = ops.ones((1,), ms.int32) + y
                x = x + 1
            return y

    assert Branches()(Tensor([1, 0])).asnumpy().tolist() == [True]
    assert Branches()(Tensor([0, 0])).asnumpy().tolist() == [True]
    assert Grows()(Tensor([0], ms.int32), Tensor(2, ms.int32)).asnumpy().tolist() == [5]
    assert Grows()(Tensor([5], ms.int32), Tensor(2, ms.int32)).asnumpy().tolist() == [2]


def test_a_mutable_tuple_rebuilt_in_a_tensor_loop():
    """A loop that rebuilds a `mutable` tuple with make_tuple carries the same structure
    (MindSpore 2.10's values)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Rebuild(nn.Cell):
        def construct(self, x, y, z):
            while ops.less(x, y):
                z = ops.make_tuple(ops.add(ops.tuple_getitem(z, 0), 3),
                                   ops.add(ops.tuple_getitem(z, 1), 2))
                x = ops.add(x, 1)
            return z

    z = ms.mutable((Tensor([8], ms.int32), Tensor([4], ms.int32)))
    first, second = Rebuild()(Tensor([2], ms.int32), Tensor([4], ms.int32), z)
    assert first.asnumpy().tolist() == [14] and second.asnumpy().tolist() == [8]


def test_a_loop_carried_value_broadcast_to_a_higher_rank():
    """`out = out + w` in a Tensor loop, out of shape (1,) and w (2, 2, 2): the value enters
    the loop broadcast (MindSpore 2.10's values and gradients, loop run or not)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Accumulate(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param = Parameter(Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2)),
                                   name="weight")
            self.zero = Tensor(np.zeros(1, np.float32))

        def construct(self, idx, end, x):
            out = self.zero
            while idx < end:
                if ops.ReduceMax()(out) < ops.ReduceMax()(x):
                    out = out + self.param * 2
                else:
                    out = out + self.param
                idx = idx + 1
            return out + self.param

    x = Tensor(np.ones(1, np.float32))
    for end, value, grad in ((3, 5.0, 5.0), (0, 1.0, 1.0)):
        net = Accumulate()
        args = (Tensor(np.array(0, np.int32)), Tensor(np.array(end, np.int32)), x)
        np.testing.assert_array_equal(net(*args).asnumpy().ravel(), np.arange(8) * value)
        grads = ops.GradOperation(get_by_list=True)(net, net.trainable_params())(*args)
        np.testing.assert_array_equal(grads[0].asnumpy(), np.full((2, 2, 2), grad))
