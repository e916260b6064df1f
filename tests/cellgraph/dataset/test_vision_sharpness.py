"""RandomSharpness and AdjustSharpness on arrays as MindSpore 2.10's C++ kernel: the factor
mid + u * half-range from one float draw u in [-1, 1) over the op's mt19937 once a dataset
seed is set, cv::filter2D's float32 smoothing (one fused multiply-add a tap) with the border
kept, and cv::addWeighted (float32 for uint8 images, double for float ones). The values were
recorded from MindSpore 2.10."""
import numpy as np

from cellgraph.dataset import vision

from .seeded import mapped_rows as _rows

IMAGE = (np.arange(5 * 6 * 3).reshape(5, 6, 3) * 37 % 256).astype(np.uint8)


def test_seeded_factors_are_mindspores():
    rows = _rows(vision.RandomSharpness(), np.stack([IMAGE] * 4))
    assert [int(r.sum()) for r in rows] == [11515, 11527, 11532, 11467]
    assert rows[0][1:4, 1:5, 0].tolist() == [[43, 120, 197, 108], [141, 52, 129, 206],
                                             [83, 150, 61, 138]]


def test_grey_images_on_two_workers():
    rows = _rows(vision.RandomSharpness((0.0, 3.5)), np.stack([IMAGE[..., 0]] * 4), 2, 3)
    assert [int(r.sum()) for r in rows] == [3726, 3754, 3785, 3748]
    assert rows[1][1:4, 1:5].tolist() == [[0, 120, 255, 0], [255, 0, 129, 255],
                                          [0, 255, 0, 138]]


def test_float_images():
    rows = _rows(vision.RandomSharpness(), np.stack([IMAGE.astype(np.float32) / 7] * 3))
    assert [float(r.sum()) for r in rows] == [1645.0, 1646.700927734375, 1647.442626953125]
    assert rows[2][2, 1:5, 1].tolist() == [23.704927444458008, 12.723644256591797,
                                           18.8477840423584, 10.299751281738281]
    out = vision.AdjustSharpness(2.6)(IMAGE.astype(np.float32) / 7)
    assert out.dtype == np.float32
    assert out[2, 1:5, 1].tolist() == [37.57362365722656, -1.145054578781128,
                                       32.71648025512695, -10.503294944763184]
