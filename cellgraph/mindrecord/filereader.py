"""`mindspore.mindrecord.FileReader`: the rows of a MindRecord dataset as dicts, read in file
order without a pipeline (MindSpore's tests and tools read back what FileWriter wrote)."""
from __future__ import annotations

import contextlib
import os
import sqlite3

import numpy as np

from . import commit as staging
from . import format as fmt
from . import msgpack
from .checks import MIN_FILE_SIZE, check_parameter, pipeline_error
from .common.exceptions import ParamTypeError, ParamValueError
from .config import decrypt_inputs, release

__all__ = ["FileReader"]

def _scalar(value):
    """A raw (non-blob) field as MindSpore's readers give it: the stored value, a float that
    is a whole number as an int (MindSpore's readers pass the row through JSON numbers)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _blob(value, spec: dict):
    if spec.get("type") == "bytes":  # one element of its own length: its bytes, all kept
        return np.asarray(value).tobytes()
    return value


class _Shards:
    """The shard files of a dataset, their headers and row locations; `row(shard, i)` is
    row i of a shard as a dict: the raw fields in stored order, then the blob fields."""

    def __init__(self, paths: list[str], op: str, columns=None):
        self.paths = paths
        self.headers = [fmt.read_header(p, op) for p in paths]
        self.schema = dict(self.headers[0]["schema"][0]["schema"])
        self.blobs = fmt.blob_fields(self.schema)
        self.compressed = self.headers[0]["version"] >= "3.0" and fmt._compresses(self.schema)
        self.columns = columns
        self.op = op
        self.locations = [fmt.row_locations(p, h, op) for p, h in zip(paths, self.headers)]

    def row(self, shard: int, row_id: int) -> dict:
        path = self.paths[shard]
        raw_at, raw_n, blob_at, blob_n = self.locations[shard][row_id]
        with open(path, "rb") as f:
            f.seek(raw_at)
            raw = f.read(raw_n)
            f.seek(blob_at)
            blob = f.read(blob_n)
        where = f"{self.op}: {path!r}"
        stored = msgpack.unpackb(raw)
        order = [n for n in stored if n in self.schema and n not in self.blobs]
        order += [n for n in self.blobs]
        if self.columns:
            order = [n for n in order if n in self.columns]
        values = fmt.decode_row(raw, blob, self.schema, self.blobs, order, self.compressed,
                                where)
        out = {}
        for name, value in zip(order, values):
            out[name] = _blob(value, self.schema[name]) if name in self.blobs else \
                _scalar(stored[name])
        return out


def _open_files(file_name, op: str, columns=None) -> _Shards:
    """The shards of `file_name`: one file of a dataset (its shards are all read), or a list
    of files; each with its index file, checked as MindSpore checks them."""
    given = [file_name] if isinstance(file_name, str) else list(file_name)
    for path in given:
        for p in (path, path + ".db"):
            if not os.path.exists(p):
                raise RuntimeError(f"The input: {p} is not exists.")
    for path in given:
        size = os.path.getsize(path)
        if size < MIN_FILE_SIZE:
            raise RuntimeError(f"Invalid file, the size of mindrecord file: {size} is less than "
                               f"{MIN_FILE_SIZE}.")
    if isinstance(file_name, str):
        staging.recover(os.path.dirname(os.path.abspath(file_name)))
        paths = fmt.dataset_files(file_name, fmt.read_header(file_name, op), op)
    else:
        paths = given
    for path in paths:
        _check_shard(path)
    shards = _Shards(paths, op, columns)
    if columns:
        unknown = [n for n in columns if n not in shards.schema]
        if unknown:
            raise RuntimeError(f"{op}: the column(s) {unknown} are not in the schema "
                               f"({list(shards.schema)})")
    return shards


def _check_shard(path: str) -> None:
    """A shard file and its index exist, and the index is a database naming the shard."""
    if not os.path.isfile(path):
        raise pipeline_error(f"Invalid file, mindrecord file: {path} can not be found. Please "
                             f"check whether the mindrecord file exists and do not rename the "
                             f"mindrecord file.")
    db = path + ".db"
    if not os.path.isfile(db):
        raise pipeline_error(f"Invalid file, failed to open mindrecord meta file. Please check "
                             f"whether the meta file: {db} exists and do not rename the "
                             f"mindrecord file and meta file.")
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            connection.execute("SELECT NAME from SHARD_NAME;").fetchall()
        finally:
            connection.close()
    except sqlite3.Error as e:
        raise pipeline_error(f"Failed to execute the sql [ SELECT NAME from SHARD_NAME; ] while "
                             f"verifying meta file, {e}. Please check the meta file: "
                             f"{db}") from None


class FileReader:
    """`FileReader(file_name, num_consumer=4, columns=None, operator=None)`: `file_name` is one
    file of a dataset (its shards are all read) or a list of files; `columns` a list of field
    names (default: all)."""

    op = "FileReader"

    @check_parameter
    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        if columns and not isinstance(columns, list):
            raise ParamTypeError("columns", "list")
        if isinstance(file_name, list) and not file_name:
            raise ParamValueError("File path is not allowed None or empty!")
        self._decrypted = []
        paths, self._decrypted = decrypt_inputs(file_name)
        try:
            self._shards = _open_files(paths, self.op, columns or None)
        except BaseException:
            release(self._decrypted)
            raise
        self._schema = self._shards.schema
        self.num_consumer = num_consumer
        self.operator = operator
        self._closed = False

    def get_next(self):
        """Yield each row, a dict {field: value}."""
        for shard, locations in enumerate(self._shards.locations):
            for row_id in range(len(locations)):
                if self._closed:
                    return
                yield self._shards.row(shard, row_id)

    def len(self) -> int:
        """The number of rows."""
        return sum(len(locations) for locations in self._shards.locations)

    def schema(self) -> dict:
        """The dataset's schema, {field: {"type", "shape"}}."""
        return {name: dict(spec) for name, spec in self._schema.items()}

    def close(self) -> None:
        """Stop reading: get_next yields no more rows (decrypted copies are removed)."""
        self._closed = True
        release(self._decrypted)
        self._decrypted = []

    def __del__(self):
        with contextlib.suppress(Exception):
            release(getattr(self, "_decrypted", []))
