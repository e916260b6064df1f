"""MindPage groups the rows by an index field and reads them a page at a time, as MindSpore
2.10's MindPage does: the expected values below were recorded from MindSpore on the same
dataset (11 rows over 3 shards)."""
import json

import numpy as np
import pytest

from cellgraph.mindrecord import (
    FileReader,
    FileWriter,
    MindPage,
    MRMDefineCategoryError,
    ParamTypeError,
    ParamValueError,
)

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int64"}, "f32": {"type": "float32"},
          "data": {"type": "bytes"}, "seg": {"type": "float32", "shape": [2]}}


def row(i):
    return {"file_name": f"{i % 4}.jpg", "label": (i * 7) % 5 - 2, "f32": i / 3,
            "data": bytes([i]) * 2, "seg": np.array([i, i / 3], np.float32)}


@pytest.fixture
def path(tmp_path):
    path = str(tmp_path / "p.mr")
    writer = FileWriter(path, 3)
    writer.add_schema(SCHEMA, "d")
    rows = [row(i) for i in range(11)]
    writer.write_raw_data(rows[:5])
    writer.write_raw_data(rows[5:])
    writer.commit()
    return path + "1"


def ids(rows):
    return [int(r["data"][0]) for r in rows]


def test_categories_and_pages(path):
    page = MindPage(path)
    assert page.candidate_fields == ["f32", "file_name", "label"]  # every scalar field
    assert page.category_field is None
    page.category_field = "file_name"
    assert page.read_category_info() == (
        '{"categories":[{"count":3,"id":0,"name":"0.jpg"},{"count":3,"id":1,"name":"1.jpg"},'
        '{"count":3,"id":2,"name":"2.jpg"},{"count":2,"id":3,"name":"3.jpg"}],'
        '"key":"file_name_0"}')
    first = page.read_at_page_by_id(1, 0, 3)
    assert ids(first) == [1, 5, 9]
    # the raw fields as stored (sorted), then the blob fields; whole floats come back as int
    assert list(first[0]) == ["f32", "file_name", "label", "data", "seg"]
    assert first[0]["f32"] == 1 / 3 and first[2]["f32"] == 3 and type(first[2]["f32"]) is int
    np.testing.assert_array_equal(first[1]["seg"], np.array([5, 5 / 3], np.float32))
    assert ids(page.read_at_page_by_id(1, 1, 2)) == [9]
    page.category_field = "label"
    info = json.loads(page.read_category_info())
    # the names are ordered as text: "-1" before "-2"
    assert [(c["name"], c["count"]) for c in info["categories"]] == [
        ("-1", 2), ("-2", 3), ("0", 2), ("1", 2), ("2", 2)]
    assert ids(page.read_at_page_by_name("-2", 0, 10)) == [0, 5, 10]
    assert ids(page.read_at_page_by_id(0, 0, True)) == [3]
    page.category_field = "f32"
    names = [c["name"] for c in json.loads(page.read_category_info())["categories"]]
    assert names[:4] == ["0.0", "0.333333333333333", "0.666666666666667", "1.0"]


def test_errors(path):
    page = MindPage(path)
    with pytest.raises(MRMDefineCategoryError, match="Field 'data' is not a candidate"):
        page.category_field = "data"
    with pytest.raises(ParamTypeError, match="'category_fields' expect str type"):
        page.category_field = 3
    page.category_field = "label"
    with pytest.raises(RuntimeError, match="page no: 1or page size: 10 is invalid"):
        page.read_at_page_by_name("-2", 1, 10)
    with pytest.raises(RuntimeError, match="page no: 2or page size: 1 is invalid"):
        page.read_at_page_by_id(0, 2, 1)
    with pytest.raises(RuntimeError, match=r"category_id: 9 must be in the range \[0, 5\]"):
        page.read_at_page_by_id(9, 0, 1)
    with pytest.raises(RuntimeError, match="category_name: zz could not found"):
        page.read_at_page_by_name("zz", 0, 1)
    with pytest.raises(ParamValueError, match="Category name should be str"):
        page.read_at_page_by_name(3, 0, 1)
    with pytest.raises(ParamValueError, match="Category id should be int and greater"):
        page.read_at_page_by_id(-1, 0, 1)
    with pytest.raises(ParamValueError, match="num_row should be int and greater than 0"):
        page.read_at_page_by_id(0, 0, 0)
    with pytest.raises(ParamValueError, match="Parameter num_consumer: 0 should between 1"):
        MindPage(path, 0)
    with pytest.raises(ParamValueError, match="File path: 3 is not string"):
        MindPage(3)
    with pytest.raises(RuntimeError, match="The input: .*nonexist is not exists"):
        MindPage(path + "nonexist")


def test_filereader_gives_the_stored_float(path):
    """A float32 field keeps the Python float written (MindSpore stores it unrounded)."""
    rows = list(FileReader(path).get_next())
    assert rows[1]["f32"] == 1 / 3 and rows[0]["f32"] == 0 and type(rows[0]["f32"]) is int
