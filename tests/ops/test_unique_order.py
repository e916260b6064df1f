"""ops.unique / ops.Unique give the distinct values in the order they first occur (MindSpore's
CPU kernel), with int64 indices for an int64 input and int32 otherwise; mint.unique and
numpy.unique stay sorted. Expected values recorded from MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Tensor, mint, nn, ops

CASES = [  # input, values, their dtype, indices, their dtype (MindSpore 2.10, graph mode)
    (np.array([[2.5, -1.0], [2.5, 0.0]], np.float32), [2.5, -1.0, 0.0], ms.float32,
     [[0, 1], [0, 2]], ms.int32),
    (np.array([5, 1, 5, 0], np.int64), [5, 1, 0], ms.int64, [0, 1, 0, 2], ms.int64),
    (np.array([5, 1, 5, 0], np.int16), [5, 1, 0], ms.int16, [0, 1, 0, 2], ms.int32),
    (np.array([5, 1, 5], np.uint8), [5, 1], ms.uint8, [0, 1, 0], ms.int32),
    (np.array([1.5, 1.5, -2], np.float16), [1.5, -2.0], ms.float16, [0, 0, 1], ms.int32),
    (np.array([8., -3., 0., 0., 10., 1., 21., -3., 10., 8.], np.float32),
     [8.0, -3.0, 0.0, 10.0, 1.0, 21.0], ms.float32, [0, 1, 2, 2, 3, 4, 5, 1, 3, 0], ms.int32),
]


class Unique(nn.Cell):
    def construct(self, x):
        return ops.unique(x), ops.Unique()(x)


@pytest.mark.parametrize("x, values, vtype, indices, itype", CASES)
def test_first_occurrence_order_in_a_graph_and_eagerly(x, values, vtype, indices, itype):
    for v, i in Unique()(Tensor(x)) + (ops.unique(Tensor(x)),):
        np.testing.assert_array_equal(v.asnumpy(), values)
        np.testing.assert_array_equal(i.asnumpy(), indices)
        assert v.dtype == vtype and i.dtype == itype


def test_mint_and_numpy_unique_stay_sorted():
    x = Tensor(np.array([3, 1, 3, 2], np.int32))
    values, inverse = mint.unique(x, return_inverse=True)
    np.testing.assert_array_equal(values.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(inverse.asnumpy(), [2, 0, 2, 1])
    np.testing.assert_array_equal(mnp.unique(x).asnumpy(), [1, 2, 3])


def test_empty_input():
    v, i = ops.unique(Tensor(np.zeros((0,), np.float32)))
    assert v.shape == (0,) and i.shape == (0,)
