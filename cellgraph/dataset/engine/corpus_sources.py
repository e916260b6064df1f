"""Text corpora read as MindSpore's readers read them: EnWik9 (the file enwik9, every line a
row, empty lines included) and WikiText (wiki.<usage>.tokens, a non-empty line a row). Row
order, shuffling and sharding are TextFileDataset's."""
from __future__ import annotations

import os
from typing import ClassVar

import numpy as np

from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_sampler_shuffle_shard_options,
    validate_dataset_param_value,
)
from ..readers import TextFileDataset
from ..text_sources import _LineCorpus

__all__ = ["EnWik9Dataset", "WikiTextDataset"]


class EnWik9Dataset(TextFileDataset):
    """The enwik9 file of `dataset_dir`, one row a line in the string column `text` (the
    "\\n" removed; unlike TextFileDataset, empty lines are rows too); `shuffle` True is
    Shuffle.GLOBAL."""

    op = "EnWik9Dataset"
    keep_empty_lines = True

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        check_sampler_shuffle_shard_options(params)
        self.dataset_dir = dataset_dir
        super().__init__(os.path.join(dataset_dir, "enwik9"), num_samples, num_parallel_workers,
                         shuffle, num_shards, shard_id, cache)

    def count(self):
        """MindSpore counts the non-empty lines (TextFileDataset's count), though its rows
        hold the empty ones too."""
        self.arrays  # noqa: B018  (loads the files)
        total = int(np.count_nonzero(np.char.str_len(self.arrays[0]))) + \
            sum(1 for _ in self._undecodable)
        shards = getattr(self.sampler, "num_shards", None)
        if shards:
            total = -(-total // shards)
        limit = getattr(self.sampler, "num_samples", None)
        return min(total, limit) if limit else total


class WikiTextDataset(_LineCorpus):
    """WikiText-2 / WikiText-103: wiki.train.tokens, wiki.valid.tokens and wiki.test.tokens in
    `dataset_dir` (`usage` "train", "valid", "test" or "all": the three, in name order), one
    non-empty line a row in the string column `text`."""

    op = "WikiTextDataset"
    _FILES: ClassVar[dict] = {"train": "wiki.train.tokens", "valid": "wiki.valid.tokens",
                              "test": "wiki.test.tokens"}
