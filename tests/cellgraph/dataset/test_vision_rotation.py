"""Rotate and RandomRotation on arrays against pixels recorded from MindSpore 2.10
(tests/data/vision_augment.npz, written by tools/oracle/make_vision_augment_fixtures.py):
RandomRotation draws its angle as MindSpore's C++ kernel does, from the dataset seed, and both
turn through OpenCV's warp, so the bytes are the same."""
import random
from pathlib import Path

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.dataset.vision import Inter

RECORDED = np.load(Path(__file__).resolve().parents[2] / "data" / "vision_augment.npz")
ROTATIONS = {  # the fixture script's spellings
    "plain": "RandomRotation(30)",
    "bilinear_range": "RandomRotation((10, 80), Inter.BILINEAR, False, None, (10, 20, 30))",
    "bicubic_expand": "RandomRotation(170, Inter.BICUBIC, True, None, 40)",
    "centre": "RandomRotation((-5, 355), Inter.NEAREST, False, (3, 4), (1, 2, 3))",
    "wrapping_area": "RandomRotation((350, 370), Inter.AREA, True)",
}
TURNS = [(33.3, True), (-71, True), (90, True), (12, False)]


@pytest.fixture
def one_worker():
    workers, seed = ds.config.get_num_parallel_workers(), ds.config.get_seed()
    ds.config.set_num_parallel_workers(1)
    yield
    ds.config.set_num_parallel_workers(workers)
    ds.config.set_seed(seed)


@pytest.mark.parametrize("name", sorted(ROTATIONS))
def test_seeded_random_rotation_is_mindspores(name, one_worker):
    ds.config.set_seed(99)
    data = ds.NumpySlicesDataset(RECORDED["images"][:6], ["image"], shuffle=False)
    data = data.map(operations=[eval("vision." + ROTATIONS[name])], input_columns=["image"])
    rows = [row["image"] for row in data.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert len(rows) == 6
    for i, row in enumerate(rows):
        np.testing.assert_array_equal(row, RECORDED[f"rotation_{name}_{i}"])


@pytest.mark.parametrize("index", range(len(TURNS)))
def test_rotate_is_mindspores(index):
    degrees, expand = TURNS[index]
    image = RECORDED["images"][1]
    rgb = vision.Rotate(degrees, Inter.BILINEAR, expand, None, (10, 20, 30))(image)
    np.testing.assert_array_equal(rgb, RECORDED[f"rotate_rgb_{index}"])
    grey = vision.Rotate(degrees, Inter.NEAREST, expand, (2.5, 3), (10, 20, 30))(
        image[..., 0].copy())
    np.testing.assert_array_equal(grey, RECORDED[f"rotate_grey_{index}"])


def test_fill_channels_are_handed_to_opencv_reversed():
    # MindSpore gives OpenCV (r, g, b) as its (b, g, r): the first channel gets b
    out = vision.Rotate(45, fill_value=(10, 20, 30))(np.zeros((9, 9, 3), np.uint8))
    np.testing.assert_array_equal(out[0, 0], [30, 20, 10])


def test_degree_ranges_are_normalised_as_mindspore_does():
    assert vision.RandomRotation(370).degrees == [-10, 10]
    assert vision.RandomRotation((0, 400)).degrees == [-180, 180]
    assert vision.RandomRotation((350, 370)).degrees == [350, 370]
    assert vision.RandomRotation((-5, 355)).degrees == [-180, 180]


def test_pillow_image_turns_by_the_random_module():
    image_module = pytest.importorskip("PIL.Image")
    image = image_module.fromarray(RECORDED["images"][0])
    random.seed(3)
    angle = random.uniform(-30, 30)
    random.seed(3)
    out = vision.RandomRotation(30)(image)
    assert np.array_equal(np.asarray(out), np.asarray(image.rotate(angle)))


BOOL_FILL = ("Argument fill_value with value True is not of type (<class 'int'>,), but got "
             "<class 'bool'>.")
ERRORS = [  # MindSpore 2.10's types and words
    ("RandomRotation(-3)", ValueError,
     "Input degrees is not within the required interval of [0, 16777216]."),
    ("RandomRotation((1, 2, 3))", TypeError, "If degrees is a sequence, the length must be 2."),
    ("RandomRotation((5, 1))", ValueError,
     "degrees should be in (min,max) format. Got (max,min)."),
    ("RandomRotation(10, expand=1)", TypeError,
     "Argument expand with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
    ("RandomRotation(10, center=[1, 2])", ValueError, "Value center needs to be a 2-tuple."),
    ("RandomRotation(10, fill_value=(1, 2))", TypeError,
     "fill_value should be a single integer or a 3-tuple."),
    # the fill check is MindSpore's check_fill_value, one function for every transform
    ("RandomRotation(10, fill_value=True)", TypeError,
     BOOL_FILL),
    ("AutoAugment(fill_value=(1, 2, True))", TypeError,
     BOOL_FILL.replace("fill_value", "fill_value[2]")),
    ("Affine(0, [0, 0], 1.0, [0, 0], fill_value=True)", TypeError,
     BOOL_FILL),
]


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        eval("vision." + spelled)
    assert str(info.value) == message


def test_serialized_as_mindspore_writes_them():
    data = ds.NumpySlicesDataset(np.zeros((1, 4, 4, 3), np.uint8), ["image"], shuffle=False)
    data = data.map(operations=[vision.RandomRotation(30), vision.Rotate(10),
                                vision.RandomRotation((1, 20), center=(1, 2),
                                                      fill_value=(1, 2, 3))],
                    input_columns=["image"])
    first, turn, last = ds.serialize(data)["operations"]
    assert first["tensor_op_params"] == {"degrees": [-30.0, 30.0], "resample": 1,
                                         "expand": False, "center": [], "fill_value": [0, 0, 0]}
    assert turn["tensor_op_params"] == {"degree": 10.0, "resample": 1, "expand": False,
                                        "center": [], "fill_value": [0, 0, 0],
                                        "device_target": "CPU"}
    from cellgraph.dataset.engine.serializer_deserializer import _make_operation

    again = _make_operation(last)  # what deserialize rebuilds each transform with
    assert (again.degrees, again.center, again.fill_value) == ([1.0, 20.0], (1, 2), (1, 2, 3))


def test_rotate_turns_by_degrees_mod_360():
    image = RECORDED["images"][1]
    np.testing.assert_array_equal(vision.Rotate(372.5, Inter.BILINEAR)(image),
                                  vision.Rotate(12.5, Inter.BILINEAR)(image))
    data = ds.NumpySlicesDataset(np.zeros((1, 4, 4, 3), np.uint8), ["image"], shuffle=False)
    data = data.map(operations=[vision.Rotate(370)], input_columns=["image"])
    assert ds.serialize(data)["operations"][0]["tensor_op_params"]["degree"] == 10.0
