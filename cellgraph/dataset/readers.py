"""Readers for the on-disk formats people point MindSpore at: MNIST's IDX files, CIFAR's binary
batches and a folder of images per class. Columns and dtypes are MindSpore's: images HWC
uint8, labels uint32 (int32 for ImageFolderDataset)."""
from __future__ import annotations

import glob
import os
from typing import ClassVar

import numpy as np

from cellgraph.primitives.errors import UnsupportedError

from . import _std_shuffle
from .core import config
from .core.validator_helpers import (
    check_dir,
    check_sampler_shuffle_shard_options,
    check_valid_str,
)
from .engine import Dataset, check_num_parallel_workers
from .samplers import Shuffle
from .sources import MappableSource

__all__ = ["Cifar10Dataset", "Cifar100Dataset", "FashionMnistDataset", "ImageFolderDataset",
           "KMnistDataset",
           "MnistDataset", "Shuffle", "TextFileDataset"]

_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4",
               0x0E: ">f8"}


def read_idx(path: str) -> np.ndarray:
    """An IDX file (MNIST's format): magic 0 0 <dtype code> <rank>, big-endian dims, data."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 4 or raw[0] or raw[1] or raw[2] not in _IDX_DTYPES:
        raise ValueError(f"MnistDataset: {path!r} is not an IDX file (bad magic number)")
    rank = raw[3]
    dims = tuple(int(d) for d in np.frombuffer(raw, ">u4", rank, 4))
    data = np.frombuffer(raw, _IDX_DTYPES[raw[2]], offset=4 + 4 * rank)
    if data.size != int(np.prod(dims)):
        raise ValueError(f"MnistDataset: {path!r} holds {data.size} values, its header says "
                         f"{dims}")
    return data.reshape(dims)


def _usage(usage, allowed: tuple, op: str) -> str:
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"{op}: `usage` must be one of {', '.join(allowed)}, got {usage!r}")
    return usage


def _directory(path, op: str) -> str:
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise ValueError(f"{op}: `dataset_dir` {path!r} is not a directory")
    return path


class _ArraySource(MappableSource):
    """A reader that loads its files into arrays, one per column, on first use."""

    def __init__(self, names, sampling):
        check_sampler_shuffle_shard_options(sampling)  # MindSpore's file sources check first
        self._arrays = None
        super().__init__(names, **sampling)

    def load(self) -> list[np.ndarray]:
        raise NotImplementedError

    @property
    def arrays(self):
        if self._arrays is None:
            self._arrays = self.load()
        return self._arrays

    @property
    def num_rows(self):
        return len(self.arrays[0])

    def row_at(self, index):
        return tuple(a[index] for a in self.arrays)


class MnistDataset(_ArraySource):
    """MNIST (or Fashion-MNIST) IDX files: columns image (28, 28, 1) uint8 and label uint32.

    The files are found as MindSpore finds them: the names holding "<prefix>-images" and
    "idx3-ubyte" (labels: "<prefix>-labels", "idx1-ubyte"), prefix "train" or "t10k" for one
    usage and none for "all", paired in sorted order (so "all" reads the test part first)."""

    op = "MnistDataset"
    _NAME = "mnist"  # what MindSpore's messages call it
    _FILES: ClassVar[dict] = {"train": "train", "test": "t10k", "all": ""}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "all"], "usage")
        check_num_parallel_workers(num_parallel_workers)
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        super().__init__(["image", "label"], {
            "num_samples": num_samples, "shuffle": shuffle, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})

    def _files(self) -> tuple[list, list]:
        prefix, images, labels = self._FILES[self.usage], [], []
        for name in sorted(os.listdir(self.dataset_dir)):
            path = os.path.join(os.path.realpath(self.dataset_dir), name)
            if f"{prefix}-images" in name and "idx3-ubyte" in name:
                images.append(path)
            elif f"{prefix}-labels" in name and "idx1-ubyte" in name:
                labels.append(path)
        if len(images) != len(labels):
            raise RuntimeError(f"Invalid {self._NAME} file, num of images "
                               f"should be equal to num of labels, but got num of images: "
                               f"{len(images)}, num of labels: {len(labels)}.")
        return images, labels

    def load(self):
        images, labels = [], []
        self._row_files = []  # (first row, images file) of each part
        for image_file, label_file in zip(*self._files()):
            self._row_files.append((sum(len(i) for i in images), image_file))
            images.append(read_idx(image_file)[..., None])
            labels.append(read_idx(label_file).astype(np.uint32))
            if len(images[-1]) != len(labels[-1]):
                raise ValueError(f"{self.op}: {image_file!r} has {len(images[-1])} images "
                                 f"but {label_file!r} has {len(labels[-1])} labels")
        if not images:
            return [np.zeros((0, 28, 28, 1), np.uint8), np.zeros(0, np.uint32)]
        return [np.concatenate(images), np.concatenate(labels)]

    def row_at(self, index):
        """The row, noting the images file it came from (a map's error names it)."""
        from .nodes import ROW_FILE

        row = super().row_at(index)
        ROW_FILE.path = next(path for first, path in reversed(self._row_files)
                             if first <= index)
        return row


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST, which ships in MNIST's IDX files and names: the same columns."""

    op = "FashionMnistDataset"
    _NAME = "fashion mnist"


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST, which ships in MNIST's IDX files and names: the same columns."""

    op = "KMnistDataset"
    _NAME = "kmnist"


class _CifarDataset(_ArraySource):
    """CIFAR binary batches: per record the label byte(s), then 3072 bytes of 32x32 RGB in
    channel-major order, given out as HWC."""

    label_bytes = 1
    files: ClassVar[dict] = {}

    def __init__(self, dataset_dir, usage, names, sampling):
        self.dataset_dir = _directory(dataset_dir, self.op)
        self.usage = _usage(usage, ("train", "test", "all"), self.op)
        super().__init__(names, sampling)

    def load(self):
        parts = ("train", "test") if self.usage == "all" else (self.usage,)
        record = self.label_bytes + 3072
        chunks = []
        for part in parts:
            for name in self.files[part]:
                path = os.path.join(self.dataset_dir, name)
                if not os.path.isfile(path):
                    raise ValueError(f"{self.op}: no file {name} in {self.dataset_dir!r}")
                raw = np.fromfile(path, np.uint8)
                if raw.size % record:
                    raise ValueError(f"{self.op}: {path!r} is {raw.size} bytes, not a whole "
                                     f"number of {record}-byte records")
                chunks.append(raw.reshape(-1, record))
        records = np.concatenate(chunks)
        images = records[:, self.label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        labels = [records[:, i].astype(np.uint32) for i in range(self.label_bytes)]
        return [np.ascontiguousarray(images)] + labels


class Cifar10Dataset(_CifarDataset):
    """CIFAR-10 binary version: columns image (32, 32, 3) uint8 and label uint32."""

    op = "Cifar10Dataset"
    files: ClassVar[dict] = {"train": [f"data_batch_{i}.bin" for i in range(1, 6)],
                             "test": ["test_batch.bin"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        check_num_parallel_workers(num_parallel_workers)
        super().__init__(dataset_dir, usage, ["image", "label"], {
            "num_samples": num_samples, "shuffle": shuffle, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})


class Cifar100Dataset(_CifarDataset):
    """CIFAR-100 binary version: columns image, coarse_label and fine_label."""

    op = "Cifar100Dataset"
    label_bytes = 2
    files: ClassVar[dict] = {"train": ["train.bin"], "test": ["test.bin"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        check_num_parallel_workers(num_parallel_workers)
        super().__init__(dataset_dir, usage, ["image", "coarse_label", "fine_label"], {
            "num_samples": num_samples, "shuffle": shuffle, "sampler": sampler,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})


_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".gif", ".ppm",
                     ".JPEG", ".JPG", ".PNG")


class ImageFolderDataset(MappableSource):
    """One sub-folder per class: columns image (the file's bytes, or the decoded HWC RGB image
    with `decode=True`) and label int32 (sorted folder names, or `class_indexing`)."""

    op = "ImageFolderDataset"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        check_num_parallel_workers(num_parallel_workers)
        if decrypt is not None:  # a function that decrypts each image file
            raise UnsupportedError(f"{self.op}: decrypt={decrypt!r} is not supported")
        root = _directory(dataset_dir, self.op)
        classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
        if class_indexing is None:
            class_indexing = {name: i for i, name in enumerate(classes)}
        self.class_indexing = dict(class_indexing)
        suffixes = tuple(extensions) if extensions else _IMAGE_EXTENSIONS
        self.files = []
        for name in classes:
            if name not in self.class_indexing:
                continue
            folder = os.path.join(root, name)
            for file in sorted(os.listdir(folder)):
                if file.endswith(suffixes):
                    self.files.append((os.path.join(folder, file), self.class_indexing[name]))
        self.decode = bool(decode)
        super().__init__(["image", "label"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    @property
    def num_rows(self):
        return len(self.files)

    def get_class_indexing(self) -> dict:
        return dict(self.class_indexing)

    def num_classes(self) -> int:
        """The number of classes: the entries of `class_indexing`, or the class folders."""
        return len(self.class_indexing)

    def row_at(self, index):
        path, label = self.files[index]
        image = np.fromfile(path, np.uint8)
        if self.decode:
            from .vision.transforms import Decode

            image = Decode()(image)
        return image, np.array(label, np.int32)


def _file_list(dataset_files, op: str) -> list[str]:
    if isinstance(dataset_files, str) and not dataset_files:  # MindSpore's words
        raise ValueError("Input dataset_files can not be empty, but got ''.")
    patterns = [dataset_files] if isinstance(dataset_files, (str, os.PathLike)) else \
        list(dataset_files)
    files, unmatched = [], []
    for pattern in patterns:
        found = [f for f in glob.glob(os.fspath(pattern)) if not os.path.isdir(f)]
        if not found:
            unmatched.append(os.fspath(pattern))
        files.extend(found)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return sorted(files)  # MindSpore reads the files in lexicographic order


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


def file_order(count: int, mode, rng, epoch: int, shards) -> list[int]:
    """The order a file source reads its files in pass `epoch` over it (a repeat's pass counts
    as an epoch's, as MindSpore resets the reader for each). Shuffle.FILES and GLOBAL shuffle
    them: once a dataset seed is set, as MindSpore does (each pass std::shuffles the last
    order again, with std::mt19937 seeded by the seed, or by the pass's number 1, 2, ... when
    sharded); without one, by the pipeline's generator (FILES only)."""
    files = list(range(count))
    if mode not in (Shuffle.FILES, Shuffle.GLOBAL):
        return files
    seed = config.mindspore_seed()
    if seed is None:
        return [files[i] for i in rng.permutation(count)] if mode is Shuffle.FILES else files
    for e in range(epoch + 1):
        _std_shuffle.shuffle(files, _std_shuffle.Mt19937Words(seed if not shards or shards == 1
                                                              else e + 1))
    return files


def global_shuffle(source, order, state, rng, num_rows: int):
    """The rows of a file source with Shuffle.GLOBAL, and its num_samples limit. Once a dataset
    seed is set, as MindSpore orders them: the first num_samples rows read go through its
    buffer shuffle (std::mt19937_64 seeded by the seed, kept over epochs), of min(4 x the rows
    per file (a shard's), 10000) rows; without one, a permutation by the pipeline's
    generator."""
    sampler = source.sampler
    if source.shuffle_mode is not Shuffle.GLOBAL:
        return sampler._limit(order)
    seed = config.mindspore_seed()
    if seed is None:
        return sampler._limit(rng.permutation(order))
    shards = getattr(sampler, "num_shards", None) or 1
    per_file = -(-num_rows // shards) // max(1, len(source.dataset_files))
    size = min(per_file * 4, 10000) if per_file else 10000
    words = state.keep(source, lambda: _std_shuffle.Mt19937x64(seed))
    return _std_shuffle.buffer_shuffle(list(sampler._limit(order)), size, words)


class TextFileDataset(_ArraySource):
    """The lines of text files, one row each, in the column `text` (strings, the line ending
    removed); `shuffle` is a Shuffle mode or a bool (True: GLOBAL)."""

    op = "TextFileDataset"

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        check_num_parallel_workers(num_parallel_workers)
        self._start(_file_list(dataset_files, self.op), num_samples, num_parallel_workers,
                    shuffle, num_shards, shard_id, cache)

    def _start(self, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id,
               cache) -> None:
        """Read `files` (checked by the caller) with the shuffle mode and sampling given."""
        self.dataset_files = files
        if shuffle is Shuffle.FALSE:
            shuffle = False
        if shuffle in (Shuffle.ADAPTIVE, Shuffle.PARTIAL):
            from cellgraph.primitives.errors import UnsupportedError

            raise UnsupportedError(f"{self.op}: {shuffle} (a MindRecord shuffle mode) is not "
                                   f"supported for file sources; use Shuffle.GLOBAL, FILES or "
                                   f"INFILE")
        if shuffle is True:
            shuffle = Shuffle.GLOBAL
        if shuffle is not False and not isinstance(shuffle, Shuffle):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                            "'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                            "'Shuffle.FILES' or 'Shuffle.INFILE'.")
        self.shuffle_mode, self.workers = shuffle, num_parallel_workers
        super().__init__(["text"], {
            "num_samples": num_samples, "shuffle": shuffle is Shuffle.GLOBAL,
            "num_shards": num_shards, "shard_id": shard_id, "cache": cache})
        self._epoch_rng = None

    keep_empty_lines = False  # MindSpore's TextFileDataset skips them

    def split(self, sizes, randomize=True):
        """Split as MindSpore splits a source it reads in file order, without random access
        (runs of the rows as read, or of a shuffle of them: `Dataset.split`)."""
        return Dataset.split(self, sizes, randomize)

    def load(self):
        """The files' lines as MindSpore reads them: split at "\n" only (a "\r" kept), the
        empty ones skipped (kept where `keep_empty_lines`). A line that is not UTF-8 is a row
        too: reading it is MindSpore's error (`_undecodable` holds it by row)."""
        lines = []
        self.file_rows, self._undecodable = [], {}
        for path in self.dataset_files:
            with open(path, "rb") as f:
                raw = f.read().split(b"\n")
            if raw and raw[-1] == b"":
                raw.pop()  # the end of the last line, not a line
            if not self.keep_empty_lines:
                raw = [line for line in raw if line]
            for i, line in enumerate(raw):
                try:
                    raw[i] = line.decode("utf-8")
                except UnicodeDecodeError as error:
                    self._undecodable[len(lines) + i] = error
                    raw[i] = ""
            self.file_rows.append(np.arange(len(lines), len(lines) + len(raw)))
            lines.extend(raw)
        return [np.array(lines, dtype=np.str_)]

    def row_at(self, index):
        """The row, noting the file it came from (a map's error names it)."""
        from .nodes import ROW_FILE

        starts = getattr(self, "_file_starts", None)
        if starts is None:
            self.arrays  # noqa: B018  (loads the files, which sets file_rows)
            starts = self._file_starts = np.cumsum([len(r) for r in self.file_rows])
        ROW_FILE.path = self.dataset_files[int(np.searchsorted(starts, index, side="right"))]
        error = getattr(self, "_undecodable", {}).get(index)  # (set by this class's load)
        if error is not None:
            raise RuntimeError(f"Exception thrown from dataset pipeline. Refer to 'Dataset "
                               f"Pipeline Error Message'. \n\n- Dataset Pipeline Error Message: "
                               f"\n[ERROR] Failed to cast to Unicode string: "
                               f"{type(error).__name__}: {error}")
        return super().row_at(index)

    def rows(self, state):
        self.arrays  # noqa: B018  (loads the files, which sets file_rows)
        rng = state.rng(self)
        sampler = self.sampler
        files = file_order(len(self.file_rows), self.shuffle_mode, rng, state.next_pass(self),
                           getattr(sampler, "num_shards", None))
        parts = [self.file_rows[k] for k in files]
        if self.shuffle_mode is Shuffle.INFILE:
            parts = [rng.permutation(p) for p in parts]
        if getattr(sampler, "num_shards", None):
            parts = shard_pieces(parts, sampler.num_shards, sampler.shard_id)
        workers = self.workers or config.get_num_parallel_workers()
        order = worker_order(parts, workers)
        for index in global_shuffle(self, order, state, rng, self.num_rows):
            yield self.row_at(int(index))

    def count(self):
        total = self.num_rows
        shards = getattr(self.sampler, "num_shards", None)
        if shards:
            total = -(-total // shards)
        limit = getattr(self.sampler, "num_samples", None)
        return min(total, limit) if limit else total


