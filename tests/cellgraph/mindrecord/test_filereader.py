"""FileReader gives back what FileWriter wrote, in the forms MindSpore 2.10's FileReader gives
for the same file: bytes, str, Python ints and floats, arrays for fields with a shape."""
import numpy as np
import pytest

from cellgraph.mindrecord import FileReader, FileWriter

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "data": {"type": "bytes"},
          "mask": {"type": "float32", "shape": [-1]}, "id": {"type": "int64"},
          "score": {"type": "float64"}}


@pytest.fixture
def path(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    writer = FileWriter(path, 1)
    writer.add_schema(SCHEMA, "t")
    writer.write_raw_data([{"file_name": f"{i}.jpg", "label": i, "data": bytes([i, 7, 0]),
                            "mask": np.arange(i + 1, dtype=np.float32), "id": 10**12 + i,
                            "score": i + 0.5} for i in range(3)])
    writer.commit()
    return path


def test_rows_come_back_as_mindspore_gives_them(path):
    reader = FileReader(path)
    assert reader.len() == 3
    assert reader.schema()["mask"] == {"type": "float32", "shape": [-1]}
    rows = list(reader.get_next())
    reader.close()
    assert rows[1]["data"] == b"\x01\x07\x00" and rows[1]["file_name"] == "1.jpg"
    assert type(rows[1]["label"]) is int and rows[1]["id"] == 10**12 + 1
    assert rows[1]["score"] == 1.5
    np.testing.assert_array_equal(rows[2]["mask"], np.arange(3, dtype=np.float32))
    assert rows[2]["mask"].dtype == np.float32


def test_columns_choose_the_fields(path):
    rows = list(FileReader(path, columns=["label", "data"]).get_next())
    assert [sorted(r) for r in rows] == [["data", "label"]] * 3
