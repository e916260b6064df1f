"""FileWriter -> MindDataset round-trips every MindSpore field type through MindSpore's
MindRecord format, across shards, column subsets, padding and dataset sharding; files of
another format are refused, saying so."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import dataset as ds
from cellgraph.mindrecord import FileWriter

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"},
          "data": {"type": "bytes"}, "mask": {"type": "float32", "shape": [-1]},
          "box": {"type": "float64", "shape": [2, 2]}, "id": {"type": "int64"}}


def row(i: int) -> dict:
    return {"file_name": f"{i}.jpg", "label": i, "data": bytes([i, 2 * i, 255]),
            "mask": np.arange(i + 1, dtype=np.float32) / 2,
            "box": np.full((2, 2), i + 0.25), "id": 10**12 + i}


def write(path, n=6, shard_num=1) -> None:
    writer = FileWriter(str(path), shard_num=shard_num)
    assert writer.add_schema(SCHEMA, "test rows") is None  # MindSpore 2.10 returns None
    writer.add_index(["file_name", "label"])
    writer.write_raw_data([row(i) for i in range(n)])
    writer.commit()


def check_row(got: dict, i: int) -> None:
    expected = row(i)
    assert str(got["file_name"]) == expected["file_name"]
    assert got["label"].dtype == np.int32 and int(got["label"]) == i
    # MindSpore gives a bytes column as a 1-element bytes array
    assert got["data"].shape == (1,) and got["data"].tobytes() == bytes([i, 2 * i, 255])
    np.testing.assert_array_equal(got["mask"], expected["mask"])
    np.testing.assert_array_equal(got["box"], expected["box"])
    assert got["box"].dtype == np.float64 and got["id"] == 10**12 + i


def test_round_trip_of_every_field_type(tmp_path):
    write(tmp_path / "rows.mindrecord")
    data = ds.MindDataset(str(tmp_path / "rows.mindrecord"), shuffle=False)
    assert data.get_dataset_size() == 6
    assert data.get_col_names() == sorted(SCHEMA)  # MindSpore's order: by name
    rows = list(data.create_dict_iterator(output_numpy=True))
    for i, got in enumerate(rows):
        check_row(got, i)


def test_shards_are_all_read_from_one_name(tmp_path):
    write(tmp_path / "rows.mindrecord", n=7, shard_num=3)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        name for i in range(3) for name in (f"rows.mindrecord{i}", f"rows.mindrecord{i}.db")]
    data = ds.MindDataset(str(tmp_path / "rows.mindrecord1"), columns_list=["label"],
                          shuffle=False)
    labels = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(labels) == list(range(7))
    only = ds.MindDataset([str(tmp_path / "rows.mindrecord2")], columns_list=["label", "id"],
                          shuffle=False)
    # a batch is split into contiguous blocks over the shards, the first ones one row longer
    assert [int(r[0]) for r in only.create_tuple_iterator(output_numpy=True)] == [5, 6]


def test_sharding_padding_and_shuffle(tmp_path):
    write(tmp_path / "rows.mindrecord", n=5)
    path = str(tmp_path / "rows.mindrecord")
    pad = {"label": -1}
    seen = []
    for shard_id in range(2):
        data = ds.MindDataset(path, columns_list=["label"], shuffle=False, num_shards=2,
                              shard_id=shard_id, padded_sample=pad, num_padded=1)
        seen += [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(seen) == [-1, 0, 1, 2, 3, 4]
    shuffled = ds.MindDataset(path, columns_list=["label"])  # shuffle=None: global shuffle
    assert sorted(int(r[0]) for r in shuffled.create_tuple_iterator(output_numpy=True)) == \
        list(range(5))
    batched = ds.MindDataset(path, columns_list=["box"], shuffle=False).batch(2)
    first = next(batched.create_tuple_iterator(output_numpy=True))[0]
    np.testing.assert_array_equal(first[:, 0, 0], [0.25, 1.25])


def test_a_file_of_another_format_is_refused(tmp_path):
    foreign = tmp_path / "mindspore.mindrecord"
    foreign.write_bytes(b"\x00" * 64)
    # as MindSpore's MindDataset: the index file is looked for first
    with pytest.raises(RuntimeError, match=r"The input: .*mindspore.mindrecord.db is not exists"):
        ds.MindDataset(str(foreign))
    (tmp_path / "mindspore.mindrecord.db").write_bytes(b"\x00" * 64)
    with pytest.raises(RuntimeError, match="not a MindRecord file"):
        ds.MindDataset(str(foreign))
    write(tmp_path / "rows.mindrecord")
    with pytest.raises(RuntimeError, match="can not found in schema"):
        ds.MindDataset(str(tmp_path / "rows.mindrecord"), columns_list=["nope"]).get_col_names()


def test_num_samples_errors_come_first_and_file_shuffles_refuse_num_samples(tmp_path):
    """MindSpore's order and words: a bad num_samples is reported even when
    num_parallel_workers is out of range too; Shuffle.FILES / INFILE exclude num_samples."""
    path = str(tmp_path / "data.mindrecord")
    write(path)
    with pytest.raises(ValueError, match=r"num_samples exceeds the boundary between 0 and "
                                         r"9223372036854775807\(INT64_MAX\)"):
        ds.MindDataset(path, num_parallel_workers=10**6, num_samples=-1)
    for mode in (ds.Shuffle.FILES, ds.Shuffle.INFILE):
        with pytest.raises(ValueError, match="'Shuffle.FILES' or 'Shuffle.INFILE' and "
                                             "'num_samples' cannot be specified at the same "
                                             "time."):
            ds.MindDataset(path, shuffle=mode, num_samples=5)


def test_shuffle_false_and_adaptive(tmp_path):
    """Shuffle.FALSE reads in order; ADAPTIVE shuffles globally (up to 100 million rows, as
    MindSpore's); PARTIAL, MindRecord's block shuffle, is refused when sharded rather than done
    otherwise."""
    from cellgraph.mindrecord import FileWriter
    from cellgraph.primitives.errors import UnsupportedError

    path = str(tmp_path / "rows.mindrecord")
    writer = FileWriter(path, 1)
    writer.add_schema({"id": {"type": "int32"}}, "rows")
    writer.write_raw_data([{"id": i} for i in range(8)])
    writer.commit()
    ordered = ds.MindDataset(path, shuffle=ds.Shuffle.FALSE)
    assert [int(r[0]) for r in ordered.create_tuple_iterator(output_numpy=True)] == \
        list(range(8))
    adaptive = ds.MindDataset(path, shuffle=ds.Shuffle.ADAPTIVE)
    assert sorted(int(r[0]) for r in adaptive.create_tuple_iterator(output_numpy=True)) == \
        list(range(8))
    partial = ds.MindDataset(path, shuffle=ds.Shuffle.PARTIAL)
    assert sorted(int(r[0]) for r in partial.create_tuple_iterator(output_numpy=True)) == \
        list(range(8))
    with pytest.raises(UnsupportedError, match="Shuffle.PARTIAL"):  # sharded: not done here
        ds.MindDataset(path, shuffle=ds.Shuffle.PARTIAL, num_shards=2, shard_id=0)


def test_a_column_the_schema_lacks_is_reported_when_the_pipeline_is_built(tmp_path):
    """MindSpore 2.10: the constructor and get_dataset_size accept columns_list=['label',
    'nope', 'zz']; the columns, the types and an iterator raise RuntimeError naming the first
    unknown column."""
    write(tmp_path / "rows.mindrecord")
    data = ds.MindDataset(str(tmp_path / "rows.mindrecord"), columns_list=["label", "nope", "zz"])
    assert data.get_dataset_size() == 6
    expected = r"\[ERROR\] Invalid data, column name: nope can not found in schema\. Please " \
               r"check the 'column_list'\."
    for ask in (data.get_col_names, data.output_types, data.create_tuple_iterator):
        with pytest.raises(RuntimeError, match=expected):
            ask()
