"""MindDataset's row orders under its shuffles and samplers: MindRecord's reader shuffles with
std::default_random_engine (minstd) seeded by the dataset seed + 1 + epoch, composing epochs,
and shards by stride (or by block with MS_DEV_MINDRECORD_SHARD_BY_BLOCK). The expected orders
are MindSpore 2.10's for the same files (13 rows, ids 0..12, in two files of 7 and 6)."""
import pytest

import cellgraph.dataset as ds
from cellgraph.mindrecord import FileWriter


@pytest.fixture
def files(tmp_path):
    writer = FileWriter(str(tmp_path / "orders.mindrecord"), 2)
    writer.add_schema({"id": {"type": "int32"}}, "ids")
    writer.write_raw_data([{"id": i} for i in range(13)])
    writer.commit()
    return [str(tmp_path / "orders.mindrecord0"), str(tmp_path / "orders.mindrecord1")]


@pytest.fixture(autouse=True)
def _seed(monkeypatch):
    monkeypatch.delenv("MS_DEV_MINDRECORD_SHARD_BY_BLOCK", raising=False)
    seed = ds.config.get_seed()
    ds.config.set_seed(7)
    yield
    ds.config.set_seed(seed)


def _epochs(data, count):
    it = data.create_dict_iterator(num_epochs=count, output_numpy=True)
    return [[int(r["id"]) for r in it] for _ in range(count)]


def test_global_shuffle_composes_epochs(files):
    expected = [[12, 6, 9, 8, 0, 7, 10, 3, 2, 11, 4, 1, 5],
                [2, 3, 6, 0, 7, 10, 9, 11, 5, 12, 4, 1, 8],
                [6, 7, 1, 8, 11, 2, 5, 0, 3, 10, 12, 9, 4]]
    assert _epochs(ds.MindDataset(files, shuffle=True), 3) == expected
    assert _epochs(ds.MindDataset(files, sampler=ds.RandomSampler()), 3) == expected
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.ADAPTIVE), 1) == expected[:1]


def test_files_and_infile_shuffles(files):
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.FILES), 2) == [
        [7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0]]
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.INFILE), 2) == [
        [5, 6, 1, 2, 0, 3, 4, 11, 12, 8, 9, 10, 7], [2, 5, 6, 0, 3, 4, 1, 7, 11, 9, 12, 10, 8]]


def test_draws_with_replacement(files):
    sampler = ds.RandomSampler(replacement=True, num_samples=6)
    assert _epochs(ds.MindDataset(files, sampler=sampler), 2) == [[11, 0, 10, 2, 2, 10],
                                                                   [11, 2, 0, 11, 2, 2]]
    # as MindSpore: a shuffled source cut to num_samples draws with replacement
    assert _epochs(ds.MindDataset(files, shuffle=True, num_samples=5), 1) == [[11, 0, 10, 2, 2]]


def test_shards(files, monkeypatch):
    assert _epochs(ds.MindDataset(files, shuffle=True, num_shards=2, shard_id=1), 2) == [
        [6, 8, 7, 3, 11, 1, 12], [7, 4, 6, 9, 0, 11, 8]]
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.INFILE, num_shards=2,
                                  shard_id=0), 1) == [[5, 1, 0, 4, 12, 9, 7]]
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.FILES, num_shards=2,
                                  shard_id=0), 1) == [[7, 9, 11, 0, 2, 4, 6]]
    assert _epochs(ds.MindDataset(files, shuffle=False, num_shards=3, shard_id=1), 1) == [
        [1, 4, 7, 10, 0]]
    monkeypatch.setenv("MS_DEV_MINDRECORD_SHARD_BY_BLOCK", "true")
    assert _epochs(ds.MindDataset(files, shuffle=False, num_shards=3, shard_id=1), 1) == [
        [5, 6, 7, 8, 9]]


def test_added_sampler_samples_the_shuffled_rows(files, monkeypatch):
    data = ds.MindDataset(files, sampler=ds.RandomSampler())
    data.add_sampler(ds.DistributedSampler(4, 2, shuffle=False))
    assert _epochs(data, 1) == [[9, 10, 4, 6]]
    monkeypatch.setenv("MS_DEV_MINDRECORD_SHARD_BY_BLOCK", "true")
    data = ds.MindDataset(files, sampler=ds.RandomSampler())
    data.add_sampler(ds.DistributedSampler(4, 2, shuffle=False))
    assert _epochs(data, 1) == [[2, 11, 4, 1]]
    with pytest.raises(RuntimeError, match="must be Shuffle.FALSE or Shuffle.GLOBAL"):
        data.add_sampler(ds.RandomSampler(shuffle=ds.Shuffle.FILES))


def test_missing_file_and_the_data_file_of_a_failing_map(files, tmp_path):
    missing = tmp_path / "missing.mindrecord"
    with pytest.raises(ValueError, match=f"The file {missing} does not exist or permission "
                                         f"denied!"):
        ds.MindDataset(str(missing))
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        ds.MindDataset([files[0], str(missing)])

    def fail(_):
        raise ValueError("no")

    data = ds.MindDataset(files, shuffle=False).map(operations=fail, input_columns=["id"])
    with pytest.raises(RuntimeError, match=f"The corresponding data file is: {files[0]}"):
        next(data.create_dict_iterator(num_epochs=1))


def test_partial_shuffle(files):
    # MindRecord's slow-load shuffle: files in a shuffled order, then blocks of rows shuffled
    expected = [[6, 0, 3, 2, 7, 1, 4, 10, 9, 5, 11, 8, 12],
                [2, 1, 8, 11, 12, 0, 9, 3, 6, 7, 4, 5, 10]]
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.PARTIAL), 2) == expected
    sampler = ds.RandomSampler(shuffle=ds.Shuffle.PARTIAL)
    assert _epochs(ds.MindDataset(files, sampler=sampler), 2) == expected
    assert _epochs(ds.MindDataset(files, shuffle=ds.Shuffle.PARTIAL, num_samples=5), 2) == [
        [10, 11, 8, 9, 7], [10, 7, 8, 11, 9]]


def test_sampler_chains_refuse_partial_and_other_parents():
    parent = ds.DistributedSampler(8, 1, shuffle=ds.Shuffle.PARTIAL)
    with pytest.raises(RuntimeError, match="shuffle of the input sampler must not be "
                                           "Shuffle.PARTIAL"):
        parent.add_child(ds.RandomSampler(shuffle=ds.Shuffle.PARTIAL))
    parent = ds.DistributedSampler(8, 1, shuffle=ds.Shuffle.INFILE)
    with pytest.raises(RuntimeError, match="shuffle of the current sampler must be "
                                           "Shuffle.FALSE or Shuffle.GLOBAL, but got: "
                                           "Shuffle.INFILE"):
        parent.add_child(ds.RandomSampler())


def test_padded_sample_checks(tmp_path):
    import numpy as np

    path = str(tmp_path / "pad.mindrecord")
    writer = FileWriter(path, 1)
    writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                       "data": {"type": "float64"}}, "s")
    writer.write_raw_data([{"file_name": f"{i}.jpg", "label": i, "data": float(i)}
                           for i in range(10)])
    writer.commit()
    columns = ["label", "file_name", "data"]
    good = {"data": 1.5, "file_name": "x.jpg", "label": -1}
    data = ds.MindDataset(path, columns, 1, num_shards=4, shard_id=3, padded_sample=good,
                          num_padded=2, shuffle=False)
    assert [(int(r["label"]), float(r["data"])) for r in data.create_dict_iterator(
        num_epochs=1, output_numpy=True)] == [(3, 3.0), (7, 7.0), (-1, 1.5)]  # MindSpore's
    bad = dict(good, data=np.array([1, 2, 3]))
    data = ds.MindDataset(path, columns, 1, num_shards=4, shard_id=3, padded_sample=bad,
                          num_padded=2, shuffle=False)
    with pytest.raises(RuntimeError, match=r"Invalid padded_sample, the value of column: data "
                                           r"should be string or number but got: \{\}"):
        list(data.create_dict_iterator(num_epochs=1))
    sampler = ds.SequentialSampler()
    sampler.add_child(ds.RandomSampler())
    data = ds.MindDataset(path, columns, 1, sampler=sampler, padded_sample=good, num_padded=1)
    with pytest.raises(RuntimeError, match="is not distributed sampling"):
        list(data.create_dict_iterator(num_epochs=1))


def test_missing_file_is_checked_before_the_worker_count(tmp_path):
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        ds.MindDataset(str(tmp_path / "none.mindrecord"), ["id"], 4096)
