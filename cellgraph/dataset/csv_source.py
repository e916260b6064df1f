"""CSVDataset: the rows of CSV files, as mindspore.dataset.CSVDataset reads them."""
from __future__ import annotations

import csv
import re

import numpy as np

from .core.validator_helpers import type_check
from .engine import check_num_parallel_workers
from .readers import TextFileDataset, _file_list
from .samplers import Shuffle

__all__ = ["CSVDataset"]

_KINDS = {int: np.int32, float: np.float32, str: np.str_}
_INT = re.compile(r"\s*[+-]?\d+")
_FLOAT = re.compile(r"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|nan)",
                    re.IGNORECASE)


class CSVDataset(TextFileDataset):
    """The records of CSV files (RFC 4180 quoting: quoted fields may hold the delimiter, a
    doubled quote or a line break), one row each, one scalar column per field. `column_defaults`
    gives each column's type (an int: int32, a float: float32, a str: string; strings when
    not given) and the value of an empty field; without `column_names` the first record of
    each file names the columns. Shuffling and sharding as TextFileDataset."""

    op = "CSVDataset"

    def __init__(self, dataset_files, field_delim=',', column_defaults=None, column_names=None,
                 num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        check_num_parallel_workers(num_parallel_workers)
        files = _file_list(dataset_files, self.op)
        self.field_delim = ',' if field_delim is None else field_delim
        type_check(self.field_delim, (str,), "field_delim")
        if self.field_delim in ('"', '\r', '\n') or len(self.field_delim) != 1:
            raise ValueError("field_delim is invalid.")
        if column_defaults is not None:
            type_check(column_defaults, (list,), "column_defaults")
            for i, value in enumerate(column_defaults):
                type_check(value, (int, float, str), f"column_defaults[{i}]")
        self.column_defaults = column_defaults
        if column_names is not None:
            type_check(column_names, (list,), "column_names")
        names = list(column_names) if column_names else self._header(files[0])
        self._has_header = not column_names
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)
        self._names = names

    def _reader(self, f, strict=True):
        return csv.reader(f, delimiter=self.field_delim, quotechar='"', strict=strict)

    def _header(self, path) -> list[str]:
        with open(path, encoding="utf-8", newline="") as f:
            for record in self._reader(f):
                return record
        return []

    def _value(self, text: str, column: int, path: str, line: int):
        """A field as its column's type, as MindSpore's reader converts it: an int column
        takes the leading integer (C's stoi: "2.5" is 2), a float column the leading number;
        an empty or unreadable numeric field does not match the type."""
        default = None if self.column_defaults is None or column >= len(
            self.column_defaults) else self.column_defaults[column]
        kind = str if default is None else type(default)
        if kind is str:
            return np.str_(text)
        match = (_INT if kind is int else _FLOAT).match(text)
        if not match:
            raise RuntimeError(f"Invalid csv, csv file: {path} parse failed at line {line}, "
                               f"type does not match.")
        return _KINDS[kind](kind(match.group(0)))

    def _records(self, path) -> tuple[list, int | None]:
        """The file's records as (fields, line), and the index of the first one the strict
        parser refuses (an unterminated quote), None if none; that record is kept as the
        lenient parser reads it, so that its fields are still converted (and can fail) in
        order."""
        records = []
        with open(path, encoding="utf-8", newline="") as f:
            reader = self._reader(f, strict=False)
            for record in reader:
                records.append((record, reader.line_num))
        bad = None
        with open(path, encoding="utf-8", newline="") as f:
            count = 0
            try:
                for _ in self._reader(f):
                    count += 1
            except csv.Error:
                bad = count
        if self._has_header and records:
            records = records[1:]
            bad = None if bad is None else bad - 1
        kept, bad_row = [], None
        for number, (record, line) in enumerate(records):
            if bad is not None and number > bad:
                break
            if not record:
                continue
            if number == bad:
                bad_row = len(kept)
            kept.append((record, line))
        return kept, bad_row

    @property
    def column_names(self):
        """The columns; repeated names are refused once the pipeline is built (an iterator,
        get_col_names), as MindSpore refuses them."""
        if len(set(self._names)) != len(self._names):
            name = next(n for n in self._names if self._names.count(n) > 1)
            raise RuntimeError(f"Invalid parameter, duplicate column names are not allowed: "
                               f"{name}, the corresponding data files: {self.dataset_files}, "
                               f"please check column_names.")
        return list(self._names)

    def load(self):
        rows, self._bad = [], {}
        self.file_rows = []
        for path in self.dataset_files:
            start = len(rows)
            records, bad_row = self._records(path)
            if bad_row is not None:
                self._bad[start + bad_row] = path
            rows.extend((record, path, line) for record, line in records)
            self.file_rows.append(np.arange(start, len(rows)))
        self._rows = rows
        return [np.arange(len(rows))]  # the fields are converted as the rows are read

    def row_at(self, index):
        self.arrays  # noqa: B018  (loads the files)
        record, path, line = self._rows[int(index)]
        from .nodes import ROW_FILE

        ROW_FILE.path = path
        if len(record) != len(self._names):
            raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at line "
                               f"{line}. Error message: the record has {len(record)} fields, "
                               f"the columns are {self._names}.")
        values = tuple(self._value(text, i, path, line) for i, text in enumerate(record))
        if int(index) in self._bad:
            raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at line {line}. "
                               f"Error message: Invalid csv file, reach the end of file in "
                               f"quote field, check {path}.")
        return values
