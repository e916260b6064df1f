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


def test_any_iterable_is_a_sampler_as_in_mindspore():
    # the sampler tutorial's sampler: an object with __getitem__ and __len__ (MindSpore 2.10's
    # output below)
    class ByIndex:
        def __init__(self):
            self.index_ids = [3, 4, 3, 2, 0, 11, 5, 5, 5, 9, 1, 11, 11, 11, 11, 8]

        def __getitem__(self, index):
            return self.index_ids[index]

        def __len__(self):
            return len(self.index_ids)

    class Iterable:
        def __iter__(self):
            return iter([5, 1, 0])

    letters = list("abcdefghijkl")

    def read(data):
        return [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]

    data = ds.NumpySlicesDataset(letters, column_names=["data"], sampler=ByIndex())
    assert data.get_dataset_size() == 16
    assert "".join(read(data)) == "dedcalfffjblllli"
    data = ds.NumpySlicesDataset(letters, ["data"], sampler=ByIndex(), num_samples=4)
    assert read(data) == ["d", "e", "d", "c"]
    assert read(ds.NumpySlicesDataset(letters, ["data"], sampler=Iterable())) == ["f", "b", "a"]
    assert read(ds.NumpySlicesDataset(letters, ["data"], sampler=[2, 0], num_samples=1)) == ["c"]
    assert type(ds.IterSampler(Iterable())).__name__ == "IterSampler"
    with pytest.raises(TypeError, match="sampler should be either iterable"):
        ds.GeneratorDataset(letters, ["data"], sampler=7)
    with pytest.raises(TypeError, match="Unsupported sampler object"):
        ds.NumpySlicesDataset(letters, sampler="abc")


def test_a_builtin_sampler_conflicts_with_the_other_sampling_arguments():
    for extra in ({"shuffle": False}, {"num_samples": 2}, {"num_shards": 2, "shard_id": 0}):
        with pytest.raises(ValueError, match="Conflicting arguments during sampler assignments"):
            ds.NumpySlicesDataset([1, 2, 3], sampler=ds.SequentialSampler(), **extra)


@pytest.mark.parametrize("make", [
    lambda n: ds.RandomSampler(num_samples=n),
    lambda n: ds.NumpySlicesDataset([1, 2], num_samples=n),
])
def test_num_samples_out_of_range_or_not_an_int_reads_as_in_mindspore(make):
    """MindSpore's words, which its users' tests match: ValueError for a count outside
    [0, INT64_MAX], TypeError for one that is not an integer."""
    for bad in (-1, 2**63):
        with pytest.raises(ValueError, match=r"num_samples exceeds the boundary between 0 and "
                                             r"9223372036854775807\(INT64_MAX\)"):
            make(bad)
    with pytest.raises(TypeError, match="num_samples"):
        make(1.0)


def test_use_sampler_puts_the_new_sampler_on_top_of_the_child():
    """With a chain of samplers, use_sampler replaces the top one: the new sampler samples
    the child's output (MindSpore 2.10's rows)."""
    def ids(data):
        return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]

    data = ds.NumpySlicesDataset(list(range(10)), ["x"], sampler=ds.SequentialSampler(2, 6))
    data.add_sampler(ds.SequentialSampler(1, 3))
    assert ids(data) == [3, 4, 5]
    data.use_sampler(ds.DistributedSampler(2, 0, shuffle=False))
    assert ids(data) == [2, 4, 6]
    chain = ds.SequentialSampler(1, 4)
    chain.add_child(ds.SequentialSampler(3, 5))
    data = ds.NumpySlicesDataset(list(range(10)), ["x"], sampler=chain)
    assert ids(data) == [4, 5, 6, 7]
    data.use_sampler(ds.DistributedSampler(2, 1, shuffle=False))
    assert ids(data) == [4, 6, 3]
