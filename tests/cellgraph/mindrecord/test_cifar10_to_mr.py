"""Cifar10ToMR: pickled CIFAR-10 batches -> MindRecord rows that MindDataset reads back."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.mindrecord import Cifar10ToMR

pytest.importorskip("PIL")


def _write_batches(directory, rng):
    """Smooth images (JPEG keeps them within a few levels) and their labels."""
    truth = {}
    ramp = np.linspace(0, 200, 32, dtype=np.float64)
    for name, count in [(f"data_batch_{i}", 2) for i in range(1, 6)] + [("test_batch", 3)]:
        images = np.stack([np.broadcast_to(ramp[:, None, None] + rng.uniform(0, 50, 3),
                                           (32, 32, 3)) for _ in range(count)]).astype(np.uint8)
        labels = rng.integers(0, 10, count).tolist()
        data = images.transpose(0, 3, 1, 2).reshape(count, -1)  # channel-major rows
        with open(directory / name, "wb") as f:
            pickle.dump({b"data": data, b"labels": labels}, f)
        truth[name] = (images, labels)
    return truth


def _read(path):
    data = ds.MindDataset(str(path), shuffle=False)
    data = data.map(vision.Decode(), input_columns="data")
    return list(data.create_dict_iterator(output_numpy=True))


def test_train_and_test_files_round_trip(tmp_path):
    source = tmp_path / "cifar-10-batches-py"
    source.mkdir()
    truth = _write_batches(source, np.random.default_rng(0))
    Cifar10ToMR(str(source), str(tmp_path / "cifar10.mindrecord")).transform(["label"])
    train = _read(tmp_path / "cifar10.mindrecord")
    expected = [(img, lab) for i in range(1, 6)
                for img, lab in zip(*truth[f"data_batch_{i}"])]
    assert [int(r["id"]) for r in train] == list(range(10))
    assert [int(r["label"]) for r in train] == [lab for _, lab in expected]
    for row, (image, _) in zip(train, expected):
        assert row["data"].shape == (32, 32, 3)
        assert np.abs(row["data"].astype(int) - image).mean() < 3  # JPEG is lossy
    test = _read(tmp_path / "cifar10.mindrecord_test")
    assert [int(r["label"]) for r in test] == truth["test_batch"][1]


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="not a directory"):
        Cifar10ToMR(str(tmp_path / "missing"), str(tmp_path / "out"))
    with pytest.raises(FileNotFoundError, match="data_batch_1"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out")).run()
    with pytest.raises(ValueError, match="fields"):
        Cifar10ToMR(str(tmp_path), str(tmp_path / "out")).run(["data"])
