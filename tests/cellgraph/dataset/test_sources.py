"""Dataset sources: Python data, the on-disk formats (tiny files written here), samplers and
sharding."""
import os

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.primitives.errors import UnsupportedError
from tests.cellgraph.dataset.formats import (
    cifar_records,
    random_images,
    write_cifar10,
    write_idx,
    write_mnist,
)


def _column(dataset, index=0) -> list:
    return [row[index].tolist() for row in dataset.create_tuple_iterator(output_numpy=True)]


@pytest.fixture(autouse=True)
def _seeded():
    ds.config.set_seed(1234)


# ----- Python sources ------------------------------------------------------------------------

def test_generator_function_source_in_order():
    def gen():
        for i in range(5):
            yield np.array([i, 2 * i], np.float32), np.array(i % 2, np.int32)

    data = ds.GeneratorDataset(gen, column_names=["x", "y"])
    assert data.get_col_names() == ["x", "y"]
    assert data.get_dataset_size() == 5
    rows = list(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[3][0], [3, 6])
    assert rows[3][0].dtype == np.float32 and rows[3][1].dtype == np.int32
    assert [r[1].item() for r in rows] == [0, 1, 0, 1, 0]


def test_random_access_source_is_shuffled_unless_told_not_to():
    class Source:
        def __getitem__(self, i):
            return np.array(i), np.array(10 * i)

        def __len__(self):
            return 20

    ordered = ds.GeneratorDataset(Source(), ["a", "b"], shuffle=False)
    assert _column(ordered) == list(range(20))
    assert _column(ordered, 1) == [10 * i for i in range(20)]
    shuffled = _column(ds.GeneratorDataset(Source(), ["a", "b"]))
    assert sorted(shuffled) == list(range(20)) and shuffled != list(range(20))


def test_list_of_tuples_is_a_random_access_source():
    data = ds.GeneratorDataset([(np.array([1.0]), np.array(1)), (np.array([2.0]), np.array(0))],
                               column_names=["x", "y"], shuffle=False)
    assert _column(data, 1) == [1, 0]


def test_generator_source_reads_in_order_under_shuffle_and_rejects_a_sampler():
    """As MindSpore: shuffle=True on a source without random access reads it in order (with a
    warning here, so it is not silent); a sampler is refused."""
    def rows():
        return iter([(np.array(i),) for i in range(5)])

    with pytest.warns(UserWarning, match="shuffle=True has no effect"):
        data = ds.GeneratorDataset(rows, ["x"], shuffle=True)
    assert _column(data) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="sampler is not supported if source does not have attribute '__getitem__'"):
        ds.GeneratorDataset(rows, ["x"], sampler=ds.SequentialSampler())


def test_numpy_slices_from_list_tuple_and_dict():
    assert _column(ds.NumpySlicesDataset([4, 5, 6], ["a"], shuffle=False)) == [4, 5, 6]
    pair = ds.NumpySlicesDataset((np.arange(3), np.arange(3) * 2.0), shuffle=False)
    assert pair.get_col_names() == ["column_0", "column_1"]
    assert _column(pair, 1) == [0.0, 2.0, 4.0]
    table = ds.NumpySlicesDataset({"x": np.ones((4, 2)), "y": np.arange(4)}, shuffle=False)
    assert table.get_col_names() == ["x", "y"]
    assert [r["y"].item() for r in table.create_dict_iterator(output_numpy=True)] == [0, 1, 2, 3]


def test_numpy_slices_checks_lengths_and_names():
    with pytest.raises(ValueError, match="different lengths"):
        ds.NumpySlicesDataset((np.arange(3), np.arange(4)))
    with pytest.raises(ValueError, match="column name"):
        ds.NumpySlicesDataset((np.arange(3), np.arange(3)), column_names=["only_one"])


# ----- sharding and samplers -----------------------------------------------------------------

@pytest.mark.parametrize("shuffle", [False, True])
def test_shards_are_disjoint_equal_and_cover_the_data(shuffle):
    shards = [_column(ds.NumpySlicesDataset(np.arange(10), ["a"], shuffle=shuffle,
                                            num_shards=3, shard_id=k)) for k in range(3)]
    assert [len(s) for s in shards] == [4, 4, 4]  # ceil(10 / 3), padded by wrapping around
    assert set().union(*shards) == set(range(10))
    if not shuffle:
        assert shards[1] == [1, 4, 7, 0]


def test_distributed_sampler_gives_every_rank_the_same_permutation():
    per_rank = []
    for rank in range(2):
        data = ds.NumpySlicesDataset(np.arange(8), ["a"],
                                     sampler=ds.DistributedSampler(2, rank, shuffle=True))
        per_rank.append(_column(data))
    assert sorted(per_rank[0] + per_rank[1]) == list(range(8))


def test_a_generator_without_random_access_cannot_be_sharded():
    # MindSpore 2.10 refuses num_shards (and sampler, batch_sampler) for such a source
    with pytest.raises(ValueError, match="num_shards is not supported if source does not have "
                                         "attribute '__getitem__'."):
        ds.GeneratorDataset(lambda: (np.array(i) for i in range(7)), ["a"], num_shards=2,
                            shard_id=1)


def test_sampler_and_shuffle_together_is_an_error():
    with pytest.raises(ValueError, match="Conflicting arguments during sampler assignments"):
        ds.NumpySlicesDataset(np.arange(4), ["a"], shuffle=True,
                              sampler=ds.SequentialSampler())


def test_subset_and_sequential_samplers():
    assert _column(ds.NumpySlicesDataset(np.arange(6) * 10, ["a"],
                                         sampler=ds.SubsetSampler([4, 1]))) == [40, 10]
    assert _column(ds.NumpySlicesDataset(np.arange(6), ["a"], sampler=ds.SequentialSampler(
        start_index=2, num_samples=3))) == [2, 3, 4]
    picked = _column(ds.NumpySlicesDataset(np.arange(6), ["a"],
                                           sampler=ds.SubsetRandomSampler([0, 2, 5])))
    assert sorted(picked) == [0, 2, 5]


class _EveryOther(ds.Sampler):
    """MindSpore's user-defined sampler: __iter__ over self.dataset_size."""

    def __iter__(self):
        yield from range(0, self.dataset_size, 2)


class _Reversed(ds.Sampler):
    def __init__(self):  # skips the base __init__, as some user samplers do
        pass

    def __iter__(self):
        return iter(range(self.dataset_size - 1, -1, -1))


def test_user_defined_samplers_and_index_lists():
    data = ds.NumpySlicesDataset(np.arange(7) * 10, ["a"], sampler=_EveryOther())
    assert _column(data) == [0, 20, 40, 60]
    assert data.get_dataset_size() == 4
    limited = ds.NumpySlicesDataset(np.arange(7), ["a"], sampler=_EveryOther(num_samples=2))
    assert _column(limited) == [0, 2] and limited.get_dataset_size() == 2
    assert _column(ds.NumpySlicesDataset(np.arange(3), ["a"], sampler=_Reversed())) == [2, 1, 0]
    assert _column(ds.NumpySlicesDataset(np.arange(5), ["a"], sampler=[4, 0, 2])) == [4, 0, 2]
    with pytest.raises(RuntimeError, match=r"Sample ID \(9\) is out of bound, expected range "
                                           r"\[0, 4\]"):
        _column(ds.NumpySlicesDataset(np.arange(5), ["a"], sampler=[9]))
    with pytest.raises(RuntimeError, match=r"Sample ID \(500\) is out of bound, expected range "
                                           r"\[0, 9\]"):
        _column(ds.NumpySlicesDataset(np.arange(10), ["a"],
                                      sampler=ds.SubsetSampler([0, 9, 0, 500, -1])))
    with pytest.raises(TypeError, match="a user-defined sampler must define __iter__"):
        _column(ds.NumpySlicesDataset(np.arange(5), ["a"], sampler=ds.Sampler()))
    with pytest.raises(TypeError, match=r"Unsupported sampler object of type \(<class 'str'>\)"):
        ds.NumpySlicesDataset(np.arange(5), ["a"], sampler="all")


# ----- on-disk formats -------------------------------------------------------------------------

def test_mnist_idx_files(tmp_path):
    rng = np.random.default_rng(0)
    train = rng.integers(0, 256, (5, 28, 28), dtype=np.uint8)
    test = rng.integers(0, 256, (2, 28, 28), dtype=np.uint8)
    write_mnist(tmp_path, {"train": train, "test": test},
                {"train": np.array([3, 1, 4, 1, 5]), "test": np.array([9, 2])})
    data = ds.MnistDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 5
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert rows[2][0].shape == (28, 28, 1) and rows[2][0].dtype == np.uint8
    np.testing.assert_array_equal(rows[2][0][..., 0], train[2])
    assert [r[1].item() for r in rows] == [3, 1, 4, 1, 5] and rows[0][1].dtype == np.uint32
    assert ds.MnistDataset(str(tmp_path)).get_dataset_size() == 7
    assert _column(ds.MnistDataset(str(tmp_path), "test", shuffle=False), 1) == [9, 2]


def test_idx_header_is_checked(tmp_path):
    (tmp_path / "train-images-idx3-ubyte").write_bytes(b"\x01\x02\x03\x04")
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(1))
    with pytest.raises(ValueError, match="not an IDX file"):
        ds.MnistDataset(str(tmp_path), "train").get_dataset_size()


def test_cifar10_binary_batches_give_hwc_images(tmp_path):
    rng = np.random.default_rng(1)
    images, labels = random_images(rng, 10), rng.integers(0, 10, 10)
    write_cifar10(tmp_path, images, labels, test=(images[:3], labels[:3]))
    data = ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_dataset_size() == 10
    rows = list(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), images)
    assert [r[1].item() for r in rows] == labels.tolist() and rows[0][1].dtype == np.uint32
    assert ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size() == 3
    assert ds.Cifar10Dataset(str(tmp_path)).get_dataset_size() == 13


def test_cifar100_has_coarse_and_fine_labels(tmp_path):
    rng = np.random.default_rng(2)
    images = random_images(rng, 4)
    (tmp_path / "train.bin").write_bytes(cifar_records(images, [1, 2, 3, 4], [50, 60, 70, 80]))
    (tmp_path / "test.bin").write_bytes(b"")
    data = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[1][0], images[1])
    assert [(r[1].item(), r[2].item()) for r in rows] == [(1, 50), (2, 60), (3, 70), (4, 80)]


def test_cifar_record_size_is_checked(tmp_path):
    (tmp_path / "train.bin").write_bytes(b"\x00" * 100)
    (tmp_path / "test.bin").write_bytes(b"")
    with pytest.raises(ValueError, match="records"):
        ds.Cifar100Dataset(str(tmp_path)).get_dataset_size()


def test_image_folder_labels_by_sorted_folder(tmp_path):
    image_mod = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(3)
    pixels = {}
    for label, name in enumerate(["cat", "dog"]):
        os.makedirs(tmp_path / name)
        for k in range(2):
            array = rng.integers(0, 256, (6, 5, 3), dtype=np.uint8)
            image_mod.fromarray(array).save(tmp_path / name / f"{k}.png")
            pixels[(label, k)] = array
    (tmp_path / "dog" / "notes.txt").write_text("not an image")
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 4 and data.get_class_indexing() == {"cat": 0, "dog": 1}
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[1].item() for r in rows] == [0, 0, 1, 1] and rows[0][1].dtype == np.int32
    assert rows[0][0].ndim == 1 and rows[0][0].dtype == np.uint8  # the encoded file
    decoded = list(ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True)
                   .create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(decoded[3][0], pixels[(1, 1)])


class _Rows:
    def __getitem__(self, i):
        return np.array([i, i * 10]), np.int64(i)

    def __len__(self):
        return 5


def test_generator_batch_sampler_and_collate_fn_as_mindspore():
    # MindSpore 2.10 gives these rows for the same program
    data = ds.GeneratorDataset(_Rows(), ["a", "b"], batch_sampler=[[0, 1], [2, 3, 4]])
    rows = [[x.tolist() for x in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[[[0, 0], [1, 10]], [0, 1]], [[[2, 20], [3, 30], [4, 40]], [2, 3, 4]]]
    seen = []

    def collate(a, b):
        seen.append((len(a), len(b)))
        return np.concatenate(a), np.stack(b)

    data = ds.GeneratorDataset(_Rows(), ["a", "b"], batch_sampler=[[0, 1], [4]],
                               collate_fn=collate)
    rows = [[x.tolist() for x in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [[[0, 0, 1, 10], [0, 1]], [[4, 40], [4]]] and seen == [(2, 2), (1, 1)]
    assert data.get_dataset_size() == 2
    with pytest.raises(ValueError, match="mutually exclusive"):
        ds.GeneratorDataset(_Rows(), ["a", "b"], batch_sampler=[[0]], shuffle=True)
    with pytest.raises(ValueError, match="only when batch_sampler"):
        ds.GeneratorDataset(_Rows(), ["a", "b"], collate_fn=collate)


def test_random_sampler_takes_a_shuffle_mode():
    rows = ds.NumpySlicesDataset(np.arange(6), ["x"], sampler=ds.RandomSampler(
        shuffle=ds.Shuffle.GLOBAL), shuffle=None)
    assert sorted(int(r[0]) for r in rows.create_tuple_iterator(output_numpy=True)) == \
        list(range(6))
    # MindSpore makes a RandomSampler of any shuffle mode; the modes cellgraph's samplers
    # cannot apply (FILES, INFILE, PARTIAL, FALSE) are refused when it samples; ADAPTIVE is
    # GLOBAL
    files = ds.NumpySlicesDataset(np.arange(6), ["x"], sampler=ds.RandomSampler(
        shuffle=ds.Shuffle.FILES))
    with pytest.raises(UnsupportedError, match="shuffle=Shuffle.FILES is not supported"):
        list(files)
    with pytest.raises(UnsupportedError, match="Shuffle.PARTIAL"):
        list(ds.NumpySlicesDataset(np.arange(6), ["x"], sampler=ds.RandomSampler(
            shuffle=ds.Shuffle.PARTIAL)))
    adaptive = ds.NumpySlicesDataset(np.arange(6), ["x"], sampler=ds.RandomSampler(
        shuffle=ds.Shuffle.ADAPTIVE))
    assert sorted(int(r[0]) for r in adaptive.create_tuple_iterator(output_numpy=True)) == \
        list(range(6))


class _TenTimes:
    def __getitem__(self, i):
        return (np.array(i * 10),)

    def __len__(self):
        return 6


@pytest.mark.parametrize("kwargs, expected", [
    ({"shuffle": False}, [0, 10, 20, 30, 40, 50]),
    ({"shuffle": True}, [50, 40, 10, 20, 30, 0]),  # MindSpore's order with seed 200
    ({"num_shards": 2, "shard_id": 1, "shuffle": False}, [10, 30, 50]),
])
def test_generator_random_access_follows_the_sampler(kwargs, expected):
    seed = ds.config.get_seed()
    ds.config.set_seed(200)
    try:
        data = ds.GeneratorDataset(_TenTimes(), ["c"], **kwargs)
        assert [int(data[i][0]) for i in range(data.get_dataset_size())] == expected
        assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == expected
    finally:
        ds.config.set_seed(seed)


def test_generator_random_access_errors():
    data = ds.GeneratorDataset([1, 2, 3], ["c"], shuffle=False)
    assert data[1] == 2  # the source's item itself
    with pytest.raises(RuntimeError, match=r"Index \[8\] exceeded the number of data samples."):
        data[8]
    with pytest.raises(RuntimeError, match=r"Index \[-1\] can not be a negative number."):
        data[-1]
    with pytest.raises(TypeError, match="Argument index with value x is not of type"):
        data["x"]

    def gen():
        yield (np.array(1),)

    with pytest.raises(RuntimeError, match="Dataset don't support randomized access."):
        ds.GeneratorDataset(gen, ["c"])[0]
