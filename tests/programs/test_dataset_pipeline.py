"""A CIFAR-style input pipeline: GeneratorDataset over a generator function, Python callables
and vision transforms in map (random crop with padding, flips), shuffle, batch with
drop_remainder, repeat, take/skip, split, zip/rename/project, and the dict iterator with
num_epochs and output_numpy."""
import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph.dataset import transforms, vision


def generator(n=40):
    rng = np.random.default_rng(0)
    for i in range(n):
        image = rng.integers(0, 256, size=(8, 8, 3)).astype(np.uint8)
        yield image, np.array(i % 10, np.int64)


def test_train_pipeline_shapes_types_and_epochs():
    ds.config.set_seed(1)
    data = ds.GeneratorDataset(generator, column_names=["image", "label"], shuffle=False)
    assert data.get_dataset_size() == 40
    trans = [
        vision.RandomCrop((8, 8), padding=(2, 2, 2, 2)),
        vision.RandomHorizontalFlip(prob=0.5),
        vision.Rescale(1.0 / 255.0, 0.0),
        vision.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
        vision.HWC2CHW(),
    ]
    data = data.map(operations=trans, input_columns="image", num_parallel_workers=2)
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    data = data.map(operations=lambda label: label + 100, input_columns="label")
    data = data.shuffle(buffer_size=10)
    data = data.batch(16, drop_remainder=True)
    data = data.repeat(2)
    assert data.get_dataset_size() == 4
    labels = []
    iterator = data.create_dict_iterator(num_epochs=1, output_numpy=True)
    for item in iterator:
        assert item["image"].shape == (16, 3, 8, 8)
        assert item["image"].dtype == np.float32
        # `label + 100` is the user's NumPy code on an int32 label: int32 on NumPy 2, int64 on
        # NumPy 1 (value-based promotion of 0-d arrays): the user's NumPy decides
        assert item["label"].dtype == (np.zeros((), np.int32) + 100).dtype
        labels.append(item["label"])
    assert len(labels) == 4
    all_labels = np.concatenate(labels[:2])
    assert set(all_labels) <= set(range(100, 110))
    assert sorted(np.concatenate(labels[:2]).tolist()) != np.concatenate(labels[:2]).tolist()


def test_take_skip_split_zip_project():
    def numbers():  # a dataset object feeds one pipeline only
        return ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.float32)}, shuffle=False)

    head = [int(item["x"]) for item in numbers().take(3).create_dict_iterator(output_numpy=True)]
    assert head == [0, 1, 2]
    tail = [int(row[0].asnumpy()) for row in numbers().skip(7).create_tuple_iterator()]
    assert tail == [7, 8, 9]
    train, test = numbers().split([0.8, 0.2], randomize=False)
    assert train.get_dataset_size() == 8 and test.get_dataset_size() == 2
    squares = ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.float32) ** 2}, shuffle=False)
    squares = squares.rename(input_columns=["x"], output_columns=["x2"])
    both = ds.zip((numbers(), squares)).project(["x2", "x"])
    first = next(both.create_tuple_iterator(output_numpy=True))
    assert first[0] == 0.0 and both.get_col_names() == ["x2", "x"]
    squares = ds.NumpySlicesDataset({"x2": np.arange(10, dtype=np.float32) ** 2}, shuffle=False)
    both = ds.zip((numbers(), squares)).project(["x2", "x"])
    rows = list(both.batch(5).create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[1][0], np.arange(5, 10) ** 2)


def test_batch_with_per_batch_map_and_padding():
    def pad_to_longest(sequences, batch_info):
        longest = max(len(s) for s in sequences)
        padded = [np.pad(s, (0, longest - len(s))) for s in sequences]
        return (np.stack(padded),)

    def sequences():
        for n in (1, 3, 2, 4):
            yield (np.arange(1, n + 1, dtype=np.int32),)

    data = ds.GeneratorDataset(sequences, column_names=["tokens"], shuffle=False)
    data = data.batch(2, per_batch_map=pad_to_longest, input_columns=["tokens"])
    batches = [b[0] for b in data.create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(batches[0], [[1, 0, 0], [1, 2, 3]])
    np.testing.assert_array_equal(batches[1], [[1, 2, 0, 0], [1, 2, 3, 4]])


class BalancedSampler(ds.Sampler):
    """A user-defined sampler: as many rows of each label, interleaved (reads the labels the
    script hands it and self.dataset_size, which the pipeline sets)."""

    def __init__(self, labels, per_class):
        super().__init__()
        self.labels = np.asarray(labels)
        self.per_class = per_class

    def __iter__(self):
        assert self.dataset_size == len(self.labels)
        groups = [np.flatnonzero(self.labels == c)[:self.per_class]
                  for c in np.unique(self.labels)]
        for row in zip(*groups):
            yield from row


def test_user_defined_sampler_balances_classes():
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 2, 2, 2])
    data = ds.NumpySlicesDataset({"label": labels, "index": np.arange(10)},
                                 sampler=BalancedSampler(labels, 2))
    assert data.get_dataset_size() == 6
    rows = [(int(r[0]), int(r[1])) for r in data.create_tuple_iterator(output_numpy=True)]
    assert [label for label, _ in rows] == [0, 1, 2, 0, 1, 2]
    assert [index for _, index in rows] == [0, 5, 7, 1, 6, 8]
