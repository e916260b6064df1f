"""ops.PSROIPooling (position-sensitive ROI pooling) against MindSpore 2.10: the pooled means,
empty and clipped bins, and the errors its attribute checks, type checks and shape inference
raise (values and messages recorded from it)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import nn_ops

FEATURES = np.random.RandomState(0).rand(2, 8, 6, 5).astype(np.float32).round(2)
ROIS = np.array([[[0.0], [1.3], [2.2], [40.7], [60.0]], [[1.0], [10.0], [0.0], [50.0], [35.0]]],
                np.float32)
# MindSpore 2.10's output for FEATURES and ROIS, spatial_scale 0.1, group_size 2, output_dim 2
EXPECTED = [[[[0.6133333, 0.5583333], [0.2625, 0.4475]], [[0.485, 0.5583333], [0.4325, 0.43]]],
            [[[0.3475, 0.795], [0.3025, 0.31]], [[0.64, 0.435], [0.4375, 0.795]]]]


def _pool(features=FEATURES, rois=ROIS):
    op = nn_ops.PSROIPooling(spatial_scale=0.1, group_size=2, output_dim=2)
    return op(Tensor(features), Tensor(rois))


def test_values_as_mindspore():
    out = _pool()
    assert out.shape == (2, 2, 2, 2) and out.dtype == cg.float32
    np.testing.assert_allclose(out.asnumpy(), EXPECTED, rtol=1e-6)


def test_float16_and_float64():
    for dtype, rtol in ((np.float16, 2e-3), (np.float64, 1e-6)):
        out = _pool(FEATURES.astype(dtype), ROIS.astype(dtype))
        assert out.asnumpy().dtype == dtype
        np.testing.assert_allclose(out.asnumpy(), EXPECTED, rtol=rtol)


def test_in_a_graph_with_rois_of_run_time_length():
    """rois whose count is known only when the graph runs (after a masked select)."""
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = nn_ops.PSROIPooling(0.1, 2, 2)

        def construct(self, features, rois):
            rois = ops.masked_select(rois, rois >= 0)
            return self.pool(features, rois.reshape(2, 5, -1))

    out = Net()(Tensor(FEATURES), Tensor(ROIS))
    np.testing.assert_allclose(out.asnumpy(), EXPECTED, rtol=1e-6)


def test_empty_bins_are_zero():
    """A roi past the feature map's last row and column: its bins clip to empty (MindSpore
    clips bin edges to H - 1 and W - 1) and pool to 0."""
    rois = np.array([[[0.0], [70.0], [70.0], [90.0], [90.0]], [[1.0], [0.0], [0.0], [9.0], [9.0]]],
                    np.float32)
    out = _pool(rois=rois).asnumpy()
    np.testing.assert_array_equal(out[0], np.zeros((2, 2, 2), np.float32))
    # a roi of one pixel: each bin reads pixel (0, 0) of its own channel
    np.testing.assert_allclose(out[1].reshape(-1), FEATURES[1, :, 0, 0], rtol=1e-6)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"spatial_scale": 1}, TypeError, "the 'spatial_scale' must be float, but got 'int'"),
    ({"spatial_scale": 0.0}, ValueError, "the 'spatial_scale' must be float and must > 0"),
    ({"group_size": True}, TypeError, "the 'group_size' must be int and must > 0"),
    ({"group_size": 0}, ValueError, "the 'group_size' must be int and must > 0"),
    ({"output_dim": 7.1}, TypeError, "the 'output_dim' must be int"),
    ({"output_dim": -1}, ValueError, "the 'output_dim' must be int and must > 0"),
])
def test_attribute_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        nn_ops.PSROIPooling(**{"spatial_scale": 0.1, "group_size": 2, "output_dim": 2, **kwargs})


@pytest.mark.parametrize("operands, error, message", [
    ((Tensor(FEATURES), Tensor(ROIS.astype(np.float16))), TypeError,
     r"input\[features\] is expected to have the same type with input\[rois\]"),
    ((Tensor(FEATURES.astype(np.int32)), Tensor(ROIS)), TypeError,
     r"must be a type of \{Tensor\[Float16\], Tensor\[Float32\], Tensor\[Float64\]\}"),
    ((1.0, Tensor(ROIS)), TypeError, r"input argument\[x\] must be Tensor but got Float32"),
    ((Tensor(FEATURES), Tensor(ROIS), Tensor(ROIS)), TypeError, "inputs number must be 2"),
    ((Tensor(FEATURES[:1]), Tensor(ROIS)), RuntimeError,
     "the batch number of input 'features' and 'rois' must be equal, but got: 1 and 2"),
    ((Tensor(FEATURES[:, :7]), Tensor(ROIS)), RuntimeError,
     r"the second dimension\(7\) of the input 'features' is illegal"),
])
def test_operand_errors(operands, error, message):
    with pytest.raises(error, match=message):
        nn_ops.PSROIPooling(0.1, 2, 2)(*operands)


def test_group_size_past_127_raises_when_called():
    op = nn_ops.PSROIPooling(0.1, 128, 1)
    with pytest.raises(RuntimeError, match=r"'group_size' should be in the range \(0, 128\)"):
        op(Tensor(np.ones((1, 128 * 128, 2, 2), np.float32)), Tensor(ROIS[:1]))
