"""`sparse_ops.SparseSegmentSqrtN`: segment sums of gathered rows over the square root of each
segment's count, the segment count read from segment_ids; values, gradients and errors as
MindSpore 2.10's CPU kernel gives them (recorded here)."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.ops.operations.sparse_ops as P
from cellgraph import Tensor, nn, ops

X = Tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], dtype=ms.float32)
S2 = np.sqrt(np.float32(2))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = P.SparseSegmentSqrtN()

    def construct(self, x, indices, segment_ids):
        return self.op(x, indices, segment_ids)


def test_values_and_float64_summed_in_float32():
    out = P.SparseSegmentSqrtN()(X, Tensor([0, 1, 2], ms.int32), Tensor([0, 0, 1], ms.int32))
    np.testing.assert_allclose(out.asnumpy(), [[6 / S2, 8 / S2, 10 / S2, 12 / S2],
                                               [9, 10, 11, 12]], rtol=1e-6)
    x64 = Tensor(np.arange(6).reshape(3, 2) / 7, ms.float64)
    out = P.SparseSegmentSqrtN()(x64, Tensor([2, 0, 1, 1], ms.int64),
                                 Tensor([0, 1, 1, 2], ms.int32))
    assert out.dtype == ms.float64
    assert out.asnumpy().tolist() == [[0.5714285969734192, 0.7142857313156128],
                                      [0.20203052461147308, 0.40406104922294617],
                                      [0.2857142984867096, 0.4285714328289032]]


def test_gradient_in_a_graph_and_recompiles_on_new_segment_ids():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        grad = ops.GradOperation(get_all=True)(Net())
        dx, dindices, dids = grad(X, Tensor([0, 1, 2], ms.int32), Tensor([0, 0, 1], ms.int32))
        shape = Net()(X, Tensor([0, 1, 2], ms.int32), Tensor([0, 1, 2], ms.int32)).shape
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(dx.asnumpy(), [[1 / S2] * 4, [1 / S2] * 4, [1.0] * 4], rtol=1e-6)
    assert dindices.asnumpy().tolist() == [0, 0, 0] and dids.asnumpy().tolist() == [0, 0, 0]
    assert shape == (3, 4)


def test_errors():
    op = P.SparseSegmentSqrtN()
    with pytest.raises(ValueError, match="indices in 'segment_ids' should be start from 0"):
        op(X, Tensor([0, 1], ms.int32), Tensor([1, 1], ms.int32))
    with pytest.raises(ValueError, match="segment_ids should be sorted and contiguous"):
        op(X, Tensor([0, 1], ms.int32), Tensor([0, 2], ms.int32))
    with pytest.raises(ValueError, match="index 5 out of range"):
        op(X, Tensor([0, 5], ms.int32), Tensor([0, 1], ms.int32))
    with pytest.raises(TypeError, match=r"argument\[x\]"):
        op(Tensor([[1, 2]], ms.int32), Tensor([0], ms.int32), Tensor([0], ms.int32))
    with pytest.raises(TypeError, match=r"argument\[segment_ids\]"):
        op(X, Tensor([0], ms.int32), Tensor([0.0]))
