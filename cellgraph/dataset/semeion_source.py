"""SemeionDataset: the Semeion handwritten digits, one text line per digit in `semeion.data`:
256 pixel values (0 or 1) of a 16x16 image, then its label one-hot in 10 values."""
from __future__ import annotations

import os

import numpy as np

from .engine import check_num_parallel_workers
from .readers import _ArraySource, _directory

__all__ = ["SemeionDataset"]


class SemeionDataset(_ArraySource):
    """Columns image (16, 16) uint8 and label uint32, in the file's order."""

    op = "SemeionDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        check_num_parallel_workers(num_parallel_workers)
        self.dataset_dir = _directory(dataset_dir, self.op)
        super().__init__(["image", "label"], {
            "num_samples": num_samples, "shuffle": shuffle, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})

    def row_at(self, index):
        """The row, noting its file (a map's error names it)."""
        from .nodes import ROW_FILE

        ROW_FILE.path = os.path.join(self.dataset_dir, "semeion.data")
        return super().row_at(index)

    def load(self):
        path = os.path.join(self.dataset_dir, "semeion.data")
        if not os.path.isfile(path):
            raise RuntimeError(f"Invalid file, failed to open Semeion file: {path}")
        images, labels = [], []
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                values = line.split()
                if not values:
                    continue
                if len(values) != 266:
                    raise RuntimeError(f"Invalid data, Semeion file {path} line {number} holds "
                                       f"{len(values)} values, expected 256 pixels and 10 label "
                                       f"values")
                numbers = np.array(values, np.float32)
                images.append(numbers[:256].astype(np.uint8).reshape(16, 16))
                labels.append(np.uint32(np.argmax(numbers[256:])))
        return [np.array(images, np.uint8).reshape(-1, 16, 16), np.array(labels, np.uint32)]
