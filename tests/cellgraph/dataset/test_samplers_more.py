"""WeightedRandomSampler and FashionMnistDataset."""
import numpy as np
import pytest

import cellgraph.dataset as ds

from .formats import write_mnist


def test_weighted_random_sampler_follows_the_weights():
    ds.config.set_seed(5)
    sampler = ds.WeightedRandomSampler([0, 1, 0, 3], num_samples=2000)
    data = ds.NumpySlicesDataset(np.arange(4), ["x"], sampler=sampler)
    assert data.get_dataset_size() == 2000
    counts = np.bincount([int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)],
                         minlength=4)
    assert counts[0] == counts[2] == 0 and abs(counts[3] / 2000 - 0.75) < 0.05
    with pytest.raises(ValueError, match="nonzero weights"):
        ds.WeightedRandomSampler([1, 0], num_samples=2, replacement=False)


def test_fashion_mnist_reads_the_idx_files(tmp_path):
    images = np.random.default_rng(1).integers(0, 256, (3, 28, 28), dtype=np.uint8)
    write_mnist(tmp_path, {"train": images}, {"train": np.array([9, 0, 4])})
    data = ds.FashionMnistDataset(str(tmp_path), usage="train", shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [9, 0, 4] and rows[0][1].dtype == np.uint32
    np.testing.assert_array_equal(rows[1][0][..., 0], images[1])
