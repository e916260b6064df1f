"""Perspective and RandomPerspective, and the OpenCV warps under them, against pixels recorded
from MindSpore 2.10 (tests/data/vision_augment.npz, written by
tools/oracle/make_vision_augment_fixtures.py)."""
import random
from pathlib import Path

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.dataset.vision import Inter
from cellgraph.dataset.vision.cv_warp import CvInter, perspective_matrix, warp_affine

RECORDED = np.load(Path(__file__).resolve().parents[2] / "data" / "vision_augment.npz")
CORNERS = ([[0, 0], [12, 0], [12, 10], [0, 10]], [[2, 1], [11, 3], [9, 10], [1, 8]])
INTER = {"nearest": Inter.NEAREST, "bilinear": Inter.BILINEAR, "bicubic": Inter.BICUBIC,
         "area": Inter.AREA}


@pytest.mark.parametrize("name", sorted(INTER))
def test_uint8_warp_is_mindspores_to_the_byte(name):
    out = vision.Perspective(*CORNERS, INTER[name])(RECORDED["images"][1])
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, RECORDED["perspective_u8_" + name])


@pytest.mark.parametrize("name", sorted(INTER))
def test_float_warp_is_mindspores_within_rounding(name):
    out = vision.Perspective(*CORNERS, INTER[name])(RECORDED["float_image"])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, RECORDED["perspective_f32_" + name], rtol=0, atol=1e-6)


def test_pillow_image_warps_through_pillow():
    image_module = pytest.importorskip("PIL.Image")
    out = vision.Perspective(*CORNERS, Inter.BILINEAR)(
        image_module.fromarray(RECORDED["images"][2]))
    np.testing.assert_array_equal(np.asarray(out), RECORDED["perspective_pil"])


def test_random_perspective_draws_from_the_seeded_random_module():
    image_module = pytest.importorskip("PIL.Image")
    seed = ds.config.get_seed()
    ds.config.set_seed(5)
    try:
        op = vision.RandomPerspective(0.6, 0.7, Inter.BILINEAR)
        got = [np.asarray(op(image_module.fromarray(RECORDED["images"][i]))) for i in range(4)]
    finally:
        ds.config.set_seed(seed)
    np.testing.assert_array_equal(np.stack(got), RECORDED["random_perspective"])


def test_identity_corners_keep_the_image():
    image = RECORDED["images"][3]
    same = [[0, 0], [12, 0], [12, 10], [0, 10]]
    np.testing.assert_array_equal(vision.Perspective(same, same)(image), image)


def test_perspective_matrix_maps_the_corners():
    matrix = perspective_matrix(*CORNERS)
    for (x, y), (u, v) in zip(*CORNERS):
        w = matrix[2] @ [x, y, 1]
        np.testing.assert_allclose([(matrix[0] @ [x, y, 1]) / w, (matrix[1] @ [x, y, 1]) / w],
                                   [u, v], atol=1e-9)


def test_affine_shift_by_whole_pixels_fills_the_border():
    image = np.arange(12, dtype=np.uint8).reshape(3, 4)
    out = warp_affine(image, [[1, 0, 1], [0, 1, 0]], (3, 4), CvInter.LINEAR, 9)
    np.testing.assert_array_equal(out, [[9, 0, 1, 2], [9, 4, 5, 6], [9, 8, 9, 10]])


ERRORS = [  # MindSpore 2.10's types and words
    ("Perspective(3, CORNERS[1])", TypeError,
     ("Argument start_points with value 3 is not of type [<class 'list'>, <class 'tuple'>], "
     "but got <class 'int'>.")),
    ("Perspective([[0, 0]] * 3, CORNERS[1])", TypeError,
     "start_points should be a list or tuple of length 4."),
    ("Perspective(CORNERS[0], [[0, 0, 1]] + CORNERS[1][1:])", TypeError,
     "end_points[0] should be a list or tuple of length 2."),
    ("Perspective(CORNERS[0], [[0, 2 ** 31]] + CORNERS[1][1:])", ValueError,
     "Input end_points[0][1] is not within the required interval of [-2147483648, 2147483647]."),
    ("Perspective(*CORNERS, 'invalid')", TypeError,
     ("Argument interpolation with value invalid is not of type [<enum 'Inter'>], but got "
     "<class 'str'>.")),
    ("RandomPerspective(1.5, 0.5)", ValueError,
     "Input distortion_scale is not within the required interval of [0.0, 1.0]."),
    ("RandomPerspective(0.5, 1)", TypeError,
     "Argument prob with value 1 is not of type [<class 'float'>], but got <class 'int'>."),
]


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision." + spelled)
    assert str(info.value) == message


def test_images_are_checked_as_mindspore_checks_them():
    op = vision.Perspective(*CORNERS)
    with pytest.raises(RuntimeError) as info:
        op(np.zeros((6, 6, 3), np.uint32))
    assert str(info.value) == (
        "Perspective: the data type of image tensor does not match the requirement of "
        "operator. Expecting tensor in type of (bool, int8, uint8, int16, uint16, int32, "
        "float16, float32, float64). But got type uint32.")
    with pytest.raises(RuntimeError, match="But got dimension 4."):
        op(np.zeros((2, 6, 6, 3), np.uint8))
    with pytest.raises(TypeError, match="img should be PIL image"):
        vision.Perspective(*CORNERS, Inter.ANTIALIAS)(np.zeros((6, 6, 3), np.uint8))
    with pytest.raises(ValueError, match="Input image should be a Pillow image."):
        vision.RandomPerspective()(np.zeros((6, 6, 3), np.uint8))


def test_random_perspective_with_probability_zero_keeps_the_image():
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.fromarray(RECORDED["images"][0])
    assert vision.RandomPerspective(prob=0.0)(image) is image


def test_serialized_as_mindspore_writes_it():
    data = ds.NumpySlicesDataset(np.zeros((1, 4, 4, 3), np.uint8), ["image"], shuffle=False)
    data = data.map(operations=[vision.Perspective(*CORNERS, Inter.BICUBIC)],
                    input_columns=["image"])
    (op,) = ds.serialize(data)["operations"]
    assert op == {"tensor_op_name": "Perspective", "tensor_op_params": {
        "start_points": CORNERS[0], "end_points": CORNERS[1], "interpolation": 2,
        "device_target": "CPU"}}


def test_random_module_is_what_random_perspective_draws_from():
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.fromarray(RECORDED["images"][0])
    random.seed(11)
    first = np.asarray(vision.RandomPerspective(prob=1.0)(image))
    random.seed(11)
    np.testing.assert_array_equal(np.asarray(vision.RandomPerspective(prob=1.0)(image)), first)
