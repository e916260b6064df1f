"""RandomDataset: rows of random data, made as MindSpore's RandomDataOp makes them from the same
`std::mt19937` stream (seeded by the dataset seed once one is set, else at random): each tensor
filled with one random byte, unknown sizes drawn from 1 to 32, and without a schema 1 to 4
columns of random type and shape."""
from __future__ import annotations

import json

import numpy as np

from . import _std_shuffle
from .core import config
from .core.validator_helpers import type_check, validate_dataset_param_value
from .engine import check_num_parallel_workers
from .sources import MappableSource

__all__ = ["RandomDataset"]

# MindSpore's DataType enum, DE_BOOL (1) to DE_FLOAT64 (12): what a random column may be
_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64")
_MAX_COLUMNS, _MAX_RANK, _MAX_DIM, _MAX_ROWS = 4, 4, 32, 1024


class RandomDataset(MappableSource):
    """`total_rows` rows (`num_samples` when given; a random count of 1 to 1024 when neither is)
    of the columns of `schema` (a Schema or a schema file; `columns_list` picks some), or of
    random columns c0, c1, ... As in MindSpore 2.10, the rows come in order: `shuffle`,
    `num_shards` and `shard_id` are checked and change nothing (MindSpore's RandomDataset takes
    no sampler)."""

    op = "RandomDataset"

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, cache=None, shuffle=None, num_shards=None,
                 shard_id=None):
        params = dict(locals())
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id", "total_rows"], params, int)
        validate_dataset_param_value(["shuffle"], params, bool)
        validate_dataset_param_value(["columns_list"], params, list)
        check_num_parallel_workers(num_parallel_workers)
        total = total_rows or 0
        if num_samples:
            total = num_samples
        columns = None
        if schema is not None:
            from .schema import Schema

            if isinstance(schema, str):
                schema = Schema(schema)
            type_check(schema, (Schema,), "schema")
            content = json.loads(schema.to_json())
            columns = content["columns"] or []
            if total_rows is None and not num_samples:
                total = content.get("numRows") or 0
            if columns_list:
                columns = [c for c in columns if c["name"] in columns_list]
        workers = num_parallel_workers or config.get_num_parallel_workers()
        if total and total < workers:
            raise RuntimeError(f"RandomDataset needs 'total_rows' >= 'num_workers', "
                               f"total_rows={total}, num_workers={workers}.")
        seed = config.mindspore_seed()
        self._words = _std_shuffle.Mt19937Words(
            seed if seed is not None else int(np.random.SeedSequence().entropy % 2 ** 32))
        if not total:
            total = self._int(1, _MAX_ROWS)
        self._columns = [(c["name"], c["type"], c.get("shape")) for c in columns] \
            if columns is not None else self._random_columns()
        self._rows = [self._row() for _ in range(total)]
        # MindSpore's RandomDataset reads its rows in order whatever shuffle, num_shards and
        # shard_id say (its node takes no sampler); so does this one
        super().__init__([name for name, _, _ in self._columns], None, False, None, None, None,
                         cache)

    def _int(self, low: int, high: int) -> int:
        """`std::uniform_int_distribution(low, high)` on the generator."""
        return low + _std_shuffle.uniform_below(self._words, high - low + 1)

    def _random_columns(self) -> list:
        columns = []
        for i in range(self._int(1, _MAX_COLUMNS)):
            kind = _TYPES[self._int(1, len(_TYPES)) - 1]
            rank = self._int(1, _MAX_RANK)
            shape = [self._int(0, _MAX_DIM) or -1 for _ in range(rank)]
            columns.append((f"c{i}", kind, shape))
        return columns

    def _row(self) -> tuple:
        row = []
        for _, kind, shape in self._columns:
            sizes = [size if size != -1 else self._int(1, _MAX_DIM) for size in shape or []]
            byte = self._int(0, 255)
            dtype = np.dtype(kind)
            count = int(np.prod(sizes, dtype=np.int64)) * dtype.itemsize
            row.append(np.full(count, byte, np.uint8).view(dtype).reshape(sizes))
        return tuple(row)

    @property
    def num_rows(self):
        return len(self._rows)

    def row_at(self, index):
        return tuple(value.copy() for value in self._rows[index])
