"""GeneratorDataset and the sharded sampler as MindSpore 2.10 has them: the shards' shuffle,
batch samplers, what a source must return, a source without __len__."""
import numpy as np
import pytest

import cellgraph.dataset as ds


@pytest.fixture
def restore_seed():
    old = ds.config.get_seed()
    yield
    ds.config.set_seed(old)


def _epochs(data, count, column=0):
    iterator = data.create_tuple_iterator(num_epochs=count, output_numpy=True)
    return [[int(np.asarray(r[column]).ravel()[0]) for r in iterator] for _ in range(count)]


@pytest.mark.parametrize("seed, expected", [
    # MindSpore 2.10's rows of shard 2 of 4 over two epochs
    (4321, [[17, 19, 1, 16, 12], [16, 12, 7, 4, 11]]),
    (5489, [[12, 3, 15, 2, 19], [2, 6, 1, 5, 0]]),  # its default seed shuffles shards too
    (1, [[17, 18, 10, 2, 6], [7, 0, 19, 9, 8]]),
])
def test_sharded_shuffle_is_mindspores(restore_seed, seed, expected):
    ds.config.set_seed(seed)
    data = [np.array([i]) for i in range(20)]
    sliced = ds.NumpySlicesDataset((data, list(range(20))), ["data", "label"], num_shards=4,
                                   shard_id=2)
    assert _epochs(sliced, 2, column=1) == expected
    generated = ds.GeneratorDataset(list(range(20)), ["x"], num_shards=4, shard_id=2)
    assert _epochs(generated, 1) == expected[:1]
    # the seed is the one set when the sampler was made
    sampler = ds.DistributedSampler(4, 2)
    ds.config.set_seed(seed + 7)
    with_sampler = ds.GeneratorDataset(list(range(20)), ["x"], sampler=sampler)
    assert _epochs(with_sampler, 1) == expected[:1]


class _Batches:
    """A batch sampler that shuffles with a generator of its own."""

    def __init__(self):
        self.indices = [[0, 1], [2, 3], [4, 5], [6]]
        self.generator = np.random.default_rng(0)

    def __iter__(self):
        self.generator.shuffle(self.indices)
        return iter(self.indices)


def test_each_iterator_reads_its_own_copy_of_the_batch_sampler():
    data = ds.GeneratorDataset([10, 11, 12, 13, 14, 15, 16], ["x"], batch_sampler=_Batches())
    assert data.get_batch_size() == -1
    assert data.batch(1).get_batch_size() == 1
    first = _epochs(data, 3)
    assert first[0] != first[1]  # the sampler's generator goes on over an iterator's epochs
    assert _epochs(data, 3) == first  # and starts afresh in the next iterator
    data.set_init_step(4)  # so a resumed iterator gives what the first one gave
    resumed = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0][0]) for r in resumed] == first[1]


def test_collate_fn_gets_the_dicts_a_source_returns():
    class Dicts:
        def __getitem__(self, index):
            return {"data": np.array([index], np.int32)}, 1

        def __len__(self):
            return 4

    def collate(data, label):
        return np.stack([d["data"] for d in data]), np.stack(label)

    data = ds.GeneratorDataset(Dicts(), ["data", "label"], batch_sampler=[[0, 1], [3]],
                               collate_fn=collate)
    rows = [[c.tolist() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[[[0], [1]], [1, 1]], [[[3]], [1]]]


def test_a_row_of_the_wrong_width_is_mindspores_error():
    class Same:
        def __init__(self, value):
            self.value = value

        def __getitem__(self, index):
            return self.value

        def __len__(self):
            return 2

    pair = (np.array([1]), np.array([2, 3]))
    with pytest.raises(RuntimeError, match="the size of column_names is:1 and number of "
                                           "returned NumPy array is:2"):
        list(ds.GeneratorDataset(Same(pair), ["data"]).create_tuple_iterator())
    # one array is one column, whatever its shape
    with pytest.raises(RuntimeError, match="the size of column_names is:2 and number of "
                                           "returned NumPy array is:1"):
        list(ds.GeneratorDataset(Same(np.ones((2, 2))), ["a", "b"]).create_tuple_iterator())
    rows = list(ds.GeneratorDataset(Same(np.ones((2, 2))), ["a"]).create_tuple_iterator(
        output_numpy=True))
    assert [r[0].shape for r in rows] == [(2, 2), (2, 2)]


def test_a_source_with_getitem_but_no_len():
    class NoLength:
        def __getitem__(self, index):
            return np.array([index])

    data = ds.GeneratorDataset(NoLength(), ["x"])
    message = "Attempt to construct a random access dataset, '__len__' method is required!"
    with pytest.raises(RuntimeError, match=message):
        data.get_dataset_size()
    with pytest.raises(RuntimeError, match=message):
        list(data.create_tuple_iterator())


def test_num_parallel_workers_is_kept():
    assert ds.GeneratorDataset([1, 2], ["x"]).num_parallel_workers == 1
    assert ds.GeneratorDataset([1, 2], ["x"], num_parallel_workers=2).num_parallel_workers == 2
