"""TFRecordDataset reads tf.train.Example records as MindSpore 2.10 does: the values below are
what MindSpore gives for the same files."""
import json
import os
import struct

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.tfrecord_source import masked_crc32c


def _varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _example(features):
    """A serialized tf.train.Example: {name: ("int64"|"float"|"bytes", values)}."""
    entries = b""
    for name, (kind, values) in features.items():
        if kind == "int64":
            feature = _field(3, _field(1, b"".join(_varint(v) for v in values)))
        elif kind == "float":
            feature = _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)))
        else:
            feature = _field(1, b"".join(_field(1, v) for v in values))
        entries += _field(1, _field(1, name.encode()) + _field(2, feature))
    return _field(1, entries)


def write_records(path, rows):
    with open(path, "wb") as f:
        for row in rows:
            data = _example(row)
            length = struct.pack("<Q", len(data))
            f.write(length + struct.pack("<I", masked_crc32c(length)) + data
                    + struct.pack("<I", masked_crc32c(data)))
    return str(path)


def _rows(first):
    return [{"id": ("int64", [first + i]), "pair": ("int64", [i, -i]),
             "score": ("float", [i / 4]), "raw": ("bytes", [b"ab"[: 1 + i % 2]])}
            for i in range(3)]


@pytest.fixture
def files(tmp_path):
    return [write_records(tmp_path / "a.data", _rows(0)),
            write_records(tmp_path / "b.data", _rows(10))]


def _schema(tmp_path, columns, num_rows=None):
    path = tmp_path / "schema.json"
    body = {"datasetType": "TF", "columns": columns}
    if num_rows is not None:
        body["numRows"] = num_rows
    path.write_text(json.dumps(body))
    return str(path)


def test_without_schema_reads_the_first_records_columns(files):
    data = ds.TFRecordDataset(files[:1], shuffle=False)
    assert data.get_col_names() == ["id", "pair", "raw", "score"]
    assert data.output_types() == [np.int64, np.int64, np.uint8, np.float32]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[0].tolist() for r in rows] == [[0], [1], [2]]
    assert [r[2].tolist() for r in rows] == [[97], [97, 98], [97]]
    assert rows[1][1].tolist() == [1, -1] and rows[2][3].tolist() == [0.5]


def test_files_are_read_a_row_from_each_in_turn_and_shards_take_files(files):
    data = ds.TFRecordDataset(files, shuffle=False)
    assert [int(r[0][0]) for r in data] == [0, 10, 1, 11, 2, 12]
    shard = ds.TFRecordDataset(files, shuffle=False, num_shards=2, shard_id=1)
    assert shard.get_dataset_size() == 3
    assert [int(r[0][0]) for r in shard.create_tuple_iterator(output_numpy=True)] == [10, 11, 12]


def test_schema_sets_dtypes_shapes_rank0_and_row_count(files, tmp_path):
    schema = _schema(tmp_path, {"pair": {"type": "int32", "rank": 2, "shape": [1, 2]},
                                "id": {"type": "int16", "rank": 0},
                                "score": {"type": "float64", "rank": 1},
                                "raw": {"type": "uint8", "rank": 0}}, num_rows=2)
    data = ds.TFRecordDataset(files[0], schema, shuffle=False)
    assert data.get_col_names() == ["id", "pair", "raw", "score"]
    assert data.output_types() == [np.int16, np.int32, np.uint8, np.float64]
    assert data.output_shapes() == [[], [1, 2], [1], [1]]
    assert data.get_dataset_size() == 2


def test_columns_list_keeps_its_order_and_num_samples_limits(files):
    data = ds.TFRecordDataset(files, columns_list=["score", "id"], num_samples=4, shuffle=False)
    assert data.get_col_names() == ["score", "id"]
    assert data.get_dataset_size() == 4
    assert [int(r[1][0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
        [0, 10, 1, 11]


def test_masked_crc32c_is_tfrecords_checksum():
    # CRC-32C of b"123456789" is 0xE3069283 (RFC 3720); TFRecord masks it
    crc = 0xE3069283
    assert masked_crc32c(b"123456789") == (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def test_a_file_that_is_not_tfrecord_is_refused(tmp_path):
    path = tmp_path / "bad.data"
    path.write_bytes(b"this is no record file at all")
    with pytest.raises(RuntimeError, match="not valid TFRecordDataset files"):
        ds.TFRecordDataset([str(path)], shuffle=False).get_dataset_size()


def test_shard_equal_rows_splits_all_rows_evenly(files):
    shards = [[int(r[0][0]) for r in ds.TFRecordDataset(
        files, shuffle=False, num_shards=4, shard_id=i, shard_equal_rows=True)
        .create_tuple_iterator(output_numpy=True)] for i in range(4)]
    assert shards == [[0, 1], [2, 10], [11, 12], [0, 1]]
    with pytest.raises(RuntimeError):
        ds.TFRecordDataset(files, shuffle=False, num_shards=3, shard_id=0).get_dataset_size()


def test_shuffle_files_keeps_each_files_rows_in_order(files):
    # MindSpore: Shuffle.FILES reorders the files only (one file: the rows as written)
    ds.config.set_seed(5)
    one = ds.TFRecordDataset(files[:1], shuffle=ds.Shuffle.FILES)
    assert [r[0].tolist() for r in one.create_tuple_iterator(output_numpy=True)] == \
        [[0], [1], [2]]
    both = [int(r[0][0]) for r in ds.TFRecordDataset(files, shuffle=ds.Shuffle.FILES)
            .create_tuple_iterator(output_numpy=True)]
    assert both in ([0, 10, 1, 11, 2, 12], [10, 0, 11, 1, 12, 2])  # rows taken in turn
    infile = [int(r[0][0]) for r in ds.TFRecordDataset(files, shuffle=ds.Shuffle.INFILE)
              .create_tuple_iterator(output_numpy=True)]
    assert [i for i in infile if i < 10] != [] and sorted(infile) == [0, 1, 2, 10, 11, 12]
    assert [i >= 10 for i in infile] == [False, True] * 3  # the files keep their turns


def test_global_shuffle_with_num_samples_shuffles_the_first_rows(files):
    # MindSpore's reader stops at num_samples before its shuffle: a schema of numRows 1 and
    # the default Shuffle.GLOBAL gives the first record
    for seed in range(4):
        ds.config.set_seed(seed)
        data = ds.TFRecordDataset(files, num_samples=2)
        assert sorted(int(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True)) \
            == [0, 10]


@pytest.mark.parametrize("compression_type", ["GZIP", "ZLIB"])
def test_compressed_files_read_as_uncompressed(tmp_path, files, compression_type):
    """GZIP and ZLIB files read as the same rows; without a row count they are counted."""
    import gzip
    import zlib
    pack = gzip.compress if compression_type == "GZIP" else zlib.compress
    packed = []
    for path in files:
        with open(path, "rb") as f:
            out = tmp_path / (os.path.basename(path) + "." + compression_type.lower())
            out.write_bytes(pack(f.read()))
            packed.append(str(out))
    plain = ds.TFRecordDataset(files, shuffle=False)
    data = ds.TFRecordDataset(packed, shuffle=False, compression_type=compression_type)
    assert data.get_dataset_size() == plain.get_dataset_size() == 6
    for a, b in zip(plain.create_tuple_iterator(output_numpy=True),
                    data.create_tuple_iterator(output_numpy=True)):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    # with num_samples, each shard reads num_samples rows, an equal part from each of its files
    shard = ds.TFRecordDataset(packed, num_samples=2, num_shards=2, shard_id=1, shuffle=False,
                               compression_type=compression_type)
    assert [r["id"].tolist() for r in shard.create_dict_iterator(output_numpy=True)] == [[10],
                                                                                       [11]]
    short = ds.TFRecordDataset(packed, num_samples=8, num_shards=2, shard_id=0, shuffle=False,
                               compression_type=compression_type)
    with pytest.raises(RuntimeError, match="does not meet minimum rows per shard requirement"):
        list(short.create_tuple_iterator())


def test_compression_arguments():
    path = "any.data"
    with pytest.raises(ValueError, match="compression_type can only be either '' "):
        ds.TFRecordDataset([path], compression_type="ZIP")


def _column_schema(**columns):
    schema = ds.Schema()
    for name, (de_type, shape) in columns.items():
        schema.add_column(name, de_type=de_type, shape=shape)
    return schema


def _first(data):
    return next(data.create_dict_iterator(num_epochs=1, output_numpy=True))


def test_schema_column_rules(files):
    """MindSpore's reading of a feature into a schema column: numbers cast between numeric
    types, bytes read as strings or as uint8, -1 takes the rest of the values, [] a scalar."""
    row = _first(ds.TFRecordDataset(files[0], _column_schema(
        pair=("int8", [2, -1]), id=("float64", []), score=("int32", [-1]),
        raw=("string", [])), shuffle=False))
    assert row["pair"].shape == (2, 1) and row["pair"].dtype == np.int8
    assert row["id"].shape == () and row["id"].dtype == np.float64
    assert row["score"].dtype == np.int32 and row["score"].shape == (1,)
    assert row["raw"].shape == () and row["raw"].dtype.kind == "U"
    assert ds.TFRecordDataset(files[0], _column_schema(raw=("string", [1])),
                              shuffle=False).output_types() == [np.str_]


@pytest.mark.parametrize("columns, text", [
    ({"pair": ("string", [2])}, ("The data type loaded from the example for feature name: pair "
                                "does not match the predefined type in schema")),
    ({"raw": ("int64", None)}, "feature name: raw does not match the predefined type"),
    ({"score": ("string", None)}, "feature name: score does not match the predefined type"),
    ({"pair": ("int64", [3])}, ("Column shape of pair defined in schema does not match the shape "
                               "actually load.")),
    ({"missing": ("int64", [1])}, ("Feature name: missing is required in schema but could not be "
                                  "found in tfrecord file.")),
])
def test_schema_column_errors_when_read(files, columns, text):
    data = ds.TFRecordDataset(files[0], _column_schema(**columns), shuffle=False)
    with pytest.raises(RuntimeError) as info:
        _first(data)
    assert text in str(info.value)


def test_file_and_column_errors_when_read(files, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("not a record file")
    data = ds.TFRecordDataset([str(bad), files[0]], shuffle=False, columns_list=["id"])
    with pytest.raises(RuntimeError) as info:
        _first(data)
    assert f"not valid TFRecordDataset files: {bad}" in str(info.value)
    assert files[0] not in str(info.value)
    data = ds.TFRecordDataset(files, columns_list=["nope"])
    with pytest.raises(RuntimeError, match="failed to find column name: nope"):
        _first(data)
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TFRecordDataset([files[0], str(tmp_path / "none.data")])


def test_map_errors_name_the_record_file(files):
    def broken(x):
        raise ValueError("no")

    data = ds.TFRecordDataset(files, shuffle=False).map(broken, input_columns=["id"])
    with pytest.raises(RuntimeError) as info:
        list(data.create_tuple_iterator())
    assert f"map operation: [PyFunc] failed. The corresponding data file is: {files[0]}." in \
        str(info.value)
    with pytest.raises(RuntimeError, match="numbers of tfrecord file should not less than "
                                           "num_shards when shard_equal_rows is false, but got "
                                           "numbers of tfrecord file: 2, num_shards: 4"):
        list(ds.TFRecordDataset(files, num_shards=4, shard_id=3).create_tuple_iterator())


def test_seeded_global_shuffle_is_mindspores_order(tmp_path):
    """Shuffle.GLOBAL after set_seed: MindSpore 2.10's order (its seeded file order, the rows
    its workers read, its seeded buffer shuffle), the same in every iterator."""
    files = [write_records(tmp_path / f"{name}.data",
                           [{"id": ("int64", [first + i])} for i in range(count)])
             for name, first, count in (("a", 0, 4), ("b", 10, 3), ("c", 20, 5))]
    old = ds.config.get_seed()
    try:
        for seed, workers, expected in (
                (1, 1, [[21, 11, 10, 22, 24, 20, 12, 3, 1, 23, 0, 2],
                        [11, 12, 0, 22, 1, 3, 24, 21, 23, 20, 10, 2]]),
                (7, 2, [[1, 3, 24, 12, 2, 0, 10, 11, 23, 21, 20, 22],
                        [21, 23, 11, 22, 1, 24, 3, 12, 20, 0, 10, 2]])):
            ds.config.set_seed(seed)
            data = ds.TFRecordDataset(files, num_parallel_workers=workers)
            for _ in range(2):
                epochs = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
                assert [[int(r[0][0]) for r in epochs] for _ in range(2)] == expected
    finally:
        ds.config.set_seed(old)


def test_a_schema_of_listed_columns_keeps_their_order(files, tmp_path):
    """MindSpore 2.10: columns a schema lists (a Schema built with add_column, or a JSON list)
    come in that order; a JSON object of columns comes by name."""
    schema = ds.Schema()
    for name, de_type in (("score", "float32"), ("id", "int64"), ("raw", "uint8")):
        schema.add_column(name, de_type)
    data = ds.TFRecordDataset(files[0], schema=schema, shuffle=False)
    assert data.get_col_names() == ["score", "id", "raw"]
    row = next(data.create_dict_iterator(output_numpy=True))
    assert list(row) == ["score", "id", "raw"] and row["id"].tolist() == [0]
    listed = _schema(tmp_path, [{"name": "raw", "type": "uint8", "rank": 1},
                                {"name": "id", "type": "int64", "rank": 1}])
    assert ds.TFRecordDataset(files[0], listed, shuffle=False).get_col_names() == ["raw", "id"]


def test_split_takes_runs_of_the_rows_as_read_or_of_mindspores_seeded_shuffle(files):
    """TFRecordDataset has no random access: MindSpore 2.10's parts."""
    def ids(data):
        return [int(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True)]

    data = ds.TFRecordDataset(files, shuffle=False)
    assert [ids(p) for p in data.split([4, 2], randomize=False)] == [[0, 10, 1, 11], [2, 12]]
    old = ds.config.get_seed()
    try:
        ds.config.set_seed(53)
        parts = ds.TFRecordDataset(files, shuffle=False).split([4, 2])
        assert [ids(p) for p in parts] == [[1, 11, 10, 12], [0, 2]]
    finally:
        ds.config.set_seed(old)
