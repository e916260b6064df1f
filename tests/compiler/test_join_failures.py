"""Values of the two branches of a Tensor `if` that do not join raise MindSpore's TypeError,
"Cannot join the return values of different branches", naming the statement each side ends
with: a Tensor of rank 1 or more and a Python number, values of different structures, and Tensors
of different dtypes; a Python number and a 0-d Tensor, or an int and a float, where the value is
returned as it is. Two numbers of one type join into a number known at run time (a variable
scalar), as in MindSpore 2.10."""
import pytest

import cellgraph as ms
from cellgraph import Tensor, jit


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def test_a_tensor_and_a_number_returned_do_not_join():
    @jit
    def foo(x, y):
        if x < y:
            return Tensor([1, 2, 3])
        return 0

    with pytest.raises(TypeError) as info:
        foo(Tensor(2, ms.float32), Tensor(6, ms.float32))
    text = str(info.value)
    assert "Cannot join the return values of different branches" in text
    assert "AbstractTensor cannot join with AbstractScalar" in text
    assert "return Tensor([1, 2, 3])" in text and "return 0" in text


def test_a_return_inside_a_tensor_loop_is_named_by_its_own_statement():
    @jit
    def foo(x):
        while x < 10:
            return Tensor([1, 2, 3])
        return 0

    # MindSpore 2.10 names both returns: the loop's and the one after it
    with pytest.raises(TypeError) as info:
        foo(Tensor([1], ms.float32))
    text = str(info.value)
    assert "Cannot join the return values of different branches" in text
    assert "true branch:" in text and "return Tensor([1, 2, 3])" in text
    assert "false branch:" in text and "return 0" in text


def test_a_variable_that_is_a_tensor_on_one_side_and_a_number_on_the_other():
    @jit
    def foo(x, y):
        a = 0
        if x < y:
            a = Tensor([1, 2, 3]) * 2
        return a

    with pytest.raises(TypeError, match="Cannot join the return values") as info:
        foo(Tensor(2, ms.float32), Tensor(6, ms.float32))
    assert "a = Tensor([1, 2, 3]) * 2" in str(info.value)

    @jit
    def scalar(x, y):  # a 0-d Tensor does not join a number either
        a = 0
        if x < y:
            a = x * 2
        return a

    with pytest.raises(TypeError, match="AbstractTensor cannot join with AbstractScalar"):
        scalar(Tensor(2, ms.float32), Tensor(6, ms.float32))

    @jit
    def computed_with(x, a, b):  # MindSpore refuses the join only where it is returned
        y = 1
        if a < b:
            y = Tensor(2, ms.float32)
        return x + y

    assert float(computed_with(Tensor(1.0), Tensor(2.0), Tensor(4.0))) == 3.0
    assert float(computed_with(Tensor(1.0), Tensor(4.0), Tensor(2.0))) == 2.0


def test_two_numbers_join_into_a_number_of_one_type():
    @jit
    def ints(x, y):
        a = 0
        if x < y:
            a = 3
        else:
            a = a + 1
        return a, x

    out, x = ints(Tensor(2.0), Tensor(3.0))
    assert type(out) is int and out == 3  # MindSpore 2.10 returns the Python int 3
    assert float(x) == 2.0

    @jit
    def int_or_float(x, y):
        a = 0
        if x < y:
            a = 3.5
        return a

    with pytest.raises(TypeError, match="dtype1 = Float32, dtype2 = Int64"):
        int_or_float(Tensor(2.0), Tensor(3.0))


def test_different_structures_and_dtypes_do_not_join():
    @jit
    def pair_or_tensor(x, y):
        if x < y:
            a = (x, y)
        else:
            a = x
        return a

    with pytest.raises(TypeError, match="AbstractTuple cannot join with AbstractTensor"):
        pair_or_tensor(Tensor(2.0), Tensor(6.0))

    @jit
    def int_or_float(x, y):
        if x < y:
            a = Tensor([1, 2, 3])
        else:
            a = Tensor([1.0, 2.0, 3.0])
        return a

    with pytest.raises(TypeError, match="dtype1 = Int64, dtype2 = Float32"):
        int_or_float(Tensor(2.0), Tensor(6.0))


def test_two_numbers_join():
    @jit
    def foo(x, y):
        if x < y:
            a = 1
        else:
            a = 2
        return a

    assert int(foo(Tensor(2.0), Tensor(6.0))) == 1
    assert int(foo(Tensor(7.0), Tensor(6.0))) == 2


def test_a_loop_that_changes_a_tensors_dtype_fails_as_in_mindspore():
    from cellgraph import ops

    @jit
    def retyped(x, y):
        while x < 5:
            y = ops.ones((1,), ms.float32) * 2
            x = x + 1
        return y

    with pytest.raises(TypeError, match="Cannot join the return values") as info:
        retyped(Tensor([0], ms.int32), Tensor([7], ms.int32))
    assert "dtype1 = Float32, dtype2 = Int32" in str(info.value)  # MindSpore 2.10's order


def test_a_number_known_at_run_time_joins_a_python_number():
    @jit
    def count(x, n):
        i = 0
        while i < n:  # i is a number known only at run time inside the loop
            if x > 0:
                i = i + 1
            else:
                i = 5
        return i

    assert count(Tensor(1.0), Tensor(3)) == 3
    assert count(Tensor(-1.0), Tensor(3)) == 5


def test_a_loop_that_raises_a_values_rank_on_every_trip_does_not_join():
    """Broadcast to the rank its first trip gives it, once; a rank that keeps growing is
    MindSpore's ValueError (Join Failed)."""
    from cellgraph import nn, ops

    class Grow(nn.Cell):
        def construct(self, x, i):
            out = x
            while i < 3:
                out = ops.expand_dims(out + 1, -1)
                i = i + 1
            return out

    with pytest.raises(ValueError, match="Join Failed"):
        Grow()(Tensor(0, ms.int32), Tensor(0, ms.int32))
