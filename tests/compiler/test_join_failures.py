"""Values of the two branches of a Tensor `if` that do not join raise MindSpore's TypeError,
"Cannot join the return values of different branches", naming the statement each side ends
with: a Tensor of rank 1 or more and a Python number, values of different structures, and Tensors
of different dtypes. Two numbers, or a number and a 0-d Tensor, join into a scalar known at run
time."""
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
    def scalar(x, y):  # a number and a 0-d Tensor join, as loop-carried numbers must
        a = 0
        if x < y:
            a = x * 2
        return a

    assert float(scalar(Tensor(2, ms.float32), Tensor(6, ms.float32))) == 4.0


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
