"""`mindspore.mindrecord.FileWriter`: rows of a schema into cellgraph MindRecord files (the
format is in format.py), which `dataset.MindDataset` reads back."""
from __future__ import annotations

import os

from . import format as fmt


def _shard_paths(file_name: str, shard_num: int) -> list[str]:
    if shard_num == 1:
        return [file_name]
    return [f"{file_name}{i}" for i in range(shard_num)]


class FileWriter:
    """Write raw rows ({field: value} dicts) to `shard_num` files, spread over them in turn."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, (str, os.PathLike)):
            raise TypeError(f"FileWriter: file_name must be a str, got {file_name!r}")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or not (
                1 <= shard_num <= 1000):
            raise ValueError(f"FileWriter: shard_num must be an int in [1, 1000], got "
                             f"{shard_num!r}")
        self.paths = _shard_paths(os.fspath(file_name), shard_num)
        for path in self.paths:
            if os.path.exists(path) and not overwrite:
                raise RuntimeError(f"FileWriter: {path!r} already exists (pass overwrite=True "
                                   f"to replace it)")
        self._schema, self._desc, self._index_fields = None, "", []
        self._rows = [[] for _ in self.paths]  # per shard: (blobs, [(offset, nbytes, shape)])
        self._written = 0
        self._committed = False

    def add_schema(self, content, desc=None) -> int:
        """Set the schema ({name: {"type": T[, "shape": [...]]}}); returns its id, 0."""
        if self._schema is not None:
            raise RuntimeError("FileWriter: the schema was already added")
        self._schema = fmt.check_schema(content, "FileWriter.add_schema")
        self._desc = desc or ""
        return 0

    def add_index(self, index_fields) -> None:
        """Fields to index: scalar (non-bytes, shapeless) fields of the schema."""
        self._need_schema("add_index")
        for name in index_fields:
            spec = self._schema.get(name)
            if spec is None or spec["type"] == "bytes" or "shape" in spec:
                raise ValueError(f"FileWriter.add_index: {name!r} must be a scalar field of "
                                 f"the schema, got {spec!r}")
        self._index_fields = list(index_fields)

    def write_raw_data(self, raw_data, parallel_writer=False) -> None:
        """Append rows: a list of dicts holding every field of the schema."""
        self._need_schema("write_raw_data")
        if not isinstance(raw_data, list) or not all(isinstance(r, dict) for r in raw_data):
            raise TypeError(f"FileWriter.write_raw_data: raw_data must be a list of dicts, got "
                            f"{type(raw_data).__name__}")
        for row in raw_data:
            missing = [name for name in self._schema if name not in row]
            if missing:
                raise ValueError(f"FileWriter.write_raw_data: row {self._written} lacks the "
                                 f"field(s) {missing}")
            encoded = [fmt.encode(row[name], name, spec, "FileWriter.write_raw_data")
                       for name, spec in self._schema.items()]
            self._rows[self._written % len(self.paths)].append(encoded)
            self._written += 1

    def commit(self) -> None:
        """Write the files."""
        self._need_schema("commit")
        names = [os.path.basename(p) for p in self.paths]
        for path, rows in zip(self.paths, self._rows):
            blobs, table, offset = [], [], 0
            for encoded in rows:
                entries = []
                for raw, shape in encoded:
                    blobs.append(raw)
                    entries.append([offset, len(raw), shape])
                    offset += len(raw)
                table.append(entries)
            fmt.write_file(path, {"schema": self._schema, "desc": self._desc,
                                  "index_fields": self._index_fields, "shard_files": names,
                                  "rows": table}, blobs)
        self._committed = True

    def _need_schema(self, method: str) -> None:
        if self._committed:
            raise RuntimeError(f"FileWriter.{method}: the files were already committed")
        if self._schema is None:
            raise RuntimeError(f"FileWriter.{method}: add_schema first")
