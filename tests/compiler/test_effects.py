"""Effects in graphs: Parameter assignment (`self.p = v`, ops.assign) inside Tensor branches and
loops and under grad, and `raise` under a Tensor condition, which fires at run time only."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.testing import check_grads


def t(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.float64))


class CountsCalls(nn.Cell):
    """Assigns a Parameter in a Tensor branch: the count only grows when x is positive."""

    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array(0.0)), name="count")

    def construct(self, x):
        if x > 0:
            self.count = self.count + 1
            y = x * self.count
        else:
            y = -x
        return y


def test_attribute_assignment_in_a_tensor_branch_updates_the_parameter():
    net = CountsCalls()
    np.testing.assert_allclose(net(t(2.0)).asnumpy(), 2.0)
    np.testing.assert_allclose(net(t(-1.0)).asnumpy(), 1.0)
    np.testing.assert_allclose(net(t(3.0)).asnumpy(), 6.0)
    np.testing.assert_allclose(net.count.asnumpy(), 2.0)


class AccumulatesInLoop(nn.Cell):
    """A Parameter assigned on every trip of a Tensor while loop is loop-carried state."""

    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.array(1.0)), name="total")

    def construct(self, x, n):
        i = n * 0
        while i < n:
            self.total = self.total * x
            ops.assign_add(self.total, 1.0)
            i = i + 1
        return x * self.total


def test_parameter_assigned_in_a_tensor_while_is_carried():
    net = AccumulatesInLoop()
    out = net(t(2.0), t(3.0))
    # total: 1 -> 3 -> 7 -> 15
    np.testing.assert_allclose(net.total.asnumpy(), 15.0)
    np.testing.assert_allclose(out.asnumpy(), 30.0)


def test_gradient_through_a_branch_that_assigns_treats_the_parameter_as_a_leaf():
    net = CountsCalls()
    grad = ops.GradOperation()(net)
    # y = x * (count + 1): the new count is a leaf, so dy/dx = count + 1
    np.testing.assert_allclose(grad(t(2.0)).asnumpy(), 1.0)
    np.testing.assert_allclose(grad(t(2.0)).asnumpy(), 2.0)  # count grew on the first call
    np.testing.assert_allclose(grad(t(-2.0)).asnumpy(), -1.0)

    class Frozen(nn.Cell):  # the same function with the Parameter frozen, for FD checks
        def construct(self, x):
            if x > 0:
                y = x * 3.0
            else:
                y = -x
            return y

    check_grads(Frozen(), (t(1.5),), order=2)


class GuardedSqrt(nn.Cell):
    def construct(self, x):
        if x < 0:
            raise ValueError("GuardedSqrt: expected a non-negative input")
        return ops.sqrt(x)


def test_raise_under_a_tensor_condition_fires_only_when_taken():
    net = GuardedSqrt()
    np.testing.assert_allclose(net(t(4.0)).asnumpy(), 2.0)
    with pytest.raises(ValueError, match="expected a non-negative input"):
        net(t(-4.0))
    np.testing.assert_allclose(net(t(9.0)).asnumpy(), 3.0)  # the same compiled graph


def test_raise_under_grad_and_the_value_after_it():
    grad = ops.GradOperation()(GuardedSqrt())
    np.testing.assert_allclose(grad(t(4.0)).asnumpy(), 0.25)
    with pytest.raises(ValueError):
        grad(t(-1.0))
    check_grads(GuardedSqrt(), (t(2.0),), order=2)


def test_raise_inside_a_tensor_loop():
    class Bounded(nn.Cell):
        def construct(self, x):
            while x < 100:
                x = x * 3
                if x > 150:
                    raise RuntimeError("Bounded: overshoot")
            return x

    np.testing.assert_allclose(Bounded()(t(0.5)).asnumpy(), 121.5)
    with pytest.raises(RuntimeError, match="overshoot"):
        Bounded()(t(0.7))


def test_variable_set_only_on_the_side_that_does_not_raise():
    class OneSided(nn.Cell):
        def construct(self, x):
            if x > 0:
                y = x * 2
            else:
                raise ValueError("OneSided: needs x > 0")
            return y + 1

    np.testing.assert_allclose(OneSided()(t(1.0)).asnumpy(), 3.0)
    with pytest.raises(ValueError, match="needs x > 0"):
        OneSided()(t(-1.0))


def test_a_constant_raise_still_happens_while_compiling():
    class Static(nn.Cell):
        def construct(self, x):
            if x.shape[0] > 1:
                raise TypeError("Static: one element only")
            return x

    with pytest.raises(TypeError, match="one element only"):
        Static()(Tensor(np.ones(2)))


def test_a_raise_message_shows_the_tensor_values_it_formats():
    """f-strings, %-formats and bare Tensors in a run-time raise are written with the values
    the Tensors have when it fires, as MindSpore writes them."""

    class Checked(nn.Cell):
        def construct(self, x, y):
            if x > 10:
                raise ValueError(f"x is {x} and y is {y}.")
            if x < 0:
                raise RuntimeError("x is %s, not %d or more" % (x, 0))  # noqa: UP031  (the form under test)
            if x == 5:
                raise IndexError(y)
            return x % 3

    y = Tensor(np.array([1.5, 2.0], np.float32))
    with pytest.raises(ValueError, match=r"x is 11 and y is \[1\.5 2\. \]\."):
        Checked()(Tensor(11), y)
    with pytest.raises(RuntimeError, match="x is -2, not 0 or more"):
        Checked()(Tensor(-2), y)
    with pytest.raises(IndexError, match=r"\[1\.5 2\. \]"):
        Checked()(Tensor(5), y)
    assert Checked()(Tensor(7), y).asnumpy() == 1


def test_assignment_to_a_scalar_parameter_from_a_one_element_tensor():
    class Store(nn.Cell):
        def __init__(self):
            super().__init__()
            self.last = Parameter(Tensor(np.array(0, np.int32)), name="last")

        def construct(self, x):
            self.last = x + 1
            return x

    net = Store()
    net(Tensor(np.array([4], np.int32)))
    assert net.last.shape == () and int(net.last.asnumpy()) == 5


def test_unsupported_syntax_is_a_runtime_error():
    class WithTry(nn.Cell):
        def construct(self, x):
            try:
                x = x + 1
            except ValueError:
                pass
            return x

    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match="`try` statements are not supported"):
        WithTry()(t(1.0))


def test_a_name_bound_to_a_parameter_follows_its_updates_in_a_branch():
    class Alias(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([4.0])), name="w")

        def construct(self, x, y):
            if y > 0:
                x = self.w  # x names the Parameter, not a copy of its value
                self.w = self.w - 1
            return x + y

    net = Alias()
    np.testing.assert_allclose(net(t([2.0]), t(3.0)).asnumpy(), [6.0])
    np.testing.assert_allclose(net(t([2.0]), t(-3.0)).asnumpy(), [-1.0])
    np.testing.assert_allclose(net.w.asnumpy(), [3.0])


def test_an_f_string_with_a_tensor_prints_its_value_at_run_time(capsys):
    class Report(nn.Cell):
        def construct(self, x):
            k = 2
            print(f"x={x}, k={k}", "done")
            return x * k

    net = Report()
    net(t([1.0, 2.0]))
    net(t([3.0, 4.0]))
    out = capsys.readouterr().out
    assert "x=[1. 2.], k=2 done" in out and "x=[3. 4.], k=2 done" in out


class _Accumulates(nn.Cell):
    """Stores a Tensor on a plain attribute (no Parameter), as MindSpore runs in Python."""

    def __init__(self):
        super().__init__()
        self.total = 4

    def construct(self, x):
        self.total = self.total + x
        return self.total * 2


def test_a_tensor_assigned_to_a_plain_attribute_is_set_after_the_run():
    net = _Accumulates()
    x = Tensor(np.array([2.0, 3.0], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [12, 14])
    assert isinstance(net.total, Tensor) and net.total.dtype == ms.float32
    np.testing.assert_allclose(net.total.asnumpy(), [6, 7])
    # the graph read the old value: a changed attribute recompiles, and the next run adds on
    np.testing.assert_allclose(net(x).asnumpy(), [16, 20])
    np.testing.assert_allclose(net.total.asnumpy(), [8, 10])


def test_a_value_read_back_from_a_plain_attribute_carries_no_gradient():
    # MindSpore runs the assignment as Python (PyExecute), which has no gradient
    x = Tensor(np.array([2.0, 3.0], np.float32))
    np.testing.assert_array_equal(ms.grad(_Accumulates())(x).asnumpy(), [0, 0])

    class UsesBoth(nn.Cell):
        def construct(self, x):
            self.seen = x * 3
            return x * x + self.seen

    net = UsesBoth()
    np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), [4, 6])  # d(x²)/dx only
    np.testing.assert_allclose(net.seen.asnumpy(), [6, 9])  # set by the run under grad


def test_assert_on_a_tensor_is_checked_when_the_graph_runs():
    """MindSpore's tutorial asserts `x in [2, 3, 4]` on a Tensor in construct: it raises
    AssertionError (with the message, made only when the check fails), not a compile error."""

    class Asserts(nn.Cell):
        def construct(self, x):
            assert x > 0, f"x is {x}"
            return x * 2

    net = Asserts()
    assert net(Tensor(3)).asnumpy() == 6
    with pytest.raises(AssertionError, match="x is -1"):
        net(Tensor(-1))
    assert net(Tensor(4)).asnumpy() == 8  # the same compiled graph
    with pytest.raises(AssertionError):
        Asserts()(Tensor(0.0))


def test_a_run_time_raise_of_any_exception_type_keeps_the_type():
    class Raises(nn.Cell):
        def construct(self, x):
            if x > 0:
                raise KeyError("Raises: positive")
            return x

    with pytest.raises(KeyError, match="positive") as info:
        Raises()(Tensor(1.0))
    assert "raise KeyError" in "\n".join(getattr(info.value, "__notes__", []))
    assert Raises()(Tensor(-1.0)).asnumpy() == -1


def _raise_with(message):
    raise ValueError(message)


@ms.jit
def _raises_with_a_tensor_in_its_message(x):
    _raise_with(f"bad {x}.")
    return x


class _RaisesTypeError(nn.Cell):
    def construct(self, x):
        raise TypeError(f"value {x}")


def test_a_raise_whose_message_holds_a_tensor_happens_when_the_graph_runs():
    # MindSpore 2.10: the message is written with the Tensor's values, which only the run has
    x = Tensor(np.array([1.0, 2.0], np.float32))
    with pytest.raises(ValueError) as info:
        _raises_with_a_tensor_in_its_message(x)
    assert str(info.value).startswith("bad [1. 2.].")
    with pytest.raises(TypeError) as info:
        _RaisesTypeError()(x)
    assert str(info.value).startswith("value [1. 2.]")
    with pytest.raises(TypeError) as info:
        ops.GradOperation()(_RaisesTypeError())(x)
    assert str(info.value).startswith("value [1. 2.]")
