"""`dataset.MindDataset`: the rows of cellgraph MindRecord files (`mindrecord.FileWriter`'s
format; MindSpore's own MindRecord files are refused, saying so)."""
from __future__ import annotations

import os

import numpy as np

from cellgraph.mindrecord import format as fmt

from .sources import MappableSource

__all__ = ["MindDataset"]


def _files(dataset_files, op: str) -> list[str]:
    """A str names one file of a set: every shard written with it is read; a list names the
    files to read."""
    if isinstance(dataset_files, (str, os.PathLike)):
        path = os.fspath(dataset_files)
        shards = fmt.read_header(path, op)["shard_files"]
        return [os.path.join(os.path.dirname(path), name) for name in shards]
    if not isinstance(dataset_files, (list, tuple)) or not dataset_files:
        raise TypeError(f"{op}: dataset_files must be a str or a non-empty list of str, got "
                        f"{dataset_files!r}")
    return [os.fspath(p) for p in dataset_files]


class MindDataset(MappableSource):
    """Rows of MindRecord files: one column per schema field (or per `columns_list` entry)."""

    op = "MindDataset"

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, sampler=None, padded_sample=None,
                 num_padded=None, num_samples=None, cache=None):
        self.paths = _files(dataset_files, self.op)
        headers = [fmt.read_header(p, self.op) for p in self.paths]
        schema = headers[0]["schema"]
        for path, header in zip(self.paths, headers):
            if header["schema"] != schema:
                raise ValueError(f"{self.op}: {path!r} has schema {header['schema']}, the "
                                 f"first file has {schema}")
        names = list(schema) if columns_list is None else list(columns_list)
        unknown = [n for n in names if n not in schema]
        if unknown:
            raise ValueError(f"{self.op}: columns_list names {unknown}, which the schema "
                             f"({list(schema)}) lacks")
        self._rows = [row for path, header in zip(self.paths, headers)
                      for row in fmt.read_rows(path, header, names)]
        self._rows += self._padding(padded_sample, num_padded, names)
        super().__init__(names, num_samples=num_samples, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)

    def _padding(self, padded_sample, num_padded, names) -> list[tuple]:
        """`num_padded` copies of `padded_sample`, so that the rows split evenly into shards."""
        if not num_padded:
            return []
        if not isinstance(padded_sample, dict):
            raise TypeError(f"{self.op}: num_padded needs padded_sample, a dict of the "
                             f"columns, got {padded_sample!r}")
        row = tuple(np.frombuffer(v, np.uint8) if isinstance(v, bytes) else np.asarray(v)
                    for v in (padded_sample[n] for n in names))
        return [row] * int(num_padded)

    @property
    def num_rows(self):
        return len(self._rows)

    def row_at(self, index):
        return self._rows[index]
