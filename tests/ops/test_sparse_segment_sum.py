"""`sparse_ops.SparseSegmentSum`: segment sums of gathered rows in x's dtype, the segment count
read from segment_ids; values and errors as MindSpore 2.10's CPU kernel gives them (recorded
here)."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.ops.operations.sparse_ops as P
from cellgraph import Tensor, nn

X = np.array([[0, 1, 2], [1, 2, 3], [3, 6, 7]])


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = P.SparseSegmentSum()

    def construct(self, x, indices, segment_ids):
        return self.op(x, indices, segment_ids)


def test_float_values():
    out = P.SparseSegmentSum()(Tensor(X, ms.float32), Tensor([0, 1, 2], ms.int32),
                               Tensor([0, 1, 1], ms.int32))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 2], [4, 8, 10]])  # MindSpore 2.10's


def test_integer_x_and_mixed_index_dtypes_in_graph():
    out = Net()(Tensor(X, ms.int16), Tensor([2, 0, 1, 1], ms.int64),
                Tensor([0, 0, 1, 1], ms.int32))
    assert out.dtype == ms.int16
    np.testing.assert_array_equal(out.asnumpy(), [[3, 7, 9], [2, 4, 6]])  # MindSpore 2.10's


@pytest.mark.parametrize("ids, message", [
    ([1, 1, 2], "indices should start from 0"),
    ([0, 2, 2], "indices in 'segment_ids' should be contiguous"),
    ([0, 1, 0], "input segment_ids should be sorted"),
])
def test_segment_id_errors(ids, message):
    with pytest.raises(ValueError, match=message):
        P.SparseSegmentSum()(Tensor(X, ms.float32), Tensor([0, 1, 2], ms.int32),
                             Tensor(ids, ms.int32))


def test_index_out_of_range_is_value_error():
    with pytest.raises(ValueError):
        P.SparseSegmentSum()(Tensor(X, ms.float32), Tensor([0, 5, 2], ms.int32),
                             Tensor([0, 0, 1], ms.int32)).asnumpy()


def test_dtype_errors():
    with pytest.raises(TypeError):
        P.SparseSegmentSum()(Tensor(X, ms.bool_), Tensor([0], ms.int32), Tensor([0], ms.int32))
    with pytest.raises(TypeError):
        P.SparseSegmentSum()(Tensor(X, ms.float32), Tensor([0.0], ms.float32),
                             Tensor([0], ms.int32))


def test_with_num_segments_values():
    x = Tensor(X, ms.uint8)
    out = P.SparseSegmentSumWithNumSegments()(x, Tensor([2, 0, 1], ms.int64),
                                              Tensor([1, 1, 3], ms.int64),
                                              Tensor([5], ms.int64))
    assert out.dtype == ms.uint8
    np.testing.assert_array_equal(out.asnumpy(),  # MindSpore 2.10's
                                  [[0, 0, 0], [3, 7, 9], [0, 0, 0], [1, 2, 3], [0, 0, 0]])
    # mixed index dtypes are accepted by MindSpore's CPU kernel
    out = P.SparseSegmentSumWithNumSegments()(x, Tensor([0, 1, 2], ms.int32),
                                              Tensor([0, 1, 1], ms.int64),
                                              Tensor(3, ms.int32))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 2], [4, 8, 10], [0, 0, 0]])


@pytest.mark.parametrize("ids, message", [
    ([0, 2, 1], "input segment_ids should be sorted"),
    ([0, 1, 3], "num_segments must be bigger than the largest id of segment_ids"),
])
def test_with_num_segments_errors(ids, message):
    with pytest.raises(ValueError, match=message):
        P.SparseSegmentSumWithNumSegments()(Tensor(X, ms.uint8), Tensor([0, 1, 2], ms.int32),
                                            Tensor(ids, ms.int32), Tensor(3, ms.int32))
    with pytest.raises(TypeError):
        P.SparseSegmentSumWithNumSegments()(Tensor(X, ms.uint8), Tensor([0, 1, 2], ms.int32),
                                            Tensor(ids, ms.int32), Tensor(3.0, ms.float32))


def test_gradient_scatters_back_to_gathered_rows():
    from cellgraph import ops
    x = Tensor(np.arange(6).reshape(3, 2), ms.float32)
    i, s = Tensor([2, 0, 2], ms.int32), Tensor([0, 0, 1], ms.int32)
    w = Tensor([[1, 2], [3, 4]], ms.float32)
    grad = ops.grad(lambda x: P.SparseSegmentSum()(x, i, s) * w)(x)
    np.testing.assert_array_equal(grad.asnumpy(), [[1, 2], [0, 0], [4, 6]])  # MindSpore 2.10's
    w3 = Tensor([[1, 2], [3, 4], [5, 6]], ms.float32)
    grad = ops.grad(lambda x: P.SparseSegmentSumWithNumSegments()(
        x, i, s, Tensor(3, ms.int32)) * w3)(x)
    np.testing.assert_array_equal(grad.asnumpy(), [[1, 2], [0, 0], [4, 6]])  # MindSpore 2.10's
