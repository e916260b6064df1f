"""USPSDataset: the USPS handwritten digits in the LIBSVM text format MindSpore reads, `usps`
(train) and `usps.t` (test) in `dataset_dir`: a line per digit, its label 1..10 and then
`index:value` for the 256 pixels of a 16x16 image, each value in [-1, 1] and each item ended by
a space."""
from __future__ import annotations

import os
from typing import ClassVar

import numpy as np

from cellgraph.mindrecord.checks import pipeline_error

from .samplers import Shuffle
from .text_sources import _LineCorpus

__all__ = ["USPSDataset"]

_PIXELS = 16 * 16


class USPSDataset(_LineCorpus):
    """Columns image (16, 16, 1) uint8, each value (v + 1) / 2 * 255 truncated as MindSpore
    casts it, and label uint32 (the file's label less one). A missing file is MindSpore's
    error when the rows are read."""

    op = "USPSDataset"
    _FILES: ClassVar[dict] = {"train": "usps", "test": "usps.t"}
    _ALL: ClassVar[list] = ["usps", "usps.t"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        files = self._checked(dataset_dir, usage, num_samples, num_shards, num_parallel_workers,
                              shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage or "all"
        self._start(files, num_samples or None, num_parallel_workers, shuffle, num_shards,
                    shard_id, cache)
        self._names = ["image", "label"]

    def load(self):
        images, labels = [], []
        self.file_rows, self._undecodable = [], {}
        for path in self.dataset_files:
            part = "train" if os.path.basename(path) == "usps" else "test"
            if not os.path.isfile(path):
                raise pipeline_error(f"Invalid file, USPS dataset {part} file: "
                                     f"{os.path.realpath(path)} does not exist or is a "
                                     f"directory.")
            start = len(labels)
            with open(path, encoding="utf-8") as f:
                for line in f.read().split("\n"):
                    if line:
                        image, label = _parse(line)
                        images.append(image)
                        labels.append(label)
            self.file_rows.append(np.arange(start, len(labels)))
        return [np.array(images, np.uint8).reshape(-1, 16, 16, 1), np.array(labels, np.uint32)]


def _parse(line: str):
    """One line's pixels and label, as MindSpore's reader parses it: only the items a space
    ends are read."""
    items = line.split(" ")[:-1]
    if len(items) != _PIXELS + 1:
        raise pipeline_error(f"Invalid data, the number of split characters ':' in USPS data "
                             f"file is corrupted, should be {_PIXELS + 1}, but got "
                             f"{len(items)}.")
    pixels = np.empty(_PIXELS, np.float64)
    for number, item in enumerate(items[1:], 1):
        index, colon, value = item.partition(":")
        if not colon:
            raise pipeline_error("Invalid data, split character ':' is missing in USPS data "
                                 "file.")
        if int(index) != number:
            raise pipeline_error(f"Invalid data, the character before ':' should be {number}, "
                                 f"but got {index}.")
        pixels[number - 1] = np.float32(value)
    # MindSpore computes in double from the float value and truncates to uint8
    image = ((pixels + 1.0) / 2.0 * 255.0).astype(np.uint8)
    return image, np.uint32(int(items[0]) - 1)
