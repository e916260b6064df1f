"""`mindspore.dataset.Schema`: the columns of a dataset (name, element type, shape), read from a
schema JSON file or built column by column, and written back as MindSpore's JSON text.

    schema = ds.Schema()
    schema.add_column("image", de_type=mstype.uint8, shape=[2])
    data = ds.TFRecordDataset(files, schema, shuffle=False)

A column holds "name", "type" and "rank", and "shape" when one is known. `add_column` without a
shape records an unknown shape of rank 1; a column parsed from JSON without a shape is a scalar
(rank 0, shape []), as MindSpore's column parser reads it.
"""
from __future__ import annotations

import json
import os

from cellgraph.primitives import dtype as _dtype

# the element types a dataset column may hold, by MindSpore's names
DE_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float16", "float32", "float64", "string")
# what the JSON parser also reads (MindSpore's DataType names, bytes included)
_JSON_TYPES = DE_TYPES + ("bytes",)
_JSON_FIELDS = ("datasetType", "numRows", "columns")


def _type_name(de_type) -> str:
    """MindSpore's column type name of a dtype object (mstype.int64 -> "int64")."""
    if isinstance(de_type, _dtype.String):
        return "string"
    name = de_type.name
    return "bool" if name == "bool_" else name


def _is_dtype(value) -> bool:
    return isinstance(value, (_dtype.DType, _dtype.String))


def _check_type(value, types, name: str) -> None:
    if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
        raise TypeError(f"Argument {name} with value {value} is not of type "
                        f"{list(types)}, but got {type(value)}.")


def _parse_column(name, entry: dict) -> dict:
    """One column of a JSON object: MindSpore's descriptor (a missing shape is a scalar)."""
    if name is None:
        raise RuntimeError("Schema: Column's name is missing")
    if "type" not in entry:
        raise RuntimeError(f"Schema: Column's type is missing (column {name!r})")
    if entry["type"] not in _JSON_TYPES:
        raise RuntimeError(f"Schema: Type is unknown: {entry['type']!r} (column {name!r})")
    shape = list(entry.get("shape", []))
    return {"name": name, "rank": len(shape), "shape": shape, "type": entry["type"]}


class Schema:
    """The columns of a dataset; `schema_file` (a path to MindSpore's schema JSON) fills them."""

    def __init__(self, schema_file=None):
        self.schema_file = "" if schema_file is None else schema_file
        self._columns: list[dict] = []
        self._dataset_type = None
        self._num_rows = None
        if schema_file is None:
            return
        if not isinstance(schema_file, str):
            raise TypeError(f"path: {schema_file} is not string")
        if not os.access(schema_file, os.R_OK) or not os.path.isfile(schema_file):
            raise ValueError(f"The file {schema_file} does not exist or permission denied!")
        with open(schema_file, encoding="utf-8") as f:
            content = json.load(f)
        if "columns" not in content:
            raise RuntimeError(f'Schema: "columns" node is required in the schema json JSON, '
                               f"got none in {schema_file}")
        self.from_json(content)

    def add_column(self, name, de_type, shape=None):
        """Append a column: `de_type` a dtype (mstype.int64) or its name ("int64"); `shape` a
        list of ints (-1 for an unknown size), None for an unknown shape of rank 1."""
        _check_type(name, (str,), "name")
        if not name:
            raise TypeError("Expected non-empty string for column name.")
        if de_type is None:
            raise TypeError("Expected non-empty string for de_type.")
        if not _is_dtype(de_type) and de_type not in DE_TYPES:
            raise TypeError("Unknown column type.")
        column = {"name": name, "type": _type_name(de_type) if _is_dtype(de_type) else de_type}
        if shape is None:
            column["rank"] = 1
        else:
            _check_type(shape, (list,), "shape")
            for i, size in enumerate(shape):
                _check_type(size, (int,), f"shape[{i}]")
            column.update(rank=len(shape), shape=list(shape))
        self._columns.append(column)

    def parse_columns(self, columns):
        """Append the columns of a list of {"name", "type", "shape"} dicts, or of a dict
        {name: {"type", "shape"}} (taken in name order, as a JSON object is read)."""
        if isinstance(columns, dict):
            parsed = [_parse_column(name, columns[name]) for name in sorted(columns)]
        elif isinstance(columns, (list, tuple)):
            parsed = [_parse_column(entry.get("name"), entry) for entry in columns]
        else:  # MindSpore's column parser raises RuntimeError for any malformed input
            raise RuntimeError(  # noqa: TRY004
                f"Schema.parse_columns: expected a dict or a list of dicts, got "
                f"{type(columns).__name__}")
        self._columns.extend(parsed)

    def from_json(self, json_obj):
        """Fill the schema from a parsed schema JSON object: "columns", and optionally
        "datasetType" and "numRows"."""
        for field in json_obj:
            if field not in _JSON_FIELDS:
                raise RuntimeError(f"Schema: Unknown field {field}")
        if not json_obj.get("columns"):
            raise RuntimeError("Schema: Columns are missing.")
        self.parse_columns(json_obj["columns"])
        self._dataset_type = json_obj.get("datasetType", self._dataset_type)
        self._num_rows = json_obj.get("numRows", self._num_rows)

    def to_json(self):
        """MindSpore's JSON text of the schema (keys sorted, two-space indent)."""
        content = {"columns": [dict(sorted(c.items())) for c in self._columns] or None}
        if self._dataset_type is not None:
            content["datasetType"] = self._dataset_type
        if self._num_rows is not None:
            content["numRows"] = self._num_rows
        return json.dumps(content, indent=2, sort_keys=True)

    def __str__(self):
        return self.to_json()

    @staticmethod
    def get_num_rows(schema):
        """The "numRows" of a Schema or a schema file (0 where it gives none)."""
        if not isinstance(schema, Schema):
            schema = Schema(schema)
        return schema._num_rows or 0
