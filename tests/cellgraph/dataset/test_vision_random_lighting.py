"""RandomLighting on arrays as MindSpore 2.10's C++ op: three draws of its
std::normal_distribution<float>(0, alpha) (libstdc++'s polar method, the second value of each
pair kept for the next call, so one image's draws run into the next's) over the op's mt19937
once a dataset seed is set, the PCA shift in float32, pixels rounded and saturated. The values
were recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision

from .seeded import mapped_rows as _rows

IMAGE = (np.arange(3 * 4 * 3).reshape(3, 4, 3) * 21 % 256).astype(np.uint8)


def test_seeded_shifts_are_mindspores():
    rows = _rows(vision.RandomLighting(0.3), np.stack([IMAGE] * 5))
    assert [(r.astype(int) - IMAGE)[0, 0].tolist() for r in rows] == [
        [13, 13, 14], [0, -2, -1], [15, 15, 15], [2, 0, 0], [0, 0, 1]]


def test_saturation_on_two_workers():
    rows = _rows(vision.RandomLighting(2.5), np.stack([IMAGE] * 4), 2, 3)
    assert [int(r.sum()) for r in rows] == [6466, 7492, 3210, 1223]
    assert rows[3][1].tolist() == [[141, 0, 0], [0, 0, 0], [11, 16, 36], [74, 79, 99]]


def test_other_dtypes_take_the_same_shift():
    # MindSpore's kernel reads a non-uint8 image as bytes (a fault); the shift is added here
    # (unsaturated: the first row's shift above, [13, 13, 14], on every pixel)
    ds.config.set_seed(11)
    shifted = vision.RandomLighting(0.3)(IMAGE.astype(np.int16))
    assert shifted.dtype == np.int16
    np.testing.assert_array_equal(shifted, IMAGE.astype(np.int16) + [13, 13, 14])
    ds.config.set_seed(11)
    floats = vision.RandomLighting(0.3)(IMAGE.astype(np.float32))
    np.testing.assert_array_equal(np.rint(floats), IMAGE + np.array([13, 13, 14]))


def test_a_non_rgb_image_is_refused_with_mindspores_words():
    with pytest.raises(RuntimeError, match="RandomLighting: input tensor is not in shape of "
                                           "<H,W,C> or channel is not 3, got rank: 3, and "
                                           "channel: 4"):
        vision.RandomLighting()(np.zeros((2, 2, 4), np.uint8))
