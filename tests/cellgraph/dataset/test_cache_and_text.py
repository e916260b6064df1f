"""DatasetCache, PKSampler, TextFileDataset, the iterator classes and MindSpore's module
paths of the pipeline classes."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.engine import datasets, datasets_vision

from .formats import random_images, write_cifar10


@pytest.fixture(autouse=True)
def _seed():
    ds.config.set_seed(3)


def _column(data, index=0):
    return [row[index].tolist() for row in data.create_tuple_iterator(output_numpy=True)]


def test_a_cached_map_runs_its_operations_once():
    calls = []

    def double(x):
        calls.append(int(x))
        return x * 2

    cache = ds.DatasetCache(session_id=1)
    data = ds.NumpySlicesDataset(np.arange(5), column_names=["x"], shuffle=False)
    mapped = data.map(double, input_columns="x", cache=cache).repeat(3)
    assert _column(mapped) == [0, 2, 4, 6, 8] * 3
    assert calls == [0, 1, 2, 3, 4]  # the second and third passes come from the cache
    stat = cache.get_stat()
    assert stat.num_mem_cached == 5 and stat.num_disk_cached == 0 and stat.avg_cache_sz == 8


def test_a_cached_source_reads_its_files_once(tmp_path, monkeypatch):
    images = random_images(np.random.default_rng(0), 6)
    write_cifar10(tmp_path, images, np.arange(6) % 3, test=(images[:1], np.zeros(1)))
    cache = ds.DatasetCache(session_id=1)
    data = datasets_vision.Cifar10Dataset(str(tmp_path), usage="train", cache=cache)
    first = {int(r[1]): r[0] for r in data.create_tuple_iterator(output_numpy=True)}
    reads = []
    monkeypatch.setattr(type(data), "row_at", lambda self, i: reads.append(i))
    second = {int(r[1]): r[0] for r in data.create_tuple_iterator(output_numpy=True)}
    assert reads == [] and first.keys() == second.keys()  # every row came from the cache
    assert cache.get_stat().num_mem_cached == 6


def test_a_full_cache_keeps_what_fits_and_spilling_is_refused():
    tiny = ds.DatasetCache(session_id=2, size=1)
    tiny._store(("k", 0), (np.zeros(2 ** 20, np.uint8),))
    tiny._store(("k", 1), (np.zeros(10, np.uint8),))
    assert tiny.get_stat().num_mem_cached == 1  # the 1 MB row fit; the next one did not
    with pytest.raises(ValueError, match="spilling"):
        ds.DatasetCache(1, spilling=True)


def test_pk_sampler_takes_k_rows_of_every_class():
    labels = np.array([2, 0, 1, 0, 2, 0, 1])
    data = ds.NumpySlicesDataset({"x": np.arange(7), "label": labels},
                                 sampler=ds.PKSampler(2))
    assert _column(data) == [1, 3, 2, 6, 0, 4]  # classes 0, 1, 2 in order, first two each
    assert data.get_dataset_size() == 6
    small = ds.NumpySlicesDataset({"x": np.arange(3), "label": np.array([0, 0, 1])},
                                  sampler=ds.PKSampler(3))
    assert _column(small) == [0, 1, 0, 2, 2, 2]  # a small class repeats its rows
    shuffled = ds.NumpySlicesDataset({"x": np.arange(7), "label": labels},
                                     sampler=ds.PKSampler(2, shuffle=True))
    rows = _column(shuffled, 1)
    assert sorted(rows) == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError, match="no column 'label'"):
        ds.NumpySlicesDataset(np.arange(3), column_names=["x"], sampler=ds.PKSampler(1))


def test_text_file_dataset_reads_lines_in_file_order(tmp_path):
    (tmp_path / "b.txt").write_text("three\nfour\n")
    (tmp_path / "a.txt").write_text("one\ntwo\r\n")
    # MindSpore's values: its parallel readers (8 by default) take a line from each file in
    # turn, one reader goes file by file; the "\r" of a "\r\n" ending stays
    data = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False)
    assert data.get_col_names() == ["text"] and data.get_dataset_size() == 4
    assert _column(data) == ["one", "three", "two\r", "four"]
    one_reader = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False,
                                    num_parallel_workers=1)
    assert _column(one_reader) == ["one", "two\r", "three", "four"]
    shuffled = ds.TextFileDataset([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")])
    assert sorted(_column(shuffled)) == ["four", "one", "three", "two\r"]
    files = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=ds.Shuffle.FILES)
    assert _column(files) in (["one", "three", "two\r", "four"],
                              ["three", "one", "four", "two\r"])
    shard = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False, num_shards=2,
                               shard_id=1)
    assert _column(shard) == ["three", "four"]  # equal runs of the lines, file after file
    wrapped = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False, num_shards=3,
                                 shard_id=2, num_parallel_workers=1)
    assert _column(wrapped) == ["one", "two\r"]  # wrapping around to the first lines
    with pytest.raises(ValueError, match="The following patterns did not match any files"):
        ds.TextFileDataset(str(tmp_path / "*.csv"))
    (tmp_path / "blank.txt").write_text("x\n\n  \n")
    assert _column(ds.TextFileDataset(str(tmp_path / "blank.txt"))) in (["x", "  "],
                                                                         ["  ", "x"])


def test_iterator_classes_and_module_paths():
    data = ds.NumpySlicesDataset({"a": np.arange(3), "b": np.arange(3) * 2}, shuffle=False)
    it = data.create_tuple_iterator(columns=["b"], output_numpy=True)
    assert isinstance(it, ds.TupleIterator)
    assert [row[0].tolist() for row in it] == [0, 2, 4]
    assert [r["a"].tolist() for r in ds.DictIterator(data, output_numpy=True)] == [0, 1, 2]
    assert isinstance(data.batch(2), datasets.BatchDataset)
    assert isinstance(data, datasets.Dataset)
    assert datasets_vision.Cifar10Dataset is ds.Cifar10Dataset
    assert datasets_vision.ImageFolderDataset is ds.ImageFolderDataset


def test_image_folder_dataset_decodes_class_folders(tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    for label, colour in (("cat", (255, 0, 0)), ("dog", (0, 0, 255))):
        (tmp_path / label).mkdir()
        image_module.new("RGB", (4, 3), colour).save(tmp_path / label / "x.png")
    data = datasets_vision.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [0, 1] and rows[0][0].shape == (3, 4, 3)
    np.testing.assert_array_equal(rows[1][0][0, 0], [0, 0, 255])
