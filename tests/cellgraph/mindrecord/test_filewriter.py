"""FileWriter's checks: schema types, rows against the schema, index fields, overwriting."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph.mindrecord import FileWriter


def test_schema_and_rows_are_checked(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(RuntimeError, match="add_schema first"):
        writer.write_raw_data([{"x": 1}])
    with pytest.raises(ValueError, match="type among"):
        writer.add_schema({"x": {"type": "int8"}})
    writer.add_schema({"x": {"type": "int32"}, "v": {"type": "float32", "shape": [2, -1]}})
    with pytest.raises(ValueError, match="scalar field"):
        writer.add_index(["v"])
    with pytest.raises(ValueError, match="lacks"):
        writer.write_raw_data([{"x": 1}])
    with pytest.raises(ValueError, match="expects shape"):
        writer.write_raw_data([{"x": 1, "v": np.zeros(3)}])
    with pytest.raises(ValueError, match="scalar"):
        writer.write_raw_data([{"x": [1, 2], "v": np.zeros((2, 1))}])
    writer.write_raw_data([{"x": 1, "v": np.zeros((2, 3))}])
    writer.commit()
    with pytest.raises(RuntimeError, match="committed"):
        writer.write_raw_data([{"x": 1, "v": np.zeros((2, 3))}])


def test_existing_files_need_overwrite(tmp_path):
    path = tmp_path / "a.mindrecord"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError, match="overwrite=True"):
        FileWriter(str(path))
    writer = FileWriter(str(path), overwrite=True)
    writer.add_schema({"x": {"type": "int64"}})
    writer.write_raw_data([{"x": 3}])
    writer.commit()
    assert path.read_bytes().startswith(b"CELLGRAPH-MINDRECORD 1\n")
    with pytest.raises(ValueError, match=r"shard_num must be an int in \[1, 1000\]"):
        FileWriter(str(tmp_path / "b"), shard_num=0)
