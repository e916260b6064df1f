"""Rotate, RandomAffine, GaussianBlur, RandomErasing, RandomSelectSubpolicy, RandomApply and
RandomChoice against hand-derived values."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import transforms, vision
from cellgraph.dataset.vision import Inter
from cellgraph.dataset.vision.augment import gaussian_kernel


@pytest.fixture(autouse=True)
def _seed():
    ds.config.set_seed(11)


def test_quarter_turns_are_exact_and_expand_swaps_the_sides():
    image = np.arange(12, dtype=np.uint8).reshape(3, 4)
    np.testing.assert_array_equal(vision.Rotate(90, expand=True)(image), np.rot90(image))
    square = np.arange(27, dtype=np.uint8).reshape(3, 3, 3)
    np.testing.assert_array_equal(vision.Rotate(-90)(square), np.rot90(square, -1))
    np.testing.assert_array_equal(vision.Rotate(180)(square), square[::-1, ::-1])


def test_rotate_fills_what_the_turn_uncovers():
    image = np.full((4, 4), 9, np.uint8)
    out = vision.Rotate(45, fill_value=1)(image)
    assert out[0, 0] == 1 and out[1, 1] == 9  # a corner is uncovered, the middle is not


def test_rotate_about_a_corner_with_bilinear_sampling():
    image = np.arange(16, dtype=np.float32).reshape(4, 4)
    out = vision.Rotate(90, resample=Inter.BILINEAR, center=(0, 0), fill_value=-1)(image)
    # turning about (0, 0) counter-clockwise sends the pixel (x, y) to (y, -x): the first
    # column lands on the first row, everything else outside.
    np.testing.assert_array_equal(out[0], image[:, 0])
    np.testing.assert_array_equal(out[1:], -1)


def test_random_affine_with_fixed_draws_matches_the_composed_matrix():
    # MindSpore 2.10's pixels: its C++ op's shift (x by 0.2 * 5, y by -0.2 * 5), turn
    # (clockwise on screen for a positive angle), zoom and x shear of a 5 x 5 image
    image = np.arange(25, dtype=np.uint8).reshape(5, 5)
    shifted = vision.RandomAffine(0, translate=(0.2, 0.2, -0.2, -0.2))(image)
    expected = np.zeros_like(image)
    expected[:4, 1:] = image[1:, :4]  # one pixel right and one up
    np.testing.assert_array_equal(shifted, expected)
    np.testing.assert_array_equal(vision.RandomAffine((90, 90))(image), np.rot90(image, -1))
    zoomed = vision.RandomAffine(0, scale=(2, 2), resample=Inter.NEAREST)(image)
    assert zoomed.tolist() == [[6, 7, 7, 8, 8], [11, 12, 12, 13, 13], [11, 12, 12, 13, 13],
                               [16, 17, 17, 18, 18], [16, 17, 17, 18, 18]]
    sheared = vision.RandomAffine(0, shear=(45, 45))(np.eye(5, dtype=np.uint8) * 7)
    # x' = x - (y - 2) about the centre: the diagonal (x = y) lands on the column x' = 2
    np.testing.assert_array_equal(sheared, np.eye(5, dtype=np.uint8)[[2] * 5] * 7)


def test_random_affine_draws_within_its_ranges():
    op = vision.RandomAffine(30, translate=(-0.1, 0.1), scale=(0.5, 1.5))
    for _ in range(20):
        m = op.matrix(10, 10)
        zoom = np.sqrt(abs(np.linalg.det(m[:, :2])))
        assert 0.5 <= zoom <= 1.5
    with pytest.raises(ValueError, match="translate"):
        vision.RandomAffine(0, translate=(2, 3))


def test_gaussian_blur_is_separable_with_reflected_borders():
    image = np.zeros((5, 5), np.float64)
    image[2, 2] = 1.0
    taps = np.exp(-0.5 * np.array([1.0, 0.0, 1.0]))
    taps /= taps.sum()
    np.testing.assert_allclose(vision.GaussianBlur(3, 1.0)(image)[1:4, 1:4],
                               np.outer(taps, taps))
    edge = np.zeros((1, 3), np.float64)
    edge[0, 0] = 1.0  # its reflection (101) brings the left neighbour's weight from x = 1
    np.testing.assert_allclose(vision.GaussianBlur((3, 1), 1.0)(edge)[0, 0], taps[1])
    sigma = 0.3 * ((5 - 1) * 0.5 - 1) + 0.8  # the default for a 5-tap kernel
    np.testing.assert_allclose(gaussian_kernel(5, 0), gaussian_kernel(5, sigma))
    with pytest.raises(ValueError, match="odd"):
        vision.GaussianBlur(4)


def test_random_erasing_overwrites_one_rectangle_of_the_asked_size():
    image = np.ones((3, 10, 10), np.float32)
    out = vision.RandomErasing(prob=1.0, scale=(0.09, 0.09), ratio=(1, 1), value=(2, 3, 4))(
        image)
    for channel, value in enumerate((2, 3, 4)):
        erased = out[channel] == value
        rows, cols = np.nonzero(erased)
        assert erased.sum() == 9 and np.ptp(rows) == 2 and np.ptp(cols) == 2
    np.testing.assert_array_equal(image, 1)  # not in place by default
    np.testing.assert_array_equal(vision.RandomErasing(prob=0.0)(image), image)


def test_random_select_subpolicy_applies_one_sub_policy_with_its_probabilities():
    add_one, double = (lambda x: x + 1), (lambda x: x * 2)
    op = vision.RandomSelectSubpolicy([[(add_one, 1.0), (double, 1.0)], [(double, 0.0)]])
    outs = {int(op(np.array(3))) for _ in range(40)}
    assert outs == {8, 3}  # (3 + 1) * 2, or the second policy that never fires
    with pytest.raises(TypeError, match="sub-policy"):
        vision.RandomSelectSubpolicy([[(add_one, 2.0)]])


def test_random_apply_and_random_choice_in_a_pipeline():
    def data():  # a node feeds one pipeline only
        return ds.NumpySlicesDataset(np.zeros(200, np.int64), column_names=["x"], shuffle=False)

    applied = data().map(transforms.RandomApply([lambda x: x + 1, lambda x: x * 10], prob=0.3))
    values = np.array([row[0] for row in applied.create_tuple_iterator(output_numpy=True)])
    assert set(values.tolist()) == {0, 10} and 0.15 < (values == 10).mean() < 0.45
    chosen = data().map(transforms.RandomChoice([lambda x: x + 1, lambda x: x + 2]))
    values = np.array([row[0] for row in chosen.create_tuple_iterator(output_numpy=True)])
    assert set(values.tolist()) == {1, 2} and 0.35 < (values == 1).mean() < 0.65


def test_every_transform_is_in_the_vision_transforms_module_too():
    from cellgraph.dataset.vision import transforms as vt
    from cellgraph.dataset.vision.transforms import RandomVerticalFlip

    assert RandomVerticalFlip is vision.RandomVerticalFlip and vt.Rotate is vision.Rotate
    flipped = RandomVerticalFlip(prob=1.0)(np.arange(4, dtype=np.uint8).reshape(2, 2))
    np.testing.assert_array_equal(flipped, [[2, 3], [0, 1]])
    with pytest.raises(AttributeError):
        vt.NoSuchTransform  # noqa: B018
