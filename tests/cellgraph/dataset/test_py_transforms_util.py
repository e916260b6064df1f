"""dataset.vision.py_transforms_util: MindSpore's RGB/HSV helpers, against colorsys (which
MindSpore's own apply element by element)."""
import colorsys

import numpy as np
import pytest

from cellgraph.dataset.vision import py_transforms_util as util


def test_rgb_hsv_round_trip_one_image_and_a_batch_in_both_layouts():
    rgb = np.random.default_rng(3).integers(0, 256, (2, 4, 5, 3)) / 255.0
    expected = np.array([[[colorsys.rgb_to_hsv(*px) for px in row] for row in image]
                         for image in rgb])
    np.testing.assert_allclose(util.rgb_to_hsvs(rgb, True), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(util.rgb_to_hsvs(rgb[0], True), expected[0], atol=1e-12)
    chw = np.moveaxis(rgb, -1, 1)
    np.testing.assert_allclose(util.rgb_to_hsvs(chw, False), np.moveaxis(expected, -1, 1),
                               atol=1e-12)
    np.testing.assert_allclose(util.hsv_to_rgbs(expected, True), rgb, atol=1e-12)
    np.testing.assert_allclose(util.hsv_to_rgbs(np.moveaxis(expected, -1, 1)[1], False),
                               chw[1], atol=1e-12)


@pytest.mark.parametrize("images, is_hwc, words", [
    ([[0.1]], True, "img should be NumPy image"),
    (np.zeros((4, 4, 3)), 1, "is_hwc should be bool type"),
    (np.zeros((4, 3)), True, "img shape should be"),
    (np.zeros((4, 4, 2)), True, "img should be 3 channels RGB img. Got 2 channels."),
])
def test_mindspore_s_errors(images, is_hwc, words):
    with pytest.raises(TypeError, match=words):
        util.rgb_to_hsvs(images, is_hwc)
