"""TFRecordDataset: files of TensorFlow records, each a serialized `tf.train.Example`.

A record is framed as <length: uint64 LE> <crc of length: uint32> <data> <crc of data: uint32>;
the data is the protobuf message

    Example  { Features features = 1; }
    Features { map<string, Feature> feature = 1; }     // entries: key = 1, value = 2
    Feature  { oneof { BytesList bytes_list = 1; FloatList float_list = 2;
                       Int64List int64_list = 3; } }   // each a `repeated value = 1`

read here with a small wire-format decoder. A schema (MindSpore's JSON file) names the columns,
their dtypes and shapes; without one, the columns of the first record are read, int64 lists as
int64, float lists as float32 and bytes as uint8, each as a vector.
"""
from __future__ import annotations

import gzip
import json
import os
import struct
import zlib

import numpy as np

from cellgraph._protowire import fields, read_varint

from .core import config
from .engine import Dataset, check_num_parallel_workers
from .readers import _ArraySource, _file_list, file_order, global_shuffle, worker_order
from .samplers import Shuffle

__all__ = ["TFRecordDataset"]

_BYTES, _FLOATS, _INT64S = 1, 2, 3


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC32C = _crc32c_table()


def masked_crc32c(data: bytes) -> int:
    """TFRecord's checksum: CRC-32C (Castagnoli), rotated right by 15 bits plus a constant."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC32C[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _fields(buf: bytes):
    """(field number, wire type, value) of a message (the protobuf wire format)."""
    try:
        yield from fields(buf)
    except ValueError as e:
        raise ValueError(f"TFRecordDataset: a record is not a tf.train.Example: {e}") from None


def _feature(buf: bytes) -> tuple[int, list]:
    """The kind of a Feature and its values."""
    for kind, _, payload in _fields(buf):
        values = []
        for _, wire, value in _fields(payload):
            if kind == _BYTES:
                values.append(bytes(value))
            elif kind == _FLOATS:
                values.extend(struct.unpack(f"<{len(value) // 4}f", value))
            elif wire == 0:
                values.append(value)
            else:  # packed varints
                pos = 0
                while pos < len(value):
                    item, pos = read_varint(value, pos)
                    values.append(item)
        if kind == _INT64S:  # two's complement in 64 bits
            values = [v - (1 << 64) if v >= 1 << 63 else v for v in values]
        return kind, values
    return _INT64S, []


def parse_example(data: bytes) -> dict[str, tuple[int, list]]:
    """{feature name: (kind, values)} of a serialized tf.train.Example."""
    out = {}
    for _, _, features in _fields(data):
        for _, _, entry in _fields(features):
            name, value = "", b""
            for number, _, item in _fields(entry):
                if number == 1:
                    name = bytes(item).decode("utf-8")
                elif number == 2:
                    value = item
            out[name] = _feature(value)
    return out


_DECOMPRESS = {"GZIP": gzip.decompress, "ZLIB": zlib.decompress}


def read_records(path: str, compression_type: str | None = None) -> list[bytes]:
    """The records of one TFRecord file, its bytes first inflated where `compression_type` is
    "GZIP" or "ZLIB"."""
    with open(path, "rb") as f:
        raw = f.read()
    if compression_type:
        try:
            raw = _DECOMPRESS[compression_type](raw)
        except (OSError, zlib.error, EOFError) as error:
            raise RuntimeError(f"Invalid file. The following files either cannot be opened, or "
                               f"are not valid TFRecordDataset files: {path} ({compression_type} "
                               f"decompression failed: {error})") from None
    records, pos = [], 0
    while pos < len(raw):
        if pos + 12 > len(raw):
            raise RuntimeError(f"Invalid file. The following files either cannot be opened, or "
                               f"are not valid TFRecordDataset files: {path} (it ends inside a "
                               f"record header)")
        (size, length_crc) = struct.unpack_from("<QI", raw, pos)
        if masked_crc32c(raw[pos:pos + 8]) != length_crc:
            raise RuntimeError(f"Invalid file. The following files either cannot be opened, or "
                               f"are not valid TFRecordDataset files: {path} (the length of the "
                               f"record at offset {pos} fails its checksum)")
        start = pos + 12
        if start + size + 4 > len(raw):
            raise RuntimeError(f"Invalid file. The following files either cannot be opened, or "
                               f"are not valid TFRecordDataset files: {path} (a record of "
                               f"{size} bytes at offset {pos} runs past its end)")
        records.append(raw[start:start + size])
        pos = start + size + 4
    return records


def _read_schema(schema) -> tuple[dict, int | None]:
    """{column: {"type", "rank", "shape"}} in MindSpore's order (a list of columns as listed,
    an object of columns by name, as its JSON reader holds them), and its numRows."""
    if hasattr(schema, "to_json"):  # a Schema object
        schema = json.loads(schema.to_json())
    else:
        with open(os.fspath(schema), encoding="utf-8") as f:
            schema = json.load(f)
    columns = schema.get("columns", {})
    if isinstance(columns, list):
        return {c["name"]: c for c in columns}, schema.get("numRows")
    return {name: columns[name] for name in sorted(columns)}, schema.get("numRows")


_EXAMPLE_TYPES = {_BYTES: "string", _FLOATS: "float32", _INT64S: "int64"}


def _column_value(kind: int, values: list, spec: dict | None, name: str) -> np.ndarray:
    """One feature as a column value, by MindSpore's rules: a bytes list is a string column, or
    its bytes end to end in a uint8 one; ints and floats cast to any numeric type, never to or
    from strings; a shape without -1 must hold exactly the values read, one with -1 takes the
    rest; no schema reads bytes as uint8."""
    spec = spec or {}
    example_type = _EXAMPLE_TYPES[kind]
    dtype = {"str": "string"}.get(spec.get("type"), spec.get("type"))
    if dtype is None:
        dtype = "uint8" if kind == _BYTES else example_type
    elif dtype != example_type and "string" in (dtype, example_type) and dtype != "uint8":
        raise RuntimeError(f"The data type loaded from the example for feature name: {name} does "
                           f"not match the predefined type in schema, the actual type: "
                           f"{example_type}, but the predefined type: {dtype}")
    if kind == _BYTES and dtype == "string":
        array = np.array([v.decode("utf-8") for v in values], dtype=np.str_)
    elif kind == _BYTES:
        array = np.frombuffer(b"".join(values), np.uint8)
    else:
        array = np.array(values, np.float32 if kind == _FLOATS else np.int64).astype(dtype)
    shape = spec.get("shape")
    if shape is not None:
        known = -1 not in shape
        if known and int(np.prod(shape, dtype=np.int64)) != array.size or not known and (
                array.size % max(-int(np.prod(shape, dtype=np.int64)), 1)):
            raise RuntimeError(f"Column shape of {name} defined in schema does not match the "
                               f"shape actually load.")
        array = array.reshape(shape)
    elif spec.get("rank") == 0 and array.size == 1 and not (kind == _BYTES and dtype == "uint8"):
        array = array.reshape(())  # bytes read as uint8 stay a vector, whatever the rank
    return array


def _in_turn(parts) -> np.ndarray:
    """The rows of the files `parts` taken in turn, one from each file."""
    return np.asarray([int(p[i]) for i in range(max((len(p) for p in parts), default=0))
                       for p in parts if i < len(p)], np.int64)


class TFRecordDataset(_ArraySource):
    """The records of TFRecord files, one row each. Files are read in the order given (a
    pattern: its matches sorted), their rows taken in turn, one from each file; shards take
    whole files, or equal numbers of rows with `shard_equal_rows`. `shuffle` is a Shuffle mode or a bool (True:
    GLOBAL)."""

    op = "TFRecordDataset"

    def split(self, sizes, randomize=True):
        """Split as MindSpore splits a source it reads in file order, without random access
        (runs of the rows as read, or of a shuffle of them: `Dataset.split`)."""
        return Dataset.split(self, sizes, randomize)

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, shard_equal_rows=False, cache=None, compression_type=None):
        check_num_parallel_workers(num_parallel_workers)
        self.workers = num_parallel_workers
        self.compression_type = compression_type or ""
        if self.compression_type not in ("", "ZLIB", "GZIP"):
            raise ValueError(f"Input compression_type can only be either '' (no compression), "
                             f"'ZLIB', or 'GZIP', but got '{compression_type}'.")
        # a pattern or a list of patterns, their matches in lexicographic order (MindSpore's
        # TFRecordNode sorts the files it is given)
        self.dataset_files = _file_list(dataset_files, self.op)
        if self.compression_type and num_samples is not None and num_shards is not None \
                and num_shards > len(self.dataset_files):
            raise ValueError(f"When compression_type is provided, the number of dataset files "
                             f"cannot be less than num_shards, but the actual number of files is "
                             f"{len(self.dataset_files)} and actual num_shards is {num_shards}.")
        if shuffle is True:
            shuffle = Shuffle.GLOBAL
        if shuffle is not False and not isinstance(shuffle, Shuffle):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                            "'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                            "'Shuffle.FILES' or 'Shuffle.INFILE'.")
        if (num_shards is None) != (shard_id is None):
            raise RuntimeError(f"{self.op}: `num_shards` and `shard_id` must be given together")
        if num_shards is not None and not 0 <= shard_id < num_shards:
            raise ValueError(f"{self.op}: `shard_id` must be in [0, {num_shards}), got "
                             f"{shard_id!r}")
        self.shuffle_mode, self.num_shards, self.shard_id = shuffle, num_shards, shard_id
        self.shard_equal_rows = shard_equal_rows
        self.schema, self.columns_list = schema, columns_list
        self.column_specs, schema_rows = ({}, None) if schema is None else _read_schema(schema)
        if num_samples is None and schema_rows:
            num_samples = schema_rows
        # compressed files cannot be counted without inflating them: given a row count, MindSpore
        # reads that many rows per shard, an equal part from each of the shard's files
        self._rows_per_shard = num_samples if self.compression_type and num_samples else None
        if self.column_specs:
            names = list(self.column_specs)
        else:
            names = self._first_record_names()
        # a name the records do not hold is refused when they are read, as MindSpore does
        self._unknown_columns = [] if columns_list is None else [
            c for c in columns_list if c not in names]
        if columns_list is not None:
            names = list(columns_list)
        super().__init__(names, {"num_samples": num_samples,
                                 "shuffle": shuffle is Shuffle.GLOBAL, "cache": cache})

    def _first_record_names(self) -> list[str]:
        for path in self.dataset_files:
            records = read_records(path, self.compression_type)
            if records:
                return sorted(parse_example(records[0]))
        return []

    def _shard_records(self) -> list[list[bytes]]:
        """The records of this shard, per file: whole files (file i in shard i % num_shards),
        or with `shard_equal_rows` the shard's equal slice of all rows, the files end to end
        (wrapping around to the first rows where the count does not divide)."""
        files = self.dataset_files
        if self._rows_per_shard is not None:
            return self._compressed_shard_records()
        if self.num_shards is None:
            self._shard_paths = list(files)
            return [read_records(p, self.compression_type) for p in files]
        if not self.shard_equal_rows:
            if len(files) < self.num_shards:
                raise RuntimeError(f"Invalid file, numbers of tfrecord file should not less than "
                                   f"num_shards when shard_equal_rows is false, but got numbers "
                                   f"of tfrecord file: {len(files)}, num_shards: "
                                   f"{self.num_shards}")
            self._shard_paths = files[self.shard_id::self.num_shards]
            return [read_records(p, self.compression_type) for p in self._shard_paths]
        per_file = [read_records(p, self.compression_type) for p in files]
        total = sum(len(r) for r in per_file)
        size = -(-total // self.num_shards)
        start, end = self.shard_id * size, (self.shard_id + 1) * size
        if total == 0:
            return []
        # rows past the last wrap around to the first, so that every shard has `size` rows
        located = [(f, r) for f, records in enumerate(per_file) for r in range(len(records))]
        parts: dict[int, list[bytes]] = {}
        for index in range(start, end):
            f, r = located[index % total]
            parts.setdefault(f, []).append(per_file[f][r])
        self._shard_paths = [files[f] for f in parts]
        return list(parts.values())

    def _compressed_shard_records(self) -> list[list[bytes]]:
        """Compressed files with a row count (num_samples, or the schema's numRows): whole files
        per shard (those past the last multiple of num_shards left out, shard_equal_rows
        ignored), and from each file its share of the count, which it must hold."""
        shards = self.num_shards or 1
        files = self.dataset_files[:len(self.dataset_files) // shards * shards]
        mine = files[self.shard_id or 0::shards]
        per_file_rows = self._rows_per_shard // max(len(files) // shards, 1)
        per_file = []
        self._shard_paths = list(mine)
        for path in mine:
            records = read_records(path, self.compression_type)
            if len(records) < per_file_rows:
                raise RuntimeError(
                    f"This tfrecord file: {path}, does not meet minimum rows per shard "
                    f"requirement: {self._rows_per_shard} and {self._rows_per_shard // shards} "
                    f"number of rows per file, but got {len(records)} number of rows in this file.")
            per_file.append(records[:per_file_rows])
        return per_file

    def _check_files(self) -> None:
        """Every file must be a TFRecord file (MindSpore checks them all before reading one),
        and `columns_list` must name features of the records."""
        invalid = []
        for path in self.dataset_files:
            try:
                read_records(path, self.compression_type)
            except RuntimeError:
                invalid.append(path)
        if invalid:
            raise RuntimeError(f"Invalid file. The following files either cannot be opened, or "
                               f"are not valid TFRecordDataset files: {', '.join(invalid)}")
        if self._unknown_columns:
            raise RuntimeError(f"Invalid columns_list, tfrecord file failed to find column name: "
                               f"{self._unknown_columns[0]}")

    def load(self):
        self._check_files()
        per_file = self._shard_records()
        records = []  # one row from each file in turn
        self.file_rows = [[] for _ in per_file]
        for i in range(max((len(r) for r in per_file), default=0)):
            for f, file_records in enumerate(per_file):
                if i < len(file_records):
                    self.file_rows[f].append(len(records))
                    records.append(file_records[i])
        self._row_paths = np.empty(len(records), dtype=object)
        for path, rows in zip(self._shard_paths, self.file_rows):
            self._row_paths[rows] = path
        columns = [np.empty(len(records), dtype=object) for _ in self._names]
        for row, data in enumerate(records):
            features = parse_example(data)
            for column, name in zip(columns, self._names):
                if name not in features:
                    raise RuntimeError(f"Feature name: {name} is required in schema but could "
                                       f"not be found in tfrecord file.")
                column[row] = _column_value(*features[name], self.column_specs.get(name), name)
        return columns

    def row_at(self, index):
        """The row, noting the file it came from (a map's error names it)."""
        from .nodes import ROW_FILE

        self.arrays  # noqa: B018  (loads the files, which sets _row_paths)
        ROW_FILE.path = self._row_paths[index]
        return super().row_at(index)

    def rows(self, state):
        """Shuffle.GLOBAL shuffles the rows (the first num_samples when given); Shuffle.FILES the order of the
        files only, each file's rows kept in order; Shuffle.INFILE the rows within each file,
        the files kept in order. The files' rows are then taken in turn, one from each."""
        if self.shuffle_mode is Shuffle.GLOBAL and config.mindspore_seed() is not None:
            # MindSpore's order once a seed is set: the files in their seeded order, read by its
            # workers, through its seeded buffer shuffle
            self.arrays  # noqa: B018  (loads the files, which sets file_rows)
            parts = [np.asarray(self.file_rows[k], np.int64) for k in
                     file_order(len(self.file_rows), Shuffle.GLOBAL, None, state.next_pass(self),
                                self.num_shards)]
            workers = self.workers or config.get_num_parallel_workers()
            for index in global_shuffle(self, worker_order(parts, workers), state, None,
                                        self.num_rows):
                yield self.row_at(int(index))
            return
        limit = getattr(self.sampler, "num_samples", None)
        if self.shuffle_mode is Shuffle.GLOBAL and limit:
            # the reader stops at num_samples rows, and those are shuffled (MindSpore's
            # reader runs before its shuffle)
            count = min(limit, self.num_rows)
            for index in state.rng(self).permutation(count):
                yield self.row_at(int(index))
            return
        if self.shuffle_mode not in (Shuffle.FILES, Shuffle.INFILE):
            yield from super().rows(state)
            return
        self.arrays  # noqa: B018  (loads the files, which sets file_rows)
        rng = state.rng(self)
        parts = [np.asarray(p, np.int64) for p in self.file_rows]
        if self.shuffle_mode is Shuffle.FILES:
            parts = [parts[i] for i in rng.permutation(len(parts))]
        else:
            parts = [rng.permutation(p) for p in parts]
        for index in self.sampler._limit(_in_turn(parts)):
            yield self.row_at(int(index))
