"""Cifar10ToMR: the CIFAR-10 "python version" (pickled batches) into MindRecord files, one for
the training batches and one (`destination + "_test"`) for the test batch, each row
{"id": int64, "label": int64, "data": the image as JPEG bytes}, as MindSpore writes them.
Encoding JPEG needs Pillow."""
from __future__ import annotations

import os

import numpy as np

from .converters import jpeg, load_pickle, write_rows
from .filewriter import FileWriter

__all__ = ["Cifar10ToMR"]

_SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}
_TRAIN = [f"data_batch_{i}" for i in range(1, 6)]
_TEST = ["test_batch"]


def _read_batches(directory: str, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(images N x 32 x 32 x 3 uint8, labels N) of the pickled batches."""
    images, labels = [], []
    for name in names:
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"Cifar10ToMR: no file {name} in {directory!r} (expected "
                                    f"the CIFAR-10 python version, cifar-10-batches-py)")
        batch = load_pickle(path, "Cifar10")
        data = batch.get(b"data", batch.get("data"))
        batch_labels = batch.get(b"labels", batch.get("labels"))
        if data is None or batch_labels is None:
            raise ValueError(f"Cifar10ToMR: {path!r} holds no 'data' and 'labels'")
        images.append(np.asarray(data, np.uint8).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        labels.append(np.asarray(batch_labels, np.int64))
    return np.concatenate(images), np.concatenate(labels)


class Cifar10ToMR:
    """Convert the CIFAR-10 python version in `source` to MindRecord `destination` (train)
    and `destination + "_test"` (test)."""

    def __init__(self, source, destination):
        for name, value in (("source", source), ("destination", destination)):
            if not isinstance(value, (str, os.PathLike)):
                raise TypeError(f"Cifar10ToMR: `{name}` must be a path, got "
                                f"{type(value).__name__}")
        self.source, self.destination = os.fspath(source), os.fspath(destination)
        if not os.path.isdir(self.source):
            raise ValueError(f"Cifar10ToMR: `source` {self.source!r} is not a directory")

    def run(self, fields=None):
        """Write both files; `fields` (a subset of "id", "label") are indexed."""
        if fields is not None and (not isinstance(fields, list) or not set(fields) <= {
                "id", "label"}):
            raise ValueError(f"Cifar10ToMR: `fields` must be a list drawn from 'id' and "
                             f"'label', got {fields!r}")
        for names, path in ((_TRAIN, self.destination), (_TEST, self.destination + "_test")):
            images, labels = _read_batches(self.source, names)
            writer = FileWriter(path, 1, overwrite=True)
            writer.add_schema(_SCHEMA, "img_schema")
            if fields:
                writer.add_index(fields)
            write_rows(writer, ({"id": i, "label": int(label), "data": jpeg(image)}
                                for i, (image, label) in enumerate(zip(images, labels))))

    def transform(self, fields=None):
        """The same as `run`."""
        self.run(fields)
