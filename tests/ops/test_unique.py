"""ops.unique and ops.Unique give the distinct values in the order they first occur, as
MindSpore 2.10's Unique does on CPU (its values recorded below), eagerly and in a graph;
mindspore.numpy.unique keeps them ascending."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

# input -> MindSpore's (values, indices)
CASES = [
    (np.array([5, 1, 5, 3, 1, 9, 0], np.int32), [5, 1, 3, 9, 0], [0, 1, 0, 2, 1, 3, 4]),
    (np.array([2.5, -1, 2.5, 7], np.float64), [2.5, -1.0, 7.0], [0, 1, 0, 2]),
    (np.array([8., -3., 0., 0., 10., 1., 21., -3., 11., 4., -2., 10., 8.], np.float32),
     [8, -3, 0, 10, 1, 21, 11, 4, -2], [0, 1, 2, 2, 3, 4, 5, 1, 6, 7, 8, 3, 0]),
    (np.array([], np.float32), [], []),
]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.unique = ops.Unique()

    def construct(self, x):
        return self.unique(x)


@pytest.mark.parametrize("x, values, indices", CASES)
def test_first_occurrence_order_as_mindspore(x, values, indices):
    for out_values, out_indices in (ops.unique(Tensor(x)), ops.Unique()(Tensor(x)),
                                    Net()(Tensor(x))):
        assert out_values.dtype == Tensor(x).dtype and out_indices.dtype == ms.int32
        np.testing.assert_array_equal(out_values.asnumpy(), values)
        np.testing.assert_array_equal(out_indices.asnumpy(), indices)


def test_numpy_unique_stays_sorted():
    values, inverse = ms.numpy.unique(ms.numpy.array([5, 1, 5, 3]), return_inverse=True)
    np.testing.assert_array_equal(values.asnumpy(), [1, 3, 5])
    np.testing.assert_array_equal(inverse.asnumpy(), [2, 0, 2, 1])
