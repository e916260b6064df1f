"""ops.interpolate(mode="area") and nn.Upsample(mode="area"): adaptive average pooling to the
output size, with MindSpore 2.10's values and errors for the same calls (recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X3 = np.arange(12, dtype=np.float32).reshape(1, 3, 4) / 7
X4 = np.arange(2 * 5 * 7, dtype=np.float32).reshape(1, 2, 5, 7) / 11
X5 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(1, 2, 3, 4, 5) / 13

CASES = [
    (X3, {"size": 2}, (1, 3, 2), [0.07143, 0.35714, 0.64286, 0.92857, 1.21429, 1.5]),
    (X3, {"scale_factor": 0.3}, (1, 3, 1), [0.21429, 0.78571, 1.35714]),
    (X4, {"size": (3, 4)}, (1, 2, 3, 4),
     [0.36364, 0.5, 0.68182, 0.81818, 1.31818, 1.45455, 1.63636, 1.77273, 2.27273, 2.40909,
      2.59091, 2.72727, 3.54545, 3.68182, 3.86364, 4.0, 4.5, 4.63636, 4.81818, 4.95455,
      5.45455, 5.59091, 5.77273, 5.90909]),
    (X4, {"scale_factor": (0.5, 0.5)}, (1, 2, 2, 3),
     [0.72727, 0.90909, 1.09091, 2.0, 2.18182, 2.36364, 3.90909, 4.09091, 4.27273, 5.18182,
      5.36364, 5.54545]),
    (X5, {"size": (2, 3, 2)}, (1, 2, 2, 3, 2),
     [1.03846, 1.19231, 1.42308, 1.57692, 1.80769, 1.96154, 2.57692, 2.73077, 2.96154, 3.11538,
      3.34615, 3.5, 5.65385, 5.80769, 6.03846, 6.19231, 6.42308, 6.57692, 7.19231, 7.34615,
      7.57692, 7.73077, 7.96154, 8.11538]),
]


@pytest.mark.parametrize("x,kwargs,shape,values", CASES)
def test_values_as_mindspore(x, kwargs, shape, values):
    out = ops.interpolate(Tensor(x), mode="area", **kwargs).asnumpy()
    assert out.shape == shape
    np.testing.assert_allclose(out.ravel(), values, rtol=1e-4, atol=1e-5)


def test_upsampling_by_area_repeats_into_overlapping_bins():
    # MindSpore (1, 2, 7, 9) from (1, 2, 5, 7): the first row
    out = ops.interpolate(Tensor(X4), size=(7, 9), mode="area").asnumpy()
    np.testing.assert_allclose(out[0, 0, 0], [0.0, 0.04545, 0.13636, 0.22727, 0.27273, 0.31818,
                                              0.40909, 0.5, 0.54545], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("x,kwargs,match", [
    (X3, {"size": 3}, "divisible by output size 3"),
    (X4, {"size": (3, 4), "align_corners": True}, "cannot currently be set with the mode = area"),
    (X4, {"size": (3, 4), "align_corners": False}, "cannot currently be set with the mode = area"),
    (np.arange(4, dtype=np.float32), {"size": 2}, r"area only support '\[3, 4, 5\]'D"),
])
def test_errors_as_mindspore(x, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ops.interpolate(Tensor(x), mode="area", **kwargs)


def test_upsample_layer_in_a_graph():
    ms.set_context(mode=ms.GRAPH_MODE)
    out = nn.Upsample(mode="area", size=2)(Tensor(X3)).asnumpy()
    np.testing.assert_allclose(out.ravel(), CASES[0][3], rtol=1e-4, atol=1e-5)
