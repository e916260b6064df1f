"""RandomCrop on arrays: the places MindSpore 2.10's C++ op draws once a dataset seed is set
(left then top, by std::uniform_int_distribution over the op's mt19937, one engine per map
worker), pad_if_needed's padding on both sides, and a batch of frames drawing frame by frame;
the values were recorded from MindSpore 2.10. Each pixel of the test image names its place:
row * 16 + column + 17 (0 is padding)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision

from .seeded import mapped_rows as _rows


@pytest.fixture(autouse=True)
def keep_config():
    seed, workers = ds.config.get_seed(), ds.config.get_num_parallel_workers()
    yield
    ds.config.set_seed(seed)
    ds.config.set_num_parallel_workers(workers)


def _image(height, width, channels):
    base = (np.arange(height)[:, None] * 16 + np.arange(width)[None, :] + 17).astype(np.uint8)
    return np.repeat(base[:, :, None], channels, 2)


@pytest.mark.parametrize("op, workers, seed, corners, sums, shape", [
    (lambda: vision.RandomCrop(4), 1, 11, [17, 65, 34, 99, 18, 34],
     [2040, 4344, 2856, 5976, 2088, 2856], (4, 4, 3)),
    (lambda: vision.RandomCrop(4, padding=1), 1, 11, [0, 0, 18, 116, 0, 18],
     [1242, 3816, 2088, 4806, 1278, 2088], (4, 4, 3)),
    (lambda: vision.RandomCrop((4, 3)), 2, 3, [19, 101, 100, 35, 18, 101],
     [1584, 4536, 4500, 2160, 1548, 4536], (4, 3, 3)),
    (lambda: vision.RandomCrop(9, pad_if_needed=True), 1, 11, [0, 0, 0, 17, 0, 0],
     [15876] * 6, (9, 9, 3)),
])
def test_seeded_crops_are_mindspores(op, workers, seed, corners, sums, shape):
    rows = _rows(op(), np.stack([_image(9, 7, 3)] * 6), workers, seed)
    assert [int(r[0, 0, 0]) for r in rows] == corners
    assert [int(r.sum()) for r in rows] == sums
    assert rows[0].shape == shape


def test_pad_if_needed_pads_both_sides():
    out = vision.RandomCrop(9, pad_if_needed=True)(_image(9, 7, 1))
    assert out.shape == (9, 9, 1)  # from 9 x 11: two columns added on each side
    ds.config.set_seed(11)
    columns = {int(np.flatnonzero(row[0, :, 0])[0]) for row in _rows(
        vision.RandomCrop(9, pad_if_needed=True), np.stack([_image(9, 7, 1)] * 6))}
    assert columns == {0, 1, 2}


def test_frames_of_a_batch_draw_one_by_one():
    video = np.stack([np.stack([_image(6, 6, 1)] * 3)] * 2)
    rows = _rows(vision.RandomCrop(3), video)
    assert [[int(frame[0, 0, 0]) for frame in row] for row in rows] == [[17, 49, 18],
                                                                        [67, 18, 18]]


def test_a_crop_of_the_whole_image_is_the_image():
    images = np.stack([_image(4, 4, 3)] * 3)
    later = _rows(vision.RandomCrop(4), images)
    assert all(np.array_equal(row, images[0]) for row in later)
