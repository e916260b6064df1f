"""MixUpBatch, CutMixBatch and ImageBatchFormat: MindSpore 2.10's values on the same inputs
and seed (its C++ kernels draw from std::mt19937 through libstdc++'s shuffle and gamma)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.dataset.vision import ImageBatchFormat


@pytest.fixture(autouse=True)
def _restore_seed():
    seed = ds.config.get_seed()
    yield
    ds.config.set_seed(seed)


LABELS = np.eye(3, dtype=np.int32)[[0, 1, 2, 1]]


def test_mixup_batch_matches_mindspore():
    ds.config.set_seed(7)
    images = (np.arange(48) * 5 % 256).astype(np.uint8).reshape(4, 2, 2, 3)
    out, labels = vision.MixUpBatch(0.5)(images, LABELS)
    # MindSpore 2.10's output
    assert out.dtype == np.uint8 and labels.dtype == np.float32
    assert out.reshape(4, -1).tolist() == [
        [15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70],
        [60, 65, 70, 75, 80, 85, 90, 95, 100, 105, 110, 115],
        [105, 110, 115, 120, 125, 130, 135, 140, 145, 150, 155, 160],
        [180, 185, 190, 195, 200, 205, 210, 215, 220, 225, 230, 235]]
    np.testing.assert_allclose(labels, [[0.8731885552406311, 0.0, 0.1268114447593689],
                                        [0.0, 1.0, 0.0],
                                        [0.1268114447593689, 0.0, 0.8731885552406311],
                                        [0.0, 1.0, 0.0]], rtol=1e-6)


def test_cutmix_batch_nchw_matches_mindspore():
    ds.config.set_seed(7)
    images = (np.arange(64) * 3 % 256).astype(np.uint8).reshape(4, 1, 4, 4)
    out, labels = vision.CutMixBatch(ImageBatchFormat.NCHW, 1.0, 1.0)(images, LABELS)
    # MindSpore 2.10's output
    assert out.reshape(4, -1).tolist() == [
        [0, 99, 102, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45],
        [48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 30, 81, 84, 87, 90, 93],
        [96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 183, 138, 141],
        [144, 147, 150, 153, 156, 159, 162, 165, 168, 171, 174, 177, 180, 183, 90, 189]]
    assert labels.tolist() == [[0.875, 0.0, 0.125], [0.0625, 0.9375, 0.0],
                               [0.0, 0.0625, 0.9375], [0.0, 1.0, 0.0]]


def test_cutmix_prob_zero_keeps_batch():
    images = np.arange(2 * 3 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3, 3)
    out, labels = vision.CutMixBatch(ImageBatchFormat.NHWC, 1.0, 0.0)(images, LABELS[:2])
    np.testing.assert_array_equal(out, images)
    np.testing.assert_array_equal(labels, LABELS[:2].astype(np.float32))


def test_image_batch_format_values():
    assert [(m.name, m.value) for m in ImageBatchFormat] == [("NHWC", 0), ("NCHW", 1)]


def test_argument_checks():
    with pytest.raises(ValueError, match="alpha must be greater than 0"):
        vision.MixUpBatch(0)
    with pytest.raises(TypeError):
        vision.MixUpBatch("1")
    with pytest.raises(TypeError):
        vision.CutMixBatch("NHWC")
    with pytest.raises(ValueError):
        vision.CutMixBatch(ImageBatchFormat.NHWC, 1.0, 1.5)


def test_input_checks():
    images = np.zeros((2, 3, 3, 3), np.uint8)
    with pytest.raises(RuntimeError, match="You may need to perform Batch first"):
        vision.CutMixBatch(ImageBatchFormat.NHWC)(images[0], LABELS[:2])
    with pytest.raises(RuntimeError, match="batch sizes of image and label must be the same"):
        vision.CutMixBatch(ImageBatchFormat.NHWC)(images, LABELS)
    with pytest.raises(RuntimeError, match="wrong labels shape"):
        vision.MixUpBatch()(images, np.zeros(2, np.int32))
    with pytest.raises(RuntimeError, match="invalid label type"):
        vision.MixUpBatch()(images, np.array([["a"], ["b"]]))


def test_set_seed_seeds_numpy_and_random():
    """MindSpore's set_seed seeds `random` and `numpy.random` too: its tests draw their data
    from numpy after it (MixUpBatch's float-label test, MindSpore 2.10's values)."""
    import random

    ds.config.set_seed(0)
    first = (random.random(), np.random.randint(0, 255, 4).tolist())
    ds.config.set_seed(0)
    assert (random.random(), np.random.randint(0, 255, 4).tolist()) == first
    ds.config.set_seed(0)
    np.random.randint(0, 255, (3, 28, 28, 1), dtype=np.uint8)
    label = np.random.randint(0, 5, (3, 1))
    assert label.ravel().tolist() == [1, 4, 4]
    _, mixed = vision.MixUpBatch()(np.zeros((3, 2, 2, 1), np.uint8),
                                   np.eye(5, dtype=np.float64)[label.ravel()])
    np.testing.assert_allclose(mixed, [[0, 0.8252811, 0, 0, 0.1747189], [0, 0, 0, 0, 1],
                                       [0, 0.1747189, 0, 0, 0.8252811]], rtol=1e-6)


def _mixup_batch():
    images = (np.arange(12) * 7 % 256).astype(np.uint8).reshape(3, 2, 2, 1)
    return images, np.eye(3, dtype=np.float32)[[0, 2, 1]]


def test_mixup_single_matches_mindspore():
    ds.config.set_seed(3)
    images, labels = _mixup_batch()
    out, mixed = vision.MixUp(3, 0.5)(images, labels)
    # MindSpore 2.10's output (Beta draws from numpy.random, seeded by set_seed)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.reshape(3, -1), [
        [17.445766, 24.445766, 31.445766, 38.445766], [49.143175, 56.143175, 63.143175, 70.143175],
        [15.040774, 22.040774, 29.040774, 36.040774]], atol=1e-6)
    np.testing.assert_allclose(mixed, [[0.376937, 0.0, 0.623063], [0.0, 0.755113, 0.244887],
                                       [0.731415, 0.268585, 0.0]], atol=1e-6)


def test_mixup_across_batches_matches_mindspore():
    ds.config.set_seed(3)
    images, labels = _mixup_batch()
    vision.MixUp(3, 0.5)(images, labels)  # the draws the single-batch test makes first
    op = vision.MixUp(3, 0.5, False)
    first, first_labels = op(images, labels)
    np.testing.assert_array_equal(first, images)  # the first batch passes unchanged
    np.testing.assert_array_equal(first_labels, labels)
    out, mixed = op(images + 10, labels[::-1])
    # MindSpore 2.10's output: mixed with the previous batch's output
    np.testing.assert_allclose(out.reshape(3, -1), [
        [5.670861, 12.670861, 19.670861, 26.670861], [28.018381, 35.018381, 42.018381, 49.018381],
        [58.806095, 65.806095, 72.806095, 79.806095]], atol=1e-6)
    np.testing.assert_allclose(mixed, [[0.432914, 0.567086, 0.0], [0.0, 0.0, 1.0],
                                       [0.28061, 0.71939, 0.0]], atol=1e-6)


def test_mixup_argument_checks():
    with pytest.raises(TypeError):
        vision.MixUp(3, 0.5, 1)
    with pytest.raises(TypeError):
        vision.MixUp(3.0, 0.5)
    with pytest.raises(ValueError):
        vision.MixUp(0, 0.5)
    with pytest.raises(ValueError, match="alpha must be greater than 0"):
        vision.MixUp(3, 0)
