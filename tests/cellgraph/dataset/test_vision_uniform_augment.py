"""vision.UniformAugment: MindSpore 2.10's choices on the same seed, through its C++ kernel
(arrays, in a pipeline) and its Python implementation (Pillow images)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision


@pytest.fixture(autouse=True)
def _restore_seed():
    seed = ds.config.get_seed()
    yield
    ds.config.set_seed(seed)


IMAGE = (np.arange(60) * 11 % 256).astype(np.uint8).reshape(4, 5, 3)


def _ops():
    return [vision.Invert(), vision.HorizontalFlip(), vision.VerticalFlip(), vision.Posterize(2)]


def _key(image):
    return int(image.astype(np.int64).sum()) * 1000 + int(image[0, 0, 0])


# MindSpore 2.10's rows (sum * 1000 + first value), one map worker, set_seed(11)
PIPELINE = {
    1: [8374255, 6926000, 6926000, 6926239, 6926239, 6926000, 6926000, 6926000, 6926000, 6926000],
    2: [8374255, 6926000, 8374016, 6926132, 6926132, 5056000, 6926000, 6926000, 5056000, 5056000],
    3: [6464192, 5056192, 6464192, 6926132, 8374255, 6926239, 6464192, 5056192, 5056192, 8374016],
    4: [6464000, 6464128, 6464192, 6926239, 6926239, 8374016, 8374123, 6464128, 8374123, 6464000],
}


@pytest.mark.parametrize("num_ops", [1, 2, 3, 4])
def test_pipeline_matches_mindspore(num_ops):
    ds.config.set_seed(11)
    data = ds.NumpySlicesDataset({"image": np.stack([IMAGE] * 10)}, shuffle=False)
    data = data.map(operations=vision.UniformAugment(_ops(), num_ops), input_columns=["image"],
                    num_parallel_workers=1)
    rows = [_key(row["image"]) for row in data.create_dict_iterator(output_numpy=True)]
    assert rows == PIPELINE[num_ops]


def test_pil_images_match_mindspore():
    image_module = pytest.importorskip("PIL.Image")
    ds.config.set_seed(11)
    op = vision.UniformAugment(_ops(), 2)
    got = [np.asarray(op(image_module.fromarray(IMAGE))).reshape(-1)[:6].tolist()
           for _ in range(12)]
    # MindSpore 2.10's (numpy.random.choice and random.random, seeded by set_seed)
    assert got == [[0, 0, 0, 0, 0, 0], [0, 11, 22, 33, 44, 55], [0, 11, 22, 33, 44, 55],
                   [239, 250, 5, 16, 27, 38], [192, 192, 0, 0, 0, 0], [192, 192, 0, 0, 0, 0],
                   [0, 11, 22, 33, 44, 55], [0, 11, 22, 33, 44, 55],
                   [132, 143, 154, 99, 110, 121], [115, 126, 137, 82, 93, 104],
                   [192, 192, 192, 192, 192, 192], [123, 112, 101, 156, 145, 134]]


def test_argument_checks():
    with pytest.raises(ValueError, match="num_ops is greater than transforms list size"):
        vision.UniformAugment(_ops(), 5)
    with pytest.raises(ValueError, match="num_ops must be greater than 0"):
        vision.UniformAugment(_ops(), 0)
    with pytest.raises(TypeError):
        vision.UniformAugment(_ops(), 1.5)
    with pytest.raises(TypeError, match="neither a transforms op"):
        vision.UniformAugment([vision.Invert(), 1], 1)
    with pytest.raises(ValueError, match="missing parentheses"):
        vision.UniformAugment([vision.Invert, vision.Invert()], 1)


@pytest.mark.parametrize("num_ops", [1, 2, 3, 4])
def test_direct_calls_start_from_the_seed(num_ops):
    """Called directly after set_seed, MindSpore runs a fresh C++ op per call: every call
    gives the pipeline's first row (MindSpore 2.10's behaviour, as for all its C++ random
    transforms)."""
    ds.config.set_seed(11)
    op = vision.UniformAugment(_ops(), num_ops)
    assert {_key(op(IMAGE)) for _ in range(5)} == {PIPELINE[num_ops][0]}


def test_direct_random_resize_repeats_after_set_seed():
    ds.config.set_seed(7)
    op = vision.RandomResize(7)
    image = (np.arange(360) * 37 % 256).astype(np.uint8).reshape(10, 12, 3)
    first = op(image)
    for _ in range(6):
        np.testing.assert_array_equal(op(image), first)
