"""`SparseSegmentSqrtNWithNumSegments`, `SparseSegmentMeanWithNumSegments`: MindSpore 2.10's values
(sums in x's dtype over each segment's count or its square root; empty segments 0), the
segment count read from a Tensor passed to the compiled Cell, the gradient, and dtype errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import sparse_ops as S


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = S.SparseSegmentSqrtNWithNumSegments()

    def construct(self, x, indices, segment_ids, num_segments):
        return self.op(x, indices, segment_ids, num_segments)


X = np.sin(np.arange(20) * 0.7).reshape(5, 4)
INDICES, SEGMENTS = [0, 2, 1, 4, 4, 3], [0, 0, 1, 3, 3, 3]
# MindSpore 2.10 CPU, GRAPH_MODE: Net()(X as dtype, INDICES, SEGMENTS, [5]) (indices int32
# with float16 and float64, int64 with float32)
EXPECTED = {
    np.float16: (np.int32, [[-0.446533203125, 0.46728515625, 1.1611328125, 1.3095703125], [0.3349609375, -0.350830078125, -0.87158203125, -0.982421875], [0.0, 0.0, 0.0, 0.0], [-0.63720703125, -0.529296875, -0.1727294921875, 0.264892578125], [0.0, 0.0, 0.0, 0.0]]),
    np.float32: (np.int64, [[-0.446372926235199, 0.46741989254951477, 1.1613777875900269, 1.3091217279434204], [0.33498814702033997, -0.35078322887420654, -0.8715757727622986, -0.9824526309967041], [0.0, 0.0, 0.0, 0.0], [-0.6372541785240173, -0.5295317769050598, -0.17276227474212646, 0.2652600109577179], [0.0, 0.0, 0.0, 0.0]]),
    np.float64: (np.int32, [[-0.44637292037635123, 0.4674199182567651, 1.1613778656960332, 1.3091216558687246], [0.3349881501559051, -0.35078322768961984, -0.8715757724135877, -0.9824526126243326], [0.0, 0.0, 0.0, 0.0], [-0.6372541413860696, -0.5295317308919326, -0.17276227319778203, 0.2652599810662665], [0.0, 0.0, 0.0, 0.0]]),
}


@pytest.mark.parametrize("dtype", list(EXPECTED))
def test_values_as_mindspore(dtype):
    index_dtype, expected = EXPECTED[dtype]
    out = Net()(Tensor(X.astype(dtype)), Tensor(np.array(INDICES, index_dtype)),
                Tensor(np.array(SEGMENTS, index_dtype)), Tensor(np.array([5], index_dtype)))
    assert out.asnumpy().dtype == dtype
    np.testing.assert_array_equal(out.asnumpy(), np.array(expected, dtype))


def test_gradient_as_mindspore():
    x = Tensor(np.array([[0, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 0]], np.float16))
    grads = ops.GradOperation(get_all=True)(Net())(
        x, Tensor(np.array([0, 2, 1], np.int32)), Tensor(np.array([0, 1, 1], np.int32)),
        Tensor(np.array([4], np.int32)))
    # MindSpore 2.10 CPU
    np.testing.assert_array_equal(grads[0].asnumpy(), [[1.0] * 4, [0.70703125] * 4,
                                                       [0.70703125] * 4])
    assert [g.asnumpy().tolist() for g in grads[1:]] == [[0, 0, 0], [0, 0, 0], [0]]


def test_index_dtypes_must_agree():
    with pytest.raises(TypeError, match="indices, segment_ids and num_segments"):
        Net()(Tensor(X.astype(np.float32)), Tensor(np.array(INDICES, np.int32)),
              Tensor(np.array(SEGMENTS, np.int64)), Tensor(np.array([5], np.int64)))
    with pytest.raises(TypeError, match=r"argument\[x\]"):
        Net()(Tensor(X.astype(np.int32)), Tensor(np.array(INDICES, np.int32)),
              Tensor(np.array(SEGMENTS, np.int32)), Tensor(np.array([5], np.int32)))


# MindSpore 2.10 CPU: SparseSegmentMeanWithNumSegments()(X as dtype, INDICES, SEGMENTS, [5])
MEANS = {np.float16: [[-0.315673828125, 0.330322265625, 0.8212890625, 0.92578125], [0.3349609375, -0.350830078125, -0.87158203125, -0.982421875], [0.0, 0.0, 0.0, 0.0], [-0.367919921875, -0.3056640625, -0.09979248046875, 0.1529541015625], [0.0, 0.0, 0.0, 0.0]],
         np.float32: [[-0.3156333267688751, 0.3305157721042633, 0.8212181329727173, 0.9256888031959534], [0.33498814702033997, -0.35078322887420654, -0.8715757727622986, -0.9824526309967041], [0.0, 0.0, 0.0, 0.0], [-0.36791884899139404, -0.3057253062725067, -0.09974434226751328, 0.15314793586730957], [0.0, 0.0, 0.0, 0.0]],
         np.float64: [[-0.3156333189361608, 0.33051579386102037, 0.8212181643536246, 0.9256888002629371], [0.3349881501559051, -0.35078322768961984, -0.8715757724135877, -0.9824526126243326], [0.0, 0.0, 0.0, 0.0], [-0.36791885007145114, -0.30572528737490573, -0.09974434493655111, 0.153147921473844], [0.0, 0.0, 0.0, 0.0]]}


@pytest.mark.parametrize("dtype", list(MEANS))
def test_segment_means_as_mindspore(dtype):
    index_dtype = EXPECTED[dtype][0]
    out = S.SparseSegmentMeanWithNumSegments()(
        Tensor(X.astype(dtype)), Tensor(np.array(INDICES, index_dtype)),
        Tensor(np.array(SEGMENTS, index_dtype)), Tensor(np.array([5], index_dtype)))
    np.testing.assert_array_equal(out.asnumpy(), np.array(MEANS[dtype], dtype))


def test_segment_mean_gradient_as_mindspore():
    x = Tensor(np.array([[0, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 0]], np.float32))
    grads = ops.GradOperation(get_all=True)(S.SparseSegmentMeanWithNumSegments())(
        x, Tensor(np.array([0, 2, 1], np.int32)), Tensor(np.array([0, 1, 1], np.int32)),
        Tensor(np.array([4], np.int32)))
    assert [g.asnumpy().tolist() for g in grads] == [[[1.0, 1.0, 1.0, 1.0], [0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]], [0, 0, 0], [0, 0, 0], [0]]  # MindSpore 2.10 CPU
