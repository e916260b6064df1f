"""`ops.auto_generate.SplitTensor` and `SplitWithSize` (mint.split's primitives), with MindSpore
2.10's values and error types (recorded here)."""
import numpy as np
import pytest

from cellgraph import Tensor, context, nn
from cellgraph.ops.auto_generate import SplitTensor, SplitWithSize

X = np.arange(10).reshape(5, 2).astype(np.float32)


def _lists(pieces):
    return [p.asnumpy().tolist() for p in pieces]


def test_split_tensor_pieces_of_a_size_the_last_shorter():
    assert _lists(SplitTensor()(Tensor(X), 2, 0)) == [[[0, 1], [2, 3]], [[4, 5], [6, 7]],
                                                      [[8, 9]]]
    assert _lists(SplitTensor()(Tensor(X), 3)) == [[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9]]]
    with pytest.raises(ValueError):
        SplitTensor()(Tensor(X), 0, 0)


def test_split_with_size_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.split = SplitWithSize()

        def construct(self, x):
            return self.split(x, [1, 1], 1)

    context.set_context(mode=context.GRAPH_MODE)
    try:
        pieces = Net()(Tensor(X))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert _lists(pieces) == [[[0], [2], [4], [6], [8]], [[1], [3], [5], [7], [9]]]
    with pytest.raises(ValueError):  # the sizes must add up to the axis' length
        SplitWithSize()(Tensor(X), [2, 2], 0)
