"""Random samplers give MindSpore 2.10's orders once a dataset seed is set (`dataset.config.
set_seed`, or `set_seed`, which sets it too): the orders below were recorded from MindSpore
2.10 over the same rows (MNIST files whose image k has first pixel k)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import dataset as ds

RECORDED = {  # from MindSpore 2.10 CPU
    "mnist10_seed1": [[9, 0, 2, 5, 7, 4, 6, 3, 1, 8], [4, 9, 5, 0, 1, 7, 6, 2, 3, 8]],
    "mnist200_set_seed7": [
        [197, 76, 51, 52, 129, 87, 22, 45, 32, 27, 10, 135, 173, 158, 3, 90, 56, 169, 155, 74,
         141, 82, 154, 103, 120, 15, 53, 150, 26, 33, 175, 68, 163, 49, 192, 41, 181, 54, 138,
         110],
        [60, 168, 185, 44, 2, 127, 50, 31, 118, 174, 88, 193, 175, 64, 140, 167, 196, 153, 63,
         150, 132, 12, 83, 92, 99, 149, 54, 46, 22, 1, 192, 154, 89, 155, 91, 145, 138, 70, 163,
         35]],
    "replacement10_seed3": [[5, 0, 7, 8, 2, 1, 5, 5], [9, 9, 5, 1, 9, 8, 7, 6]],
    "generator12_seed11": [[5, 11, 10, 2, 8, 7, 3, 4, 6, 0, 1, 9],
                           [1, 2, 6, 0, 7, 10, 3, 11, 5, 8, 4, 9]],
}


def _idx(array: np.ndarray) -> bytes:
    return bytes([0, 0, 8, array.ndim]) + b"".join(int(n).to_bytes(4, "big")
                                                   for n in array.shape) + array.tobytes()


@pytest.fixture
def mnist(tmp_path):
    def folder(n):
        path = tmp_path / f"mnist{n}"
        path.mkdir()
        images = np.zeros((n, 28, 28), np.uint8)
        images[:, 0, 0] = np.arange(n)
        (path / "train-images-idx3-ubyte").write_bytes(_idx(images))
        (path / "train-labels-idx1-ubyte").write_bytes(_idx(np.zeros(n, np.uint8)))
        return str(path)
    return folder


def _orders(data, epochs, first=None):
    it = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(row[0].ravel()[0]) for row in it][:first] for _ in range(epochs)]


@pytest.fixture(autouse=True)
def _unseeded_after():
    yield
    ds.config.set_seed(5489)  # MindSpore's default, which counts as unset


def test_random_sampler_orders_over_epochs(mnist):
    ds.config.set_seed(1)
    assert _orders(ds.MnistDataset(mnist(10), shuffle=True), 2) == RECORDED["mnist10_seed1"]
    ms.set_seed(7)
    assert ds.config.get_seed() == 7
    assert _orders(ds.MnistDataset(mnist(200), shuffle=True), 2, first=40) == \
        RECORDED["mnist200_set_seed7"]


def test_draws_with_replacement(mnist):
    ds.config.set_seed(3)
    sampler = ds.RandomSampler(replacement=True, num_samples=8)
    assert _orders(ds.MnistDataset(mnist(10), sampler=sampler), 2) == \
        RECORDED["replacement10_seed3"]


def test_draws_with_replacement_stop_at_the_row_count():
    # num_samples beyond the rows: as many draws as rows, as MindSpore 2.10 gives (and counts)
    ds.config.set_seed(5)
    for sampler in (ds.RandomSampler(replacement=True, num_samples=8), None):
        data = ds.NumpySlicesDataset(list(range(6)), ["a"], sampler=sampler,
                                     num_samples=None if sampler else 9,
                                     shuffle=None if sampler else True)
        assert data.get_dataset_size() == 6
        assert [int(row[0]) for row in data.create_tuple_iterator(num_epochs=1)] == \
            [1, 0, 5, 4, 1, 2]
    data = ds.NumpySlicesDataset(list(range(3)), ["a"],
                                 sampler=ds.RandomSampler(replacement=True, num_samples=5))
    assert len(list(data.create_tuple_iterator(num_epochs=1))) == 3


def test_generator_and_numpy_slices_shuffle_alike():
    for data in (ds.GeneratorDataset([(np.array(i),) for i in range(12)], ["x"], shuffle=True),
                 ds.NumpySlicesDataset(np.arange(12), ["x"], shuffle=True)):
        ds.config.set_seed(11)
        assert _orders(data, 2) == RECORDED["generator12_seed11"]


def test_unseeded_orders_still_differ_between_passes(mnist):
    """Without a seed (MindSpore's default counts as none), each pass draws its own."""
    folder = mnist(50)
    orders = [_orders(ds.MnistDataset(folder, shuffle=True), 1)[0] for _ in range(3)]
    assert all(sorted(o) == list(range(50)) for o in orders)
    assert len({tuple(o) for o in orders}) > 1


def test_split_cuts_mindspores_permutation_and_keeps_its_order():
    # from MindSpore 2.10 CPU: split draws one permutation with its random sampler and cuts it;
    # each part keeps that order in every epoch (the dataset tutorial's split prints it)
    ds.config.set_seed(1234)
    train, test = ds.NumpySlicesDataset([1, 2, 3, 4, 5, 6], ["c"], shuffle=False).split([4, 2])
    assert [int(r[0]) for r in train] == [6, 4, 1, 5]
    assert [int(r[0]) for r in test] == [3, 2]
    ds.config.set_seed(58)
    train, test = ds.NumpySlicesDataset(list(range(10)), ["c"], shuffle=False).split([0.6, 0.4])
    epochs = train.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[int(r[0]) for r in epochs] for _ in range(2)] == [[1, 7, 4, 2, 9, 0]] * 2
    assert [int(r[0]) for r in test] == [6, 5, 3, 8]


def test_split_of_a_random_access_generator():
    class Source:
        def __getitem__(self, i):
            return (np.array(i * 10),)

        def __len__(self):
            return 7

    ds.config.set_seed(58)
    train, test = ds.GeneratorDataset(Source(), ["x"], shuffle=False).split([5, 2])
    assert [int(r[0]) for r in train] == [10, 40, 50, 30, 60]
    assert [int(r[0]) for r in test] == [20, 0]


@pytest.mark.parametrize("seed, buffer_size, rows, repeats, expected", [
    (0, 5, 12, 1, [4, 2, 3, 6, 1, 7, 9, 11, 5, 10, 8, 0]),
    (3, 4, 10, 2, [3, 4, 5, 1, 6, 0, 9, 8, 2, 7, 2, 3, 0, 4, 5, 8, 1, 6, 9, 7]),
    (7, 20, 9, 1, [0, 2, 1, 8, 6, 5, 3, 7, 4]),
])
def test_buffer_shuffle_gives_mindspores_order_once_seeded(seed, buffer_size, rows, repeats,
                                                           expected):
    """`shuffle(buffer_size)` after `config.set_seed`: MindSpore 2.10's orders (its ShuffleOp
    on std::mt19937_64, the generator going on over a repeat)."""
    old = ds.config.get_seed()
    try:
        ds.config.set_seed(seed)
        data = ds.NumpySlicesDataset(list(range(rows)), column_names=["x"], shuffle=False)
        data = data.shuffle(buffer_size).repeat(repeats)
        got = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    finally:
        ds.config.set_seed(old)
    assert got == expected


@pytest.fixture
def three_text_files(tmp_path):
    for name, lines in (("a", 3), ("b", 2), ("c", 4)):
        (tmp_path / f"{name}.txt").write_text("".join(f"{name}{i}\n" for i in range(lines)))
    return str(tmp_path / "*.txt")


def _text_epochs(data, epochs):
    it = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[str(r[0]) for r in it] for _ in range(epochs)]


@pytest.mark.parametrize("mode, expected", [
    (ds.Shuffle.FILES, [["c0", "c1", "c2", "c3", "b0", "b1", "a0", "a1", "a2",
                         "a0", "a1", "a2", "b0", "b1", "c0", "c1", "c2", "c3"],
                        ["c0", "c1", "c2", "c3", "b0", "b1", "a0", "a1", "a2",
                         "a0", "a1", "a2", "b0", "b1", "c0", "c1", "c2", "c3"]]),
    (ds.Shuffle.GLOBAL, [["a2", "a1", "b1", "c1", "a0", "c0", "c2", "c3", "b0",
                          "a1", "c1", "c2", "a0", "c0", "b1", "a2", "c3", "b0"],
                         ["a2", "c2", "b1", "c3", "a0", "a1", "c0", "c1", "b0",
                          "a1", "a2", "b1", "c3", "c0", "c1", "a0", "b0", "c2"]]),
])
def test_text_files_reshuffle_for_each_pass_of_a_repeat(three_text_files, mode, expected):
    """A seeded TextFileDataset orders its files again for every pass over it, a repeat's as
    an epoch's: MindSpore 2.10's rows over two epochs of `repeat(2)`."""
    old = ds.config.get_seed()
    try:
        ds.config.set_seed(3)
        data = ds.TextFileDataset(three_text_files, shuffle=mode, num_parallel_workers=1)
        got = _text_epochs(data.repeat(2), 2)
    finally:
        ds.config.set_seed(old)
    assert got == expected


def test_sharded_text_files_reshuffle_for_each_pass(three_text_files):
    """shuffle=True with a shard: MindSpore 2.10's rows over three passes of a repeat."""
    old = ds.config.get_seed()
    try:
        ds.config.set_seed(3)
        data = ds.TextFileDataset(three_text_files, shuffle=True, num_parallel_workers=2,
                                  num_shards=2, shard_id=1)
        got = _text_epochs(data.repeat(3), 1)
    finally:
        ds.config.set_seed(old)
    assert got == [["c2", "c3", "b0", "c1", "c0", "c0", "c3", "c2", "c1",
                    "a0", "c0", "a1", "b1", "a2", "a0"]]
