"""Text sources read as MindSpore's readers read them: the translation corpora IWSLT2016,
IWSLT2017 and Multi30k (columns text and translation), the CoNLL2000 chunking corpus (a
sentence a row: word, pos_tag, chunk_tag), CLUE's JSON-lines tasks, and the IMDB reviews (a
file a row, random access). The file-based ones share TextFileDataset's reading: files (or
pairs of files) are read by `num_parallel_workers` in turn, shuffled by Shuffle mode and
sharded as MindSpore does."""
from __future__ import annotations

import json
import os
import re
from typing import ClassVar

import numpy as np

from ..core import config
from ..core.validator_helpers import (
    check_arguments,
    check_dir,
    check_mappable_source,
    check_sampler_shuffle_shard_options,
    check_valid_str,
    type_check,
    type_check_list,
    validate_dataset_param_value,
)
from ..readers import (
    TextFileDataset,
    _ArraySource,
    _file_list,
    file_order,
    global_shuffle,
    shard_pieces,
    worker_order,
)
from ..samplers import Shuffle
from ..sources import MappableSource
from .vision_readers import read_file_bytes

__all__ = ["CLUEDataset", "CoNLL2000Dataset", "IMDBDataset", "IWSLT2016Dataset",
           "IWSLT2017Dataset", "Multi30kDataset", "SQuADDataset", "UDPOSDataset"]


def check_valid_list_tuple(value, valid, data_type, arg_name="") -> None:
    length = len(valid[0])
    type_check(value, (list, tuple), arg_name)
    type_check_list(value, data_type, arg_name)
    if len(value) != length:
        raise ValueError(f"Input {arg_name} is a list or tuple of length {length}.")
    if value not in valid:
        raise ValueError(f"Input {arg_name}{value} is not within the valid set of {valid}.")


def _pipeline_error(message: str) -> RuntimeError:
    return RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline "
                        f"Error Message'. \n\n- Dataset Pipeline Error Message: \n[ERROR] "
                        f"{message}")


class _FileCorpus(TextFileDataset):
    """Rows read from a list of files (each a unit MindSpore's workers read in turn), with the
    columns `names`; subclasses define `read(path)` giving a file's rows (tuples)."""

    def __init__(self, files, names, num_samples, num_parallel_workers, shuffle, num_shards,
                 shard_id, cache):
        # TextFileDataset's setup, for files named by the source (in MindSpore's order; one
        # that is missing is an error when it is read, as in MindSpore)
        self.dataset_files = list(files)
        if shuffle is True:
            shuffle = Shuffle.GLOBAL
        if shuffle is not False and not isinstance(shuffle, Shuffle):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                            "'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                            "'Shuffle.FILES' or 'Shuffle.INFILE'.")
        self.shuffle_mode, self.workers = shuffle, num_parallel_workers
        _ArraySource.__init__(self, list(names), {
            "num_samples": num_samples or None, "shuffle": shuffle is Shuffle.GLOBAL,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})
        self._epoch_rng = None

    def read(self, path) -> list[tuple]:
        raise NotImplementedError

    def load(self):
        rows = []
        self.file_rows = []
        for path in self.dataset_files:
            start = len(rows)
            rows.extend(self.read(path))
            self.file_rows.append(np.arange(start, len(rows)))
        columns = []
        for i in range(len(self._names)):
            column = np.empty(len(rows), object)
            column[:] = [row[i] for row in rows]
            columns.append(column)
        return columns

    def row_at(self, index):
        return tuple(np.asarray(value) for value in super().row_at(index))


def _text_source_checks(params: dict, shard_options: bool = False) -> None:
    """The folder and usage checks of every text source; with `shard_options`, also those of
    a source without a sampler: int counts and the shuffle/shard combination."""
    check_dir(params["dataset_dir"])
    usage = params.get("usage")
    if usage is not None:
        check_valid_str(usage, params.pop("_usages"), "usage")
    if shard_options:
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        check_sampler_shuffle_shard_options(params)


class _PairCorpus(_FileCorpus):
    """Sentence pairs: each unit is (source file, target file); row i pairs line i of each."""

    def __init__(self, pairs, num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
                 cache):
        self._pairs = dict(pairs)
        super().__init__([source for source, _ in pairs], ["text", "translation"], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def lines(self, path) -> list[str]:
        raise NotImplementedError

    def read(self, path):
        return list(zip(self.lines(path), self.lines(self._pairs[path])))


_IWSLT_SKIPPED_TAGS = ("<url", "<keywords", "<talkid", "<description", "<reviewer",
                       "<translator", "<title", "<speaker", "<doc", "</doc")
_SEGMENT = re.compile(r"^\s*<seg[^>]*>(.*)</seg>\s*$")


def _iwslt_lines(path) -> list[str]:
    """The sentences of an IWSLT file: a train.tags file's lines that are not its tags, or an
    .xml file's <seg> elements, stripped of surrounding spaces."""
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file, failed to open file: {path}")
    with open(path, encoding="utf-8") as f:
        text = f.read().splitlines()
    out = []
    for line in text:
        if path.endswith(".xml"):
            match = _SEGMENT.match(line)
            if match:
                out.append(match.group(1).strip())
        elif not line.lstrip().startswith(_IWSLT_SKIPPED_TAGS):
            out.append(line.strip())
    return out


class _IWSLTDataset(_PairCorpus):
    op = "IWSLTDataset"
    _SETS: ClassVar[list] = []

    def _check(self, params: dict, language_pair, sets=()) -> None:
        """MindSpore's checks of an IWSLT source's arguments, in its order: the folder and
        usage, the language pair, the named sets, the counts, the sampling options."""
        params["_usages"] = ["train", "test", "valid", "all"]
        _text_source_checks(params)
        _check_language_pair(language_pair, self._PAIRS)
        for name, value in sets:
            if value is not None:
                check_valid_str(value, self._SETS, name)
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        check_sampler_shuffle_shard_options(params)

    def lines(self, path):
        return _iwslt_lines(path)


class IWSLT2016Dataset(_IWSLTDataset):
    """IWSLT 2016: texts/<src>/<tgt>/<src>-<tgt>/ under `dataset_dir`; usage "train" (the
    train.tags files), "valid" (`valid_set`), "test" (`test_set`) or "all" (the three, in
    that order)."""

    op = "IWSLT2016Dataset"
    _PAIRS: ClassVar[list] = ([["en", "ar"], ["en", "ar"], ["en", "de"], ["en", "fr"], ["en", "cs"],
               ["ar", "en"], ["fr", "en"], ["de", "en"], ["cs", "en"]])
    _SETS: ClassVar[list] = ["dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014"]

    @check_arguments
    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None,
                 test_set=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        self._check(dict(locals()), language_pair,
                    (("valid_set", valid_set), ("test_set", test_set)))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        self.language_pair = ["de", "en"] if language_pair is None else list(language_pair)
        self.valid_set = "tst2013" if valid_set is None else valid_set
        self.test_set = "tst2014" if test_set is None else test_set
        src, tgt = self.language_pair
        folder = os.path.join(dataset_dir, "texts", src, tgt, f"{src}-{tgt}")
        names = {"train": ("train.tags.{pair}.{lang}",),
                 "valid": (f"IWSLT16.TED.{self.valid_set}.{{pair}}.{{lang}}.xml",),
                 "test": (f"IWSLT16.TED.{self.test_set}.{{pair}}.{{lang}}.xml",)}
        super().__init__(_iwslt_pairs(folder, names, self.usage, src, tgt), num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)


class IWSLT2017Dataset(_IWSLTDataset):
    """IWSLT 2017: texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/ under `dataset_dir`;
    usage "train", "valid" (dev2010), "test" (tst2010) or "all"."""

    op = "IWSLT2017Dataset"
    _PAIRS: ClassVar[list] = ([["en", "nl"], ["en", "de"], ["en", "it"], ["en", "ro"], ["ro", "de"],
               ["ro", "en"], ["ro", "nl"], ["ro", "it"], ["de", "ro"], ["de", "en"],
               ["de", "nl"], ["de", "it"], ["it", "en"], ["it", "nl"], ["it", "de"],
               ["it", "ro"], ["nl", "de"], ["nl", "en"], ["nl", "it"], ["nl", "ro"]])

    @check_arguments
    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        self._check(dict(locals()), language_pair)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        self.language_pair = ["de", "en"] if language_pair is None else list(language_pair)
        src, tgt = self.language_pair
        folder = os.path.join(dataset_dir, "texts", "DeEnItNlRo", "DeEnItNlRo",
                              "DeEnItNlRo-DeEnItNlRo")
        names = {"train": ("train.tags.{pair}.{lang}",),
                 "valid": ("IWSLT17.TED.dev2010.{pair}.{lang}.xml",),
                 "test": ("IWSLT17.TED.tst2010.{pair}.{lang}.xml",)}
        super().__init__(_iwslt_pairs(folder, names, self.usage, src, tgt), num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)


def _check_language_pair(language_pair, valid) -> None:
    if language_pair is None:
        return
    if isinstance(language_pair, list):
        check_valid_list_tuple(language_pair, valid, (str,), "language_pair")
    elif isinstance(language_pair, tuple):
        check_valid_list_tuple(language_pair, tuple(tuple(p) for p in valid), (str,),
                               "language_pair")
    else:
        raise TypeError("language_pair should be a type list or tuple of length 2.")


def _iwslt_pairs(folder, names, usage, src, tgt):
    parts = ("train", "valid", "test") if usage == "all" else (usage,)
    pair = f"{src}-{tgt}"
    out = []
    for part in parts:
        for pattern in names[part]:
            out.append(tuple(os.path.join(folder, pattern.format(pair=pair, lang=lang))
                             for lang in (src, tgt)))
    return out


class Multi30kDataset(_PairCorpus):
    """Multi30k: training/train.<lang>, validation/val.<lang> and mmt16_task1_test/test.<lang>
    under `dataset_dir`; `language_pair` ["en", "de"] (default) or ["de", "en"]; usage "all"
    reads test, train and valid. `shuffle` is a bool (None: Shuffle.GLOBAL)."""

    op = "Multi30kDataset"
    _PARTS: ClassVar[dict] = {"test": ("mmt16_task1_test", "test"), "train": ("training", "train"),
              "valid": ("validation", "val")}

    @check_arguments
    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None,
                 cache=None):
        params = dict(locals(), _usages=["train", "test", "valid", "all"])
        _text_source_checks(params)
        if language_pair is not None:
            type_check(language_pair, (list, tuple), "language_pair")
            if len(language_pair) != 2:
                raise ValueError(f"language_pair should be a list or tuple of length 2, but got "
                                 f"{len(language_pair)}")
            if language_pair not in [["en", "de"], ["de", "en"], ("en", "de"), ("de", "en")]:
                raise ValueError(f"language_pair can only be ['en', 'de'] or ['en', 'de'], but "
                                 f"got {language_pair}")
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        validate_dataset_param_value(["shuffle"], params, bool)
        check_sampler_shuffle_shard_options(params)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        self.language_pair = ["en", "de"] if language_pair is None else list(language_pair)
        src, tgt = self.language_pair
        parts = sorted(self._PARTS) if self.usage == "all" else [self.usage]
        pairs = []
        for part in parts:
            folder, stem = self._PARTS[part]
            pairs.append(tuple(os.path.join(dataset_dir, folder, f"{stem}.{lang}")
                               for lang in (src, tgt)))
        super().__init__(pairs, num_samples, num_parallel_workers,
                         Shuffle.GLOBAL if shuffle is None else shuffle, num_shards, shard_id,
                         cache)

    def lines(self, path):
        if not os.path.isfile(path):
            raise _pipeline_error(f"Invalid file, failed to open file: {path}")
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\r\n") for line in f if line.rstrip("\r\n")]


class CoNLL2000Dataset(_FileCorpus):
    """CoNLL-2000 chunking: train.txt and test.txt in `dataset_dir`; each sentence (lines up
    to an empty line) a row of three string columns: the lines' first, second and third fields split at single spaces ("all" reads test.txt, then
    train.txt). As in MindSpore, a file's rows for counting, sharding and reading in parallel
    are its non-empty lines, and a sentence the file ends in (no empty line after it) is not
    read."""

    op = "CoNLL2000Dataset"
    _NAME = "CoNLL2000"  # MindSpore's name of the dataset in its errors

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        params = dict(locals(), _usages=["train", "test", "all"])
        _text_source_checks(params, shard_options=True)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        parts = ["test", "train"] if self.usage == "all" else [self.usage]
        self._line_count = None
        super().__init__([os.path.join(dataset_dir, f"{part}.txt") for part in parts],
                         ["word", "pos_tag", "chunk_tag"], num_samples, num_parallel_workers,
                         shuffle, num_shards, shard_id, cache)

    def load(self):
        """Each file's lines; its rows, as MindSpore counts and shards them, are its
        non-empty lines (a sentence is made of the rows a reader's range holds)."""
        self._lines, self.file_rows, total = [], [], 0
        for path in self.dataset_files:
            if not os.path.isfile(path):
                raise _pipeline_error(f"Invalid file path, {self._NAME} dataset dir: {path} does "
                                      f"not exist.")
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
            self._lines.append(lines)
            count = sum(1 for line in lines if line)
            self.file_rows.append(np.arange(total, total + count))
            total += count
        self._line_count = total
        return [np.arange(total)]

    def _sentences(self, lines, start, end) -> list[tuple]:
        """The rows MindSpore's reader makes of a file's rows [start, end): a sentence ends at
        an empty line, or at the line after `end`; one the file ends in is dropped."""
        rows, words, total = [], [], 0

        def flush():
            if words:
                rows.append(tuple(np.array([w[i] for w in words], np.str_) for i in range(3)))
            words.clear()

        for line in lines:
            if not line and total < start:
                continue
            if total >= end:
                flush()
                break
            if total < start:
                total += 1
                continue
            line = line.strip()
            if not line:
                flush()
                continue
            words.append(self._fields(line))
            total += 1
        return rows

    def _fields(self, line: str) -> list:
        """A word line's three fields (split at single spaces; missing ones empty)."""
        return (line.split(" ") + ["", ""])[:3]

    def rows(self, state):
        from ..nodes import ROW_FILE

        self.arrays  # noqa: B018  (reads the files)
        rng = state.rng(self)
        sampler = self.sampler
        files = file_order(len(self.dataset_files), self.shuffle_mode, rng, state.next_pass(self),
                           getattr(sampler, "num_shards", None))
        parts = [self.file_rows[k] for k in files]
        if getattr(sampler, "num_shards", None):
            parts = shard_pieces(parts, sampler.num_shards, sampler.shard_id)
        starts = [int(r[0]) if len(r) else 0 for r in self.file_rows]
        owner = np.concatenate([np.full(len(r), k) for k, r in enumerate(self.file_rows)]) \
            if self._line_count else np.zeros(0, np.int64)
        made, pieces = [], []
        for piece in parts:
            if not len(piece):
                continue
            k = int(owner[piece[0]])
            rows = self._sentences(self._lines[k], int(piece[0]) - starts[k],
                                   int(piece[-1]) + 1 - starts[k])
            pieces.append(np.arange(len(made), len(made) + len(rows)))
            made.extend((self.dataset_files[k], row) for row in rows)
        order = worker_order(pieces, self.workers or config.get_num_parallel_workers())
        for index in global_shuffle(self, order, state, rng, self._line_count):
            path, row = made[int(index)]
            ROW_FILE.path = path
            yield row

    def count(self):
        self.arrays  # noqa: B018  (counts the rows)
        total = self._line_count
        shards = getattr(self.sampler, "num_shards", None)
        if shards:
            total = -(-total // shards)
        limit = getattr(self.sampler, "num_samples", None)
        return min(total, limit) if limit else total


# CLUE: per task and usage, each column and the JSON key it is read from ("a/b": nested)
_CLUE_LABELLED = {
    "AFQMC": {"sentence1": "sentence1", "sentence2": "sentence2", "label": "label"},
    "CMNLI": {"sentence1": "sentence1", "sentence2": "sentence2", "label": "label"},
    "TNEWS": {"label": "label", "label_desc": "label_desc", "sentence": "sentence",
              "keywords": "keywords"},
    "IFLYTEK": {"label": "label", "label_des": "label_des", "sentence": "sentence"},
    "WSC": {"span1_index": "target/span1_index", "span2_index": "target/span2_index",
            "span1_text": "target/span1_text", "span2_text": "target/span2_text",
            "idx": "idx", "text": "text", "label": "label"},
    "CSL": {"id": "id", "abst": "abst", "keyword": "keyword", "label": "label"},
}
_CLUE_TEST = {
    "AFQMC": {"id": "id", "sentence1": "sentence1", "sentence2": "sentence2"},
    "CMNLI": {"id": "id", "sentence1": "sentence1", "sentence2": "sentence2"},
    "TNEWS": {"id": "id", "sentence": "sentence", "keywords": "keywords"},
    "IFLYTEK": {"id": "id", "sentence": "sentence"},
    "WSC": {"span1_index": "target/span1_index", "span2_index": "target/span2_index",
            "span1_text": "target/span1_text", "span2_text": "target/span2_text",
            "idx": "idx", "text": "text"},
    "CSL": {"id": "id", "abst": "abst", "keyword": "keyword"},
}


def _clue_value(value):
    """A JSON value as MindSpore's CLUE reader makes it a tensor: an int uint32, a float
    float32, a list of strings a 1-D string tensor, anything else its string."""
    if isinstance(value, bool):
        return np.array(str(value).lower())
    if isinstance(value, int):
        return np.array(value, np.uint32)
    if isinstance(value, float):
        return np.array(value, np.float32)
    if isinstance(value, list):
        return np.array([str(v) for v in value], np.str_)
    return np.array(value)


class CLUEDataset(_FileCorpus):
    """CLUE's JSON-lines files (`dataset_files`, sorted), a record a row; the columns (in name
    order) are the task's and usage's ("train", "eval" or "test")."""

    op = "CLUEDataset"

    @check_arguments
    def __init__(self, dataset_files, task="AFQMC", usage="train", num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        type_check(dataset_files, (str, list), "dataset files")
        if not dataset_files:
            raise ValueError(f"Input dataset_files can not be empty, but got "
                             f"'{dataset_files}'.")
        if task not in ["AFQMC", "TNEWS", "IFLYTEK", "CMNLI", "WSC", "CSL"]:
            raise ValueError("task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or "
                             "'CSL'.")
        if usage not in ["train", "test", "eval"]:
            raise ValueError("usage should be 'train', 'test' or 'eval'.")
        validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                      "shard_id"], params, int)
        check_sampler_shuffle_shard_options(params)
        self.task, self.usage = task, usage
        self._keys = dict(sorted((_CLUE_TEST if usage == "test" else _CLUE_LABELLED)[task]
                                 .items()))
        super().__init__(_file_list(dataset_files, self.op), list(self._keys), num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def read(self, path):
        rows = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    raise _pipeline_error(f"Invalid file, failed to parse json file: "
                                          f"{path}") from None
                row = []
                for key in self._keys.values():
                    value = record
                    for part in key.split("/"):
                        if not isinstance(value, dict) or part not in value:
                            raise _pipeline_error(f"Invalid json file, in given JSON file, "
                                                  f"failed to find key: {part}")
                        value = value[part]
                    row.append(_clue_value(value))
                rows.append(tuple(row))
        return rows


class IMDBDataset(MappableSource):
    """The IMDB reviews: `dataset_dir`/{train,test}/{pos,neg}/*.txt, a file a row with
    columns text (the file's text) and label (int32, 1 pos, 0 neg); usage "train", "test"
    or "all" (train then test), pos before neg, every file of a folder in name order."""

    op = "IMDBDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals(), _usages=["train", "test", "all"])
        _text_source_checks(params)
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        parts = ["train", "test"] if self.usage == "all" else [self.usage]
        self.files = []
        for part in parts:
            for label, name in ((1, "pos"), (0, "neg")):
                folder = os.path.join(dataset_dir, part, name)
                if not os.path.isdir(folder):
                    continue
                for file in sorted(os.listdir(folder)):
                    if os.path.isfile(os.path.join(folder, file)):
                        self.files.append((os.path.join(folder, file), label))
        super().__init__(["text", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    @property
    def num_rows(self):
        return len(self.files)

    def row_at(self, index):
        path, label = self.files[index]
        text = read_file_bytes(path).tobytes().decode("utf-8")
        return np.array(text), np.array(label, np.int32)


class UDPOSDataset(CoNLL2000Dataset):
    """Universal Dependencies English POS tags: en-ud-tag.v2.{train,dev,test}.txt in
    `dataset_dir` (`usage` "train", "valid", "test", or "all": the three in name order); each
    sentence a row of string columns word, universal and stanford (a line's tab-separated
    fields; a line with fewer than three is MindSpore's error). Rows count, shard and read as
    CoNLL2000Dataset's."""

    op = "UDPOSDataset"
    _NAME = "UDPOS"
    _FILES: ClassVar[dict] = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt",
                              "test": "en-ud-tag.v2.test.txt"}

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, num_parallel_workers=None, cache=None):
        params = dict(locals(), _usages=["train", "valid", "test", "all"])
        _text_source_checks(params, shard_options=True)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        names = sorted(self._FILES.values()) if self.usage == "all" else \
            [self._FILES[self.usage]]
        self._line_count = None
        _FileCorpus.__init__(self, [os.path.join(dataset_dir, name) for name in names],
                             ["word", "universal", "stanford"], num_samples,
                             num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _fields(self, line: str) -> list:
        fields = line.split("\t")
        if len(fields) < 3:
            raise _pipeline_error("Invalid file content, each line should contain three columns, "
                                  "representing word, universal and stanford.")
        return fields[:3]


class SQuADDataset(_FileCorpus):
    """SQuAD 1.1 / 2.0: train-v1.1.json, train-v2.0.json (usage "train"), dev-v1.1.json,
    dev-v2.0.json ("dev"; "all": train's then dev's, those that exist) in `dataset_dir`; a row
    per question: context and question (str), the answers' text (str (n,)) and answer_start
    (uint32 (n,)); a question without answers gives [""] and [4294967295] (MindSpore's -1)."""

    op = "SQuADDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        params = dict(locals(), _usages=["train", "dev", "all"])
        _text_source_checks(params, shard_options=True)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        root = os.path.realpath(dataset_dir)
        files = []
        for part in (["train", "dev"] if self.usage == "all" else [self.usage]):
            found = [os.path.join(root, f"{part}-{v}.json") for v in ("v1.1", "v2.0")]
            found = [f for f in found if os.path.isfile(f)]
            if not found:
                raise _pipeline_error(f"Invalid path, failed to find SQuAD {part} data file: "
                                      f"{dataset_dir}")
            files.extend(found)
        super().__init__(files, ["context", "question", "text", "answer_start"], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, cache)

    @staticmethod
    def _node(tree, name):
        if not isinstance(tree, dict) or name not in tree:
            raise _pipeline_error(f"Invalid data, required node not found in JSON: {name}")
        return tree[name]

    def read(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                root = json.load(f)
        except ValueError:
            raise _pipeline_error(f"Invalid file, failed to parse JSON file: {path}") from None
        rows = []
        for data in self._node(root, "data"):
            for paragraph in self._node(data, "paragraphs"):
                context = self._node(paragraph, "context")
                for qa in self._node(paragraph, "qas"):
                    question = self._node(qa, "question")
                    texts, starts = [], []
                    for answer in self._node(qa, "answers"):
                        texts.append(self._node(answer, "text"))
                        starts.append(self._node(answer, "answer_start"))
                    rows.append((np.array(context), np.array(question),
                                 np.array(texts or [""], np.str_),
                                 np.array(starts or [-1], np.int64).astype(np.uint32)))
        return rows
