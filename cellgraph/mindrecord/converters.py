"""MnistToMR, Cifar100ToMR and CsvToMR: datasets in their published formats into MindRecord
files, with MindSpore's file names, schemas, index fields and errors, and the helpers the
converters share: JPEG encoding (Pillow, at quality 95, the default of the OpenCV encoder
MindSpore's converters call) and unpickling that builds nothing but plain data.

Rows are written 256 at a time, as MindSpore's converters write them."""
from __future__ import annotations

import csv
import gzip
import io
import math
import os
import pickle

import numpy as np

from .checks import check_filename
from .common.exceptions import PathNotExistsError
from .filewriter import FileWriter

__all__ = ["Cifar100ToMR", "CsvToMR", "MnistToMR"]

_BATCH = 256
_MNIST_FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
                "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}
_CIFAR100_SCHEMA = {"id": {"type": "int64"}, "fine_label": {"type": "int64"},
                    "coarse_label": {"type": "int64"}, "data": {"type": "bytes"}}


def jpeg(image: np.ndarray) -> bytes:
    """`image` (H, W) or (H, W, 1) gray, or (H, W, 3) RGB, as JPEG bytes."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("the MindRecord converters encode images as JPEG, which needs "
                          "Pillow: pip install Pillow") from None
    if image.ndim == 3 and image.shape[-1] == 1:
        image = image[..., 0]
    out = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image)).save(out, format="JPEG", quality=95)
    return out.getvalue()


class _DataUnpickler(pickle.Unpickler):
    """Unpickles containers, numbers, strings and NumPy arrays only: a dataset file is data,
    and any other class it names is refused rather than imported and called."""

    _ALLOWED = {("builtins", name) for name in (
        "dict", "list", "tuple", "set", "frozenset", "str", "bytes", "bytearray", "int",
        "float", "complex", "bool")} | {
        ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
        ("numpy._core.multiarray", "scalar")}

    def find_class(self, module, name):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")
        return super().find_class(module, name)


def load_pickle(path: str, what: str):
    """The data pickled in `path` (bytes keys, as Python 2 wrote the CIFAR files)."""
    with open(os.path.realpath(path), "rb") as f:
        try:
            return _DataUnpickler(f, encoding="bytes").load()
        except (pickle.UnpicklingError, UnicodeDecodeError, EOFError):
            raise RuntimeError(f"Not a valid {what} Dataset.") from None


def write_rows(writer: FileWriter, rows, parallel: bool = False) -> None:
    """Write the rows of an iterable, a batch of 256 at a time, and commit."""
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == _BATCH:
            writer.write_raw_data(batch, parallel)
            batch = []
    if batch:
        writer.write_raw_data(batch, parallel)
    writer.commit()


def _check_partitions(partition_number) -> int:
    if partition_number is None or isinstance(partition_number, bool) or not isinstance(
            partition_number, int):
        raise ValueError("The parameter partition_number must be int")
    return partition_number


class MnistToMR:
    """`MnistToMR(source, destination, partition_number=1)`: the four gzipped IDX files of
    MNIST in `source` into `destination + "_train.mindrecord"` and `"_test.mindrecord"`, each
    row {"label": int64, "data": the image as JPEG bytes}, indexed by label."""

    def __init__(self, source, destination, partition_number=1):
        check_filename(source)
        self.source = source
        self._paths = {split: [os.path.join(source, name) for name in names]
                       for split, names in _MNIST_FILES.items()}
        for paths in self._paths.values():
            for path in paths:
                check_filename(path)
        check_filename(destination)
        self.partition_number = _check_partitions(partition_number)
        self.writer_train = FileWriter(f"{destination}_train.mindrecord", partition_number)
        self.writer_test = FileWriter(f"{destination}_test.mindrecord", partition_number)

    @staticmethod
    def _read(path: str, skip: int) -> np.ndarray:
        with gzip.open(os.path.realpath(path), "rb") as f:
            f.read(skip)
            return np.frombuffer(f.read(), np.uint8)

    def _rows(self, split: str):
        images_path, labels_path = self._paths[split]
        images = self._read(images_path, 16).reshape(-1, 28, 28, 1)
        labels = self._read(labels_path, 8).astype(np.int64)
        for image, label in zip(images, labels):
            yield {"label": int(label), "data": jpeg(image)}

    def run(self):
        """Write both files; returns 0 (SUCCESS)."""
        for split, writer in (("train", self.writer_train), ("test", self.writer_test)):
            writer.set_header_size(1 << 24)
            writer.set_page_size(1 << 26)
            writer.add_schema({"label": {"type": "int64"}, "data": {"type": "bytes"}},
                              "mnist_schema")
            writer.add_index(["label"])
            write_rows(writer, self._rows(split))
        return 0

    def transform(self):
        """The same as `run`."""
        return self.run()


class Cifar100ToMR:
    """`Cifar100ToMR(source, destination)`: CIFAR-100's python version (the pickled `train`
    and `test` files in `source`) into `destination` and `destination + "_test"`, each row
    {"id", "fine_label", "coarse_label": int64, "data": the image as JPEG bytes}."""

    def __init__(self, source, destination):
        check_filename(source)
        self.source = source
        files = os.listdir(source)
        for split in ("train", "test"):
            if split not in files:
                raise PathNotExistsError(split)
        check_filename(destination)
        self.destination = destination
        self.writer = None

    def _rows(self, split: str):
        batch = load_pickle(os.path.join(self.source, split), "Cifar100")
        images = np.asarray(batch[b"data"], np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        for i, (image, fine, coarse) in enumerate(zip(images, batch[b"fine_labels"],
                                                      batch[b"coarse_labels"])):
            yield {"id": i, "data": jpeg(image), "fine_label": int(fine),
                   "coarse_label": int(coarse)}

    def run(self, fields=None):
        """Write both files, with `fields` (a list of "id", "fine_label", "coarse_label")
        indexed; returns 0 (SUCCESS)."""
        if fields and not isinstance(fields, list):
            raise ValueError("The parameter fields should be None or list")
        for split, path, description in (("train", self.destination, "img_train"),
                                          ("test", self.destination + "_test", "img_test")):
            writer = FileWriter(path, 1)
            writer.add_schema(_CIFAR100_SCHEMA, description)
            if fields:
                writer.add_index(fields)
            write_rows(writer, self._rows(split))
        return 0

    def transform(self, fields=None):
        """The same as `run`."""
        return self.run(fields)


def _column_kind(values: list[str]) -> str:
    """The MindRecord type of a CSV column, as MindSpore's converter takes it from pandas's
    reading: int64 (all integers), float64 (numbers, or integers with empty cells), int32 (a
    bool column: True/False), else string."""
    present = [v for v in values if v != ""]
    if not present:
        return "float64"  # pandas reads an empty column as NaN
    if all(v in ("True", "False", "true", "false", "TRUE", "FALSE") for v in present) and \
            len(present) == len(values):
        return "int32"
    try:
        [int(v) for v in present]
    except ValueError:
        pass
    else:
        return "int64" if len(present) == len(values) else "float64"
    try:
        [float(v) for v in present]
    except ValueError:
        return "string"
    return "float64"


def _cell(value: str, kind: str):
    if kind == "int64":
        return int(value)
    if kind == "int32":
        return int(value.lower() == "true")
    if kind == "float64":
        return float(value) if value != "" else math.nan
    return value


class CsvToMR:
    """`CsvToMR(source, destination, columns_list=None, partition_number=1)`: the rows of a
    CSV file (its first line the column names) into MindRecord, the columns of
    `columns_list` (default all), each typed from its values and indexed."""

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        if not isinstance(source, str):
            raise ValueError(  # noqa: TRY004 - MindSpore's type
                "The parameter source must be str.")
        check_filename(source)
        self.source = source
        if columns_list and (not isinstance(columns_list, list) or not all(
                isinstance(c, str) for c in columns_list)):
            raise ValueError("The parameter columns_list must be list of str.")
        self.columns_list = columns_list
        if not isinstance(destination, str):
            raise ValueError(  # noqa: TRY004 - MindSpore's type
                "The parameter destination must be str.")
        check_filename(destination)
        self.destination = destination
        self.partition_number = _check_partitions(partition_number)
        self.writer = FileWriter(destination, partition_number)

    def run(self):
        """Write the file(s); returns 0 (SUCCESS)."""
        if not os.path.exists(self.source):
            raise OSError(f"Csv file {self.source} do not exist.")
        with open(self.source, newline="", encoding="utf-8") as f:
            lines = list(csv.reader(f))
        if not lines:
            raise RuntimeError("Failed to generate schema from csv file.")
        header, records = lines[0], [r for r in lines[1:] if r]
        by_name = {name: [r[i] if i < len(r) else "" for r in records]
                   for i, name in enumerate(header)}
        columns = self.columns_list or header
        for column in columns:
            if column not in by_name:
                raise RuntimeError(f"The parameter columns_list is illegal, column {column} "
                                   f"does not exist.")
        kinds = {column: _column_kind(by_name[column]) for column in columns}
        self.writer.set_header_size(1 << 24)
        self.writer.set_page_size(1 << 26)
        self.writer.add_schema({c: {"type": k} for c, k in kinds.items()}, "csv_schema")
        for column in columns:
            if column.isdigit():
                raise ValueError(f"The first line content: {column} of the CSV file is used as "
                                 f"a column name and does not allow starting with a number.")
        self.writer.add_index(list(columns))
        write_rows(self.writer, ({c: _cell(by_name[c][i], kinds[c]) for c in columns}
                                 for i in range(len(records))))
        return 0

    def transform(self):
        """The same as `run`."""
        return self.run()
