"""`ops.operations._sequence_ops`: the primitives on tuples and lists MindSpore's tests call,
with MindSpore 2.10's results, eagerly and inside a compiled construct."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.ops.operations import _sequence_ops as seq


def test_eager_results_are_mindspore_s():
    a, b = (1, 2, 3), (4, 5)
    assert seq.SequenceAdd()(a, b) == (1, 2, 3, 4, 5)
    assert seq.SequenceMul()(a, 2) == (1, 2, 3, 1, 2, 3)
    assert seq.SequenceCount()((1, 2, 1), 1) == 2
    assert seq.SequenceIndex()((1, 2, 3), 2, 0, 3) == 1
    with pytest.raises(TypeError):  # MindSpore passes None as the slice bounds too
        seq.SequenceIndex()((1, 2, 3), 2)
    assert seq.InSequence()(2, a) is True
    assert (seq.SequenceMax()(a), seq.SequenceMin()(a)) == (3, 1)
    assert seq.SequenceSlice()((1, 2, 3, 4), 1, 3, 1) == (2, 3)
    zeros = seq.SequenceZerosLike()((1, 2.5))
    assert zeros == (0, 0.0) and type(zeros[1]) is float
    assert seq.sequence_len()(a) == 3 and seq.shape_mul()(a) == 6
    assert seq.make_range()(0, 5, 2) == range(0, 5, 2)
    assert seq.tuple_equal()(a, a) and seq.tuple_lt()((1, 2), (1, 3))
    assert seq.tuple_le()((1, 2), (1, 2)) and not seq.tuple_greater_than()((1, 2), (1, 3))
    assert not seq.tuple_greater_equal()((1, 2), (1, 3)) and seq.list_equal()([1], [1])
    assert seq.ListAppend()([1, 2], 3) == [1, 2, 3]
    assert seq.ListInsert()([1, 2], 0, 3) == [3, 1, 2]
    t = seq.TupleToTensor()((1, 2), ms.float32)
    assert t.dtype == ms.float32 and t.asnumpy().tolist() == [1.0, 2.0]
    assert seq.ListToTensor()([1, 2], ms.int32).dtype == ms.int32


def test_in_a_compiled_construct():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.add_n, self.mul = seq.SequenceAddN(), seq.SequenceMul()
            self.zeros, self.to_tensor = seq.SequenceZerosLike(), seq.TupleToTensor()

        def construct(self, x, y):
            return (self.add_n((x, y)), self.mul(x.shape, 2), self.zeros((1, 2.5)),
                    self.to_tensor(x.shape, ms.float32))

    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = ms.Tensor(np.ones(2, np.float32))
        total, shape, zeros, as_tensor = Net()(x, x)
    finally:
        ms.set_context(mode=previous)
    np.testing.assert_array_equal(total.asnumpy(), [2.0, 2.0])
    assert shape == (2, 2) and zeros == (0, 0.0)
    assert as_tensor.dtype == ms.float32 and as_tensor.asnumpy().tolist() == [2.0]


def test_tuple_to_list_and_back_on_constant_and_dynamic_length_sequences():
    from cellgraph.ops._utils.arg_dtype_cast import ListToTuple, TupleToList

    class Net(nn.Cell):
        def construct(self, x, y):
            return ListToTuple()(x), TupleToList()(y)

    t = ms.Tensor([1.5])
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        a, b = Net()([1, (2, 3), t], (4, [5], t))
        assert type(a) is tuple and type(b) is list
        assert a[:2] == (1, (2, 3)) and b[:2] == [4, [5]] and a[2] is not None
        a, b = Net()(ms.mutable([1, 2, 3], True), ms.mutable((4, 5), True))
        assert (a, b) == ((1, 2, 3), [4, 5])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="For 'ListToTuple', the input must be a list, but got "
                                        "tuple"):
        ListToTuple()((1, 2))
    with pytest.raises(TypeError, match="For 'TupleToList'"):
        TupleToList()([1, 2])


def test_tensor_to_tuple_list_and_scalar():
    from cellgraph import ops

    t = ms.Tensor([3, 4], ms.int32)
    assert ops.TensorToTuple()(t) == (3, 4)
    assert seq.TensorToList()(t) == [3, 4] and seq.TensorToScalar()(ms.Tensor(2.5)) == 2.5
    with pytest.raises(ValueError, match="1-D"):
        ops.TensorToTuple()(ms.Tensor([[1]]))
    with pytest.raises(TypeError, match="must be a Tensor"):
        ops.TensorToTuple()((1, 2))

    class Sized(nn.Cell):  # a size passed as a Tensor: the graph specialises on its value
        def construct(self, size, x):
            return ops.zeros(ops.TensorToTuple()(size)), ops.TensorToTuple()(x * 2)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        zeros, doubled = Sized()(ms.Tensor([2, 3]), ms.Tensor([1.5, 2.0]))
        assert zeros.shape == (2, 3) and doubled == (3.0, 4.0)
        assert Sized()(ms.Tensor([4]), ms.Tensor([1.0]))[0].shape == (4,)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_new_ones_and_new_zeros_take_the_input_s_dtype():
    from cellgraph.ops.function.array_func import new_ones, new_zeros

    x = ms.Tensor([1, 2, 3, 4], ms.int32)
    out = new_ones(x, (2, 3))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [[1, 1, 1]] * 2
    assert new_zeros(x, 2, dtype=ms.float16).dtype == ms.float16
    assert new_ones(x, 0).shape == (0,)
    with pytest.raises(TypeError, match="'size' must be an int or a tuple or list of ints"):
        new_ones(x, 1.5)
    with pytest.raises(ValueError, match="negative"):
        new_zeros(x, (2, -1))
    with pytest.raises(TypeError, match="'input' must be a Tensor"):
        new_ones([1], 2)


def test_a_size_given_as_a_tensor_is_a_1d_or_0d_integer_tensor():
    """MindSpore 2.10's TypeError for a Tensor of sizes it cannot read as a tuple of ints."""
    from cellgraph import ops

    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            assert ops.zeros(ms.Tensor([2, 3]), ms.int32).shape == (2, 3)
            assert ops.ones(ms.Tensor(4)).shape == (4,)
            for size in (ms.Tensor([[2, 3], [4, 5]]), ms.Tensor(2.5)):
                with pytest.raises(TypeError, match=r"For Zeros, the 0'th input is a Tensor "
                                                    r"whose shape is \[.*\] and dtype is"):
                    ms.jit(lambda s: ops.zeros(s))(size) if mode == ms.GRAPH_MODE \
                        else ops.zeros(size)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
