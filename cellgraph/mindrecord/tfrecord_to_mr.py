"""TFRecordToMR: a TFRecord file of `tf.train.Example` records into a MindRecord file.

`feature_dict` says which features to take and how, as MindSpore's takes it: each value a
`tf.io.FixedLenFeature` (any object with its `shape` and `dtype`, and optionally
`default_value`). A feature of shape `[]` becomes a scalar field (a tf.string one a "string"
field, or "bytes" when named in `bytes_fields`); one of shape `[n]` becomes a field of shape
`[n]`. Integer dtypes become int32 or int64 fields and floats float32 or float64, with
MindSpore's mapping; names with other characters than letters, digits and "_" are written with
"_" in their place. The records are read with cellgraph's own TFRecord reader
(dataset/tfrecord_source.py), so TensorFlow is needed only to build the FixedLenFeatures.
"""
from __future__ import annotations

from string import punctuation

import numpy as np

from cellgraph.dataset.tfrecord_source import parse_example, read_records

from .checks import check_filename
from .filewriter import FileWriter

__all__ = ["TFRecordToMR"]

_TYPES = {"string": "string", "int8": "int32", "int16": "int32", "int32": "int32",
          "int64": "int64", "uint8": "int32", "uint16": "int32", "uint32": "int64",
          "uint64": "int64", "float16": "float32", "float32": "float32", "float64": "float64",
          "double": "float64", "bool": "int32"}
_NUMPY = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
_KINDS = {"string": 1, "float": 2, "int": 3}  # tf.train.Feature: bytes, float, int64 lists
_SPECIAL = set(punctuation + " ") - {"_"}
_BATCH = 256


def _cast_name(key: str) -> str:
    """`key` with every punctuation character and space written "_"."""
    return "".join("_" if c in _SPECIAL else c for c in key)


def _dtype_name(dtype) -> str:
    return getattr(dtype, "name", None) or str(dtype)


class TFRecordToMR:  # its argument errors are MindSpore's ValueErrors, types included
    """Transform the TFRecord file `source` into the MindRecord file `destination`, the
    features of `feature_dict` (name -> FixedLenFeature) as fields; `bytes_fields` names the
    tf.string scalar features to keep as bytes (images) rather than decode as text."""

    def __init__(self, source, destination, feature_dict, bytes_fields=None):
        self._check_input(source, destination, feature_dict)
        self.source, self.destination, self.feature_dict = source, destination, feature_dict
        names = []
        if bytes_fields is not None:
            if not isinstance(bytes_fields, list):
                raise ValueError(f"Parameter bytes_fields: {bytes_fields} must be list(str).")
            for item in bytes_fields:
                if not isinstance(item, str):
                    raise ValueError(f"Parameter bytes_fields's item: {item} is not str.")  # noqa: TRY004
                if item not in feature_dict:
                    raise ValueError(f"Parameter bytes_fields's item: {item} is not in "
                                     f"feature_dict: {feature_dict}.")
                if not isinstance(feature_dict[item].shape, list):
                    raise ValueError(f"Parameter feature_dict[{item}].shape should be a list.")  # noqa: TRY004
                if _dtype_name(feature_dict[item].dtype) != "string":
                    raise ValueError(f"Parameter bytes_field: {item} should be tf.string in "
                                     f"feature_dict.")
                names.append(_cast_name(item))
        self.bytes_fields_list = names
        self.scalar_set, self.list_set = set(), set()
        self.mindrecord_schema = self._schema()

    @staticmethod
    def _check_input(source, destination, feature_dict):
        if not isinstance(source, str):
            raise ValueError("Parameter source must be string.")  # noqa: TRY004
        check_filename(source, "source")
        if not isinstance(destination, str):
            raise ValueError("Parameter destination must be string.")  # noqa: TRY004
        check_filename(destination, "destination")
        if feature_dict is None or not isinstance(feature_dict, dict):
            raise ValueError("Parameter feature_dict is None or not dict.")
        for value in feature_dict.values():
            if not (hasattr(value, "shape") and hasattr(value, "dtype")):
                raise ValueError(f"Parameter feature_dict: {feature_dict} only support "
                                 f"FixedLenFeature.")

    @staticmethod
    def _cast_type(dtype) -> str:
        name = _dtype_name(dtype)
        if name not in _TYPES:
            raise ValueError(f"Type {name} is not supported in MindRecord.")
        return _TYPES[name]

    def _schema(self) -> dict:
        schema = {}
        for key, feature in self.feature_dict.items():
            name = _cast_name(key)
            if not feature.shape:
                self.scalar_set.add(name)
                schema[name] = {"type": "bytes"} if name in self.bytes_fields_list else \
                    {"type": self._cast_type(feature.dtype)}
                continue
            if len(feature.shape) != 1:
                raise ValueError(f"Parameter len(feature_dict[{key}].shape) should be 1.")
            if isinstance(feature.shape[0], bool) or not isinstance(feature.shape[0], int):
                raise ValueError(  # noqa: TRY004
                    f"Invalid parameter feature_dict, value and type mismatch, please check "
                    f"item of feature_dict[\"{key}\"].")
            if feature.shape[0] < 1:
                raise ValueError(f"Parameter feature_dict[{key}].shape[0] should > 0")
            if _dtype_name(feature.dtype) == "string":
                raise ValueError(f"Parameter feature_dict[{key}].dtype is tf.string which "
                                 f"shape[0] is not None. It is not supported.")
            self.list_set.add(name)
            schema[name] = {"type": self._cast_type(feature.dtype), "shape": [feature.shape[0]]}
        return schema

    def _values(self, key, feature, parsed) -> list:
        """The values of feature `key` in a parsed record (its default when absent), checked
        against its kind and length."""
        if key not in parsed:
            default = getattr(feature, "default_value", None)
            if default is None:
                raise ValueError("TFRecord feature_dict parameter error.")
            return list(np.ravel(default))
        kind, values = parsed[key]
        field_type = self.mindrecord_schema[_cast_name(key)]["type"]
        expected = _KINDS["string" if field_type in ("string", "bytes") else
                          "float" if field_type.startswith("float") else "int"]
        length = feature.shape[0] if feature.shape else 1
        if kind != expected or len(values) != length:
            raise ValueError("TFRecord feature_dict parameter error.")
        return values

    def _row(self, record: bytes) -> dict:
        parsed = parse_example(record)
        row = {}
        for key, feature in self.feature_dict.items():
            name = _cast_name(key)
            values = self._values(key, feature, parsed)
            field_type = self.mindrecord_schema[name]["type"]
            if name in self.list_set:
                row[name] = np.asarray(values, _NUMPY[field_type])
            elif field_type == "bytes":
                row[name] = bytes(values[0])
            elif field_type == "string":
                row[name] = bytes(values[0]).decode("utf-8")
            elif field_type.startswith("int"):
                row[name] = int(values[0])
            else:
                row[name] = float(values[0])
        return row

    def tfrecord_iterator(self):
        """The MindRecord rows of the TFRecord file, one dict per record."""
        for record in read_records(self.source):
            yield self._row(record)

    def run(self):
        """Write the MindRecord file; returns the FileWriter's commit result."""
        writer = FileWriter(self.destination)
        writer.add_schema(self.mindrecord_schema, "TFRecord to MindRecord")
        batch = []
        for row in self.tfrecord_iterator():
            batch.append(row)
            if len(batch) == _BATCH:
                writer.write_raw_data(batch, True)
                batch = []
        if batch:
            writer.write_raw_data(batch, True)
        return writer.commit()

    def transform(self):
        """Execute the transformation from TFRecord to MindRecord."""
        return self.run()
