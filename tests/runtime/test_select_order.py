"""TopK(sorted=False) leaves the k largest in MindSpore's CPU kernel's order (std::nth_element's,
runtime/select_order.py). The positions were recorded from MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.ops import operations as P

CASES = [  # (row, k, MindSpore's positions)
    ([0.3, 0.9, 0.1, 0.5, 0.7], 3, [4, 1, 3]),
    ([5., 1., 4., 2., 3.], 3, [4, 0, 2]),
    ([5., 1., 4., 2., 3.], 5, [0, 1, 2, 3, 4]),
    ([0.5118216, 0.9504637, 0.1441596, 0.9486495, 0.3118314, 0.4233265], 4, [3, 1, 5, 0]),
    ([4, 1, 2, 1, 0, 3], 4, [3, 5, 2, 0]),
    ([0.2768912, 0.1606520, 0.9699254, 0.5160686, 0.1158656, 0.6234897, 0.7766831, 0.6130033,
      0.9172977, 0.0395929], 3, [8, 2, 6]),
    ([3, 4, 4, 4, 1, 2, 3, 1, 4, 0], 3, [1, 8, 3]),
]


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("row, k, positions", CASES)
def test_unsorted_topk_order_is_mindspores(graph, row, k, positions):
    x = Tensor(np.array([row], np.int32 if isinstance(row[0], int) else np.float32))

    def run(t):
        return P.TopK(sorted=False)(t, k)

    values, indices = (ms.jit(run) if graph else run)(x)
    assert indices.asnumpy()[0].tolist() == positions
    np.testing.assert_array_equal(values.asnumpy()[0], np.array(row, x.asnumpy().dtype)[positions])


def test_unsorted_topk_along_another_axis_and_of_the_smallest():
    x = Tensor(np.array([[0.3, 5.], [0.9, 1.], [0.1, 4.], [0.5, 2.], [0.7, 3.]], np.float32))
    values, indices = ops.topk(x, 3, dim=0, sorted=False)
    assert indices.asnumpy().T.tolist() == [[4, 1, 3], [4, 0, 2]]
    values, indices = ops.topk(Tensor(np.array([5., 1., 4., 2., 3.], np.float32)), 2,
                               largest=False, sorted=False)
    assert indices.asnumpy().tolist() == [1, 3]
    np.testing.assert_array_equal(values.asnumpy(), [1., 2.])
