"""`mindspore.mindrecord.FileReader`: the rows of a MindRecord dataset as dicts, read in file
order without a pipeline (MindSpore's tests and tools read back what FileWriter wrote)."""
from __future__ import annotations

import os

import numpy as np

from . import commit as staging
from . import format as fmt

__all__ = ["FileReader"]


def _plain(value, spec: dict):
    """A field as MindSpore's FileReader gives it: bytes, str, a Python number, or an array for
    a field with a shape."""
    if spec.get("type") == "bytes":  # one element of its own length: its bytes, all kept
        return np.asarray(value).tobytes()
    if "shape" in spec:
        return value
    array = np.asarray(value)
    if array.dtype.kind in "SU":
        item = array.reshape(-1)[0]
        return item.decode("utf-8") if isinstance(item, bytes) else str(item)
    return array.reshape(-1)[0].item()


class FileReader:
    """`FileReader(file_name, num_consumer=4, columns=None, operator=None)`: `file_name` is one
    file of a dataset (its shards are all read) or a list of files; `columns` a list of field
    names (default: all)."""

    op = "FileReader"

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        if columns is not None and not isinstance(columns, list):
            raise TypeError("Invalid parameter type. 'columns' expect list type.")
        if isinstance(num_consumer, bool) or not isinstance(num_consumer, int) or \
                not 1 <= num_consumer <= (os.cpu_count() or 1) * 4:
            raise ValueError(f"{self.op}: num_consumer must be an int in [1, "
                             f"{(os.cpu_count() or 1) * 4}], got {num_consumer!r}")
        if isinstance(file_name, (str, os.PathLike)):
            path = os.fspath(file_name)
            staging.recover(os.path.dirname(os.path.abspath(path)))
            paths = fmt.dataset_files(path, fmt.read_header(path, self.op), self.op)
        else:
            paths = [os.fspath(p) for p in file_name]
        headers = [fmt.read_header(p, self.op) for p in paths]
        self._schema = dict(headers[0]["schema"][0]["schema"])
        self._blobs = fmt.blob_fields(self._schema)
        self._compressed = headers[0]["version"] >= "3.0" and fmt._compresses(self._schema)
        names = list(self._schema) if not columns else list(columns)
        unknown = [n for n in names if n not in self._schema]
        if unknown:
            raise ValueError(f"{self.op}: the column(s) {unknown} are not in the schema "
                             f"({list(self._schema)})")
        self._names = names
        self._locations = [(p, loc) for p, h in zip(paths, headers)
                           for loc in fmt.row_locations(p, h, self.op)]
        self.num_consumer, self.operator = num_consumer, operator
        self._closed = False

    def get_next(self):
        """Yield each row, a dict {field: value}."""
        for path, (raw_at, raw_n, blob_at, blob_n) in self._locations:
            if self._closed:
                return
            with open(path, "rb") as f:
                f.seek(raw_at)
                raw = f.read(raw_n)
                f.seek(blob_at)
                blob = f.read(blob_n)
            values = fmt.decode_row(raw, blob, self._schema, self._blobs, self._names,
                                    self._compressed, f"{self.op}: {path!r}")
            yield {name: _plain(value, self._schema[name])
                   for name, value in zip(self._names, values)}

    def len(self) -> int:
        """The number of rows."""
        return len(self._locations)

    def schema(self) -> dict:
        """The dataset's schema, {field: {"type", "shape"}}."""
        return {name: dict(spec) for name, spec in self._schema.items()}

    def close(self) -> None:
        """Stop reading: get_next yields no more rows."""
        self._closed = True
