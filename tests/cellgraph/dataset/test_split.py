"""split as MindSpore 2.10 splits: a dataset without random access (a text file source, a
pipeline) in runs of the rows as read, or of MindSpore's seeded shuffle of them, the same in
every epoch; a part of a source with random access splits its own rows; a sharded dataset is
refused. Rows recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds

LINES = ["This is a text file.", "Another file.", "Be happy every day.", "End of file.",
         "Good luck to everyone."]


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("".join(line + "\n" for line in LINES))
    return str(path)


@pytest.fixture
def seed():
    old = ds.config.get_seed()
    yield ds.config.set_seed
    ds.config.set_seed(old)


def _lines(data):
    return [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]


def test_runs_of_the_lines_in_order(text_file):
    data = ds.TextFileDataset(text_file, shuffle=False)
    parts = data.split([2, 1, 2], randomize=False)
    assert [_lines(p) for p in parts] == [LINES[:2], LINES[2:3], LINES[3:]]
    first, second = ds.TextFileDataset(text_file, shuffle=False).split([0.8, 0.2])
    assert first.get_dataset_size() == 4 and second.get_dataset_size() == 1


@pytest.mark.parametrize("seed_value, first, second", [
    (53, [0, 2, 1], [4, 3]),
    (7, [0, 2, 4], [3, 1]),
])
def test_a_seeded_shuffle_orders_the_parts_the_same_every_epoch(text_file, seed, seed_value,
                                                                first, second):
    seed(seed_value)
    parts = ds.TextFileDataset(text_file, shuffle=False).split([0.6, 0.4])
    assert [_lines(p) for p in parts] == [[LINES[i] for i in first], [LINES[i] for i in second]]
    assert [_lines(p.repeat(2)) for p in parts] == [[LINES[i] for i in first] * 2,
                                                    [LINES[i] for i in second] * 2]


def test_a_pipeline_splits_in_the_shuffled_order(seed):
    seed(53)
    data = ds.NumpySlicesDataset(list(range(7)), ["x"], shuffle=False).map(lambda x: x)
    parts = data.split([4, 3])
    assert [[int(r[0]) for r in p.create_tuple_iterator(output_numpy=True)] for p in parts] == \
        [[2, 6, 1, 0], [3, 5, 4]]


def test_unseeded_parts_do_not_overlap(text_file):
    """The parts MindSpore documents: disjoint (without a seed, MindSpore 2.10 shuffles each
    part's copy with a seed of its own, so its parts may share rows; cellgraph's share one
    permutation)."""
    parts = ds.TextFileDataset(text_file, shuffle=False).split([3, 2])
    rows = [_lines(p) for p in parts]
    assert sorted(rows[0] + rows[1]) == sorted(LINES)


def test_a_sharded_dataset_is_refused(text_file):
    sharded = ds.TextFileDataset(text_file, num_shards=2, shard_id=0)
    with pytest.raises(RuntimeError, match="Dataset should not be sharded before split."):
        sharded.split([2, 1])
    numbers = ds.NumpySlicesDataset(np.arange(6), ["x"], num_shards=2, shard_id=1)
    with pytest.raises(RuntimeError, match="Dataset should not be sharded before split."):
        numbers.split([2, 1])
    with pytest.raises(RuntimeError, match="Dataset should not be sharded before split."):
        numbers.map(lambda x: x).split([2, 1])
    assert len(ds.NumpySlicesDataset(np.arange(6), ["x"], num_shards=1, shard_id=0).split(
        [2, 4])) == 2


def test_a_part_of_a_source_splits_its_own_rows(seed):
    """A part of a source with random access split again: MindSpore 2.10's rows."""
    def ids(data):
        return [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]

    seed(53)
    first, second = ds.NumpySlicesDataset(list(range(10)), ["x"], shuffle=False).split([6, 4])
    assert ids(first) == [9, 1, 4, 0, 8, 6] and ids(second) == [2, 7, 5, 3]
    parts = first.split([2, 3, 1], randomize=False)
    assert [ids(p) for p in parts] == [[9, 1], [4, 0, 8], [6]]
    assert [p.get_dataset_size() for p in parts] == [2, 3, 1]
    assert [ids(p) for p in first.split([0.5, 0.5])] == [[0, 1, 8], [9, 6, 4]]


def test_a_sampler_given_to_a_part_samples_the_parts_rows(seed):
    """use_sampler on a part shards the part (MindSpore 2.10's rows)."""
    seed(53)
    first, _ = ds.NumpySlicesDataset(list(range(10)), ["x"], shuffle=False).split([6, 4])
    first.use_sampler(ds.DistributedSampler(2, 1, shuffle=False))
    assert [int(r[0]) for r in first.create_tuple_iterator(output_numpy=True)] == [1, 0, 6]
