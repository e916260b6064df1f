"""vision.AdjustGamma, Erase, PadToSize, LinearTransformation, RgbToHsv, HsvToRgb, ConvertColor
and RandomLighting: MindSpore 2.10's values."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph.dataset.vision as V

IMG = np.arange(12, dtype=np.uint8).reshape(2, 2, 3) * 20
CHW = IMG.transpose(2, 0, 1).astype(np.float32) / 255


def test_values_as_mindspore():
    np.testing.assert_array_equal(V.AdjustGamma(0.5, 1.2)(IMG),
                                  [[[0, 86, 121], [149, 172, 192]], [[210, 227, 243],
                                                                      [255, 255, 255]]])
    np.testing.assert_allclose(V.AdjustGamma(2.0)(IMG.astype(np.float32) / 255),
                               (IMG.astype(np.float32) / 255) ** 2, rtol=1e-6)
    np.testing.assert_array_equal(V.Erase(0, 0, 1, 1, (1, 2, 3))(IMG)[0, 0], [1, 2, 3])
    hsv = V.RgbToHsv()(CHW)
    assert hsv.dtype == np.float64
    np.testing.assert_allclose(hsv, [[[0.58333, 0.58333], [0.58333, 0.58333]],
                                     [[1.0, 0.4], [0.25, 0.18182]],
                                     [[0.15686, 0.39216], [0.62745, 0.86275]]], atol=1e-5)
    np.testing.assert_allclose(V.HsvToRgb()(hsv), CHW, atol=1e-6)
    out = V.LinearTransformation(np.eye(12, dtype=np.float32) * 2, np.ones(12, np.float32))(CHW)
    np.testing.assert_allclose(out, (CHW - 1) * 2, rtol=1e-6)
    assert V.PadToSize([3, 4])(IMG).shape == (3, 4, 3)
    np.testing.assert_array_equal(V.PadToSize([3, 4], offset=[1, 0], fill_value=7)(IMG)[:, :, 0],
                                  [[7, 7, 7, 7], [0, 60, 7, 7], [120, 180, 7, 7]])


@pytest.mark.parametrize("mode, source, expected", [
    ("COLOR_BGR2GRAY", IMG, [[24, 84], [144, 204]]),
    ("COLOR_RGB2GRAY", IMG, [[16, 76], [136, 196]]),
    ("COLOR_BGR2RGB", IMG, IMG[..., ::-1]),
    ("COLOR_GRAY2BGR", IMG[..., 0], np.repeat(IMG[..., :1], 3, -1)),
])
def test_convert_color(mode, source, expected):
    np.testing.assert_array_equal(V.ConvertColor(getattr(V.ConvertMode, mode))(source), expected)


def test_random_lighting_shifts_each_pixel_by_one_colour():
    out = V.RandomLighting(0.1)(IMG.astype(np.float32))
    shift = out - IMG
    np.testing.assert_allclose(shift, np.broadcast_to(shift[0, 0], shift.shape), atol=1e-5)
    # MindSpore 2.10's range for alpha: a non-negative float32 integer bound
    for alpha in (-1, 16777216.5):
        with pytest.raises(ValueError, match=r"Input alpha is not within the required interval "
                                             r"of \[0, 16777216\]."):
            V.RandomLighting(alpha)
    assert V.RandomLighting(16777216).alpha == 16777216


def test_linear_transformation_takes_numpy_arrays_only():
    """MindSpore 2.10's checks: NumPy arrays (its TypeError naming the argument), a square
    matrix, a mean of its size."""
    with pytest.raises(TypeError, match=r"Argument transformation_matrix with value None is not "
                                        r"of type \[<class 'numpy.ndarray'>\]"):
        V.LinearTransformation(None, np.zeros(3))
    with pytest.raises(TypeError, match="Argument mean_vector"):
        V.LinearTransformation(np.eye(3), [0, 0, 0])
    with pytest.raises(ValueError, match="should be a square matrix"):
        V.LinearTransformation(np.ones((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match="mean_vector length 2 should match"):
        V.LinearTransformation(np.eye(3), np.zeros(2))
