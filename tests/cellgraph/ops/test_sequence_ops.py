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
