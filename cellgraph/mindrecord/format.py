"""MindSpore's MindRecord format (version 3.0; 2.0 files are read too), read and written by
`FileWriter` and `dataset.MindDataset`.

A dataset is one or more shard files, each with a SQLite index `<shard>.db` beside it.
A shard file:

    [0, header_size)            u64 length (little-endian) + the header, JSON, zero padding
    page i at header_size + i * page_size, each at most page_size bytes (the last one is not
    padded). A BLOB_DATA page holds rows as (u64 length, blob); a RAW_DATA page holds rows as
    (u64 length, MessagePack map of the scalar fields), in row groups: {"id": the page_type_id
    of the blob page holding the same rows, "offset": where the group starts in the raw page}.

The header: {"header_size", "index_fields", "page": [pages of this shard], "page_size",
"compression_size", "schema": [{"blob_fields", "desc", "schema"}], "shard_addresses" (file
names; older writers stored absolute paths), "shard_id", "statistics", "version"}.

Schema fields are MindSpore's: int32, int64, float32, float64, string (scalars, in the raw
page) and bytes, or a number type with "shape" (arrays; both "blob fields", in the blob page,
in the order of their names). A row's blob is the one blob field's bytes, or, with several,
each as (u64 big-endian length, bytes). In version 3.0 the int32/int64 arrays of a schema that
has any are stored compressed: u32 big-endian element count, a 2-bit width code per element
(int8/16/32/64, four to a byte, the first in the high bits), then each element little-endian in
its width.
"""
from __future__ import annotations

import json
import os
import re
import struct

import numpy as np

from cellgraph import safe_io
from cellgraph.primitives.errors import CellgraphError

from . import msgpack

VERSION = "3.0"
SUPPORTED_VERSIONS = ("2.0", "3.0")
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
NUMBER_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
                "float64": np.float64}
FIELD_TYPES = ("bytes", "string", *NUMBER_TYPES)
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
              "string": "TEXT"}
_NAME = re.compile(r"^[0-9a-zA-Z_]+$")
_U64 = struct.Struct("<Q")


class MindRecordError(CellgraphError, RuntimeError):
    """A MindRecord file that cannot be read: truncated, corrupt, foreign, or inconsistent
    with the other files of its dataset (MindSpore raises RuntimeError for these)."""


# ---------------------------------------------------------------- schema

def check_schema(schema, op: str) -> dict:
    """MindSpore's schema rules; the schema back with its fields in name order."""
    if not schema:
        raise ValueError(f"{op}: Schema content is empty.")
    if not isinstance(schema, dict):
        # MindSpore raises ValueError (its ParamValueError) here
        raise ValueError(  # noqa: TRY004
            f"{op}: Schema content should be dict, got {type(schema).__name__}.")
    for name, spec in schema.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValueError(f"{op}: Field '{name}' should be composed of '0-9' or 'a-z' or "
                             f"'A-Z' or '_'.")
        if not spec or not isinstance(spec, dict):
            raise ValueError(f"{op}: Field '{name}' should be dict.")
        kind = spec.get("type")
        if set(spec) == {"type"}:
            if kind not in FIELD_TYPES:
                raise ValueError(f"{op}: Field '{name}' contain illegal attribute '{kind}' (a "
                                 f"type among {', '.join(FIELD_TYPES)}).")
        elif set(spec) == {"type", "shape"}:
            if kind not in NUMBER_TYPES:
                raise ValueError(f"{op}: Field '{name}' contain illegal attribute '{kind}' (an "
                                 f"array's type is one of {', '.join(NUMBER_TYPES)}).")
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1)
                    for d in shape) or shape.count(-1) > 1:
                raise ValueError(f"{op}: Field '{name}' contain illegal attribute '{shape}' (a "
                                 f"shape is a list of positive sizes, at most one -1).")
        else:
            raise ValueError(f"{op}: Field '{spec}' contains illegal attributes.")
    return {name: dict(schema[name]) for name in sorted(schema)}


def blob_fields(schema: dict) -> list[str]:
    """The fields stored in the blob page: bytes and arrays, in name order."""
    return [name for name in sorted(schema)
            if schema[name]["type"] == "bytes" or "shape" in schema[name]]


def _compresses(schema: dict) -> bool:
    return any("shape" in s and s["type"] in ("int32", "int64") for s in schema.values())


# ---------------------------------------------------------------- integer arrays

_WIDTHS = (np.dtype("<i1"), np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"))


def compress_ints(values: np.ndarray) -> bytes:
    """MindSpore's integer-array compression (see the module docstring)."""
    values = np.asarray(values, np.int64).ravel()
    # the narrowest width each value fits: 0 int8, 1 int16, 2 int32, 3 int64
    codes = ((values < -128) | (values > 127)).astype(np.uint8)
    codes += (values < -32768) | (values > 32767)
    codes += (values < -(1 << 31)) | (values > (1 << 31) - 1)
    padded = np.zeros(-(-len(values) // 4) * 4, np.uint8)
    padded[:len(values)] = codes
    bitmap = (padded.reshape(-1, 4) << np.array([6, 4, 2, 0], np.uint8)).sum(1).astype(np.uint8)
    if len(values) and codes.min() == codes.max():  # one width (the usual array): a cast
        body = values.astype(_WIDTHS[int(codes[0])]).tobytes()
    else:
        # each value in its code's width: the low bytes of its little-endian 64-bit form (two's
        # complement, so a value that fits a narrower width is those bytes), element after
        # element
        widths = np.array([w.itemsize for w in _WIDTHS])[codes]
        as_bytes = values.astype("<i8").view(np.uint8).reshape(-1, 8)
        body = as_bytes[np.arange(8) < widths[:, None]].tobytes()
    return struct.pack(">I", len(values)) + bitmap.tobytes() + body


def uncompress_ints(raw: bytes, dtype, where: str) -> np.ndarray:
    if len(raw) < 4:
        raise MindRecordError(f"{where}: a compressed integer array of {len(raw)} bytes")
    (count,) = struct.unpack(">I", raw[:4])
    start = 4 + (count + 3) // 4
    if start > len(raw):
        raise MindRecordError(f"{where}: a compressed integer array claims {count} elements "
                              f"in {len(raw)} bytes")
    bitmap = np.frombuffer(raw[4:start], np.uint8)
    codes = ((bitmap[:, None] >> np.array([6, 4, 2, 0], np.uint8)) & 3).ravel()[:count]
    widths = np.array([w.itemsize for w in _WIDTHS])[codes]
    end = start + int(widths.sum())
    if end > len(raw):
        raise MindRecordError(f"{where}: a compressed integer array is truncated")
    if end != len(raw):
        raise MindRecordError(f"{where}: {len(raw) - end} bytes follow a compressed integer "
                              f"array")
    # each value's bytes become the low bytes of a little-endian 64-bit integer, the high
    # ones filled with its sign
    low = np.arange(8) < widths[:, None]
    as_bytes = np.zeros((count, 8), np.uint8)
    as_bytes[low] = np.frombuffer(raw, np.uint8, end - start, start)
    negative = as_bytes[np.arange(count), widths - 1] >= 0x80
    as_bytes[~low & negative[:, None]] = 0xFF
    return as_bytes.view("<i8").ravel().astype(dtype)


# ---------------------------------------------------------------- rows

def _mismatch(value, name: str, kind: str, op: str) -> ValueError:
    return ValueError(f"{op}: data type: '{type(value).__name__}' for field: '{name}' is not "
                      f"matched (the schema's type is {kind}).")


def _number(value, name: str, kind: str, op: str):
    """A scalar field's value, by MindSpore's rules: a Python int for int32/int64, a Python
    float for float32/float64, or a NumPy scalar of exactly the field's type."""
    if isinstance(value, np.generic):
        if value.dtype != np.dtype(NUMBER_TYPES[kind]):
            raise _mismatch(value, name, kind, op)
        return value.item()
    if kind in ("int32", "int64"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise _mismatch(value, name, kind, op)
        info = np.iinfo(NUMBER_TYPES[kind])
        if not info.min <= value <= info.max:
            raise ValueError(f"{op}: field '{name}' value {value} is out of the {kind} range.")
        return int(value)
    if not isinstance(value, float):
        raise _mismatch(value, name, kind, op)
    # MindSpore stores the Python float itself, float32 field or not (as float32 when that is
    # exact, as float64 otherwise); its readers give that value back
    return float(value)


def _array(value, name: str, spec: dict, op: str) -> np.ndarray:
    """An array field's value, by MindSpore's rules: a NumPy array of exactly the field's
    type, whose size fits the schema's shape."""
    kind = spec["type"]
    if not isinstance(value, np.ndarray) or value.dtype != np.dtype(NUMBER_TYPES[kind]):
        got = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
        raise ValueError(f"{op}: data type: '{got}' for field: '{name}' is not matched (the "
                         f"schema's type is an array of {kind}).")
    try:
        np.reshape(value, spec["shape"])
    except ValueError:
        raise ValueError(f"{op}: data shape: '{value.shape}' for field: '{name}' is not matched "
                         f"(the schema's shape is {spec['shape']}).") from None
    return value


def encode_row(row: dict, schema: dict, blobs: list[str], op: str) -> tuple[bytes, bytes, int]:
    """(raw page bytes, blob page bytes, bytes saved by compression) of one row."""
    missing = [name for name in schema if name not in row]
    if missing:
        raise ValueError(f"{op}: there is not field: {missing} in the raw data {sorted(row)}.")
    raw = {}
    for name, spec in schema.items():
        if name in blobs:
            continue
        value = row[name]
        if spec["type"] == "string":
            if not isinstance(value, str):
                raise ValueError(f"{op}: data type: '{type(value).__name__}' for field: "
                                 f"'{name}' is not matched (expected a str).")
            raw[name] = value
        else:
            raw[name] = _number(value, name, spec["type"], op)
    compress = _compresses(schema)
    parts, saved = [], 0
    for name in blobs:
        spec, value = schema[name], row[name]
        if spec["type"] == "bytes":
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise ValueError(f"{op}: data type: '{type(value).__name__}' for field: "
                                 f"'{name}' is not matched (expected bytes).")
            parts.append(bytes(value))
            continue
        array = _array(value, name, spec, op)
        plain = array.astype(array.dtype.newbyteorder("<")).tobytes()
        if compress and spec["type"] in ("int32", "int64"):
            packed = compress_ints(array)
            if array.size:  # MindSpore counts nothing saved (nor lost) for an empty array
                saved += len(plain) - len(packed)
            parts.append(packed)
        else:
            parts.append(plain)
    if not blobs:
        blob = b"\x00" * 4  # MindSpore's writer puts 4 zero bytes where no field is a blob
    elif len(blobs) == 1:
        blob = parts[0]
    else:
        blob = b"".join(struct.pack(">Q", len(p)) + p for p in parts)
    return msgpack.packb(raw if raw else {"id": 0}), blob, saved


def decode_row(raw: bytes, blob: bytes, schema: dict, blobs: list[str], names: list[str],
               compressed: bool, where: str) -> tuple:
    """One row's values, in the order of `names`, as MindSpore's MindDataset gives them."""
    try:
        scalars = msgpack.unpackb(raw)
    except msgpack.MsgpackError as e:
        raise MindRecordError(f"{where}: a raw row is corrupt: {e}") from None
    if not isinstance(scalars, dict):
        raise MindRecordError(f"{where}: a raw row is a {type(scalars).__name__}, not a map")
    parts = {}
    wanted = [n for n in names if n in blobs]
    if wanted:
        if len(blobs) == 1:
            parts[blobs[0]] = blob
        else:
            pos = 0
            for name in blobs:
                if pos + 8 > len(blob):
                    raise MindRecordError(f"{where}: a blob row is truncated at field "
                                          f"'{name}'")
                (n,) = struct.unpack(">Q", blob[pos:pos + 8])
                if pos + 8 + n > len(blob):
                    raise MindRecordError(f"{where}: blob field '{name}' claims {n} bytes, "
                                          f"{len(blob) - pos - 8} are left")
                parts[name] = blob[pos + 8:pos + 8 + n]
                pos += 8 + n
    out = []
    for name in names:
        spec = schema[name]
        kind = spec["type"]
        if name in blobs:
            data = parts[name]
            if kind == "bytes":
                out.append(np.array([data], dtype=f"S{max(len(data), 1)}"))
                continue
            if compressed and kind in ("int32", "int64"):
                values = uncompress_ints(data, NUMBER_TYPES[kind], f"{where}, field '{name}'")
            else:
                item = np.dtype(NUMBER_TYPES[kind]).itemsize
                if len(data) % item:
                    raise MindRecordError(f"{where}: field '{name}' holds {len(data)} bytes, "
                                          f"not a whole number of {kind}")
                values = np.frombuffer(data, np.dtype(NUMBER_TYPES[kind]).newbyteorder("<"))
                values = values.astype(NUMBER_TYPES[kind])
            try:
                out.append(values.reshape(spec["shape"]))
            except ValueError:
                raise MindRecordError(f"{where}: field '{name}' holds {values.size} values, "
                                      f"which do not fit the shape {spec['shape']}") from None
            continue
        if name not in scalars:
            raise MindRecordError(f"{where}: a raw row lacks the field '{name}'")
        value = scalars[name]
        if kind == "string":
            if not isinstance(value, str):
                value = json.dumps(value)
            out.append(np.array(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                out.append(np.array(value, NUMBER_TYPES[kind]))
            except OverflowError:
                raise MindRecordError(f"{where}: field '{name}' holds {value}, out of the "
                                      f"{kind} range") from None
        else:
            raise MindRecordError(f"{where}: field '{name}' holds {value!r}, not a number")
    return tuple(out)


# ---------------------------------------------------------------- pages

def layout_pages(rows: list[tuple[bytes, bytes]], shard_id: int, page_size: int):
    """Pages of one shard as MindSpore's writer lays out one batch of rows: the rows cut into
    row groups that fit a page, one blob page per group, then raw pages filled with groups.
    Returns (page dicts in page-id order, page contents, index rows)."""
    groups, start, blob_n, raw_n = [], 0, 0, 0
    for i, (raw, blob) in enumerate(rows):
        b, r = 8 + len(blob), 8 + len(raw)
        if b > page_size or r > page_size:
            raise ValueError(f"FileWriter: Page size: {page_size} is too small to save a row "
                             f"of {max(b, r)} bytes. Please use set_page_size(value) with a "
                             f"larger value, in [{MIN_PAGE_SIZE}, {MAX_PAGE_SIZE}] bytes.")
        if i > start and (blob_n + b > page_size or raw_n + r > page_size):
            groups.append((start, i))
            start, blob_n, raw_n = i, 0, 0
        blob_n, raw_n = blob_n + b, raw_n + r
    if rows:
        groups.append((start, len(rows)))
    pages, contents, index = [], [], []
    blob_offsets = []
    for type_id, (lo, hi) in enumerate(groups):
        body, offsets = bytearray(), []
        for raw, blob in rows[lo:hi]:
            offsets.append((len(body), len(body) + 8 + len(blob)))
            body += _U64.pack(len(blob)) + blob
        pages.append({"end_row_id": hi, "page_id": len(pages), "page_size": len(body),
                      "page_type": "BLOB_DATA", "page_type_id": type_id,
                      "row_group_ids": [{"id": 0, "offset": 0}], "shard_id": shard_id,
                      "start_row_id": lo})
        contents.append(bytes(body))
        blob_offsets.append(offsets)
    raw_page, raw_type_id = None, -1
    for type_id, (lo, hi) in enumerate(groups):
        chunk = b"".join(_U64.pack(len(raw)) + raw for raw, _ in rows[lo:hi])
        if raw_page is None or len(contents[raw_page]) + len(chunk) > page_size:
            raw_type_id += 1
            pages.append({"end_row_id": 0, "page_id": len(pages), "page_size": 0,
                          "page_type": "RAW_DATA", "page_type_id": raw_type_id,
                          "row_group_ids": [], "shard_id": shard_id, "start_row_id": 0})
            contents.append(b"")
            raw_page = len(pages) - 1
        page = pages[raw_page]
        offset = len(contents[raw_page])
        page["row_group_ids"].append({"id": type_id, "offset": offset})
        for j, (raw, _) in enumerate(rows[lo:hi]):
            end = offset + 8 + len(raw)
            index.append((lo + j, type_id, raw_page, offset, end, type_id,
                           *blob_offsets[type_id][j]))
            offset = end
        contents[raw_page] += chunk
        page["page_size"] = len(contents[raw_page])
    for page in pages:
        if not page["row_group_ids"]:
            page["row_group_ids"] = [{"id": 0, "offset": 0}]
    return pages, contents, index


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header_bytes(*, header_size: int, page_size: int, compression_size: int, schema: dict,
                 desc: str, index_fields: list[str], pages: list[dict], addresses: list[str],
                 shard_id: int) -> bytes:
    """One shard's header, as MindSpore serializes it (its key order, compact JSON)."""
    index = [{"index_field": f, "schema_id": 0} for f in index_fields] or None
    schemas = [{"blob_fields": blob_fields(schema), "desc": desc, "schema": schema}]
    text = (f'{{"header_size":{header_size},"index_fields":{_dump(index)},'
            f'"page":{_dump(pages or None)},"page_size":{page_size},'
            f'"compression_size":{compression_size},"schema":{_dump(schemas)},'
            f'"shard_addresses":{_dump(addresses)},"shard_id":{shard_id},'
            f'"statistics":null,"version":"{VERSION}"}}')
    return text.encode("utf-8")


def write_shard(f, header: bytes, header_size: int, page_size: int, pages: list[dict],
                contents: list[bytes]) -> None:
    """A shard file's bytes into the binary file `f` (holes where MindSpore leaves zeros)."""
    if len(header) + 8 > header_size:
        raise ValueError(f"FileWriter: the header ({len(header) + 8} bytes) is larger than "
                         f"the header size {header_size}; use set_header_size with a larger "
                         f"value, at most {MAX_HEADER_SIZE}.")
    f.write(_U64.pack(len(header)) + header)
    end = 8 + len(header)  # a file without pages ends with its header, as MindSpore's
    for page, body in zip(pages, contents):
        f.seek(header_size + page["page_id"] * page_size)
        f.write(body)
        end = header_size + page["page_id"] * page_size + len(body)
    f.truncate(end)


# ---------------------------------------------------------------- reading

def read_header(path: str, op: str) -> dict:
    """The header of one shard file, checked; MindRecordError for anything else."""
    if not os.path.isfile(path):
        raise MindRecordError(f"{op}: the MindRecord file {path!r} does not exist or is not a "
                              f"file")
    with open(path, "rb") as f:
        head = f.read(8)
        size = os.fstat(f.fileno()).st_size
        if len(head) < 8:
            raise MindRecordError(f"{op}: {path!r} ({size} bytes) is too small to be a "
                                  f"MindRecord file")
        if head == b"CELLGRAP":  # b"CELLGRAPH-MINDRECORD 1\n"
            raise MindRecordError(f"{op}: {path!r} is in the private format of older cellgraph "
                                  f"versions, which is no longer read: write the dataset again "
                                  f"with mindrecord.FileWriter (MindSpore's format)")
        (length,) = _U64.unpack(head)
        if length > MAX_HEADER_SIZE:
            raise MindRecordError(f"Invalid file, the size of mindrecord file header is larger "
                                  f"than the upper limit. \nThe invalid mindrecord file is "
                                  f"[{path}]. \nPlease use 'FileWriter' to generate valid "
                                  f"mindrecord files.")
        if length + 8 > size:
            raise MindRecordError(f"{op}: {path!r} is not a MindRecord file, or its header is "
                                  f"corrupt (it claims {length} bytes of header in a file of "
                                  f"{size})")
        text = f.read(length)
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise MindRecordError(f"{op}: the header of {path!r} is not valid JSON ({e}); the file "
                              f"is corrupt or not a MindRecord file") from None
    try:
        _check_header(header, size)
    except (KeyError, TypeError, ValueError, IndexError, _Corrupt) as e:
        raise MindRecordError(f"{op}: the header of {path!r} is corrupt: {e}") from None
    return header


class _Corrupt(Exception):
    """A header that parses as JSON but is not a MindRecord header."""


def _check_header(header, file_size: int) -> None:
    if not isinstance(header, dict):
        raise _Corrupt("it is not a JSON object")
    if header.get("version") not in SUPPORTED_VERSIONS:
        raise ValueError(f"version {header.get('version')!r} is not supported (only "
                         f"{', '.join(SUPPORTED_VERSIONS)})")
    for key in ("header_size", "page_size"):
        if not isinstance(header[key], int) or header[key] <= 0:
            raise ValueError(f"{key} {header[key]!r}")
    schemas = header["schema"]
    if not isinstance(schemas, list) or len(schemas) != 1:
        raise ValueError("a MindRecord file holds exactly one schema")
    check_schema(schemas[0]["schema"], "schema")
    if sorted(schemas[0]["blob_fields"]) != blob_fields(schemas[0]["schema"]):
        raise ValueError(f"blob_fields {schemas[0]['blob_fields']} do not match the schema")
    addresses = header["shard_addresses"]
    if not isinstance(addresses, list) or not addresses or not all(
            isinstance(a, str) for a in addresses):
        raise ValueError("shard_addresses must be a non-empty list of file names")
    for page in header.get("page") or []:
        for key in ("page_id", "page_type_id", "start_row_id", "end_row_id", "page_size"):
            if not isinstance(page[key], int) or page[key] < 0:
                raise ValueError(f"page {page.get('page_id')!r} has {key} {page[key]!r}")
        if page["page_type"] not in ("BLOB_DATA", "RAW_DATA"):
            raise ValueError(f"page type {page['page_type']!r}")
        if page["page_size"] > header["page_size"] or header["header_size"] + page[
                "page_id"] * header["page_size"] + page["page_size"] > file_size:
            raise ValueError(f"page {page['page_id']} lies beyond the end of the file")
        for group in page["row_group_ids"]:
            if not isinstance(group["id"], int) or not isinstance(group["offset"], int):
                raise _Corrupt(f"page {page['page_id']} has a bad row group {group!r}")


def shard_name(address: str) -> str:
    """The file name of a header's shard address (MindSpore may store the writer's absolute
    path, with either separator)."""
    return address.replace("\\", "/").rsplit("/", 1)[-1]


def dataset_files(path: str, header: dict, op: str) -> list[str]:
    """The shard files of the dataset `path` belongs to: the header's addresses, each taken
    by file name inside `path`'s folder, never outside it."""
    folder = os.path.dirname(os.path.abspath(path))
    files = []
    for address in header["shard_addresses"]:
        name = shard_name(address)
        if name in ("", ".", ".."):
            raise MindRecordError(f"{op}: the header of {path!r} names the shard {address!r}, "
                                  f"which is not a file name")
        try:
            files.append(safe_io.contained(folder, name))
        except safe_io.UnsafePathError as e:
            raise MindRecordError(f"{op}: the header of {path!r} names the shard {address!r}: "
                                  f"{e}") from None
    return files


def row_locations(path: str, header: dict, op: str) -> list[tuple[int, int, int, int]]:
    """(raw offset, raw length, blob offset, blob length) of every row of one shard file, in
    row order, checked against the page bounds."""
    header_size, page_size = header["header_size"], header["page_size"]
    pages = header.get("page") or []
    blob_pages = {p["page_type_id"]: p for p in pages if p["page_type"] == "BLOB_DATA"}
    raw_pages = sorted((p for p in pages if p["page_type"] == "RAW_DATA"),
                       key=lambda p: p["page_type_id"])
    groups = []
    with open(path, "rb") as f:
        def read(page, offset, what):
            if offset + 8 > page["page_size"]:
                raise MindRecordError(f"{op}: {path!r} page {page['page_id']} is corrupt: a "
                                      f"{what} row at {offset} passes the page's "
                                      f"{page['page_size']} bytes")
            start = header_size + page["page_id"] * page_size + offset
            f.seek(start)
            (n,) = _U64.unpack(f.read(8))
            if offset + 8 + n > page["page_size"]:
                raise MindRecordError(f"{op}: {path!r} page {page['page_id']} is corrupt: a "
                                      f"{what} row of {n} bytes at {offset} passes the page's "
                                      f"{page['page_size']} bytes")
            return start + 8, n, offset + 8 + n

        for page in raw_pages:
            if page["page_size"] == 0:  # an empty raw page lists a placeholder row group
                continue
            offset = None
            for group in page["row_group_ids"]:
                blob_page = blob_pages.get(group["id"])
                if blob_page is None:
                    raise MindRecordError(f"{op}: {path!r} raw page {page['page_id']} names "
                                          f"the row group {group['id']}, which no blob page "
                                          f"holds")
                raw_at, blob_at = group["offset"], 0
                if offset is not None and raw_at != offset:
                    raise MindRecordError(f"{op}: {path!r} raw page {page['page_id']} is "
                                          f"corrupt: row group {group['id']} starts at "
                                          f"{raw_at}, the previous one ends at {offset}")
                rows = []
                for _ in range(blob_page["start_row_id"], blob_page["end_row_id"]):
                    raw_start, raw_n, raw_at = read(page, raw_at, "raw")
                    blob_start, blob_n, blob_at = read(blob_page, blob_at, "blob")
                    rows.append((raw_start, raw_n, blob_start, blob_n))
                offset = raw_at
                groups.append((blob_page["start_row_id"], rows))
    groups.sort(key=lambda g: g[0])
    return [row for _, rows in groups for row in rows]
