"""The safetensors format (Hugging Face's): written and read with NumPy alone.

A file is an 8-byte little-endian header length N, N bytes of JSON (per tensor: "dtype",
"shape", "data_offsets" [begin, end) into the data; an optional "__metadata__" of strings),
then the tensors' raw little-endian bytes. Reading it never runs code. `ckpt_to_safetensors` /
`safetensors_to_ckpt` convert cellgraph checkpoints file by file.
"""
from __future__ import annotations

import json
import os
import re
import struct

import numpy as np

from cellgraph import safe_io
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import DTypeError

from . import checkpoint_proto as proto

# safetensors dtype code -> cellgraph dtype name
CODES = {"BOOL": "bool_", "U8": "uint8", "I8": "int8", "I16": "int16", "U16": "uint16",
         "F16": "float16", "BF16": "bfloat16", "I32": "int32", "U32": "uint32",
         "F32": "float32", "F64": "float64", "I64": "int64", "U64": "uint64",
         "F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2"}
_CODE_OF = {name: code for code, name in CODES.items()}
MAX_HEADER = 100 * 2 ** 20  # a larger header is a corrupt (or hostile) file


class SafetensorsError(ValueError):
    """A file that is not valid safetensors."""


def encode(arrays: dict, metadata: dict | None = None) -> bytes:
    """The bytes of a safetensors file holding `arrays` (name -> ndarray)."""
    header, chunks, offset = {}, [], 0
    for name, array in arrays.items():
        if isinstance(name, str) and isinstance(array, str):
            raise DTypeError(f"safetensors: {name!r} is a string, which a safetensors file "
                             f"cannot hold as a tensor")
        if isinstance(array, proto.BF16Array):  # bfloat16 read while ml_dtypes is missing
            code, raw = "BF16", proto.float32_to_bfloat16_bits(array)
        else:
            code, raw = _CODE_OF[dt.from_numpy(array.dtype).name], np.asarray(array)
        raw = raw.astype(raw.dtype.newbyteorder("<")) if raw.dtype.byteorder == ">" else raw
        data = raw.tobytes()
        header[name] = {"dtype": code, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def write(path, arrays: dict, metadata: dict | None = None) -> None:
    """Write `arrays` to `path` atomically (safe_io: a crash never leaves half a file)."""
    safe_io.write_bytes(path, encode(arrays, metadata))


def read(path) -> tuple[dict, dict]:
    """(name -> ndarray, metadata) from a safetensors file (a path, or a binary file object
    such as io.BytesIO)."""
    if hasattr(path, "read"):
        blob, path = path.read(), "<file object>"
    else:
        path = os.fspath(path)
        with open(path, "rb") as f:
            blob = f.read()
    if len(blob) < 8:
        raise SafetensorsError(f"{path!r} is not a safetensors file: {len(blob)} bytes")
    (size,) = struct.unpack("<Q", blob[:8])
    if size > min(MAX_HEADER, len(blob) - 8):
        raise SafetensorsError(f"{path!r} is not a safetensors file: header length {size} "
                               f"for a file of {len(blob)} bytes")
    try:
        header = json.loads(blob[8:8 + size])
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SafetensorsError(f"{path!r}: the safetensors header is not JSON ({e})") from None
    data = memoryview(blob)[8 + size:]
    metadata = header.pop("__metadata__", None) or {}
    return {name: _tensor(path, name, entry, data) for name, entry in header.items()}, metadata


def _tensor(path: str, name: str, entry, data) -> np.ndarray:
    try:
        code, shape, (begin, end) = entry["dtype"], tuple(entry["shape"]), entry["data_offsets"]
    except (TypeError, KeyError, ValueError):
        raise SafetensorsError(f"{path!r}: entry {name!r} needs dtype, shape and "
                               f"data_offsets, got {entry!r:.120}") from None
    if code not in CODES:
        raise SafetensorsError(f"{path!r}: entry {name!r} has dtype {code!r}; expected one of "
                               f"{', '.join(CODES)}")
    bf16_as_f32 = code == "BF16" and not proto.has_ml_dtypes()
    np_dtype = np.dtype("<u2") if bf16_as_f32 else \
        dt.as_dtype(CODES[code]).np.newbyteorder("<")
    if not all(isinstance(d, int) and d >= 0 for d in shape):
        raise SafetensorsError(f"{path!r}: entry {name!r} has shape {shape}")
    count = 1
    for d in shape:  # Python integers: a huge declared shape cannot overflow
        count *= d
    if not 0 <= begin <= end <= len(data) or end - begin != count * np_dtype.itemsize:
        raise SafetensorsError(f"{path!r}: entry {name!r} of shape {shape} and dtype {code} "
                               f"has data_offsets [{begin}, {end}) in {len(data)} data bytes")
    array = np.frombuffer(data[begin:end], np_dtype).reshape(shape)
    if bf16_as_f32:
        return proto.bfloat16_bits_to_float32(array)
    return array.astype(array.dtype.newbyteorder("="))


# ----- converting files ------------------------------------------------------------------------

def _sources(file_path, suffix: str, file_name_regex, api: str) -> list[tuple[str, str]]:
    """(source file, its path relative to the converted folder) for every file to convert."""
    if not isinstance(file_path, (str, os.PathLike)) or not os.path.exists(file_path):
        raise ValueError(f"{api}: `file_path` must be an existing file or folder, got "
                         f"{file_path!r}")
    file_path = os.fspath(file_path)
    pattern = re.compile(file_name_regex) if file_name_regex else None
    if os.path.isfile(file_path):
        if not file_path.endswith(suffix):
            raise ValueError(f"{api}: expected a file ending with {suffix!r}, got {file_path!r}")
        return [(file_path, os.path.basename(file_path))]
    found = []
    for root, _, names in sorted(os.walk(file_path)):
        for name in sorted(names):
            if name.endswith(suffix) and (pattern is None or pattern.search(name)):
                source = os.path.join(root, name)
                found.append((source, os.path.relpath(source, file_path)))
    return found


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, suffixes, api,
             load, save) -> None:
    if save_path is not None and os.path.exists(save_path) and not os.path.isdir(save_path):
        raise ValueError(f"{api}: `save_path` must be a folder, got {save_path!r}")
    if name_map is not None and not isinstance(name_map, dict):
        raise DTypeError(f"{api}: `name_map` must be a dict, got {type(name_map).__name__}")
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or \
            processes_num < 1:
        raise ValueError(f"{api}: `processes_num` must be an int >= 1, got {processes_num!r}")
    source_suffix, target_suffix = suffixes
    for source, relative in _sources(file_path, source_suffix, file_name_regex, api):
        arrays = load(source)
        if name_map:
            arrays = {name_map.get(name, name): array for name, array in arrays.items()}
        target_dir = os.path.dirname(source) if save_path is None else os.path.join(
            save_path, os.path.dirname(relative))
        stem = os.path.basename(source)[:-len(source_suffix)]
        save(os.path.join(target_dir, stem + target_suffix), arrays)


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1) -> None:
    """Convert the .ckpt file `file_path` (or every one under the folder `file_path`, keeping
    sub-folders) to .safetensors in `save_path` (default: next to each source); `name_map`
    renames parameters. Files are converted one after another, whatever `processes_num`."""
    from .serialization import read_checkpoint_arrays

    _convert(file_path, save_path, name_map, file_name_regex, processes_num,
             (".ckpt", ".safetensors"), "ckpt_to_safetensors", read_checkpoint_arrays, write)


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None,
                        processes_num=1) -> None:
    """Convert .safetensors files to MindSpore .ckpt checkpoints (as ckpt_to_safetensors)."""
    from .serialization import save_checkpoint

    _convert(file_path, save_path, name_map, file_name_regex, processes_num,
             (".safetensors", ".ckpt"), "safetensors_to_ckpt", lambda p: read(p)[0],
             lambda path, arrays: save_checkpoint(arrays, path))
