"""FileWriter's checks: schema types, rows against the schema, index fields, overwriting."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph.mindrecord import (
    FileReader,
    FileWriter,
    MRMBuildSchemaError,
    MRMDefineIndexError,
    MRMGetMetaError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)
from cellgraph.mindrecord import format as fmt


def test_schema_and_rows_are_checked(tmp_path, caplog):
    """MindSpore 2.10's errors (recorded): schema errors are MRMInvalidSchemaError, a row that
    does not match the schema is left out with a warning, and a call with no valid row
    raises RuntimeError."""
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(RuntimeError, match="add_schema first"):
        writer.write_raw_data([{"x": 1}])
    with pytest.raises(MRMGetMetaError, match="Failed to get meta info"):
        writer.add_index(["x"])
    with pytest.raises(MRMInvalidSchemaError, match="Schema format is error. Detail: Field 'x' "
                                                    "contain illegal attribute 'int8'.$"):
        writer.add_schema({"x": {"type": "int8"}})
    with pytest.raises(MRMBuildSchemaError, match="Failed to build schema"):
        writer.add_schema({"v": {"type": "int32", "shape": [-1, -1]}})
    writer.add_schema({"x": {"type": "int32"}, "v": {"type": "float32", "shape": [2, -1]}})
    with pytest.raises(MRMDefineIndexError, match="Failed to set field v since it's not"):
        writer.add_index(["v"])
    with pytest.raises(ParamTypeError, match="'index_fields' expect list type"):
        writer.add_index("x")
    with pytest.raises(ParamTypeError, match="'raw_data' expect list type"):
        writer.write_raw_data("x")
    with pytest.raises(ParamTypeError, match="'raw_data item' expect dict type"):
        writer.write_raw_data(["x"])
    no_valid = "There is no valid data which can be written by 'write_raw_data'"
    v = np.zeros((2, 3), np.float32)
    for row, cause in (({"x": 1}, "there is not field"),
                       ({"x": 1, "v": np.zeros(3, np.float32)}, "data shape"),
                       ({"x": [1, 2], "v": v}, "is not matched"),
                       ({"x": 1, "v": np.zeros((2, 3))}, "'float64' for field: 'v'"),
                       ({"x": 1, "v": [[0.0], [1.0]]}, "'list' for field: 'v'"),
                       ({"x": np.int64(1), "v": v}, "'int64' for field: 'x'"),
                       ({"x": True, "v": v}, "'bool' for field: 'x'"),
                       ({"x": 1.5, "v": v}, "'float' for field: 'x'")):
        caplog.clear()
        with pytest.raises(RuntimeError, match=no_valid):
            writer.write_raw_data([row])
        assert cause in caplog.text
    # a call with valid rows keeps them and leaves the others out
    writer.write_raw_data([{"x": np.int32(1), "v": v}, {"x": "2", "v": v}, {"x": 3, "v": v}])
    writer.commit()
    assert [r["x"] for r in FileReader(str(tmp_path / "a.mindrecord")).get_next()] == [1, 3]
    with pytest.raises(RuntimeError, match="Not allowed to call `write_raw_data` on flushed MindRecord files.When creating"):
        writer.write_raw_data([{"x": 1, "v": np.zeros((2, 3))}])


def test_unknown_index_field_is_refused_when_writing(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    writer.add_schema({"x": {"type": "int32"}})
    writer.add_index(["zz"])
    with pytest.raises(RuntimeError, match="'index_fields': zz can not found in schema: "
                                           r'\{"x":\{"type":"int32"\}\}'):
        writer.write_raw_data([{"x": 1}])


def test_existing_files_need_overwrite(tmp_path):
    path = tmp_path / "a.mindrecord"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError, match="overwrite=True"):
        FileWriter(str(path))
    writer = FileWriter(str(path), overwrite=True)
    writer.add_schema({"x": {"type": "int64"}})
    writer.write_raw_data([{"x": 3}])
    writer.commit()
    assert b'"version":"3.0"' in path.read_bytes()[:4096]  # MindSpore's header
    with pytest.raises(ParamValueError, match="should between 1 and 1000"):
        FileWriter(str(tmp_path / "b"), shard_num=0)


def test_commit_replaces_planted_symlinks_and_keeps_modes(tmp_path):
    import os

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "d.mindrecord0").symlink_to(victim)
    (tmp_path / "d.mindrecord1").write_bytes(b"old")
    os.chmod(tmp_path / "d.mindrecord1", 0o640)
    writer = FileWriter(str(tmp_path / "d.mindrecord"), shard_num=2, overwrite=True)
    writer.add_schema({"x": {"type": "int32"}})
    writer.write_raw_data([{"x": 1}, {"x": 2}])
    writer.commit()
    assert victim.read_text() == "precious"
    assert not (tmp_path / "d.mindrecord0").is_symlink()
    assert os.stat(tmp_path / "d.mindrecord1").st_mode & 0o777 == 0o640
    assert sorted(os.listdir(tmp_path)) == ["d.mindrecord0", "d.mindrecord0.db", "d.mindrecord1",
                                            "d.mindrecord1.db", "victim.txt"]


def test_parallel_writer_sends_each_call_to_one_shard(tmp_path):
    """write_raw_data(rows, True): each call's rows go whole to the next shard in turn, and
    each shard file is a dataset of its own (recorded from MindSpore 2.10: the files are
    byte-identical to MindSpore's but for their names)."""
    path = str(tmp_path / "par")
    writer = FileWriter(path, 3)
    writer.add_schema({"x": {"type": "int64"}, "a": {"type": "int32", "shape": [-1]},
                       "s": {"type": "string"}})
    for k in range(5):
        writer.write_raw_data([{"x": k * 10 + i, "a": np.arange(i + k, dtype=np.int32) * 1000,
                                "s": str(i)} for i in range(k + 1)], True)
    with pytest.raises(RuntimeError, match="`parallel_writer` must be consistent"):
        writer.write_raw_data([], False)
    writer.commit()
    assert [[r["x"] for r in FileReader(path + s).get_next()] for s in "012"] == [
        [0, 30, 31, 32, 33], [10, 11, 40, 41, 42, 43, 44], [20, 21, 22]]
    headers = [fmt.read_header(path + s, "test") for s in "012"]
    assert [h["shard_addresses"] for h in headers] == [["par0"], ["par1"], ["par2"]]
    assert [h["shard_id"] for h in headers] == [0, 0, 0]
    # bytes saved by compressing the int32 arrays; an empty array counts 0
    assert [h["compression_size"] for h in headers] == [18, 34, 6]
