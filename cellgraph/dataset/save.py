"""`Dataset.save`: a pipeline's rows written to MindRecord files, with the schema MindSpore's
SaveToDisk derives from the first row.

Each column becomes a field (punctuation in its name written `_`) of MindRecord's type for its
dtype: bool and the integers up to 16 bits as int32, uint32 and the 64-bit integers as int64,
float16 as float32. A scalar column is a plain field and an index field; an array column is a
blob field of shape [-1, ...] (its first axis may vary from row to row, the others may not);
strings and bytes must be scalars.
"""
from __future__ import annotations

import os
import string

import numpy as np

MINDRECORD_TYPES = {"b": "int32", "i1": "int32", "u1": "int32", "i2": "int32", "u2": "int32",
                    "i4": "int32", "u4": "int64", "i8": "int64", "u8": "int64",
                    "f2": "float32", "f4": "float32", "f8": "float64"}
NUMPY_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32,
               "float64": np.float64}
_PUNCTUATION = str.maketrans({c: "_" for c in string.punctuation})


def check_save_arguments(file_name, num_files, file_type) -> None:
    """MindSpore's check_save: the types first, then the range of num_files and the format."""
    if isinstance(num_files, bool) or not isinstance(num_files, int):
        raise TypeError(f"Argument num_files with value {num_files} is not of type [<class "
                        f"'int'>], but got {type(num_files)}.")
    if num_files <= 0 or num_files > 1000:
        raise ValueError("num_files should between 0 and 1000.")
    for name, value in (("file_name", file_name), ("file_type", file_type)):
        if not isinstance(value, str):
            raise TypeError(f"Argument {name} with value {value} is not of type [<class "
                            f"'str'>], but got {type(value)}.")
    if file_type != "mindrecord":
        raise ValueError(f"{file_type} dataset format is not supported.")
    if not file_name or os.path.isdir(file_name):
        raise RuntimeError(f"SaveToDisk failed, dataset_path must be the path of a file, got "
                           f"{file_name!r}")


def _kind(array: np.ndarray, column: str) -> str:
    if array.dtype.kind in "US":
        return "string" if array.dtype.kind == "U" else "bytes"
    code = "b" if array.dtype.kind == "b" else f"{array.dtype.kind}{array.dtype.itemsize}"
    if code not in MINDRECORD_TYPES:
        raise RuntimeError(f"SaveToDisk: Invalid type, unsupported data type: {array.dtype} "
                           f"(column {column!r})")
    return MINDRECORD_TYPES[code]


def schema_of(names: list[str], row: tuple) -> tuple[dict, list[str]]:
    """(schema, index fields) from the first row, as SaveToDisk::FetchMetaFromTensorRow."""
    schema, index = {}, []
    for name, value in zip(names, row):
        array = np.asarray(value)
        kind = _kind(array, name)
        if array.ndim and kind == "string":
            raise RuntimeError("SaveToDisk: Invalid data, mindrecord can not support "
                               "multi-dimensional string tensor.")
        if not array.ndim or kind == "bytes":
            schema[name] = {"type": kind}
        else:
            schema[name] = {"type": kind, "shape": [-1, *array.shape[1:]]}
        if kind != "bytes" and not array.ndim:
            index.append(name)
    return schema, index


def _field(value, spec: dict, column: str):
    array = np.asarray(value)
    kind = spec["type"]
    if kind == "string":
        return str(array.item())
    if kind == "bytes":
        if array.size != 1:
            raise RuntimeError("SaveToDisk: Currently, multi-dimensional bytes cannot be "
                               "converted to MindRecord.")
        return bytes(array.reshape(()).item())
    if "shape" not in spec:
        return array.astype(NUMPY_TYPES[kind]).item()
    if list(array.shape[1:]) != spec["shape"][1:] or array.ndim != len(spec["shape"]):
        raise RuntimeError("SaveToDisk: Tensor with dynamic shape do not currently support "
                           "saving. Except for the shape of dimension 0, the other dimension "
                           "shapes must be fixed. You can reshape the Tensor to a fixed shape "
                           f"before saving (column {column!r}: {list(array.shape)} against "
                           f"{spec['shape']}).")
    if array.dtype.kind == "u" and array.dtype.itemsize == 8:  # stored as its bits
        return array.view(np.int64)
    return array.astype(NUMPY_TYPES[kind])


def save(dataset, file_name: str, num_files: int) -> None:
    from cellgraph.mindrecord import FileWriter

    columns = dataset.get_col_names()
    names = [c.translate(_PUNCTUATION) for c in columns]
    rows = dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)
    writer, schema, records = None, None, []
    for row in rows:
        if schema is None:
            schema, index = schema_of(names, row)
            writer = FileWriter(file_name, num_files)
            writer.add_schema(schema, "mindrecord")
            if index:
                writer.add_index(index)
        records.append({n: _field(v, schema[n], c) for n, c, v in zip(names, columns, row)})
    if writer is None:
        raise RuntimeError("SaveToDisk: the dataset has no rows to save")
    writer.write_raw_data(records)
    writer.commit()
