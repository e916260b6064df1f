"""TFRecordToMR: a TFRecord file of tf.train.Example records into a MindRecord file, with
MindSpore's schema rules (scalars, [n] lists, bytes fields, names with special characters
written with "_") and its argument errors. FixedLenFeature stands for tf.io.FixedLenFeature
(shape, dtype, default_value)."""
from collections import namedtuple

import numpy as np
import pytest

from cellgraph.mindrecord import FileReader, TFRecordToMR
from tests.cellgraph.dataset.test_tfrecord_source import write_records

DType = namedtuple("DType", "name")
FixedLenFeature = namedtuple("FixedLenFeature", "shape dtype default_value",
                             defaults=(None,))
STRING, INT64, FLOAT32 = DType("string"), DType("int64"), DType("float32")


def _rows(n):
    return [{"file name": ("bytes", [f"f{i}.jpg".encode()]), "image": ("bytes", [bytes([i % 256, 255])]),
             "label": ("int64", [i]), "score": ("float", [i / 2]),
             "pair": ("int64", [i, -i]), "weights": ("float", [0.5, 1.5, i])}
            for i in range(n)]


FEATURES = {"file name": FixedLenFeature([], STRING), "image": FixedLenFeature([], STRING),
            "label": FixedLenFeature([], INT64), "score": FixedLenFeature([], FLOAT32),
            "pair": FixedLenFeature([2], INT64), "weights": FixedLenFeature([3], FLOAT32)}


def test_transform(tmp_path):
    source = write_records(tmp_path / "data.tfrecord", _rows(300))
    destination = str(tmp_path / "data.mindrecord")
    tool = TFRecordToMR(source, destination, FEATURES, ["image"])
    assert tool.mindrecord_schema == {
        "file_name": {"type": "string"}, "image": {"type": "bytes"},
        "label": {"type": "int64"}, "score": {"type": "float32"},
        "pair": {"type": "int64", "shape": [2]}, "weights": {"type": "float32", "shape": [3]}}
    tool.transform()
    reader = FileReader(destination)
    rows = list(reader.get_next())
    reader.close()
    assert len(rows) == 300
    row = rows[7]
    assert row["file_name"] == "f7.jpg" and row["image"] == bytes([7, 255])
    assert row["label"] == 7 and row["score"] == 3.5
    np.testing.assert_array_equal(row["pair"], [7, -7])
    np.testing.assert_allclose(row["weights"], [0.5, 1.5, 7.0])


def test_records_that_do_not_fit_the_features(tmp_path):
    source = write_records(tmp_path / "data.tfrecord", _rows(2))
    wrong_length = dict(FEATURES, weights=FixedLenFeature([2], FLOAT32))
    wrong_kind = dict(FEATURES, pair=FixedLenFeature([2], FLOAT32))
    for features in (wrong_length, wrong_kind):
        with pytest.raises(ValueError, match="TFRecord feature_dict parameter error"):
            TFRecordToMR(source, str(tmp_path / "out.mindrecord"), features,
                         ["image"]).transform()


@pytest.mark.parametrize("features, bytes_fields, text", [
    ({"a": FixedLenFeature([2], STRING)}, None, "dtype is tf.string which shape[0]"),
    ({"a": FixedLenFeature([2, 1], INT64)}, None, "len(feature_dict[a].shape) should be 1"),
    ({"a": FixedLenFeature([0], INT64)}, None, "shape[0] should > 0"),
    ({"a": FixedLenFeature([], INT64)}, ["a"], "should be tf.string in feature_dict"),
    ({"a": FixedLenFeature([], STRING)}, ["b"], "is not in feature_dict"),
    ({"a": FixedLenFeature([], STRING)}, "a", "must be list(str)"),
    ({"a": 1}, None, "only support FixedLenFeature"),
])
def test_arguments(tmp_path, features, bytes_fields, text):
    with pytest.raises(ValueError) as info:
        TFRecordToMR(str(tmp_path / "in.tfrecord"), str(tmp_path / "out.mindrecord"), features,
                     bytes_fields)
    assert text in str(info.value)
