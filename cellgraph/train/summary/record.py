"""`mindspore.SummaryRecord`: scalars, tensors, images and histograms of a run, by step, in a
file anything can read.

MindSpore writes protobuf event files for MindInsight; cellgraph writes JSON lines instead,
one value per line, to `log_dir/<file_prefix>.summary.<time>.<host><file_suffix>.jsonl`:

    {"step": 10, "plugin": "scalar", "tag": "loss", "value": 0.25}
    {"step": 10, "plugin": "tensor", "tag": "w", "dtype": "float32", "shape": [2], "value": [..]}
    {"step": 10, "plugin": "histogram", "tag": "w", "bins": [...], "counts": [...], ...}

`read_summary(path)` gives the lines back (tensors and images as NumPy arrays). MindSpore's
graph and lineage plugins hold MindInsight protobufs and are refused.
"""
from __future__ import annotations

import json
import re
import socket
import threading
import time
import warnings

import numpy as np

from cellgraph import _checkparam as validator
from cellgraph import safe_io
from cellgraph.primitives.errors import UnsupportedError

from .._utils import _make_directory, check_value_type
from .ops import take_latest

# the characters of a file_prefix or file_suffix, as MindSpore's
_NAME_PART = r"^\w+[0-9a-zA-Z\_\.]*$"
# The export options MindSpore's SummaryRecord takes, each with its allowed values (cellgraph
# refuses `export_options`: it writes no .npy files beside the summary).
_DEFAULT_EXPORT_OPTIONS = {"tensor_format": {"npy", None}}

PLUGINS = ("scalar", "tensor", "image", "histogram")
_MINDINSIGHT_ONLY = ("graph", "train_lineage", "eval_lineage", "dataset_graph",
                     "custom_lineage_data", "LANDSCAPE")

# The values a step's record writes besides those given to add_value, by MindSpore's names
# "TAG[:TYPE]" (TYPE: Scalar, Tensor, Image or Histogram): the summary operations' values move
# here at each record, and `_cache_summary_tensor_data` puts values here directly.
_tensor_cache: dict = {}
_cache_lock = threading.Lock()
_TYPE_NAMES = {"scalar": "Scalar", "tensor": "Tensor", "image": "Image",
               "histogram": "Histogram"}


def _cache_summary_tensor_data(summary) -> bool:
    """Keep values for the next record: `summary` is a list of {"name": "TAG[:TYPE]",
    "data": Tensor}; a later value under the same name replaces the earlier one."""
    with _cache_lock:
        for item in summary:
            _tensor_cache[item["name"]] = item["data"]
        return True


def _get_summary_tensor_data() -> dict:
    """The values kept, {"TAG[:TYPE]": Tensor}; empties the cache."""
    global _tensor_cache
    with _cache_lock:
        data, _tensor_cache = _tensor_cache, {}
        return data


def _record_summary_tensor_data() -> None:
    """Move the latest values of the summary operations into the cache, as Tensors named
    "TAG[:TYPE]"."""
    from cellgraph.runtime.tensor import Tensor

    _cache_summary_tensor_data([{"name": f"{tag}[:{_TYPE_NAMES[kind]}]", "data": Tensor(value)}
                                for (kind, tag), value in take_latest().items()])


def _parse_from(name):
    """(tag, type) of a name "TAG[:TYPE]", or (None, None)."""
    if not isinstance(name, str):
        return None, None
    match = re.match(r"(.+)\[:(.+)\]", name)
    return match.groups() if match else (None, None)


def _host_array(value) -> np.ndarray:
    return np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)


def encode(step: int, plugin: str, tag: str, value) -> dict:
    """One JSON line's dict."""
    array = _host_array(value)
    entry = {"step": int(step), "plugin": plugin, "tag": tag}
    if plugin == "scalar":
        if array.size != 1:
            raise ValueError(f"SummaryRecord: scalar {tag!r} must hold one value, got shape "
                             f"{array.shape}")
        entry["value"] = array.reshape(()).item()
    elif plugin == "histogram":
        finite = array[np.isfinite(array)].astype(np.float64)
        counts, bins = np.histogram(finite) if finite.size else (np.zeros(0), np.zeros(0))
        entry.update(bins=bins.tolist(), counts=counts.astype(int).tolist(),
                     min=float(finite.min()) if finite.size else None,
                     max=float(finite.max()) if finite.size else None, count=int(array.size))
    else:
        entry.update(dtype=str(array.dtype), shape=list(array.shape), value=array.tolist())
    return entry


def read_summary(path) -> list[dict]:
    """The lines of a summary file; tensor and image values as NumPy arrays."""
    entries = []
    with open(path) as f:
        for line in f:
            entry = json.loads(line)
            if entry["plugin"] in ("tensor", "image"):
                entry["value"] = np.array(entry["value"], entry["dtype"]).reshape(entry["shape"])
            entries.append(entry)
    return entries


def process_export_options(export_options):
    """`export_options` checked as MindSpore checks it: a dict of the keys and values of
    _DEFAULT_EXPORT_OPTIONS, or None."""
    if export_options is None:
        return None
    check_value_type('export_options', export_options, [dict, type(None)])
    for option, export_format in export_options.items():
        check_value_type('export_option', option, [str])
        check_value_type('export_format', export_format, [str, type(None)])
    unexpected = set(export_options) - set(_DEFAULT_EXPORT_OPTIONS)
    if unexpected:
        raise ValueError(f'For "SummaryRecord", the keys {unexpected} of "export_options" are '
                         f'unsupported, expect the follow keys: '
                         f'{list(_DEFAULT_EXPORT_OPTIONS.keys())}')
    for option, export_format in export_options.items():
        unexpected_format = {export_format} - _DEFAULT_EXPORT_OPTIONS.get(option)
        if unexpected_format:
            raise ValueError(f'For "SummaryRecord", the export_format {unexpected_format} of '
                             f'"export_options" are unsupported for {option}, expect the follow '
                             f'values: {list(_DEFAULT_EXPORT_OPTIONS.get(option))}')
    return export_options


class SummaryRecord:
    """Write the values given to `add_value`, and those the network's summary operations kept,
    at each `record(step)`."""

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        name = type(self).__name__
        log_dir = _make_directory(log_dir, "log_dir")
        if not isinstance(max_file_size, (int, type(None))):
            raise TypeError(f"For '{name}', the 'max_file_size' should be int type, but got type "
                            f"{type(max_file_size)}")
        if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
            raise TypeError(f"For '{name}', `file_prefix` and `file_suffix`  should be str, but "
                            f"got type {type(file_prefix)}")
        for part in (file_prefix, file_suffix):
            if re.match(_NAME_PART, part, re.ASCII) is None:
                raise ValueError(f"The '{part}' is illegal, it must be match regular"
                                 f"'{_NAME_PART}' by flags'{re.ASCII}.'")
        if max_file_size is not None and max_file_size <= 0:  # MindSpore: no limit, warned
            warnings.warn(f"For '{name}', the 'max_file_size' should be greater than 0. but got "
                          f"value {max_file_size}.", stacklevel=2)
            max_file_size = None
        validator.check_value_type('raise_exception', raise_exception, [bool])
        if process_export_options(export_options) is not None:
            # tensors exported to .npy files beside the summary
            raise UnsupportedError(f"SummaryRecord: export_options={export_options!r} is not "
                                   f"supported")
        self.max_file_size, self._written = max_file_size, 0
        self.log_dir = log_dir
        name = (f"{file_prefix}.summary.{int(time.time())}.{socket.gethostname()}"
                f"{file_suffix}.jsonl")
        # the prefix and suffix are the user's: the file stays in log_dir, and a symbolic link
        # planted at its name is refused rather than appended through
        self.path = safe_io.contained(self.log_dir, name)
        self._file = safe_io.open_append(self.path, text=True)
        self._pending: list = []
        self._mode = "train"
        take_latest()  # values kept before this record started belong to no step of it
        _get_summary_tensor_data()

    def set_mode(self, mode: str) -> None:
        if mode not in ("train", "eval"):
            raise ValueError(f"SummaryRecord.set_mode: mode must be 'train' or 'eval', got "
                             f"{mode!r}")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value) -> None:
        """Queue `value` under `name` for the next record."""
        if plugin in _MINDINSIGHT_ONLY:
            raise ValueError(f"SummaryRecord.add_value: plugin {plugin!r} holds MindInsight "
                             f"protobufs, which cellgraph does not write; use one of "
                             f"{', '.join(PLUGINS)}")
        if plugin not in PLUGINS:
            raise ValueError(f"SummaryRecord.add_value: plugin must be one of "
                             f"{', '.join(PLUGINS)}, got {plugin!r}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"SummaryRecord.add_value: name must be a non-empty str, got "
                             f"{name!r}")
        self._pending.append((plugin, name, _host_array(value)))

    def record(self, step, train_network=None, plugin_filter=None) -> bool:
        """Write the queued values and the summary operations' latest ones under `step`."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"SummaryRecord.record: step must be an int, got {step!r}")
        if self._file.closed:
            raise RuntimeError("SummaryRecord.record: the record was closed")
        _record_summary_tensor_data()
        for name, value in _get_summary_tensor_data().items():
            tag, plugin = _parse_from(name)
            if tag is None:
                warnings.warn(f"SummaryRecord.record: the name {name!r} is invalid, expected "
                              f"'TAG[:TYPE]'", stacklevel=2)
            else:
                self.add_value(plugin.lower(), tag, value)
        values, self._pending = self._pending, []
        for plugin, tag, value in values:
            if plugin_filter is None or plugin_filter(plugin):
                self._write(json.dumps(encode(step, plugin, tag, value)) + "\n")
        return True

    def _write(self, line: str) -> None:
        """One line, unless it would take the file past max_file_size: then, as MindSpore
        does, the file is full, a warning says so once, and nothing more is written."""
        size = len(line.encode("utf-8"))
        if self.max_file_size is not None and self._written + size > self.max_file_size:
            if self._written <= self.max_file_size:
                warnings.warn(f"SummaryRecord: {self.path} reached max_file_size "
                              f"({self.max_file_size} bytes); later values are not written",
                              stacklevel=3)
                self._written = self.max_file_size + 1
            return
        self._file.write(line)
        self._written += size

    def flush(self) -> None:
        self._file.flush()

    @property
    def closed(self) -> bool:
        return self._file.closed

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
