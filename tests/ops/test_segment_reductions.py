"""MindSpore's sorted segment reductions (SegmentSum, SegmentMean, SegmentMax, SegmentMin,
SegmentProd): as many segments as the last id + 1, so the ids are a value input (the graph is
specialised on the ids it is given). Expected values recorded from MindSpore 2.10 (CPU,
graph mode)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import array_ops as A

X = np.array([[1, 2], [3, 4], [5, -6], [7, 8]], np.float32)
IDS = np.array([0, 0, 2, 2], np.int32)


class Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x, ids):
        return self.op(x, ids)


@pytest.mark.parametrize("name, values, grad", [
    ("SegmentMean", [2, 3, 0, 0, 6, 1], [0.5] * 8),
    ("SegmentSum", [4, 6, 0, 0, 12, 2], [1.0] * 8),
    ("SegmentMax", [3, 4, 0, 0, 7, 8], [0, 0, 1, 1, 0, 0, 1, 1]),
    ("SegmentMin", [1, 2, 0, 0, 5, -6], [1, 1, 0, 0, 1, 1, 0, 0]),
    ("SegmentProd", [3, 8, 1, 1, 35, -48], None),  # MindSpore defines no gradient
])
def test_sorted_segments(name, values, grad):
    net = Net(getattr(A, name)())
    out = net(Tensor(X), Tensor(IDS))
    assert out.shape == (3, 2)
    np.testing.assert_array_equal(out.asnumpy().ravel(), values)
    if grad is not None:
        got = ops.GradOperation()(net)(Tensor(X), Tensor(IDS))
        np.testing.assert_array_equal(got.asnumpy().ravel(), grad)


def test_int_input_and_ids_out_of_order():
    net = Net(A.SegmentSum())
    got = net(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([0, 1, 1], np.int64)))
    np.testing.assert_array_equal(got.asnumpy(), [1, 5])
    with pytest.raises(ValueError, match="segment_ids must be a tensor with element values "
                                         "sorted in ascending order"):
        net(Tensor(np.array([1, 2, 3], np.int32)), Tensor(np.array([1, 0, 1], np.int32)))
