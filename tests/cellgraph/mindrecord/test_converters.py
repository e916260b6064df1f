"""MnistToMR, Cifar100ToMR and CsvToMR: each dataset format into MindRecord files (MindSpore's
names and schemas) that FileReader and MindDataset read back; pickles that name classes are
refused."""
from __future__ import annotations

import gzip
import math
import pickle

import numpy as np
import pytest

import cellgraph as cg
import cellgraph.dataset as ds
from cellgraph.dataset import vision
from cellgraph.mindrecord import Cifar10ToMR, Cifar100ToMR, CsvToMR, FileReader, MnistToMR
from cellgraph.mindrecord.common.exceptions import PathNotExistsError


def _decoded(path):
    data = ds.MindDataset(str(path), shuffle=False).map(vision.Decode(), input_columns="data")
    return list(data.create_dict_iterator(output_numpy=True))


def _smooth_images(rng, count, channels):
    ramp = np.linspace(0, 200, 32)[:, None, None] + rng.uniform(0, 50, (count, 1, 1, channels))
    return np.broadcast_to(ramp, (count, 32, 32, channels)).astype(np.uint8)


def test_mnist_to_mr(tmp_path):
    pytest.importorskip("PIL")
    rng = np.random.default_rng(0)
    truth = {}
    for prefix, count in (("train", 5), ("t10k", 3)):
        images = np.full((count, 28, 28), 30, np.uint8)
        labels = rng.integers(0, 10, count).astype(np.uint8)
        for i, label in enumerate(labels):
            images[i, 4:12, 2 * label:2 * label + 8] = 220
        with gzip.open(tmp_path / f"{prefix}-images-idx3-ubyte.gz", "wb") as f:
            f.write(bytes([0, 0, 8, 3, 0, 0, 0, count, 0, 0, 0, 28, 0, 0, 0, 28]) +
                    images.tobytes())
        with gzip.open(tmp_path / f"{prefix}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(bytes([0, 0, 8, 1, 0, 0, 0, count]) + labels.tobytes())
        truth[prefix] = (images, labels)
    out = tmp_path / "out"
    out.mkdir()
    assert MnistToMR(str(tmp_path), str(out / "mnist"), 1).transform() == 0
    for split, prefix in (("train", "train"), ("test", "t10k")):
        rows = _decoded(out / f"mnist_{split}.mindrecord")
        images, labels = truth[prefix]
        assert [int(r["label"]) for r in rows] == labels.tolist()
        for row, image in zip(rows, images):
            pixels = row["data"].reshape(28, 28, -1)[..., 0]
            assert np.abs(pixels.astype(int) - image).mean() < 6  # JPEG is lossy
    reader = FileReader(str(out / "mnist_train.mindrecord"))
    assert reader.schema() == {"label": {"type": "int64"}, "data": {"type": "bytes"}}
    reader.close()
    with pytest.raises(ValueError, match="partition_number must be int"):
        MnistToMR(str(tmp_path), str(out / "again"), "1")


def _write_cifar100(directory, rng):
    truth = {}
    for split, count in (("train", 4), ("test", 2)):
        images = _smooth_images(rng, count, 3)
        fine, coarse = rng.integers(0, 100, count).tolist(), rng.integers(0, 20, count).tolist()
        with open(directory / split, "wb") as f:
            pickle.dump({b"data": images.transpose(0, 3, 1, 2).reshape(count, -1),
                         b"fine_labels": fine, b"coarse_labels": coarse}, f)
        truth[split] = (images, fine, coarse)
    return truth


def test_cifar100_to_mr(tmp_path):
    pytest.importorskip("PIL")
    source = tmp_path / "cifar-100-python"
    source.mkdir()
    truth = _write_cifar100(source, np.random.default_rng(1))
    Cifar100ToMR(str(source), str(tmp_path / "c100.mindrecord")).transform(["fine_label"])
    for split, path in (("train", "c100.mindrecord"), ("test", "c100.mindrecord_test")):
        rows = _decoded(tmp_path / path)
        images, fine, coarse = truth[split]
        assert [int(r["id"]) for r in rows] == list(range(len(fine)))
        assert [int(r["fine_label"]) for r in rows] == fine
        assert [int(r["coarse_label"]) for r in rows] == coarse
        for row, image in zip(rows, images):
            assert np.abs(row["data"].astype(int) - image).mean() < 3
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PathNotExistsError):
        Cifar100ToMR(str(empty), str(tmp_path / "x"))
    with pytest.raises(ValueError, match="fields should be None or list"):
        Cifar100ToMR(str(source), str(tmp_path / "y")).run("fine_label")


def test_csv_to_mr_types_columns_as_pandas_reads_them(tmp_path):
    source = tmp_path / "data.csv"
    source.write_text("id,score,name,flag,sparse\n1,0.5,ann,True,3\n2,1.5,bob,False,\n"
                      "3,2,\"c, d\",True,7\n")
    CsvToMR(str(source), str(tmp_path / "csv.mindrecord")).transform()
    reader = FileReader(str(tmp_path / "csv.mindrecord"))
    assert reader.schema() == {"id": {"type": "int64"}, "score": {"type": "float64"},
                               "name": {"type": "string"}, "flag": {"type": "int32"},
                               "sparse": {"type": "float64"}}
    rows = list(reader.get_next())
    reader.close()
    assert [int(r["id"]) for r in rows] == [1, 2, 3]
    assert [r["name"] for r in rows] == ["ann", "bob", "c, d"]
    assert [int(r["flag"]) for r in rows] == [1, 0, 1]
    assert rows[0]["sparse"] == 3.0 and math.isnan(rows[1]["sparse"])
    CsvToMR(str(source), str(tmp_path / "two.mindrecord"), ["name", "id"]).transform()
    reader = FileReader(str(tmp_path / "two.mindrecord"))
    assert sorted(reader.schema()) == ["id", "name"]
    reader.close()
    with pytest.raises(RuntimeError, match="column missing does not exist"):
        CsvToMR(str(source), str(tmp_path / "bad.mindrecord"), ["missing"]).transform()
    with pytest.raises(ValueError, match="columns_list must be list of str"):
        CsvToMR(str(source), str(tmp_path / "bad2.mindrecord"), "id")
    digits = tmp_path / "digits.csv"
    digits.write_text("1,2\n3,4\n")
    with pytest.raises(ValueError, match="does not allow starting with a number"):
        CsvToMR(str(digits), str(tmp_path / "bad3.mindrecord")).transform()


class _Payload:
    def __reduce__(self):
        return (print, ("ran",))


def test_converters_refuse_pickles_that_name_classes(tmp_path):
    source = tmp_path / "cifar"
    source.mkdir()
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        (source / name).write_bytes(pickle.dumps({b"data": _Payload(), b"labels": [0]}))
    with pytest.raises(RuntimeError, match="Not a valid Cifar10 Dataset"):
        Cifar10ToMR(str(source), str(tmp_path / "out")).run()


def test_converters_at_the_top_level():
    assert cg.MnistToMR is MnistToMR and cg.CsvToMR is CsvToMR
    assert cg.Cifar100ToMR is Cifar100ToMR
