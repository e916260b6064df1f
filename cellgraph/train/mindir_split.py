"""MindIR models saved as two parts, as MindSpore saves those whose Parameters exceed
`train.serialization.TOTAL_SAVE` kilobytes (1 GB):

* `<name>_graph.mindir`: the ModelProto, each Parameter's TensorProto holding, instead of its
  bytes, `external_data` (location `<name>_variables/data_<i>`, offset, length);
* `<name>_variables/data_<i>`: a 64-byte head (byte 0: 1 on a little-endian machine, then
  zeros), then the Parameters' bytes in the order of their names, each padded to a multiple
  of 64 bytes. A file is closed and the next begun when its kilobytes would pass
  `train.serialization.PARAMETER_SPLIT_SIZE` (1 TB), counted as MindSpore counts them (a
  Parameter's bytes count only when they need padding); a Parameter alone too large for a file
  is MindSpore's RuntimeError.

Encrypted, every part (the graph, each data file's head and each Parameter's bytes) is
encrypted on its own, so that a data file decrypts as one stream of blocks. The files are
written read-only (0o400), the folder 0o700, as MindSpore writes them; `load` reads the data
back through `external_reader`.
"""
from __future__ import annotations

import os
import shutil
import sys

from cellgraph import safe_io

from . import mindir_proto as proto

HEAD = 64  # bytes before the first Parameter of a data file
ALIGN = 64


def _head() -> bytes:
    return bytes([sys.byteorder == "little"]) + bytes(HEAD - 1)


def parameters_kilobytes(parameters: list) -> float:
    """The Parameters' size as MindSpore measures it to decide on splitting (in kilobytes,
    each as `sys.getsizeof` of its bytes)."""
    return sum(sys.getsizeof(tensor.get("raw_data", b"")) / 1024 for tensor in parameters)


def _data_files(parameters: list, prefix: str, split_kilobytes: float) -> list[list[bytes]]:
    """The data files' contents (each a list of parts, the head first), setting each
    Parameter's `external_data` in place of its `raw_data`."""
    files = [[_head()]]
    size, offset = HEAD / 1024, HEAD
    for tensor in sorted(parameters, key=lambda t: t.get("name", "").split(":", 1)[-1]):
        raw = tensor.pop("raw_data", b"")
        padding = (ALIGN - len(raw) % ALIGN) % ALIGN
        if padding:
            size += (len(raw) + padding) / 1024
        if size > split_kilobytes:
            if len(files[-1]) == 1:  # the file holds no Parameter yet
                raise RuntimeError("The parameter size is exceed 1T,cannot export to the file")
            files.append([_head()])
            size, offset = HEAD / 1024 + (len(raw) + padding) / 1024, HEAD
        tensor["external_data"] = {"location": f"{prefix}_variables/data_{len(files) - 1}",
                                   "offset": offset, "length": len(raw)}
        files[-1].append(raw + bytes(padding))
        offset += len(raw) + padding
    return files


def write_split(model: dict, file_name, split_kilobytes: float, encrypt=None) -> None:
    """`model` as `<name>_graph.mindir` and `<name>_variables/data_<i>` beside `file_name`
    (its `.mindir` suffix dropped); `encrypt(bytes) -> bytes` encrypts each part."""
    file_name = os.fspath(file_name)
    prefix = os.path.basename(file_name)
    prefix = prefix.removesuffix(".mindir")
    folder = os.path.dirname(os.path.realpath(file_name))
    data_folder = os.path.join(folder, f"{prefix}_variables")
    files = _data_files(model["graph"].get("parameter", []), prefix, split_kilobytes)
    seal = encrypt or (lambda part: part)
    if os.path.isdir(data_folder) and not os.path.islink(data_folder):
        shutil.rmtree(data_folder)
    os.makedirs(data_folder, mode=0o700, exist_ok=True)
    os.chmod(data_folder, 0o700)
    for index, parts in enumerate(files):
        path = os.path.join(data_folder, f"data_{index}")
        safe_io.write_bytes(path, b"".join(seal(part) for part in parts))
        os.chmod(path, 0o400)
    graph_path = safe_io.write_model_file(seal(proto.encode("ModelProto", model)),
                                          os.path.join(folder, f"{prefix}_graph"), ".mindir")
    os.chmod(graph_path, 0o400)


def external_reader(graph_file: str, decrypt=None):
    """`read(external_data) -> bytes` for the Parameters of the split MindIR `graph_file`:
    the data files are looked up beside it (never outside that folder), read once and
    decrypted with `decrypt(bytes) -> bytes`."""
    folder = os.path.dirname(os.path.realpath(graph_file))
    contents: dict[str, bytes] = {}

    def read(external: dict) -> bytes:
        location = external.get("location", "")
        path = os.path.realpath(os.path.join(folder, location))
        if os.path.commonpath([folder, path]) != folder:
            raise proto.MindIRError(f"the external data {location!r} lies outside the folder "
                                    f"of the graph file")
        if location not in contents:
            if not os.path.isfile(path):
                raise proto.MindIRError(f"the external data file {location!r} of the graph "
                                        f"does not exist beside it")
            with open(path, "rb") as file:
                data = file.read()
            contents[location] = data if decrypt is None else decrypt(data)
        offset, length = external.get("offset", 0), external.get("length", 0)
        data = contents[location][offset:offset + length]
        if len(data) != length:
            raise proto.MindIRError(f"the external data file {location!r} is shorter than the "
                                    f"graph says")
        return data

    return read


__all__ = ["external_reader", "parameters_kilobytes", "write_split"]
