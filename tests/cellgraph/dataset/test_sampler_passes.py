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
