"""MnistDataset and its IDX-format kin (KMnistDataset, FashionMnistDataset) find their files as
MindSpore does: usage "all" pairs every images/labels file in sorted order, so the test part
(t10k) comes first. Expected orders are MindSpore 2.10's on the same files."""
import numpy as np
import pytest

import cellgraph.dataset as ds

from .formats import write_mnist

TRAIN_LABELS = np.arange(12) % 5
TEST_LABELS = np.array([7, 8, 9, 6])


@pytest.fixture
def folder(tmp_path):
    rng = np.random.default_rng(0)
    images = {"train": rng.integers(0, 256, (12, 28, 28)), "test": rng.integers(0, 256, (4, 28, 28))}
    write_mnist(tmp_path, images, {"train": TRAIN_LABELS, "test": TEST_LABELS})
    return str(tmp_path)


def _labels(data):
    return [int(row[1]) for row in data.create_tuple_iterator(output_numpy=True)]


@pytest.mark.parametrize("source", [ds.KMnistDataset, ds.MnistDataset, ds.FashionMnistDataset])
def test_usage_all_reads_the_test_part_first(folder, source):
    data = source(folder, usage="all", shuffle=False)
    assert data.get_dataset_size() == 16
    assert _labels(data) == [7, 8, 9, 6, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]
    assert _labels(source(folder, usage="test", shuffle=False)) == [7, 8, 9, 6]
    row = next(source(folder, usage="train", shuffle=False).create_tuple_iterator(
        output_numpy=True))
    assert row[0].shape == (28, 28, 1) and row[0].dtype == np.uint8
    assert row[1].dtype == np.uint32


def test_kmnist_shuffle_and_shards_follow_mindspore(folder):
    ds.config.set_seed(3)
    assert _labels(ds.KMnistDataset(folder, usage="all", shuffle=False)) == \
        [7, 8, 9, 6, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]
    assert _labels(ds.KMnistDataset(folder, usage="all")) == \
        [6, 1, 4, 1, 2, 2, 3, 3, 1, 0, 8, 9, 0, 7, 4, 0]
    assert _labels(ds.KMnistDataset(folder, usage="test")) == [6, 8, 7, 9]
    assert _labels(ds.KMnistDataset(folder, num_shards=3, shard_id=1, shuffle=False)) == \
        [8, 0, 3, 1, 4, 7]


def test_kmnist_errors_are_mindspores(folder, tmp_path):
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of "
                                         r"\['train', 'test', 'all'\]"):
        ds.KMnistDataset(folder, usage="x")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.KMnistDataset(str(tmp_path / "none"))
    with pytest.raises(RuntimeError, match="sampler and shuffle cannot be specified"):
        ds.KMnistDataset(folder, shuffle=False, sampler=ds.PKSampler(2))
    (tmp_path / "t10k-labels-idx1-ubyte").rename(tmp_path / "moved")
    with pytest.raises(RuntimeError, match="Invalid kmnist file, num of images should be equal to "
                                           "num of labels, "
                                           "but got num of images: 2, num of labels: 1"):
        ds.KMnistDataset(folder).get_dataset_size()
