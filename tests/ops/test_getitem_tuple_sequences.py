"""A tuple inside a Tensor's index tuple is a sequence index, as a list is (MindSpore 2.10 and
NumPy agree), in both modes; a False among the items is still refused."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

X = np.arange(3 * 4 * 5 * 6 * 7 * 8, dtype=np.float32).reshape(3, 4, 5, 6, 7, 8)
# (index, MindSpore's result shape and sum)
CASES = [((1, [2, 1, 3], True, (3, 2, 1), slice(1, 3, 1), ..., True, 4), (3, 2, 7), 456288.0),
         ((1, (2, 1, 3), slice(0, 2), (0, 1, 2)), (3, 2, 7, 8), 3471384.0),
         (((2, 1), 0), (2, 5, 6, 7, 8), 36689520.0)]


class _Index(nn.Cell):
    def __init__(self, index):
        super().__init__()
        self.index = index

    def construct(self, x):
        return x[self.index]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("index, shape, total", CASES)
def test_inner_tuples_index_like_lists(mode, index, shape, total):
    previous = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        out = _Index(index)(Tensor(X)).asnumpy()
    finally:
        ms.set_context(mode=previous)
    as_lists = tuple(list(i) if isinstance(i, tuple) else i for i in index)
    assert out.shape == shape and float(out.sum()) == total
    np.testing.assert_array_equal(out, X[as_lists])


def test_false_item_is_refused():
    with pytest.raises(IndexError):
        _Index((1, [2, 1, 3], True, (3, 2, 1), slice(1, 3, 1), ..., False, 4))(Tensor(X))
