"""A tuple or list of Cells, functions or Tensors indexed by a Tensor, and `tensor in list`."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads


def t(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.float64))


def idx(i):
    return Tensor(np.array(i, np.int32))


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


class PickLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = (Scale(2.0), ops.sin, lambda v: v * v * v)

    def construct(self, x, i):
        return self.layers[i](x) + 1


@pytest.mark.parametrize("i,expected", [(0, 2 * 0.7 + 1), (1, np.sin(0.7) + 1),
                                        (2, 0.7 ** 3 + 1)])
def test_tensor_index_into_a_tuple_of_callables(i, expected):
    np.testing.assert_allclose(PickLayer()(t(0.7), idx(i)).asnumpy(), expected)


@pytest.mark.parametrize("i", [0, 1, 2])
def test_gradient_through_the_chosen_callable(i):
    net = PickLayer()
    check_grads(lambda x: net(x, idx(i)), (t(0.7),), order=2)


def test_cell_list_indexed_in_a_tensor_loop():
    class Sum(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cells = nn.CellList([Scale(1.0), Scale(10.0), Scale(100.0)])

        def construct(self, x, i):
            out = x * 0
            while i < 3:
                out = out + self.cells[i](x)
                i = i + 1
            return out

    np.testing.assert_allclose(Sum()(t(2.0), idx(0)).asnumpy(), 222.0)
    np.testing.assert_allclose(Sum()(t(2.0), idx(2)).asnumpy(), 200.0)


def test_tensor_index_into_a_list_of_tensors_gathers():
    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.table = [t(1.0, 2.0), t(3.0, 4.0), t(5.0, 6.0)]

        def construct(self, x, i):
            return self.table[i] * x

    np.testing.assert_allclose(Pick()(t(2.0), idx(1)).asnumpy(), [6.0, 8.0])
    check_grads(lambda x: Pick()(x, idx(2)), (t(2.0),), order=2)


def test_tensor_in_a_list_of_tensors():
    class Member(nn.Cell):
        def __init__(self):
            super().__init__()
            self.known = [Tensor(np.array([1], np.int32)), Tensor(np.array([3], np.int32))]

        def construct(self, c):
            if c in self.known:
                out = c * 10
            else:
                out = c
            if c not in self.known:
                out = out - 1
            return out

    for value, expected in ((1, 10), (2, 1), (3, 30)):
        got = Member()(Tensor(np.array([value], np.int32)))
        assert int(got.asnumpy()[0]) == expected


class SwitchValuesAndFunctions(nn.Cell):
    def construct(self, x):
        scaled = ops.switch(x > 0, x * 2, -x)  # a value chosen at run time
        act = ops.switch(x > 1, ops.sin, ops.cos)  # a function chosen at run time
        return scaled + act(x) + ops.switch(True, 1.0, 2.0)


@pytest.mark.parametrize("x", [2.0, 0.5, -1.0])
def test_ops_switch_chooses_values_and_functions_at_run_time(x):
    expected = (2 * x if x > 0 else -x) + (np.sin(x) if x > 1 else np.cos(x)) + 1.0
    np.testing.assert_allclose(SwitchValuesAndFunctions()(t(x)).asnumpy(), expected)
    check_grads(SwitchValuesAndFunctions(), (t(x),), order=2)


def test_ops_switch_needs_a_condition_of_one_element():
    """MindSpore: a ValueError, "The truth value of an array with more than one element is
    ambiguous.", for a (2, 2) condition; a (1,) one picks."""

    @ms.jit
    def pick(cond, x, y):
        return ops.switch(cond, x, y)

    x = ms.Tensor([[1, 1], [2, 2]])
    y = ms.Tensor([[3, 3], [4, 4]])
    with pytest.raises(ValueError, match="The truth value of an array with more than one "
                                         "element is ambiguous."):
        pick(x > y, x, y)
    assert pick(ms.Tensor([True]), x, y).asnumpy().tolist() == [[1, 1], [2, 2]]


def test_in_with_tensor_items_and_a_python_value():
    """`a in b` where `b` holds Tensors (a mutable list) and `a` is a number; a Tensor is never
    equal to a string; `in` on a non-container is Python's TypeError. As in MindSpore."""

    @ms.jit
    def member(a, b):
        return a in b, a not in b

    for items in ([1, 2, 3], (1, 2, 3)):
        hit, miss = member(1, ms.mutable(items))
        assert bool(hit) and not bool(miss)
        hit, miss = member(0, ms.mutable(items))
        assert not bool(hit) and bool(miss)

    class NotIn(ms.nn.Cell):
        def __init__(self, x, y):
            super().__init__()
            self.x, self.y = x, y

        def construct(self):
            return self.x not in self.y

    ones = ms.Tensor(np.ones((2, 2), np.int32))
    assert bool(NotIn(ones, [ms.Tensor(np.zeros((2, 2), np.int32)), "a"])())
    assert not bool(NotIn(ones, ["a", ones])())

    class IntIn(ms.nn.Cell):
        def construct(self, x, y):
            return x in y

    with pytest.raises(TypeError, match="argument of type 'int' is not iterable"):
        IntIn()(1, 2)


@ms.jit
def _pick_and_call(x):
    def f(v):
        return v + 3

    def k(v):
        return v - 1

    def g(v):
        if v < 5:
            return f
        return k

    return g(x)(x)


def test_a_tensor_if_that_returns_one_of_two_functions():
    """`if x < 5: return f` / `return k` with a Tensor x: the function picked when the graph
    runs is called (MindSpore 2.10's values, its gradients too)."""
    assert _pick_and_call(Tensor([10], ms.int32)).asnumpy().tolist() == [9]
    assert _pick_and_call(Tensor([1], ms.int32)).asnumpy().tolist() == [4]
    grad = ms.grad(lambda x: _pick_and_call(x) * x)
    assert grad(Tensor([2.0])).asnumpy().tolist() == [7.0]
    assert grad(Tensor([7.0])).asnumpy().tolist() == [13.0]
