"""_grad_ops.MaxPoolGradGrad (NCHW): `grad` read at each window's maximum of x, for VALID and
SAME padding and overlapping windows (ties in x included), MaxPoolGradWithArgmaxV2 and ConcatOffset;
MindSpore 2.10's values recorded."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G

X = np.array([[[[3, 1, 4, 1, 5], [9, 2, 6, 5, 3], [5, 8, 9, 7, 9], [3, 2, 3, 8, 4],
                [6, 2, 6, 4, 3]]]], np.float32)
GRAD = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5) / 4
EXPECTED = {
    ("SAME", 3, 2): [[[[1.25, 1.75, 1.0], [1.25, 3.0, 3.5], [5.0, 4.5, 4.5]]]],
    ("VALID", 2, 2): [[[[1.25, 1.75], [2.75, 3.0]]]],
    ("SAME", 2, 1): [[[[1.25, 1.75, 1.75, 1.0, 1.0], [1.25, 3.0, 3.0, 3.5, 3.5],
                       [2.75, 3.0, 3.0, 3.5, 3.5], [5.0, 5.5, 4.5, 4.5, 4.75],
                       [5.0, 5.5, 5.5, 5.75, 6.0]]]],
}


@pytest.mark.parametrize("mode, kernel, stride", list(EXPECTED))
def test_as_mindspore(mode, kernel, stride):
    x = Tensor(X)
    out = ops.MaxPool(kernel, stride, mode)(x)
    result = G.MaxPoolGradGrad(kernel, stride, mode)(x, out, Tensor(GRAD))
    np.testing.assert_array_equal(result.asnumpy(), EXPECTED[(mode, kernel, stride)])


def test_float16_keeps_the_dtype():
    x = Tensor(X.astype(np.float16))
    out = ops.MaxPool(2, 2, "VALID")(x)
    result = G.MaxPoolGradGrad(2, 2, "VALID")(x, out, Tensor(GRAD.astype(np.float16)))
    assert result.asnumpy().dtype == np.float16
    np.testing.assert_array_equal(result.asnumpy(), EXPECTED[("VALID", 2, 2)])


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_max_pool_grad_with_argmax_v2_adds_at_each_planes_argmax(index_dtype, dtype):
    """MaxPoolGradWithArgmaxV2: argmax counts within each (H, W) plane; repeated positions add
    up (MindSpore 2.10's values)."""
    x = Tensor(np.zeros((1, 2, 3, 3), dtype))
    dy = Tensor(np.array([[[[1., 2.], [3., 4.]], [[0.5, 0.25], [2., 8.]]]], dtype))
    argmax = Tensor(np.array([[[[4, 4], [4, 8]], [[0, 2], [6, 8]]]], index_dtype))
    result = G.MaxPoolGradWithArgmaxV2(2, 1, 0, 1, False)(x, dy, argmax)
    assert result.asnumpy().dtype == dtype
    np.testing.assert_array_equal(result.asnumpy(), [[[[0, 0, 0], [0, 6, 0], [0, 0, 4]],
                                                      [[0.5, 0, 0.25], [0, 0, 0], [2, 0, 8]]]])


def test_concat_offset_as_mindspore():
    """_grad_ops.ConcatOffset(N, axis): each input's start along `axis` (MindSpore 2.10's
    values), eagerly and inside construct."""
    x = tuple(Tensor(np.ones(s, np.float32)) for s in ((2, 3, 4), (2, 5, 4), (2, 1, 4)))
    out = G.ConcatOffset(3, 1)(x)
    assert out.asnumpy().dtype == np.int64
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0, 0], [0, 3, 0], [0, 8, 0]])
    pair = (Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 5), np.float32)))
    np.testing.assert_array_equal(G.ConcatOffset(2, -1)(pair).asnumpy(), [[0, 0], [0, 3]])

    class _Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.offsets = G.ConcatOffset(2, 0)

        def construct(self, a, b):
            return self.offsets((a, b))

    out = _Net()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 3), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 0], [2, 0]])


def test_concat_offset_of_run_time_sizes():
    """Inputs whose size along the axis is known only when the graph runs (Unique's results):
    the offsets are computed in the graph (MindSpore 2.10's values)."""
    from cellgraph.ops import operations as P

    class _Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.unique = P.Unique()
            self.offsets = G.ConcatOffset(3, 0)

        def construct(self, x, y, z):
            parts = [ops.reshape(self.unique(v)[0], (-1, 1, 2, 1)) for v in (x, y, z)]
            return self.offsets(tuple(parts))

    t = Tensor(np.array([1, 2, 3, 4, 5, 6], np.float32))
    np.testing.assert_array_equal(_Net()(t, t, t).asnumpy(),
                                  [[0, 0, 0, 0], [3, 0, 0, 0], [6, 0, 0, 0]])
