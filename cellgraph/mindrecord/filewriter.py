"""`mindspore.mindrecord.FileWriter`: rows of a schema into MindRecord files in MindSpore's
format (format.py), each shard with its SQLite index (index.py), committed atomically
(commit.py). MindSpore's `dataset.MindDataset` reads them, and cellgraph's reads MindSpore's."""
from __future__ import annotations

import json
import logging
import os
import re

from . import commit as staging
from . import format as fmt
from . import msgpack
from .checks import check_filename, pipeline_error
from .common.exceptions import (
    MRMBuildSchemaError,
    MRMDefineIndexError,
    MRMGetMetaError,
    MRMInvalidSchemaError,
    ParamTypeError,
    ParamValueError,
)
from .config import _get_enc_key, decrypt_in_place, encrypt_file
from .index import write_index

_log = logging.getLogger(__name__)


def _shard_paths(file_name: str, shard_num: int) -> list[str]:
    if shard_num == 1:
        return [file_name]
    width = len(str(shard_num - 1))
    return [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)]


def _mode(path: str, default: int = 0o600) -> int:
    try:
        st = os.lstat(path)
    except OSError:
        return default
    return st.st_mode & 0o777 if os.path.isfile(path) and not os.path.islink(path) else default


class FileWriter:
    """Write raw rows ({field: value} dicts) to `shard_num` MindRecord files: `file_name`, or
    `file_name` + its shard number when there are several; each batch of rows is split into
    contiguous blocks over the shards, as MindSpore's writer does."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_filename(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not 1 <= shard_num <= 1000:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between 1 "
                                  f"and 1000.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        if shard_num > 1 and _get_enc_key() is not None:
            raise RuntimeError("When encode mode is enabled, the automatic sharding function is "
                               "unavailable.")
        self.paths = [os.path.abspath(p) for p in _shard_paths(os.fspath(file_name), shard_num)]
        self._folder = os.path.dirname(self.paths[0])
        self._name = os.path.basename(os.fspath(file_name))
        staging.recover(self._folder, self._name)
        if not overwrite:
            for path in self.paths:
                for p in (path, path + ".db"):
                    if os.path.lexists(p):
                        raise RuntimeError(f"FileWriter: Invalid file, mindrecord files already "
                                           f"exist. Please check file path: {p} (pass "
                                           f"overwrite=True to replace it).")
        self._schema, self._desc, self._index_fields = None, "", []
        self._blobs: list[str] = []
        self._rows = [[] for _ in self.paths]  # per shard: (raw, blob, index values)
        self._parallel, self._next_shard = None, 0
        self._shard_saved = [0] * len(self.paths)  # in parallel mode each file counts its own
        self._saved = 0
        self._header_size, self._page_size = fmt.DEFAULT_HEADER_SIZE, fmt.DEFAULT_PAGE_SIZE
        self._committed = False

    @classmethod
    def open_for_append(cls, file_name):
        """A writer that adds rows to the dataset `file_name` belongs to (every shard of it,
        found by file name in its folder): its schema, index fields, header and page sizes
        are kept, new rows are split over its shards, and `commit` rewrites them all at
        once."""
        op = "FileWriter.open_for_append"
        if not isinstance(file_name, (str, os.PathLike)):
            raise ValueError(  # noqa: TRY004 - MindSpore raises ValueError
                f"{op}: file_name must be the path of a MindRecord file, got {file_name!r}")
        path = os.path.abspath(os.fspath(file_name))
        staging.recover(os.path.dirname(path))
        decrypt_in_place(path)
        header = fmt.read_header(path, op)
        self = cls.__new__(cls)
        self.paths = fmt.dataset_files(path, header, op)
        self._folder, self._name = os.path.dirname(path), os.path.basename(path)
        schema = header["schema"][0]
        self._schema = fmt.check_schema(schema["schema"], op)
        self._blobs = fmt.blob_fields(self._schema)
        self._desc = schema["desc"]
        self._index_fields = [f["index_field"] for f in header.get("index_fields") or []]
        self._header_size, self._page_size = header["header_size"], header["page_size"]
        self._saved = int(header.get("compression_size") or 0)
        self._committed = False
        self._parallel, self._next_shard = None, 0
        self._shard_saved = [0] * len(self.paths)  # in parallel mode each file counts its own
        stored_compressed = header["version"] >= "3.0" and fmt._compresses(self._schema)
        self._rows = []
        for shard_path in self.paths:
            shard_header = fmt.read_header(shard_path, op)
            if shard_header["schema"] != header["schema"]:
                raise fmt.MindRecordError(f"{op}: {shard_path!r} has another schema than "
                                          f"{path!r}")
            rows = []
            with open(shard_path, "rb") as f:
                for raw_at, raw_n, blob_at, blob_n in fmt.row_locations(shard_path,
                                                                        shard_header, op):
                    f.seek(raw_at)
                    raw = f.read(raw_n)
                    f.seek(blob_at)
                    blob = f.read(blob_n)
                    if header["version"] != fmt.VERSION and fmt._compresses(self._schema):
                        raw, blob = self._reencoded(raw, blob, stored_compressed, shard_path)
                    try:
                        values = msgpack.unpackb(raw)
                    except msgpack.MsgpackError as e:
                        raise fmt.MindRecordError(f"{op}: {shard_path!r}: a raw row is "
                                                  f"corrupt: {e}") from None
                    rows.append((raw, blob, values))
            self._rows.append(rows)
        return self

    def _reencoded(self, raw, blob, compressed, where) -> tuple[bytes, bytes]:
        """A row of an older version (integer arrays not compressed) in this version."""
        names = list(self._schema)
        values = fmt.decode_row(raw, blob, self._schema, self._blobs, names, compressed, where)
        row = {}
        for name, value in zip(names, values):
            kind = self._schema[name]["type"]
            row[name] = value.tobytes() if kind == "bytes" else str(value) if kind == \
                "string" else value if name in self._blobs else value.item()
        raw, blob, saved = fmt.encode_row(row, self._schema, self._blobs, "open_for_append")
        self._saved += saved
        return raw, blob

    def add_schema(self, content, desc=None) -> None:
        """Set the schema ({name: {"type": T[, "shape": [...]]}}). Returns None, as MindSpore
        2.10's does (its docstring's schema id is not returned)."""
        if self._schema is not None:
            raise RuntimeError("FileWriter.add_schema: the schema was already added (a "
                               "MindRecord file holds one schema)")
        if desc is not None and not isinstance(desc, str):
            raise TypeError(f"FileWriter.add_schema: desc must be a str, got {desc!r}")
        if isinstance(content, dict) and any(
                isinstance(spec, dict) and isinstance(spec.get("shape"), list)
                and spec["shape"].count(-1) > 1 for spec in content.values()):
            raise MRMBuildSchemaError  # MindSpore's schema builder refuses two -1 sizes
        try:
            self._schema = fmt.check_schema(content, "FileWriter.add_schema")
        except ValueError as e:
            detail = str(e).split(": ", 1)[-1]
            raise MRMInvalidSchemaError(re.sub(r" \([^()]*\)\.$", ".", detail)) from None
        self._blobs = fmt.blob_fields(self._schema)
        self._desc = desc or ""

    def add_index(self, index_fields) -> None:
        """Fields to index in the `.db` files: scalar fields of the schema (not bytes, not
        arrays)."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._schema is None:
            raise MRMGetMetaError
        self._need_schema("add_index")
        for name in index_fields:
            if name in self._blobs:
                raise MRMDefineIndexError(f"Failed to set field {name} since it's not primitive "
                                          f"type.")
            if not isinstance(name, str):
                raise ParamTypeError("index field", "str")
        for name in index_fields:
            if name not in self._index_fields:
                self._index_fields.append(name)

    def set_header_size(self, header_size) -> None:
        """The bytes reserved for each file's header, in [16 KB, 128 MB] (default 16 MB)."""
        self._header_size = self._size(header_size, fmt.MIN_HEADER_SIZE, fmt.MAX_HEADER_SIZE,
                                       "set_header_size", "header_size")

    def set_page_size(self, page_size) -> None:
        """The bytes of each page, in [32 KB, 256 MB] (default 32 MB)."""
        self._page_size = self._size(page_size, fmt.MIN_PAGE_SIZE, fmt.MAX_PAGE_SIZE,
                                     "set_page_size", "page_size")

    def _size(self, value, lo, hi, method, name) -> int:
        if self._committed:
            raise RuntimeError(f"FileWriter.{method}: the files were already committed")
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"FileWriter.{method}: {name} must be an int in [{lo}, {hi}], got "
                             f"{value!r}")
        return value

    def write_raw_data(self, raw_data, parallel_writer=False) -> None:
        """Append rows (a list of dicts holding every field of the schema). Without
        `parallel_writer` they are split into contiguous blocks over the shards; with it (the
        first call decides, later calls must agree) each call's rows go whole to the next
        shard in turn, and each shard file is written as a dataset of its own (its header
        names only itself), as MindSpore's parallel writer does."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel is None:
            self._parallel = parallel_writer
        if self._parallel != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        self._need_schema("write_raw_data")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        self._check_index_fields()
        encoded = []
        for i, row in enumerate(raw_data):
            try:
                raw, blob, saved = fmt.encode_row(row, self._schema, self._blobs,
                                                  "FileWriter.write_raw_data")
            except ValueError as e:
                # as MindSpore: a row that does not match the schema is left out, with a warning
                _log.warning("for schema, %d th data is wrong: %s", i, e)
                continue
            encoded.append((raw, blob, msgpack.unpackb(raw), saved))
        if not encoded:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' "
                               "to mindrecord file. Please check the abnormal input data "
                               "indicated in the warning log above.")
        shards = len(self.paths)
        if self._parallel:
            blocks = [[] for _ in range(shards)]
            blocks[self._next_shard] = encoded
            self._next_shard = (self._next_shard + 1) % shards
        else:
            per, extra = divmod(len(encoded), shards)
            bounds = [0]
            for shard in range(shards):
                bounds.append(bounds[-1] + per + (shard < extra))
            blocks = [encoded[bounds[i]:bounds[i + 1]] for i in range(shards)]
        for shard, block in enumerate(blocks):
            for raw, blob, values, saved in block:
                self._rows[shard].append((raw, blob, values))
                self._saved += saved
                self._shard_saved[shard] += saved

    def commit(self) -> None:
        """Write every shard file and its index, all at once: until every file is written,
        the files already there stay as they were."""
        self._need_schema("commit")
        self._check_index_fields()
        index_fields = self._index_fields or [  # MindSpore indexes every scalar field then
            name for name in self._schema if name not in self._blobs]
        addresses = [os.path.basename(p) for p in self.paths]
        laid_out = [fmt.layout_pages([(raw, blob) for raw, blob, _ in rows],
                                     0 if self._parallel else shard, self._page_size)
                    for shard, rows in enumerate(self._rows)]
        staging.recover(self._folder, self._name)
        stage = staging.new_stage(self._folder, self._name)
        try:
            names, modes = [], {}
            for shard, (pages, contents, index_rows) in enumerate(laid_out):
                header = fmt.header_bytes(
                    header_size=self._header_size, page_size=self._page_size,
                    compression_size=max(
                        self._shard_saved[shard] if self._parallel else self._saved, 0),
                    schema=self._schema, desc=self._desc,
                    index_fields=index_fields, pages=pages,
                    addresses=[addresses[shard]] if self._parallel else addresses,
                    shard_id=0 if self._parallel else shard)
                name = addresses[shard]
                with open(os.path.join(stage, name), "xb") as f:
                    fmt.write_shard(f, header, self._header_size, self._page_size, pages,
                                    contents)
                write_index(os.path.join(stage, name + ".db"), name, self._schema,
                            index_fields, index_rows,
                            [values for _, _, values in self._rows[shard]])
                if _get_enc_key() is not None:  # set_enc_key: the files are stored encrypted
                    encrypt_file(os.path.join(stage, name))
                    encrypt_file(os.path.join(stage, name + ".db"))
                for n in (name, name + ".db"):
                    names.append(n)
                    modes[n] = _mode(os.path.join(self._folder, n))
            staging.publish(stage, self._folder, names, modes)
        except BaseException:
            if not os.path.exists(os.path.join(stage, staging.MARKER)):
                staging.discard(stage)  # before the commit point: the old files stand
            raise
        self._committed = True

    def _check_index_fields(self) -> None:
        unknown = [name for name in self._index_fields if name not in self._schema]
        if unknown:
            schema = json.dumps(self._schema, separators=(",", ":"), sort_keys=True)
            raise pipeline_error(f"Invalid input, 'index_fields': {unknown[0]} can not found in "
                                 f"schema: {schema}. \nPlease use 'add_index' function to add "
                                 f"proper 'index_fields'.")

    def _need_schema(self, method: str) -> None:
        if self._committed:
            raise RuntimeError(f"Not allowed to call `{method}` on flushed MindRecord files."
                               f"When creating new MindRecord files, please remove `commit` "
                               f"before `{method}`. In other cases, when appending to existing "
                               f"MindRecord files, please call `open_for_append` first and then "
                               f"`{method}`.")
        if self._schema is None:
            raise RuntimeError(f"FileWriter.{method}: add_schema first")
