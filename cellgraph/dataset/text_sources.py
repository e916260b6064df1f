"""Text corpora read as MindSpore's text sources read them: PennTreebankDataset (a line a row)
and the CSV text-classification corpora (AGNews, AmazonReview, DBpedia, SogouNews,
YahooAnswers, YelpReview: a record a row, every field a string column)."""
from __future__ import annotations

import csv
import os
from typing import ClassVar

import numpy as np

from .core.validator_helpers import check_value, type_check
from .engine import check_num_parallel_workers
from .readers import TextFileDataset, shard_pieces, worker_order
from .samplers import Shuffle

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "PennTreebankDataset",
           "SST2Dataset", "SogouNewsDataset", "YahooAnswersDataset", "YelpReviewDataset", "shard_pieces",
           "worker_order"]


class _LineCorpus(TextFileDataset):
    """A corpus of text files in `dataset_dir`, chosen by `usage`, one line a row in `text`."""

    _FILES: ClassVar[dict] = {}
    _ALL: ClassVar[list] = []  # the files of usage "all" in MindSpore's order (else sorted)
    _DEFAULT_USAGE: ClassVar[str] = "all"  # what usage=None reads

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        files = self._checked(dataset_dir, usage, num_samples, num_shards, num_parallel_workers,
                              shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage or self._DEFAULT_USAGE
        super().__init__(files, num_samples or None, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)
        self.dataset_files = files  # in MindSpore's order, not sorted

    def _checked(self, dataset_dir, usage, num_samples, num_shards, num_parallel_workers,
                 shard_id=None):
        """MindSpore's checks of the arguments; the files `usage` reads, in MindSpore's order."""
        type_check(dataset_dir, (str, os.PathLike), "dataset_dir")
        if not os.path.isdir(dataset_dir):
            raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory "
                             f"or permission denied!")
        usage = self._DEFAULT_USAGE if usage is None else usage
        type_check(usage, (str,), "usage")
        valid = [*self._FILES] + (["all"] if self._DEFAULT_USAGE == "all" else [])
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
        if shard_id is not None:
            type_check(shard_id, (int,), "shard_id")
        check_num_parallel_workers(num_parallel_workers)
        names = (self._ALL or sorted(self._FILES.values())) if usage == "all" else \
            [self._FILES[usage]]
        return [os.path.join(dataset_dir, name) for name in names]


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
    _DELIMITER: ClassVar[str] = ","
    _HEADER: ClassVar[bool] = False  # the first line names the columns: not a row

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
                reader = csv.reader(f, delimiter=self._DELIMITER)
                line = 1  # where the next record starts
                if self._HEADER:
                    next(reader, None)
                    line = reader.line_num + 1
                for record in reader:
                    start_line, line = line, reader.line_num + 1
                    if not record:
                        continue
                    record = self._fields(record)
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

    def _fields(self, record: list) -> list:
        """The fields of a record that are columns."""
        return record


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


class SST2Dataset(_CsvCorpus):
    """The Stanford Sentiment Treebank's binary task (GLUE's SST-2): train.tsv, dev.tsv and
    test.tsv in `dataset_dir`, tab-separated under a header line; columns sentence and label
    (strings), or for usage "test" only sentence (its leading index field is dropped)."""

    op = "SST2Dataset"
    _FILES: ClassVar[dict] = {"train": "train.tsv", "test": "test.tsv", "dev": "dev.tsv"}
    _DEFAULT_USAGE: ClassVar[str] = "train"
    _DELIMITER: ClassVar[str] = "\t"
    _HEADER: ClassVar[bool] = True

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, cache)
        self._names = ["sentence"] if self.usage == "test" else ["sentence", "label"]

    def _fields(self, record: list) -> list:
        return record[1:] if self.usage == "test" else record


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
