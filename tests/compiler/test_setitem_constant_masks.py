"""A constant bool Tensor inside a tuple index of an assignment (`x[mask, mask] = v`) names the
positions of its True elements, as MindSpore's graph mode reads it (shapes known while the
graph is built); a value that does not broadcast to them is MindSpore's ValueError."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn


class _Assign(nn.Cell):
    def __init__(self, mask, value):
        super().__init__()
        self.mask, self.value = Tensor(mask), value

    def construct(self, x):
        x[self.mask, self.mask] = self.value
        return x * 1


def test_constant_masks_in_a_tuple_index():
    x = np.zeros((2, 3, 4), np.float32)
    out = _Assign(np.array([True, True]), 5.0)(Tensor(x)).asnumpy()
    expected = x.copy()
    expected[[0, 1], [0, 1]] = 5.0
    np.testing.assert_array_equal(out, expected)
    out = _Assign(np.array([False, True]), Tensor(np.full((1, 4), 2.0, np.float32)))(Tensor(x))
    expected = x.copy()
    expected[1, 1] = 2.0
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_a_value_that_does_not_fit_is_a_value_error():
    value = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    with pytest.raises(ValueError, match="broadcast"):
        _Assign(np.array([False, True]), value)(Tensor(np.zeros((2, 3, 4), np.float32)))
    assert cg.get_context("mode") == cg.GRAPH_MODE
