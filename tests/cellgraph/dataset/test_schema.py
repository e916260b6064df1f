"""ds.Schema as MindSpore 2.10 builds, parses and prints it: the JSON texts below are what
MindSpore's to_json gives for the same calls."""
import json

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph import dtype as mstype

from .test_tfrecord_source import write_records


def _flat(text):
    return text.replace("\n", "").replace(" ", "")


def test_add_column_forms_and_json_text():
    schema = ds.Schema()
    assert schema.to_json() == '{\n  "columns": null\n}'
    schema.add_column("a", mstype.int64, [2, -1])
    schema.add_column("b", "float32")
    schema.add_column("c", mstype.string, [])
    schema.add_column("d", mstype.bool_)
    assert str(schema) == schema.to_json()
    assert schema.to_json().startswith('{\n  "columns": [\n    {\n      "name": "a",\n')
    assert _flat(schema.to_json()) == (
        '{"columns":[{"name":"a","rank":2,"shape":[2,-1],"type":"int64"},'
        '{"name":"b","rank":1,"type":"float32"},'
        '{"name":"c","rank":0,"shape":[],"type":"string"},'
        '{"name":"d","rank":1,"type":"bool"}]}')


def test_parse_columns_and_from_json():
    schema = ds.Schema()
    schema.parse_columns({"y": {"type": "int32"}, "x": {"type": "uint8", "shape": [3]}})
    assert _flat(schema.to_json()) == (
        '{"columns":[{"name":"x","rank":1,"shape":[3],"type":"uint8"},'
        '{"name":"y","rank":0,"shape":[],"type":"int32"}]}')
    schema = ds.Schema()
    schema.from_json({"datasetType": "TF", "numRows": 3,
                      "columns": {"x": {"type": "int8", "rank": 2, "shape": [3]}}})
    assert _flat(schema.to_json()) == (
        '{"columns":[{"name":"x","rank":1,"shape":[3],"type":"int8"}],'
        '"datasetType":"TF","numRows":3}')
    assert ds.Schema.get_num_rows(schema) == 3
    assert ds.Schema.get_num_rows(ds.Schema()) == 0


def test_schema_file(tmp_path):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"datasetType": "TF", "numRows": 2, "columns": {
        "b": {"type": "int64", "rank": 1, "shape": [2]}, "a": {"type": "float32", "rank": 1,
                                                            "shape": [1]}}}))
    schema = ds.Schema(str(path))
    assert [c["name"] for c in json.loads(schema.to_json())["columns"]] == ["a", "b"]
    assert ds.Schema.get_num_rows(str(path)) == 2


@pytest.mark.parametrize("call, error, text", [
    (lambda: ds.Schema(1), TypeError, "path: 1 is not string"),
    (lambda: ds.Schema("/no/such/schema.json"), ValueError, "does not exist or permission"),
    (lambda: ds.Schema().add_column("", mstype.int32), TypeError, "non-empty string for column"),
    (lambda: ds.Schema().add_column("a", "floaty"), TypeError, "Unknown column type."),
    (lambda: ds.Schema().add_column("a", "bytes"), TypeError, "Unknown column type."),
    (lambda: ds.Schema().add_column("a", None), TypeError, "non-empty string for de_type"),
    (lambda: ds.Schema().add_column(1, mstype.int32), TypeError, "Argument name with value 1"),
    (lambda: ds.Schema().add_column("a", mstype.int32, (2,)), TypeError, "Argument shape"),
    (lambda: ds.Schema().add_column("a", mstype.int32, [2.0]), TypeError, "shape[0]"),
    (lambda: ds.Schema().parse_columns([{"type": "int8"}]), RuntimeError,
     "Column's name is missing"),
    (lambda: ds.Schema().parse_columns([{"name": "a"}]), RuntimeError,
     "Column's type is missing"),
    (lambda: ds.Schema().from_json({"columns": {}}), RuntimeError, "Columns are missing."),
    (lambda: ds.Schema().from_json({"columns": {"a": {"type": "int8"}}, "foo": 1}),
     RuntimeError, "Unknown field foo"),
])
def test_errors(call, error, text):
    with pytest.raises(error, match=None) as info:
        call()
    assert text in str(info.value)


def test_tfrecord_reads_with_a_schema_object(tmp_path):
    path = write_records(tmp_path / "a.data", [{"pair": ("int64", [i, -i])} for i in range(2)])
    schema = ds.Schema()
    schema.add_column("pair", de_type=mstype.int32, shape=[2])
    rows = list(ds.TFRecordDataset(path, schema, shuffle=False)
                .create_tuple_iterator(output_numpy=True))
    assert [r[0].tolist() for r in rows] == [[0, 0], [1, -1]]
    assert rows[0][0].dtype == np.int32
