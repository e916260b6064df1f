"""MindRecord in MindSpore's format: datasets MindSpore 2.10 wrote (tests/data/mindrecord, made
by tools/oracle/make_mindrecord_fixtures.py) read as MindSpore reads them, files written here
byte for byte as MindSpore writes them, shard addresses kept inside the dataset's folder,
corrupt files refused with MindRecordError, and commits that are all or nothing."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cellgraph
from cellgraph import dataset as ds
from cellgraph.mindrecord import FileReader, FileWriter, MindRecordError, msgpack
from cellgraph.mindrecord import format as fmt

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "data" / "mindrecord"
_spec = importlib.util.spec_from_file_location(
    "mindrecord_datasets", ROOT / "tools" / "oracle" / "mindrecord_datasets.py")
common = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(common)
READS = json.loads((FIXTURES / "mindspore_reads.json").read_text(encoding="utf-8"))["reads"]


def digest(row) -> str:
    return hashlib.sha256(common.key(row).encode("utf-8")).hexdigest()


def copy_fixtures(tmp_path) -> Path:
    folder = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, folder)
    return folder


@pytest.mark.parametrize("option", sorted(common.OPTIONS))
def test_reads_what_mindspore_reads_from_its_own_files(option):
    got = _read_option(str(FIXTURES), option)
    rows = [digest(row) for row in got["rows"]]
    want = READS[option]
    assert got["columns"] == want["columns"]
    assert (sorted(rows) if option.endswith("shuffled") else rows) == want["rows"]


def _read_option(folder, option):
    name, kwargs = common.OPTIONS[option]
    kwargs = dict(kwargs)
    which = kwargs.pop("file", None)
    path = common.first_file(folder, name) if which is None else \
        [os.path.join(folder, f"{name}.mindrecord{which}")]
    data = ds.MindDataset(path, **kwargs)
    return {"columns": data.get_col_names(),
            "rows": [{k: common.encode(v) for k, v in row.items()}
                     for row in data.create_dict_iterator(output_numpy=True, num_epochs=1)]}


@pytest.mark.parametrize("name", sorted(common.DATASETS))
def test_full_reads_hold_the_rows_written(name):
    got = _read_option(str(FIXTURES), f"{name}_all")["rows"]
    assert sorted(map(common.key, got)) == sorted(map(common.key, common.expected_rows(name)))


def test_values_and_dtypes_as_mindspore_gives_them():
    rows = list(ds.MindDataset(str(FIXTURES / "types.mindrecord"), shuffle=False)
                .create_dict_iterator(output_numpy=True))
    row = rows[3]
    assert row["i32"].dtype == np.int32 and row["i32"].shape == () and int(row["i32"]) == \
        -(2 ** 31) + 3
    assert row["f64"].dtype == np.float64 and float(row["f64"]) == 1 - 1e300
    assert row["s"].dtype.kind == "U" and str(row["s"]) == "λλλ3"
    assert row["b"].dtype.kind == "S" and row["b"].shape == (1,)
    assert row["b"].tobytes() == bytes(range(3, 7))
    assert row["a_i64"].dtype == np.int64 and row["a_i64"].shape == (2, 8)
    assert row["a_i64"].min() == -(2 ** 63)
    np.testing.assert_array_equal(rows[5]["a_i32"], [0, -1, 127, 128, -129, 40000, -(2 ** 31)])


def test_writes_the_bytes_mindspore_writes(tmp_path):
    """One shard (so no random split of rows): the shard file is MindSpore's byte for byte
    (header, pages, integer compression) and the index holds the same rows."""
    common.write_dataset(cellgraph, str(tmp_path), "types", small=True)
    ours, theirs = tmp_path / "types.mindrecord", FIXTURES / "types.mindrecord"
    assert ours.read_bytes() == theirs.read_bytes()
    query = "SELECT * FROM INDEXES ORDER BY ROW_ID"
    with sqlite3.connect(ours.with_suffix(".mindrecord.db")) as a, \
            sqlite3.connect(theirs.with_suffix(".mindrecord.db")) as b:
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
        assert a.execute("SELECT NAME FROM SHARD_NAME").fetchall() == [("types.mindrecord",)]
        schema = "SELECT sql FROM sqlite_master WHERE name = 'INDEXES'"
        assert a.execute(schema).fetchall() == b.execute(schema).fetchall()
    assert os.stat(ours).st_mode & 0o777 == 0o600  # as MindSpore leaves its files


def test_files_written_here_read_as_mindspore_reads_its_own(tmp_path):
    for name in ("types", "paged"):
        common.write_dataset(cellgraph, str(tmp_path), name, small=True)
        got = _read_option(str(tmp_path), f"{name}_all")
        assert [digest(r) for r in got["rows"]] == READS[f"{name}_all"]["rows"]


def test_large_default_pages_leave_holes_not_bytes(tmp_path):
    writer = FileWriter(str(tmp_path / "big.mindrecord"))
    writer.add_schema({"x": {"type": "int32"}})
    writer.write_raw_data([{"x": 1}])
    writer.commit()
    path = tmp_path / "big.mindrecord"
    assert os.path.getsize(path) > fmt.DEFAULT_HEADER_SIZE + fmt.DEFAULT_PAGE_SIZE
    assert [int(r["x"]) for r in ds.MindDataset(str(path)).create_dict_iterator(
        output_numpy=True)] == [1]


def _rewrite_header(path: Path, change) -> None:
    data = bytearray(path.read_bytes())
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    change(header)
    text = json.dumps(header).encode()
    data[:8 + n] = b"\x00" * (8 + n)
    data[:8 + len(text)] = struct.pack("<Q", len(text)) + text
    path.write_bytes(bytes(data))


def test_shard_addresses_are_file_names_in_the_dataset_folder(tmp_path):
    folder = copy_fixtures(tmp_path)
    for i in range(3):  # the writer's absolute paths, as older MindSpore versions stored
        _rewrite_header(folder / f"images.mindrecord{i}", lambda h: h.update(
            shard_addresses=[f"/data/elsewhere/images.mindrecord{j}" for j in range(3)]))
    data = ds.MindDataset(str(folder / "images.mindrecord0"), shuffle=False)
    assert data.paths == [str(folder.resolve() / f"images.mindrecord{j}") for j in range(3)]
    assert data.get_dataset_size() == 11
    outside = tmp_path / "secret"
    outside.write_bytes(b"x")
    _rewrite_header(folder / "images.mindrecord0",
                    lambda h: h.update(shard_addresses=["../secret"]))
    with pytest.raises(MindRecordError, match="does not exist"):  # looked for in the folder
        ds.MindDataset(str(folder / "images.mindrecord0"))
    _rewrite_header(folder / "images.mindrecord0", lambda h: h.update(shard_addresses=[".."]))
    with pytest.raises(MindRecordError, match="not a file name"):
        ds.MindDataset(str(folder / "images.mindrecord0"))


def test_corrupt_headers_and_pages_are_refused(tmp_path):
    folder = copy_fixtures(tmp_path)
    path = folder / "types.mindrecord"
    good = path.read_bytes()
    (n,) = struct.unpack("<Q", good[:8])
    cases = {
        # MindSpore's message for a file under 8 bytes
        "is smaller than the lower limit: 8": good[:5],
        # MindSpore's message for a header length past the 128 MB limit
        "header is larger than the upper limit": struct.pack("<Q", 1 << 40) + good[8:],
        "header is corrupt": struct.pack("<Q", len(good)) + good[8:],
        "not valid JSON": good[:8] + b"#" + good[9:],
        "lies beyond the end": good[:-40],  # the last page cut short
        "older cellgraph": b"CELLGRAPH-MINDRECORD 1\n" + b"\x00" * 64,
    }
    for message, data in cases.items():
        path.write_bytes(data)
        with pytest.raises(MindRecordError, match=message):
            ds.MindDataset(str(path))
    for change, message in ((lambda h: h.update(version="9.9"), "not supported"),
                            (lambda h: h["schema"][0]["schema"].update(x={"type": "int8"}),
                             "illegal attribute"),
                            (lambda h: h["page"][0].update(page_type="OTHER"), "page type")):
        path.write_bytes(good)
        _rewrite_header(path, change)
        with pytest.raises(MindRecordError, match=message):
            ds.MindDataset(str(path))
    # a blob row whose length runs past its page
    header = json.loads(good[8:8 + n])
    blob = next(p for p in header["page"] if p["page_type"] == "BLOB_DATA")
    at = header["header_size"] + blob["page_id"] * header["page_size"]
    path.write_bytes(good[:at] + struct.pack("<Q", 1 << 20) + good[at + 8:])
    with pytest.raises(MindRecordError, match="passes the page"):
        ds.MindDataset(str(path))
    # a raw row that is not MessagePack: found when the row is read
    raw = next(p for p in header["page"] if p["page_type"] == "RAW_DATA")
    at = header["header_size"] + raw["page_id"] * header["page_size"] + 8
    path.write_bytes(good[:at] + b"\xc1" + good[at + 1:])
    data = ds.MindDataset(str(path), shuffle=False)
    with pytest.raises(MindRecordError, match="raw row is corrupt"):
        list(data.create_tuple_iterator(output_numpy=True))


def _write(path, values, shard_num=2):
    writer = FileWriter(str(path), shard_num=shard_num, overwrite=True)
    writer.add_schema({"x": {"type": "int64"}, "s": {"type": "string"}})
    writer.add_index(["x"])
    writer.write_raw_data([{"x": v, "s": str(v)} for v in values])
    writer.commit()


def _values(path):
    return sorted(int(r["x"]) for r in ds.MindDataset(str(path)).create_dict_iterator(
        output_numpy=True))


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_failed_commit_leaves_the_old_files(tmp_path, monkeypatch):
    _write(tmp_path / "d.mindrecord", [1, 2, 3])
    before = _snapshot(tmp_path)
    from cellgraph.mindrecord import filewriter

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(filewriter, "write_index", fail)
    with pytest.raises(OSError, match="disk full"):
        _write(tmp_path / "d.mindrecord", [7, 8])
    assert _snapshot(tmp_path) == before  # no staging folder left either
    assert _values(tmp_path / "d.mindrecord0") == [1, 2, 3]


def _killed_writer(tmp_path, hook: str) -> None:
    """A child process that writes [7, 8, 9] and is killed (os._exit) where `hook` says."""
    script = textwrap.dedent(f"""
        import os, sys
        from cellgraph import safe_io
        from cellgraph.mindrecord import FileWriter, commit
        {hook}
        w = FileWriter(sys.argv[1], shard_num=2, overwrite=True)
        w.add_schema({{"x": {{"type": "int64"}}, "s": {{"type": "string"}}}})
        w.add_index(["x"])
        w.write_raw_data([{{"x": v, "s": str(v)}} for v in (7, 8, 9)])
        w.commit()
    """)
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path / "d.mindrecord")],
                            cwd=ROOT, capture_output=True, timeout=120, check=False)
    assert result.returncode == 9, result.stderr.decode()


def test_a_commit_killed_before_its_commit_point_leaves_the_old_files(tmp_path):
    _write(tmp_path / "d.mindrecord", [1, 2, 3])
    before = _snapshot(tmp_path)
    _killed_writer(tmp_path, "commit.publish = lambda *a: os._exit(9)")
    leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".cgstage")]
    assert len(leftovers) == 1  # the dead writer's staging folder
    assert _values(tmp_path / "d.mindrecord0") == [1, 2, 3]  # and it is cleaned away
    assert _snapshot(tmp_path) == before


def test_a_commit_killed_while_swapping_in_is_finished_by_the_next_reader(tmp_path):
    _write(tmp_path / "d.mindrecord", [1, 2, 3])
    hook = textwrap.dedent("""
        real, done = os.replace, []
        def replace(a, b):
            if done:
                os._exit(9)
            done.append(real(a, b))
        os.replace = replace
    """).replace("\n", "\n        ")
    _killed_writer(tmp_path, hook)
    assert _values(tmp_path / "d.mindrecord0") == [7, 8, 9]  # the commit had passed its point
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "d.mindrecord0", "d.mindrecord0.db", "d.mindrecord1", "d.mindrecord1.db"]


def test_msgpack_as_mindspore_encodes():
    cases = {0: b"\x00", 127: b"\x7f", 128: b"\xcc\x80", -32: b"\xe0", -33: b"\xd0\xdf",
             2 ** 32: b"\xcf" + (2 ** 32).to_bytes(8, "big"), 0.5: b"\xca?\x00\x00\x00",
             0.1: b"\xcb" + struct.pack(">d", 0.1), "é": b"\xa2\xc3\xa9"}
    for value, encoded in cases.items():
        assert msgpack.packb(value) == encoded
        assert msgpack.unpackb(encoded) == value
    assert msgpack.packb({"b": 1, "a": "x"}) == b"\x82\xa1a\xa1x\xa1b\x01"  # keys sorted
    with pytest.raises(msgpack.MsgpackError, match="truncated"):
        msgpack.unpackb(b"\xa5ab")


def test_integer_compression_round_trips():
    values = np.array([0, -1, 127, -128, 128, -129, 32767, 40000, 2 ** 31 - 1, -(2 ** 31),
                       2 ** 31, -(2 ** 63), 2 ** 63 - 1], np.int64)
    packed = fmt.compress_ints(values)
    assert packed[:4] == struct.pack(">I", len(values))
    np.testing.assert_array_equal(fmt.uncompress_ints(packed, np.int64, "t"), values)
    with pytest.raises(MindRecordError, match="truncated"):
        fmt.uncompress_ints(packed[:-1], np.int64, "t")


def test_schemas_without_blob_or_raw_fields_and_many_shards(tmp_path):
    """MindSpore's placeholders: a raw {"id": 0} row when every field is a blob, 4 zero bytes
    of blob when none is; shard numbers padded to the same width."""
    cases = {"blob.mr": ({"img": {"type": "bytes"}}, [{"img": bytes([i]) * 3} for i in range(4)]),
             "raw.mr": ({"x": {"type": "float32"}}, [{"x": i / 4} for i in range(4)])}
    for name, (schema, rows) in cases.items():
        writer = FileWriter(str(tmp_path / name))
        writer.add_schema(schema)
        writer.write_raw_data(rows)
        writer.commit()
        got = list(ds.MindDataset(str(tmp_path / name), shuffle=False).create_tuple_iterator(
            output_numpy=True))
        field = next(iter(schema))
        for (value,), row in zip(got, rows, strict=True):
            if schema[field]["type"] == "bytes":
                assert value.tobytes() == row[field]
            else:
                assert value.dtype == np.float32 and float(value) == row[field]
    writer = FileWriter(str(tmp_path / "many.mr"), shard_num=12)
    writer.add_schema({"x": {"type": "int64"}})
    writer.write_raw_data([{"x": i} for i in range(25)])
    writer.commit()
    assert sorted(p.name for p in tmp_path.glob("many.mr??")) == [f"many.mr{i:02d}"
                                                                  for i in range(12)]
    data = ds.MindDataset(str(tmp_path / "many.mr07"), shuffle=False)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == list(range(25))


def test_without_add_index_every_scalar_field_is_indexed(tmp_path):
    """As MindSpore's writer: no add_index indexes the scalar fields (not bytes, not arrays),
    with the values as stored: MindSpore stores a float32 field's Python float unrounded
    (recorded from MindSpore 2.10: the index holds 0.1, FileReader gives 0.1 back)."""
    path = tmp_path / "auto.mr"
    writer = FileWriter(str(path))
    writer.add_schema({"f": {"type": "float32"}, "s": {"type": "string"},
                       "b": {"type": "bytes"}, "a": {"type": "int32", "shape": [-1]}})
    writer.write_raw_data([{"f": 0.1, "s": "x", "b": b"\x01", "a": np.array([1], np.int32)}])
    writer.commit()
    header = fmt.read_header(str(path), "test")
    assert [f["index_field"] for f in header["index_fields"]] == ["f", "s"]
    with sqlite3.connect(tmp_path / "auto.mr.db") as db:
        assert db.execute("SELECT INC_0, f_0, INC_1, s_0 FROM INDEXES").fetchall() == [
            (0, 0.1, 0, "x")]
    (row,) = FileReader(str(path)).get_next()
    assert list(row) == ["f", "s", "a", "b"]  # the raw fields as stored, then the blobs
    assert (row["f"], row["s"], row["a"].tolist(), row["b"]) == (0.1, "x", [1], b"\x01")


def test_open_for_append_adds_rows_to_every_shard(tmp_path):
    folder = copy_fixtures(tmp_path)
    writer = FileWriter.open_for_append(str(folder / "images.mindrecord1"))
    with pytest.raises(RuntimeError, match="already added"):
        writer.add_schema(common.IMAGES)
    extra = [common.image_row(i) for i in range(11, 15)]
    writer.write_raw_data(extra)
    writer.commit()
    got = _read_option(str(folder), "images_all")["rows"]
    want = common.expected_rows("images")
    want += [{k: v for k, v in _encoded(row).items()} for row in extra]
    assert sorted(map(common.key, got)) == sorted(map(common.key, want))
    header = fmt.read_header(str(folder / "images.mindrecord2"), "test")
    assert [f["index_field"] for f in header["index_fields"]] == ["label", "file_name"]
    assert header["page_size"] == 1 << 15  # the dataset's sizes are kept
    with sqlite3.connect(folder / "images.mindrecord2.db") as db:
        labels = [v for (v,) in db.execute("SELECT label_0 FROM INDEXES ORDER BY ROW_ID")]
    assert labels[-1] == 14 * 3 - 7  # the last new row went to the last shard


def _encoded(row):
    return {"image": {"bytes": row["image"].hex(), "shape": [1]},
            "label": {"dtype": "int32", "shape": [],
                      "hex": np.int32(row["label"]).tobytes().hex()},
            "file_name": {"str": row["file_name"], "shape": []}}


def test_a_commit_without_rows_writes_only_the_header(tmp_path):
    path = tmp_path / "empty.mr"
    writer = FileWriter(str(path))
    writer.add_schema({"x": {"type": "int32"}})
    writer.commit()
    (n,) = struct.unpack("<Q", path.read_bytes()[:8])
    assert os.path.getsize(path) == 8 + n  # as MindSpore's writer leaves it
    assert ds.MindDataset(str(path)).get_dataset_size() == 0


def test_integer_compression_round_trips_every_width():
    from cellgraph.mindrecord import format as fmt

    values = np.array([0, -1, 127, -128, 128, 32767, -32769, 2 ** 31 - 1, -2 ** 31, 2 ** 31,
                       -2 ** 63, 2 ** 63 - 1], np.int64)
    packed = fmt.compress_ints(values)
    # a 4-byte count, a 2-bit width code per value, then each value in 1, 2, 4 or 8 bytes
    assert len(packed) == 4 + 3 + (1 + 1 + 1 + 1 + 2 + 2 + 4 + 4 + 4 + 8 + 8 + 8)
    np.testing.assert_array_equal(fmt.uncompress_ints(packed, np.int64, "test"), values)


def test_integer_arrays_compress_to_the_narrowest_width_per_value():
    # one width for the whole array (a cast) and mixed widths give the same layout: the count
    # big-endian, a 2-bit width code per value (0 int8 .. 3 int64), then each value's low bytes
    assert fmt.compress_ints(np.array([1, 2, 3], np.int32)) == bytes.fromhex("00000003" "00"
                                                                             "010203")
    assert fmt.compress_ints(np.array([1, 300])) == bytes.fromhex("00000002" "10" "01" "2c01")
    assert fmt.compress_ints(np.array([-2, 70000, 1 << 40])) == bytes.fromhex(
        "00000003" "2c" "fe" "70110100" "0000000000010000")
    assert fmt.compress_ints(np.array([], np.int64)) == bytes.fromhex("00000000")
    rng = np.random.RandomState(0)
    for values in (rng.randint(-300, 300, 33), rng.randint(-(1 << 62), 1 << 62, 9),
                   np.full(5, -(1 << 31))):
        raw = fmt.compress_ints(values)
        assert fmt.uncompress_ints(raw, np.int64, "test").tolist() == values.tolist()
