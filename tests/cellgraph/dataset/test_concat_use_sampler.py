"""ConcatDataset.use_sampler and DistributedSampler's offset: the shards of a concatenation as
MindSpore 2.10 gives them (values recorded from it running the same programs)."""
import numpy as np
import pytest

from cellgraph import dataset as ds


def _gen(start, stop):
    def gen():
        for i in range(start, stop):
            yield (np.array([i]),)
    return gen


def _values(data, **kw):
    return [int(r["c"][0]) for r in data.create_dict_iterator(output_numpy=True, **kw)]


def test_iterable_children_are_sharded_by_position():
    data = ds.GeneratorDataset(_gen(0, 5), ["c"]) + ds.GeneratorDataset(_gen(5, 8), ["c"])
    shards = []
    for shard in range(9):
        data.use_sampler(ds.DistributedSampler(9, shard, shuffle=False))
        shards.append(_values(data))
    assert shards == [[0], [1], [2], [3], [4], [5], [6], [7], []]


def test_random_access_children_get_offset_samplers():
    first = ds.PaddedDataset([{"c": np.array([k])} for k in range(1, 6)])
    second = ds.PaddedDataset([{"c": np.array([k])} for k in range(6, 9)])
    data = first + second
    got = []
    for shard in range(9):  # the children's full sizes count, however often it is resharded
        data.use_sampler(ds.DistributedSampler(9, shard, shuffle=False))
        got.append((_values(data), data.get_dataset_size()))
    assert got == [([k], 1) for k in range(1, 9)] + [([], 0)]


def test_position_goes_on_over_repeats_and_epochs():
    data = ds.GeneratorDataset(_gen(0, 3), ["c"]) + ds.GeneratorDataset(_gen(10, 12), ["c"])
    data.use_sampler(ds.DistributedSampler(2, 0, shuffle=False))
    assert _values(data.repeat(2)) == [0, 2, 11, 1, 10]
    it = data.create_dict_iterator(num_epochs=2, output_numpy=True)
    assert [[int(r["c"][0]) for r in it] for _ in range(2)] == [[0, 2, 11], [1, 10]]


def test_iterable_then_random_access_child():
    data = ds.GeneratorDataset(_gen(0, 3), ["c"]) + ds.GeneratorDataset(
        [np.array([20 + i]) for i in range(4)], ["c"], shuffle=False)
    got = []
    for shard in range(3):
        data.use_sampler(ds.DistributedSampler(3, shard, shuffle=False))
        got.append(_values(data))
    assert got == [[0, 20, 23], [1, 21], [2, 22]]


def test_distributed_sampler_offset():
    data = ds.GeneratorDataset([np.array([i]) for i in range(7)], ["c"], shuffle=False)
    data.use_sampler(ds.DistributedSampler(3, 1, shuffle=False, offset=2))
    assert _values(data) == [2, 5]
    assert data.get_dataset_size() == 2


@pytest.mark.parametrize("sampler, error, message", [
    (lambda: ds.SequentialSampler(), TypeError,
     "of concat must be DistributedSampler or RandomSampler!"),
    (lambda: ds.DistributedSampler(2, 0), ValueError,
     "The parameter shuffle of DistributedSampler must be False!"),
    (lambda: ds.DistributedSampler(2, 0, shuffle=False, num_samples=2), ValueError,
     "The parameter num_samples of DistributedSampler is not support to be set!"),
    (lambda: ds.RandomSampler(replacement=True), ValueError,
     "The parameter replacement of RandomSampler must be False!"),
    (lambda: ds.RandomSampler(num_samples=2), ValueError,
     "The parameter num_samples of RandomSampler is not support to be set!"),
])
def test_use_sampler_refusals(sampler, error, message):
    data = ds.GeneratorDataset(_gen(0, 3), ["c"]) + ds.GeneratorDataset(_gen(10, 12), ["c"])
    with pytest.raises(error, match=message):
        data.use_sampler(sampler())


def test_random_sampler_draws_every_row_once():
    data = ds.GeneratorDataset(_gen(0, 3), ["c"]) + ds.GeneratorDataset(_gen(10, 12), ["c"])
    data.use_sampler(ds.RandomSampler())
    got = _values(data)
    assert sorted(got) == [0, 1, 2, 10, 11]
    assert [v for v in got if v < 10] == [0, 1, 2]  # each child still read front to back


def test_text_file_child_is_read_front_to_back(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("a\nb\nc\n")
    got = []
    for shard in range(2):
        text = ds.TextFileDataset(str(lines), shuffle=False)
        data = text + ds.PaddedDataset([{"text": np.array("p")}, {"text": np.array("q")}])
        data.use_sampler(ds.DistributedSampler(2, shard, shuffle=False))
        got.append((data.get_dataset_size(),
                    [str(r["text"]) for r in data.create_dict_iterator(output_numpy=True)]))
    assert got == [(3, ["a", "c", "q"]), (2, ["b", "p"])]
