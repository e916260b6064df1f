"""RandomColor on arrays as MindSpore 2.10's C++ op: a float uniform draw over the op's mt19937
once a dataset seed is set, OpenCV's grey image (for float images its AVX2 loop's fused
multiply-adds, eight columns at a time, the rest by its scalar loop) and cv::addWeighted. The
values were recorded from MindSpore 2.10; the image is 11 wide so each row has a scalar
tail."""
import numpy as np
import pytest

from cellgraph.dataset import vision

from .seeded import mapped_rows as _rows

IMAGE = (np.arange(4 * 11 * 3).reshape(4, 11, 3) * 37 % 256).astype(np.uint8)


def test_seeded_factors_are_mindspores():
    rows = _rows(vision.RandomColor(), np.stack([IMAGE] * 4))
    assert [int(r.sum()) for r in rows] == [16506, 16504, 16500, 16683]
    assert rows[0][1, :6].tolist() == [[198, 213, 120], [69, 85, 101], [180, 196, 212],
                                       [35, 51, 67], [146, 162, 178], [154, 61, 77]]


def test_two_workers():
    rows = _rows(vision.RandomColor((0.0, 3.0)), np.stack([IMAGE] * 4), 2, 3)
    assert [int(r.sum()) for r in rows] == [16877, 17276, 16484, 17219]
    assert rows[1][2, :6].tolist() == [[81, 188, 255], [255, 0, 4], [47, 154, 255],
                                       [213, 255, 0], [13, 120, 228], [124, 231, 255]]


def test_float_images():
    images = IMAGE.astype(np.float32) / 255
    rows = _rows(vision.RandomColor(), np.stack([images] * 2))
    assert [float(r.sum()) for r in rows] == [64.7553482055664, 64.71499633789062]
    assert rows[1][3, 6:, 0].tolist() == [0.4587686359882355, 0.4369877278804779,
                                          0.7833510637283325, 0.30365440249443054,
                                          0.7389485239982605]
    grey = _rows(vision.RandomColor((0.0, 0.0)), images[None])[0]  # a factor of 0: the grey
    assert grey[3, :, 0].tolist() == [
        0.42805883288383484, 0.7489058971405029, 0.2947255074977875, 0.7300196886062622,
        0.16139216721057892, 0.5966863036155701, 0.3282313644886017, 0.4633529484272003,
        0.7842000722885132, 0.33001962304115295, 0.7653137445449829]
    assert (grey[..., 0] == grey[..., 2]).all()


def test_a_non_rgb_array_is_refused_with_mindspores_words():
    with pytest.raises(RuntimeError, match="RandomColor: image shape is not <H,W,C> or channel "
                                           "is not 3, got rank: 2"):
        vision.RandomColor()(IMAGE[..., 0])
