"""cellgraph's MindRecord file format, written by `FileWriter` and read by `MindDataset`.

MindSpore's own MindRecord files (a page-structured data file plus a SQLite index `.db`) are not
read: cellgraph writes and reads a format of its own, documented here, with MindSpore's schema
vocabulary, so that a FileWriter -> MindDataset program round-trips. A file of any other format
(MindSpore's included) is refused with an error that says so. One file per shard:

    b"CELLGRAPH-MINDRECORD 1\\n"            magic line
    row values, back to back               raw little-endian bytes (str: UTF-8)
    header (JSON)                          {"schema", "desc", "index_fields", "shard_files",
                                            "rows": [[[offset, nbytes, shape] per field] ...]}
    8 bytes                                the header's length, little-endian uint64

Schema field types are MindSpore's: int32, int64, float32, float64 (a scalar, or an array when
the field has "shape", -1 for any length), string and bytes (bytes are read back as uint8 arrays,
what vision.Decode takes).
"""
from __future__ import annotations

import json
import os
import struct

import numpy as np

from cellgraph import safe_io

MAGIC = b"CELLGRAPH-MINDRECORD 1\n"
FIELD_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
               "float64": np.float64, "string": None, "bytes": None}


def check_schema(schema, op: str) -> dict:
    """A {name: {"type": T, "shape": [...]}} dict of MindSpore's field types."""
    if not isinstance(schema, dict) or not schema:
        raise ValueError(f"{op}: the schema must be a non-empty dict of fields, got {schema!r}")
    for name, spec in schema.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if kind not in FIELD_TYPES:
            raise ValueError(f"{op}: field {name!r} must have a type among "
                             f"{', '.join(FIELD_TYPES)}, got {spec!r}")
        if "shape" in spec and FIELD_TYPES[kind] is None:
            raise ValueError(f"{op}: field {name!r} of type {kind} cannot have a shape")
    return schema


def encode(value, name: str, spec: dict, op: str) -> tuple[bytes, list | None]:
    """One field's value as (raw bytes, shape); shape is None for scalars, str and bytes."""
    kind = spec["type"]
    if kind == "string":
        if not isinstance(value, str):
            raise ValueError(f"{op}: field {name!r} expects a str, got {type(value).__name__}")
        return value.encode("utf-8"), None
    if kind == "bytes":
        if not isinstance(value, (bytes, bytearray)):
            raise ValueError(f"{op}: field {name!r} expects bytes, got {type(value).__name__}")
        return bytes(value), None
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{op}: field {name!r} expects {kind} numbers, got {value!r}")
    array = array.astype(FIELD_TYPES[kind])
    if "shape" not in spec:
        if array.ndim:
            raise ValueError(f"{op}: field {name!r} is a {kind} scalar (no 'shape' in the "
                             f"schema), got an array of shape {array.shape}")
        return array.astype(array.dtype.newbyteorder("<")).tobytes(), None
    want = list(spec["shape"])
    if len(want) != array.ndim or any(w not in (-1, s) for w, s in zip(want, array.shape)):
        array = _reshaped(array, want, name, op)
    return array.astype(array.dtype.newbyteorder("<")).tobytes(), list(array.shape)


def _reshaped(array, want, name, op):
    try:
        return array.reshape(want)
    except ValueError:
        raise ValueError(f"{op}: field {name!r} expects shape {want}, got "
                         f"{list(array.shape)}") from None


def decode(raw: bytes, spec: dict, shape) -> np.ndarray:
    kind = spec["type"]
    if kind == "string":
        return np.array(raw.decode("utf-8"))
    if kind == "bytes":
        return np.frombuffer(raw, np.uint8).copy()
    values = np.frombuffer(raw, np.dtype(FIELD_TYPES[kind]).newbyteorder("<"))
    return values.astype(FIELD_TYPES[kind]).reshape(shape if shape is not None else ())


def write_file(path: str, header: dict, blobs: list[bytes]) -> None:
    """Write one shard file atomically (safe_io: temp file, fsync, rename; mode kept)."""
    with safe_io.atomic_write(path) as f:
        f.write(MAGIC)
        f.writelines(blobs)
        encoded = json.dumps(header).encode("utf-8")
        f.write(encoded)
        f.write(struct.pack("<Q", len(encoded)))


def read_header(path: str, op: str) -> dict:
    """The header of a cellgraph MindRecord file; any other file is refused."""
    if not os.path.isfile(path):
        raise ValueError(f"{op}: {path!r} is not a file")
    with open(path, "rb") as f:
        magic = f.read(len(MAGIC))
        if magic != MAGIC:
            raise ValueError(f"{op}: {path!r} is not a cellgraph MindRecord file (written by "
                             f"cellgraph.mindrecord.FileWriter); files written by MindSpore's "
                             f"own MindRecord writer cannot be read by cellgraph")
        f.seek(-8, os.SEEK_END)
        end = f.tell()
        (length,) = struct.unpack("<Q", f.read(8))
        f.seek(end - length)
        return json.loads(f.read(length).decode("utf-8"))


def read_rows(path: str, header: dict, names: list[str]) -> list[tuple]:
    """Every row of one file, as a tuple of arrays in the order of `names`."""
    fields = list(header["schema"])
    positions = [fields.index(name) for name in names]
    with open(path, "rb") as f:
        data = f.read()
    base = len(MAGIC)
    return [tuple(decode(data[base + row[i][0]:base + row[i][0] + row[i][1]],
                         header["schema"][fields[i]], row[i][2]) for i in positions)
            for row in header["rows"]]
