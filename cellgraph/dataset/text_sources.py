"""Text corpora read as MindSpore's text sources read them: PennTreebankDataset (a line a row)
and the CSV text-classification corpora (AGNews, AmazonReview, DBpedia, SogouNews,
YahooAnswers, YelpReview: a record a row, every field a string column)."""
from __future__ import annotations

import csv
import os
from typing import ClassVar

import numpy as np

from . import config
from .core.validator_helpers import check_value, type_check
from .engine import check_num_parallel_workers
from .readers import TextFileDataset
from .samplers import Shuffle

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "PennTreebankDataset",
           "SogouNewsDataset", "YahooAnswersDataset", "YelpReviewDataset", "shard_pieces",
           "worker_order"]


def worker_order(file_rows: list, workers: int) -> np.ndarray:
    """The order MindSpore's parallel file readers give the rows of several files: file i is
    read by worker i % workers (one after another), and the workers hand over one row each in
    turn. One worker reads the files end to end; as many workers as files take one row from
    each file in turn."""
    workers = max(1, min(workers, len(file_rows)))
    queues = [np.concatenate(file_rows[k::workers]) if file_rows[k::workers] else
              np.zeros(0, np.int64) for k in range(workers)]
    longest = max((len(q) for q in queues), default=0)
    return np.asarray([int(q[i]) for i in range(longest) for q in queues if i < len(q)],
                      np.int64)


def shard_pieces(parts: list, num_shards: int, shard_id: int) -> list:
    """MindSpore's shard of a text source, as pieces of files: ceil(rows / num_shards)
    consecutive rows of the files end to end, wrapping around to the first rows where the count
    does not divide; each run of rows from one file is a piece its workers read."""
    lengths = [len(p) for p in parts]
    total = sum(lengths)
    if not total:
        return []
    size = -(-total // num_shards)
    owner = np.repeat(np.arange(len(parts)), lengths)
    flat = np.concatenate(parts)
    positions = [(shard_id * size + i) % total for i in range(size)]
    pieces, last = [], None
    for position in positions:
        if last is None or owner[position] != owner[last] or position != last + 1:
            pieces.append([])
        pieces[-1].append(int(flat[position]))
        last = position
    return [np.asarray(piece, np.int64) for piece in pieces]


class _LineCorpus(TextFileDataset):
    """A corpus of text files in `dataset_dir`, chosen by `usage`, one line a row in `text`."""

    _FILES: ClassVar[dict] = {}
    _ALL: ClassVar[list] = []  # the files of usage "all" in MindSpore's order (else sorted)

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        type_check(dataset_dir, (str, os.PathLike), "dataset_dir")
        if not os.path.isdir(dataset_dir):
            raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory "
                             f"or permission denied!")
        usage = "all" if usage is None else usage
        type_check(usage, (str,), "usage")
        valid = [*self._FILES, "all"]
        if usage not in valid:
            raise ValueError(f"Input usage is not within the valid set of {valid}.")
        if num_samples is not None:
            type_check(num_samples, (int,), "num_samples")
            if num_samples < 0 or num_samples > 2 ** 63 - 1:
                raise ValueError("num_samples exceeds the boundary between 0 and "
                                 "9223372036854775807(INT64_MAX)!")
        if num_shards is not None:
            type_check(num_shards, (int,), "num_shards")
            check_value(num_shards, [1, 2147483647], "num_shards")
        check_num_parallel_workers(num_parallel_workers)
        names = (self._ALL or sorted(self._FILES.values())) if usage == "all" else \
            [self._FILES[usage]]
        files = [os.path.join(dataset_dir, name) for name in names]
        self.dataset_dir, self.usage, self.workers = dataset_dir, usage, num_parallel_workers
        super().__init__(files, num_samples or None, None, shuffle, num_shards, shard_id,
                         cache)
        self.dataset_files = files  # in MindSpore's order, not sorted

    def rows(self, state):
        self.arrays  # noqa: B018  (loads the files, which sets file_rows)
        rng = state.rng(self)
        parts = list(self.file_rows)
        if self.shuffle_mode is Shuffle.FILES:
            parts = [parts[i] for i in rng.permutation(len(parts))]
        elif self.shuffle_mode is Shuffle.INFILE:
            parts = [rng.permutation(p) for p in parts]
        sampler = self.sampler
        if getattr(sampler, "num_shards", None):
            parts = shard_pieces(parts, sampler.num_shards, sampler.shard_id)
        workers = self.workers or config.get_num_parallel_workers()
        order = worker_order(parts, workers)
        if self.shuffle_mode is Shuffle.GLOBAL:
            order = rng.permutation(order)
        for index in sampler._limit(order):
            yield self.row_at(int(index))

    def count(self):
        total = self.num_rows
        shards = getattr(self.sampler, "num_shards", None)
        if shards:
            total = -(-total // shards)
        limit = getattr(self.sampler, "num_samples", None)
        return min(total, limit) if limit else total


class PennTreebankDataset(_LineCorpus):
    """The Penn Treebank language-model corpus: ptb.train.txt, ptb.test.txt and ptb.valid.txt
    in `dataset_dir` (`usage` "train", "test", "valid" or "all"), one sentence a row in the
    string column `text`."""

    op = "PennTreebankDataset"
    _FILES: ClassVar[dict] = {"train": "ptb.train.txt", "valid": "ptb.valid.txt",
                              "test": "ptb.test.txt"}


class _CsvCorpus(_LineCorpus):
    """A corpus of CSV files (train.csv, test.csv) in `dataset_dir`: a record a row, its
    fields the string columns `_COLUMNS` (quotes as RFC 4180; backslashes kept)."""

    _FILES: ClassVar[dict] = {"train": "train.csv", "test": "test.csv"}
    _COLUMNS: ClassVar[list] = []

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)
        self._names = list(self._COLUMNS)

    def load(self):
        rows = []
        self.file_rows = []
        for path in self.dataset_files:
            start = len(rows)
            with open(path, encoding="utf-8", newline="") as f:
                reader = csv.reader(f)
                line = 1  # where the next record starts
                for record in reader:
                    start_line, line = line, reader.line_num + 1
                    if not record:
                        continue
                    count = len(self._names)
                    if len(record) != count:  # MindSpore's words, both ways round
                        detail = ("Invalid columns, the size of column_names should be less "
                                  "than the size of 'column_defaults', but got the size of "
                                  + (f"column_names: {count}, the size of column_defaults : "
                                     f"{count}." if len(record) > count else
                                     f"column_names: {len(record)}, the size of "
                                     f"'column_defaults': {count}."))
                        raise RuntimeError(f"Invalid file, failed to parse csv file: {path} at "
                                           f"line {start_line}. Error message: {detail}")
                    rows.append(record)
            self.file_rows.append(np.arange(start, len(rows)))
        return [np.array([row[i] for row in rows], dtype=np.str_)
                for i in range(len(self._names))]


class AGNewsDataset(_CsvCorpus):
    """AG's News topic classification: columns index, title, description."""

    op = "AGNewsDataset"
    _COLUMNS: ClassVar[list] = ["index", "title", "description"]


class AmazonReviewDataset(_CsvCorpus):
    """Amazon reviews (the polarity or full version's folder): columns label, title,
    content."""

    op = "AmazonReviewDataset"
    _COLUMNS: ClassVar[list] = ["label", "title", "content"]


class DBpediaDataset(_CsvCorpus):
    """DBpedia ontology classification: columns class, title, content."""

    op = "DBpediaDataset"
    _COLUMNS: ClassVar[list] = ["class", "title", "content"]


class SogouNewsDataset(_CsvCorpus):
    """Sogou News classification: columns index, title, content."""

    op = "SogouNewsDataset"
    _COLUMNS: ClassVar[list] = ["index", "title", "content"]
    _ALL: ClassVar[list] = ["train.csv", "test.csv"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)


class YahooAnswersDataset(_CsvCorpus):
    """Yahoo! Answers topic classification: columns class, title, content, answer."""

    op = "YahooAnswersDataset"
    _COLUMNS: ClassVar[list] = ["class", "title", "content", "answer"]


class YelpReviewDataset(_CsvCorpus):
    """Yelp reviews (the polarity or full version's folder): columns label, text."""

    op = "YelpReviewDataset"
    _COLUMNS: ClassVar[list] = ["label", "text"]
    _ALL: ClassVar[list] = ["train.csv", "test.csv"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)
