"""ops.multinomial with replacement=False, as MindSpore draws it: the num_samples largest of
log(u) / (w + 1e-6) per row (distinct categories, zero weights last), int32 indices, and its
errors; with replacement the indices are int32 too."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops


def test_mindspore_example():
    # MindSpore 2.10: the one category with weight 0 is never among the first two
    for weights in ([0.9, 0.1, 0.0], [90.0, 10.0, 0.0]):
        out = ops.multinomial(Tensor(np.array(weights, np.float32)), 2, replacement=False)
        assert out.dtype == cellgraph.int32
        assert sorted(out.asnumpy().tolist()) == [0, 1]
    out = ops.multinomial(Tensor(np.array([0.0, 3.0, 1.0, 0.0], np.float32)), 2, False)
    assert sorted(out.asnumpy().tolist()) == [1, 2]


def test_rows_draw_distinct_categories_by_weight_in_a_graph():
    class Net(nn.Cell):
        def construct(self, x):
            return ops.multinomial(x, 3, replacement=False, seed=7)

    weights = np.tile(np.array([[0.6, 0.3, 0.1, 0.0]], np.float32), (4000, 1))
    out = Net()(Tensor(weights)).asnumpy()
    assert out.shape == (4000, 3) and out.dtype == np.int32
    assert all(len(set(row)) == 3 for row in out[:200]) and not (out == 3).any()
    # the first draw follows the weights
    np.testing.assert_allclose(np.bincount(out[:, 0], minlength=4) / 4000, [0.6, 0.3, 0.1, 0],
                               atol=0.03)


def test_with_replacement_gives_int32():
    out = ops.multinomial(Tensor(np.array([[0.5, 0.5]], np.float32)), 5)
    assert out.dtype == cellgraph.int32 and out.shape == (1, 5)


@pytest.mark.parametrize("call, message", [
    (lambda: ops.multinomial(Tensor(np.array([0.2, 0.3], np.float32)), 3, replacement=False),
     "the 'num_samples' must be less than the last dimension of input without 'replacement'"),
    (lambda: ops.multinomial(Tensor(np.ones((2, 2, 2), np.float32)), 1),
     "the dimension of inputs must be 1d or 2d"),
])
def test_errors_as_mindspore(call, message):
    with pytest.raises(ValueError, match=message):
        call()
