"""vision.ResizedCrop, and Resize with Inter.NEAREST (OpenCV's source index floor(dst / scale)),
pixels and checks as MindSpore 2.10 gives them (recorded from it)."""
import io
import os

import numpy as np
import pytest

import cellgraph.dataset as ds
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


def test_resize_bilinear_blends_an_edge_row_with_itself_as_opencv_does():
    # OpenCV clamps the rows above and below the image to its edge row but keeps their
    # weights, each product floored on its own: the top row's middle pixel is 79 where the
    # edge row taken whole gives 80 (MindSpore 2.10's numbers)
    image = (np.arange(3 * 4) * 53 % 251).astype(np.uint8).reshape(3, 4)
    assert v.Resize((9, 5))(image).tolist() == [
        [0, 37, 79, 122, 159], [0, 37, 80, 122, 159], [71, 49, 66, 109, 146],
        [141, 61, 53, 96, 133], [212, 73, 41, 83, 120], [199, 119, 69, 70, 107],
        [186, 164, 98, 57, 94], [173, 210, 127, 44, 81], [173, 210, 127, 44, 81]]


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


def _coordinates() -> np.ndarray:
    """A 30x50 image whose channels are its row, its column and their sum."""
    rows, cols = np.meshgrid(np.arange(30), np.arange(50), indexing="ij")
    return np.stack([rows, cols, rows + cols], -1).astype(np.uint8)


@pytest.fixture
def seed():
    old = ds.config.get_seed()
    yield ds.config.set_seed
    ds.config.set_seed(old)


def test_random_resized_crop_draws_mindspore_s_crops_on_the_dataset_seed(seed):
    # MindSpore's C++ GetCropBox on std::mt19937: the rows and columns each crop holds
    seed(7)
    data = ds.NumpySlicesDataset({"image": np.stack([_coordinates()] * 6)}, shuffle=False)
    crop = v.RandomResizedCrop((3, 4), scale=(0.05, 0.9), ratio=(0.5, 2.0),
                               interpolation=v.Inter.NEAREST)
    data = data.map(crop, input_columns="image", num_parallel_workers=1)
    got = [(im[:, 0, 0].tolist(), im[0, :, 1].tolist())
           for im in (item["image"] for item in data.create_dict_iterator(output_numpy=True))]
    assert got == [([4, 9, 14], [31, 33, 36, 39]), ([5, 11, 17], [11, 19, 28, 37]),
                   ([0, 4, 8], [10, 13, 16, 19]), ([4, 12, 21], [16, 22, 29, 36]),
                   ([3, 11, 20], [1, 6, 12, 17]), ([8, 14, 20], [24, 30, 36, 42])]


def test_random_crop_decode_resize_draws_mindspore_s_crops_on_the_dataset_seed(seed):
    seed(3)
    buffer = io.BytesIO()
    Image = pytest.importorskip("PIL.Image")  # the JPEG the op decodes is written by Pillow
    Image.fromarray(_coordinates()).save(buffer, format="PNG")
    png = np.frombuffer(buffer.getvalue(), np.uint8)
    data = ds.NumpySlicesDataset({"image": [png] * 4}, shuffle=False)
    crop = v.RandomCropDecodeResize((2, 3), scale=(0.05, 0.9), ratio=(0.5, 2.0),
                                    interpolation=v.Inter.NEAREST)
    data = data.map(crop, input_columns="image", num_parallel_workers=1)
    got = [(im[:, 0, 0].tolist(), im[0, :, 1].tolist())
           for im in (item["image"] for item in data.create_dict_iterator(output_numpy=True))]
    assert got == [([0, 12], [3, 16, 29]), ([2, 14], [20, 29, 38]), ([2, 12], [8, 11, 15]),
                   ([10, 18], [18, 21, 24])]


def _crops_over_two_epochs(workers):
    data = ds.NumpySlicesDataset({"image": np.stack([_coordinates()] * 7)}, shuffle=False)
    crop = v.RandomResizedCrop((3, 4), scale=(0.05, 0.9), ratio=(0.5, 2.0),
                               interpolation=v.Inter.NEAREST)
    data = data.map(crop, input_columns="image", num_parallel_workers=workers)
    rows = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    return [(im[:, 0, 0].tolist(), im[0, :, 1].tolist()) for _ in range(2) for (im,) in rows]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="a map of two workers needs two CPUs")
def test_each_map_worker_draws_from_its_own_copy_of_the_op_in_turn(seed):
    # MindSpore 2.10: worker w's copy is seeded with seed + w, the rows go to the workers in
    # turn, and each epoch's end takes a turn (so epoch 2 starts on worker 1 after 7 rows)
    seed(7)
    assert _crops_over_two_epochs(2) == [
        ([4, 9, 14], [31, 33, 36, 39]), ([3, 10, 17], [3, 11, 20, 28]),
        ([5, 11, 17], [11, 19, 28, 37]), ([16, 19, 22], [17, 19, 22, 24]),
        ([0, 4, 8], [10, 13, 16, 19]), ([4, 12, 21], [14, 19, 25, 31]),
        ([4, 12, 21], [16, 22, 29, 36]),
        ([3, 11, 20], [1, 6, 12, 17]), ([1, 7, 13], [8, 16, 25, 34]),
        ([8, 14, 20], [24, 30, 36, 42]), ([2, 10, 18], [14, 22, 30, 38]),
        ([9, 16, 23], [15, 19, 23, 27]), ([0, 8, 16], [7, 16, 26, 36]),
        ([5, 7, 10], [23, 26, 29, 32])]
    # one worker: one copy; the first epoch's rows are those test_random_resized_crop_...
    # above draws
    seed(7)
    assert _crops_over_two_epochs(1)[:3] == [([4, 9, 14], [31, 33, 36, 39]),
                                              ([5, 11, 17], [11, 19, 28, 37]),
                                              ([0, 4, 8], [10, 13, 16, 19])]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="a map of two workers needs two CPUs")
def test_debug_mode_runs_the_map_on_one_worker(seed):
    seed(7)
    one = _crops_over_two_epochs(1)
    ds.config.set_debug_mode(True)
    try:
        seed(7)
        assert _crops_over_two_epochs(2) == one
    finally:
        ds.config.set_debug_mode(False)
