"""A random sampler draws a new order for every pass over its source, a repeat's as an
epoch's, as MindSpore resets its sampler for each (orders recorded from MindSpore 2.10 with
the dataset seed 1234)."""
import numpy as np
import pytest

from cellgraph import dataset as ds


@pytest.fixture(autouse=True)
def _seed():
    before = ds.config.get_seed()
    ds.config.set_seed(1234)
    yield
    ds.config.set_seed(before)


def _data(sampler):
    return ds.NumpySlicesDataset(np.arange(6), ["a"], sampler=sampler)


def _values(data, **kw):
    return [int(r["a"]) for r in data.create_dict_iterator(output_numpy=True, **kw)]


def test_repeat_draws_a_new_order_each_pass():
    assert _values(_data(ds.RandomSampler()).repeat(3)) == \
        [5, 3, 0, 4, 2, 1, 5, 3, 4, 0, 2, 1, 3, 4, 1, 5, 0, 2]
    assert _values(_data(ds.RandomSampler(num_samples=2)).repeat(3)) == [5, 3, 5, 3, 3, 4]
    assert _values(_data(ds.RandomSampler(replacement=True)).repeat(2)) == \
        [1, 2, 3, 4, 2, 3, 5, 5, 5, 4, 2, 5]


def test_epochs_and_repeats_count_together():
    it = _data(ds.RandomSampler()).create_dict_iterator(num_epochs=3, output_numpy=True)
    assert [[int(r["a"]) for r in it] for _ in range(3)] == \
        [[5, 3, 0, 4, 2, 1], [5, 3, 4, 0, 2, 1], [3, 4, 1, 5, 0, 2]]
    it = _data(ds.RandomSampler()).repeat(2).create_dict_iterator(num_epochs=2,
                                                                  output_numpy=True)
    assert [[int(r["a"]) for r in it] for _ in range(2)] == \
        [[5, 3, 0, 4, 2, 1, 5, 3, 4, 0, 2, 1], [3, 4, 1, 5, 0, 2, 1, 4, 5, 2, 3, 0]]


class _Ten(ds.Sampler):
    def __iter__(self):
        yield from range(10)


class _TenLong:
    def __init__(self, length):
        self.length = length

    def __iter__(self):
        yield from range(10)

    def __len__(self):
        return self.length


def _strings(sampler):
    return ds.GeneratorDataset([np.array(str(i)) for i in range(10)], ["a"], sampler=sampler)


@pytest.mark.parametrize("sampler, size", [(_Ten(5), 5), (_Ten(15), 15), (_TenLong(5), 5),
                                           (_TenLong(15), 15), (_Ten(), 10)])
def test_user_sampler_declared_size(sampler, size):
    data = _strings(sampler)
    assert data.get_dataset_size() == size
    if size <= 10:
        assert [str(r["a"]) for r in data.create_dict_iterator(output_numpy=True)] == \
            [str(i) for i in range(size)]
    else:
        with pytest.raises(RuntimeError, match="The actual amount of data read from generator 10 "
                                               "is different from generator.len 15"):
            list(data)


class _Counter(ds.Sampler):
    def __init__(self, num_samples=None):
        super().__init__(num_samples)
        self.cnt = 0

    def __iter__(self):
        return iter([self.cnt] * self.num_samples)

    def reset(self):
        self.cnt = (self.cnt + 1) % self.dataset_size


class _Drawn(ds.Sampler):
    def __init__(self):
        super().__init__()
        self.generator = np.random.default_rng(seed=0)

    def __iter__(self):
        indices = list(range(self.generator.integers(1, 11)))
        self.generator.shuffle(indices)
        return iter(indices)


def test_user_sampler_reset_and_a_copy_per_iterator():
    assert [int(r["a"]) for r in _data(_Counter(2)).repeat(4).create_dict_iterator(
        output_numpy=True)] == [0, 0, 1, 1, 2, 2, 3, 3]
    data = _strings(_Drawn())
    assert data.get_dataset_size() == 9
    runs = []
    for _ in range(2):  # each iterator starts from a fresh copy of the sampler
        it = data.create_dict_iterator(num_epochs=2, output_numpy=True)
        runs.append([[str(r["a"]) for r in it] for _ in range(2)])
    assert runs[0] == runs[1] and [len(epoch) for epoch in runs[0]] == [9, 6]


def test_subset_sampler_element_types():
    with pytest.raises(TypeError, match=r"SubsetSampler: Type of indices element must be int, "
                                        r"but got list\[0\]: 1.5, type: <class 'float'>."):
        ds.SubsetSampler([1.5, 7])
    with pytest.raises(TypeError, match=r"but got list\[0\]: \[1 2\], type: <class "
                                        r"'numpy.ndarray'>."):
        ds.SubsetSampler(np.array([[1, 2]]))
    assert _values(_data(ds.SubsetSampler(3))) == [3]
