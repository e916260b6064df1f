"""break, continue and return inside loops whose exits depend on Tensors: values against a plain
Python run of the same function, gradients against finite differences at order 2."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads


def t(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.float64))


def as_float(v):
    return float(np.asarray(v))


class WhileWithBreak(nn.Cell):
    """Doubles x until it passes a limit, leaving the loop from its middle."""

    def construct(self, x, limit):
        n = x * 0
        while n < 10:
            x = x * 1.5
            if x > limit:
                break
            n = n + 1
        return x + n


def while_with_break(x, limit):
    n = 0.0
    while n < 10:
        x = x * 1.5
        if x > limit:
            break
        n += 1
    return x + n


class WhileWithContinue(nn.Cell):
    """Skips the accumulation on steps where the running value is small."""

    def construct(self, x):
        i = x * 0
        acc = x * 0
        while i < 5:
            i = i + 1
            if ops.sin(x * i) < 0:
                continue
            acc = acc + x * i
        return acc


def while_with_continue(x):
    i, acc = 0.0, 0.0
    while i < 5:
        i += 1
        if np.sin(x * i) < 0:
            continue
        acc += x * i
    return acc


class ReturnFromTensorWhile(nn.Cell):
    """Returns from inside the loop when a step overshoots; after the loop otherwise."""

    def construct(self, x):
        k = x * 0
        while k < 4:
            x = x * x
            if x > 50:
                return x - 1
            k = k + 1
        return x + 1


def return_from_tensor_while(x):
    k = 0
    while k < 4:
        x = x * x
        if x > 50:
            return x - 1
        k += 1
    return x + 1


def return_from_unrolled_loop(x):
    """A return under an `if` in a static `for`, inside a nested loop: run as Python on floats,
    compiled on Tensors."""
    for i in range(3):
        for j in range(2):
            if x * (i + j) > 3:
                return x * (i + 10 * j)
        x = x + 0.5
    return -x


class ReturnFromUnrolledLoop(nn.Cell):
    def construct(self, x):
        return return_from_unrolled_loop(x)


@pytest.mark.parametrize("x,limit", [(1.1, 4.0), (1.3, 100.0), (5.0, 3.0)])
def test_break_inside_a_tensor_while(x, limit):
    out = WhileWithBreak()(t(x), t(limit))
    np.testing.assert_allclose(out.asnumpy(), while_with_break(x, limit))
    check_grads(WhileWithBreak(), (t(x), t(limit)), order=2)


@pytest.mark.parametrize("x", [0.3, 0.9, 2.0])
def test_continue_inside_a_tensor_while(x):
    np.testing.assert_allclose(WhileWithContinue()(t(x)).asnumpy(), while_with_continue(x))
    check_grads(WhileWithContinue(), (t(x),), order=2)


@pytest.mark.parametrize("x", [1.2, 3.0, 0.5])
def test_return_inside_a_tensor_while(x):
    np.testing.assert_allclose(ReturnFromTensorWhile()(t(x)).asnumpy(),
                               return_from_tensor_while(x))
    check_grads(ReturnFromTensorWhile(), (t(x),), order=2)


@pytest.mark.parametrize("x", [0.4, 1.1, 2.2, 4.0, -1.0])
def test_return_from_nested_unrolled_loops(x):
    np.testing.assert_allclose(ReturnFromUnrolledLoop()(t(x)).asnumpy(),
                               return_from_unrolled_loop(x))
    check_grads(ReturnFromUnrolledLoop(), (t(x),), order=2)


def test_return_of_a_tuple_from_a_loop():
    class FirstAbove(nn.Cell):
        def construct(self, xs, bound):
            for i in range(3):
                if xs[i] > bound:
                    return xs[i], xs[i] * 2
            return bound, bound

    xs = t(0.5, 2.0, 3.0)
    first, double = FirstAbove()(xs, t(1.0))
    assert as_float(first.asnumpy()) == 2.0 and as_float(double.asnumpy()) == 4.0
    first, double = FirstAbove()(xs, t(5.0))
    assert as_float(first.asnumpy()) == 5.0 and as_float(double.asnumpy()) == 5.0


def test_integer_loop_with_exits_counts_like_python():
    class StepsDown(nn.Cell):
        def construct(self, n):
            steps = n * 0
            while n > 1:
                if steps > 20:
                    break
                if n > 10:
                    n = n - 7
                    steps = steps + 1
                    continue
                n = n * 2 - 9
                steps = steps + 1
            return n, steps

    def steps_down(n):
        steps = 0
        while n > 1:
            if steps > 20:
                break
            if n > 10:
                n, steps = n - 7, steps + 1
                continue
            n, steps = n * 2 - 9, steps + 1
        return n, steps

    for n in (1, 6, 9, 30):
        got = StepsDown()(Tensor(np.array(n, np.int32)))
        assert tuple(int(v.asnumpy()) for v in got) == steps_down(n)


def test_a_python_number_before_a_tensor_loop_stays_a_number():
    """A number the body turns into a Tensor, or an int it turns into a float, does not join
    (MindSpore 2.10's TypeError); one it keeps a number comes back as a Python number."""
    class Widen(nn.Cell):
        def construct(self, x, n):
            y = 1
            while n > 0:
                y = y * x + 0.5
                n = n - 1
            return y

    with pytest.raises(TypeError, match="AbstractScalar cannot join with AbstractTensor"):
        Widen()(t(2.0), Tensor(np.array(3, np.int32)))

    class IntToFloat(nn.Cell):
        def construct(self, n):
            y = 0
            while n > 0:
                y = y + 0.5
                n = n - 1
            return y

    with pytest.raises(TypeError, match="dtype1 = Float32, dtype2 = Int64"):
        IntToFloat()(Tensor(np.array(3, np.int32)))

    class Count(nn.Cell):
        def construct(self, n):
            steps = 0
            while n > 1:
                n = n // 2
                steps = steps + 1
            return steps, n

    steps, n = Count()(Tensor(np.array(20, np.int32)))
    assert type(steps) is int and steps == 4 and int(n.asnumpy()) == 1


def test_a_number_a_loop_turns_into_a_tensor_joins_where_it_is_computed_with():
    """MindSpore 2.10 refuses the join only where the value is returned as it is: computed
    with after the loop, it is the Tensor of the type the body gives it (here [7., 7.])."""
    class Net(nn.Cell):
        def construct(self, x, a, b):
            y = 1
            while a < b:
                y = a * 2
                a += 1
            return x + y

    out = Net()(Tensor(np.ones(2, np.float32)), t(2.0).astype(ms.float32),
                t(4.0).astype(ms.float32))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [7.0, 7.0])
