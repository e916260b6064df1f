"""vision.Affine and RandomAffine against pixels and errors recorded from MindSpore 2.10: the
C++ op's float32 matrix (GetAffineMatrix) and cv::warpAffine, and RandomAffine's six float
draws over the op's mt19937 once a dataset seed is set."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision

IMAGE = [[[37, 235, 140], [72, 255, 137], [203, 133, 79], [192, 144, 129], [204, 71, 237], [252, 134, 25]], [[178, 20, 254], [101, 146, 212], [139, 252, 234], [156, 157, 142], [50, 68, 215], [215, 233, 241]], [[247, 222, 96], [86, 141, 233], [137, 7, 63], [61, 22, 57], [1, 128, 60], [209, 8, 216]], [[141, 115, 175], [234, 121, 200], [30, 71, 131], [198, 149, 49], [57, 3, 196], [24, 241, 43]], [[76, 26, 52], [80, 109, 115], [41, 210, 15], [64, 196, 25], [111, 226, 215], [135, 26, 153]]]
CASES = [
    ('degrees=30, translate=[0.5, 0.5], scale=1.0, shear=[0, 0]', [[[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [178, 20, 254], [72, 255, 137]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [247, 222, 96], [178, 20, 254], [101, 146, 212]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [141, 115, 175], [86, 141, 233], [137, 7, 63]]]),
    ('degrees=-45, translate=[0.2, -0.4], scale=0.8, shear=[10, -5]', [[[0, 0, 0], [37, 235, 140], [101, 146, 212], [139, 252, 234], [61, 22, 57], [57, 3, 196]], [[0, 0, 0], [0, 0, 0], [247, 222, 96], [86, 141, 233], [30, 71, 131], [64, 196, 25]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [141, 115, 175], [80, 109, 115], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [76, 26, 52], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]]),
    ('degrees=10, translate=[0, 0], scale=1.3, shear=7, fill_value=(9, 8, 7)', [[[178, 20, 254], [101, 146, 212], [139, 252, 234], [203, 133, 79], [192, 144, 129], [204, 71, 237]], [[247, 222, 96], [101, 146, 212], [139, 252, 234], [156, 157, 142], [156, 157, 142], [50, 68, 215]], [[86, 141, 233], [86, 141, 233], [137, 7, 63], [61, 22, 57], [1, 128, 60], [1, 128, 60]], [[234, 121, 200], [30, 71, 131], [30, 71, 131], [198, 149, 49], [57, 3, 196], [209, 8, 216]], [[80, 109, 115], [41, 210, 15], [64, 196, 25], [198, 149, 49], [57, 3, 196], [24, 241, 43]]]),
]
ERRORS = [
    ('degrees=[15.0], translate=[-1, 1], scale=1.0, shear=[1, 1]', TypeError, "Argument degrees with value [15.0] is not of type [<class 'int'>, <class 'float'>], but got <class 'list'>."),
    ('degrees=15, translate=[1, 1], scale=0.0, shear=10', ValueError, 'Input scale must be greater than 0.'),
    ('degrees=15, translate=[1, 1], scale=1.5, shear=[1.5, 3.5, 3.5]', TypeError, 'The length of shear should be 2.'),
    ('degrees=15, translate=(0.1,), scale=2.1, shear=[1.5, 1.5]', TypeError, 'The length of translate should be 2.'),
    ('degrees=200, translate=[0, 0], scale=1.0, shear=0', ValueError, 'Input degrees is not within the required interval of [-180, 180].'),
    ('degrees=1, translate=[0, 0], scale=1.0, shear=0, fill_value=300', ValueError, 'Input fill_value is not within the required interval of [0, 255].'),
]


@pytest.mark.parametrize("spelled, expected", CASES)
def test_affine_gives_mindspores_pixels(spelled, expected):
    out = eval("vision.Affine(" + spelled + ")")(np.array(IMAGE, np.uint8))  # as written
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_affine_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision.Affine(" + spelled + ")")
    assert str(info.value) == message


# each pixel a different level: 5 * index, modulo 256
PLAIN = (np.arange(5 * 6 * 3).reshape(5, 6, 3) * 5 % 256).astype(np.uint8)


@pytest.mark.parametrize("degrees, first_channel", [
    (90, [[0, 119, 29, 195, 105, 15], [0, 134, 44, 210, 120, 30], [0, 149, 59, 225, 135, 45],
          [0, 164, 74, 240, 150, 60], [0, 179, 89, 255, 165, 75]]),
    (-90, [[75, 165, 255, 89, 179, 0], [60, 150, 240, 74, 164, 0], [45, 135, 225, 59, 149, 0],
           [30, 120, 210, 44, 134, 0], [15, 105, 195, 29, 119, 0]]),
    (180, [[179, 164, 149, 134, 119, 104], [89, 74, 59, 44, 29, 14],
           [255, 240, 225, 210, 195, 180], [165, 150, 135, 120, 105, 90],
           [75, 60, 45, 30, 15, 0]]),
])
def test_quarter_and_half_turns_are_mindspores(degrees, first_channel):
    assert vision.Affine(degrees, [0, 0], 1.0, 0)(PLAIN)[..., 0].tolist() == first_channel


def test_a_fourth_channel_is_filled_with_zero():
    four = np.concatenate([PLAIN, PLAIN[..., :1]], 2)
    out = vision.Affine(30, (0.1, -0.2), 1.2, (10, 5), vision.Inter.BILINEAR, (7, 8, 9))(four)
    assert out[..., 3].tolist() == [
        [111, 188, 165, 143, 122, 98], [29, 72, 144, 211, 198, 177],
        [105, 84, 63, 95, 162, 229], [48, 103, 139, 118, 94, 113], [0, 0, 53, 114, 172, 85]]


def _affine_rows(op, images, workers=1, seed=11):
    old_seed = ds.config.get_seed()
    ds.config.set_seed(seed)
    try:
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        data = data.map(op, "image", num_parallel_workers=workers)
        return [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    finally:
        ds.config.set_seed(old_seed)


def test_random_affine_draws_as_mindspore():
    rows = _affine_rows(vision.RandomAffine(10, translate=(0.1, 0.1)), np.stack([PLAIN] * 4))
    assert [int(r.sum()) for r in rows] == [9150, 8997, 8925, 9279]
    assert rows[0][..., 0].tolist() == [
        [0, 15, 30, 45, 60, 75], [90, 105, 120, 135, 150, 150], [0, 180, 195, 210, 225, 240],
        [0, 14, 29, 44, 59, 74], [0, 104, 119, 134, 149, 164]]


def test_random_affine_bilinear_on_two_workers():
    op = vision.RandomAffine((-30, 50), translate=(-0.2, 0.1, -0.3, 0.3), scale=(0.7, 1.3),
                             shear=(-10, 20, -5, 15), resample=vision.Inter.BILINEAR,
                             fill_value=(10, 200, 30))
    rows = _affine_rows(op, np.stack([PLAIN] * 4), workers=2, seed=3)
    assert [int(r.sum()) for r in rows] == [10112, 9288, 9053, 9861]
    assert rows[1][..., 1].tolist() == [
        [200, 200, 166, 86, 200, 200], [145, 153, 148, 89, 33, 155],
        [118, 59, 124, 201, 145, 86], [200, 163, 116, 100, 182, 123],
        [200, 200, 190, 171, 153, 200]]


def test_random_affine_on_float_images():
    rows = _affine_rows(vision.RandomAffine(20, scale=(0.8, 1.2)),
                        np.stack([PLAIN.astype(np.float32) / 255] * 3))
    np.testing.assert_allclose([float(r.sum()) for r in rows],
                               [40.380393981933594, 31.48627471923828, 43.39215850830078],
                               rtol=1e-6)
