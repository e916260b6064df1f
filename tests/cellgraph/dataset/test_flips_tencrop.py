"""The random flips' ranks and dtypes, TenCrop, SlicePatches' checks, and a map that runs a
Compose as its transforms (so an error names the transform), with MindSpore 2.10's results
and errors (recorded from it)."""
import numpy as np
import pytest

from cellgraph import dataset as ds
from cellgraph.dataset import transforms as t
from cellgraph.dataset import vision as v

BATCH = np.arange(2 * 3 * 4 * 3).reshape(2, 3, 4, 3).astype(np.uint8)


def test_horizontal_flip_takes_batches():
    assert (v.RandomHorizontalFlip(1.0)(BATCH) == BATCH[..., ::-1, :]).all()
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip: the image tensor should have "
                                           "at least two dimensions. You may need to perform "
                                           "Decode first."):
        v.RandomHorizontalFlip(1.0)(np.zeros(4, np.uint8))
    with pytest.raises(RuntimeError, match=r"Expecting tensor in type of \(bool, int8, uint8, "
                                           r"int16, uint16, int32, float16, float32, float64\). "
                                           r"But got type string."):
        v.RandomHorizontalFlip(0.1)(np.zeros((4, 4, 3)).astype(np.str_))


def test_vertical_flip_ranks_and_types():
    with pytest.raises(RuntimeError, match="RandomVerticalFlip: input tensor is not in shape of "
                                           "<H,W> or <H,W,C>, but got rank: 4"):
        v.RandomVerticalFlip(1.0)(BATCH)
    with pytest.raises(RuntimeError, match=r"Cannot convert \[int64\] to OpenCV type."):
        v.RandomVerticalFlip(1.0)(np.arange(4).reshape(2, 2))
    assert v.RandomVerticalFlip(1.0)(np.arange(4, dtype=np.uint8).reshape(2, 2)).tolist() == \
        [[2, 3], [0, 1]]


def test_ten_crop():
    pil = pytest.importorskip("PIL.Image")
    image = pil.fromarray(np.arange(5 * 6 * 3).reshape(5, 6, 3).astype(np.uint8))
    crops = v.TenCrop((2, 3))(image)
    assert len(crops) == 10
    assert np.asarray(crops[5]).tolist() == np.asarray(image)[:2, ::-1][:, :3].tolist()
    vertical = v.TenCrop(2, use_vertical_flip=True)(image)
    assert np.asarray(vertical[5]).tolist() == np.asarray(image)[::-1][:2, :2].tolist()
    with pytest.raises(TypeError, match="Argument use_vertical_flip with value 1 is not of type"):
        v.TenCrop(10, 1)
    with pytest.raises(ValueError, match=r"Input is not within the required interval of "
                                         r"\[1, 16777216\]."):
        v.TenCrop(0)


@pytest.mark.parametrize("kw, error, message", [
    ({"num_height": 0}, ValueError, (r"Input num_height is not within the required interval of "
                                    r"\[1, 2147483647\].")),
    ({"num_width": 1.5}, TypeError, "Argument num_width with value 1.5 is not of type"),
    ({"slice_mode": "a"}, TypeError, "Argument slice_mode with value a is not of type"),
    ({"fill_value": 256}, ValueError, (r"Input fill_value is not within the required interval of "
                                      r"\[0, 255\].")),
])
def test_slice_patches_checks(kw, error, message):
    with pytest.raises(error, match=message):
        v.SlicePatches(**kw)


def test_map_runs_a_compose_as_its_transforms():
    image = np.zeros((20, 20, 3), np.uint8)
    split = ds.NumpySlicesDataset({"image": image[None]}, shuffle=False).map(t.Compose([v.SlicePatches(2, 2), lambda *p: np.stack(p)]), ["image"])
    assert next(split.create_tuple_iterator(output_numpy=True))[0].shape == (4, 10, 10, 3)
    bad = ds.NumpySlicesDataset({"image": image[None]}, shuffle=False).map(t.Compose([v.SlicePatches(2, 2), v.ToTensor()]), ["image"])
    with pytest.raises(RuntimeError, match=r"map operation: \[ToTensor\] failed. The op is "
                                           r"OneToOne, can only accept one tensor as input."):
        next(bad.create_tuple_iterator(output_numpy=True))


@pytest.fixture
def seed_zero_one_worker():
    seed, workers = ds.config.get_seed(), ds.config.get_num_parallel_workers()
    ds.config.set_seed(0)
    ds.config.set_num_parallel_workers(1)
    yield
    ds.config.set_seed(seed)
    ds.config.set_num_parallel_workers(workers)


@pytest.mark.parametrize("op, expected", [
    # MindSpore 2.10's flips (1) of twelve images, seed 0, one worker
    (lambda: v.RandomHorizontalFlip(0.8), [1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1]),
    (lambda: v.RandomVerticalFlip(0.3), [0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0]),
])
def test_flips_of_arrays_draw_as_mindspores_cpp_op(seed_zero_one_worker, op, expected):
    images = np.arange(12 * 2 * 2 * 1, dtype=np.uint8).reshape(12, 2, 2, 1)
    data = ds.NumpySlicesDataset(images, column_names=["image"], shuffle=False)
    data = data.map(op(), input_columns=["image"])
    flips = [int(not np.array_equal(got, image)) for (got,), image in
             zip(data.create_tuple_iterator(output_numpy=True), images)]
    assert flips == expected


def test_each_iterator_starts_the_cpp_draws_afresh(seed_zero_one_worker):
    """MindSpore 2.10 makes its C++ ops anew, seeded, whenever an iterator builds the pipeline:
    two iterators give the same flips (seed 0, one worker), which go on over the epochs."""
    images = np.arange(12 * 2 * 2 * 1, dtype=np.uint8).reshape(12, 2, 2, 1)
    data = ds.NumpySlicesDataset(images, column_names=["image"], shuffle=False)
    data = data.map(v.RandomHorizontalFlip(0.5), input_columns=["image"])

    def flips():
        iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
        return [[int(not np.array_equal(got, image)) for (got,), image in zip(iterator, images)]
                for _ in range(2)]

    expected = [[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1], [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0]]
    assert flips() == expected
    assert flips() == expected
