"""vision.ResizedCrop, and Resize with Inter.NEAREST (OpenCV's source index floor(dst / scale)),
pixels and checks as MindSpore 2.10 gives them (recorded from it)."""
import numpy as np
import pytest

from cellgraph.dataset import vision as v

IMG = (np.arange(8 * 10 * 3) * 7 % 256).astype(np.uint8).reshape(8, 10, 3)


def test_resized_crop_pixels():
    out = v.ResizedCrop(1, 2, 4, 6, (3, 4))(IMG)
    assert out[..., 0].tolist() == [[196, 68, 57, 88], [188, 220, 123, 59], [127, 158, 190, 189]]
    out = v.ResizedCrop(1, 2, 4, 6, 3, v.Inter.NEAREST)(IMG)
    assert out.shape == (3, 3, 3)
    assert out[..., 1].tolist() == [[3, 45, 87], [213, 255, 41], [167, 209, 251]]


def test_resize_nearest():
    crop = IMG[1:5, 2:8]
    assert v.Resize((5, 7), v.Inter.NEAREST)(crop)[..., 1].tolist() == [
        [3, 3, 24, 45, 66, 87, 108], [3, 3, 24, 45, 66, 87, 108],
        [213, 213, 234, 255, 20, 41, 62], [167, 167, 188, 209, 230, 251, 16],
        [121, 121, 142, 163, 184, 205, 226]]
    assert v.Resize((9, 13), v.Inter.NEAREST)(crop)[:, 0, 1].tolist() == \
        [3, 3, 3, 213, 213, 167, 167, 121, 121]


@pytest.mark.parametrize("args, error, message", [
    ((2.1, 3, 4, 5, (3, 3)), TypeError, "Argument top with value 2.1 is not of type"),
    ((-1, 0, 4, 5, (3, 3)), ValueError, (r"Input top is not within the required interval of "
                                        r"\[0, 2147483647\].")),
    ((0, 0, 0, 5, (3, 3)), ValueError, (r"Input height is not within the required interval of "
                                       r"\[1, 2147483647\].")),
    ((0, 0, 4, 5, (0, 3)), ValueError, (r"Input is not within the required interval of "
                                       r"\[1, 16777216\].")),
    ((2, 3, 4, 5, (2, 3, 4)), TypeError, "Size should be a single integer"),
])
def test_resized_crop_checks(args, error, message):
    with pytest.raises(error, match=message):
        v.ResizedCrop(*args)
    with pytest.raises(TypeError, match="Argument interpolation with value None"):
        v.ResizedCrop(2, 3, 4, 5, (2, 3), None)
