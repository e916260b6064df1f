"""The dataset pipeline: a chain of nodes, each a lazy iterable of rows.

A row is a tuple of column values (NumPy arrays). Every node knows its column names and, where
that is cheap, how many rows one epoch holds. Iterating runs the chain for one epoch with an
`EpochState` that gives each random node its own generator (seeded by `dataset.config`), so
epochs reshuffle and seeded pipelines repeat. Iterators (iterators.py) run the chain in a
worker thread that prepares the next rows while the training step computes.
"""
from __future__ import annotations

import inspect
import itertools
import multiprocessing
import numbers
import threading
import weakref
from collections.abc import Iterator

import numpy as np

from ..core import config
from ..core.arguments import record_arguments
from ..core.validator_helpers import (
    INT32_MAX,
    check_independent_mode,
    check_value,
    type_check,
)

__all__ = ["Dataset"]


class EpochState:
    """What one pass over a pipeline shares: the epoch number and one generator per node."""

    def __init__(self):
        self.epoch = 0
        # NumPy generators and C++ ops' engines, in the order the nodes asked
        self._rngs: dict = {}
        self._pending: list = []  # states for the next generators made (a resumed pass)
        self._kept: dict[int, object] = {}
        self._end_hooks: list = []  # what an epoch's end tells (the maps' dataset callbacks)
        self.runs_callbacks = False  # an iterator's pass runs the maps' dataset callbacks
        self._passes: dict[int, int] = {}  # passes begun over each source (samplers' draws)
        # the worker of the map calling its operations now: MindSpore's map gives each of its
        # workers its own C++ ops, seeded with the dataset seed plus the worker's index
        self.worker = 0
        self._pending_passes: list = []  # counts for the next sources counted (a resumed pass)

    def keep(self, node, make):
        """An object of `node`'s that lives as long as this pass (made by `make` on first use):
        a generator that goes on over epochs and repeats."""
        if id(node) not in self._kept:
            self._kept[id(node)] = make()
        return self._kept[id(node)]

    def rng(self, node) -> np.random.Generator:
        gen = self._rngs.get(id(node))
        if gen is None:
            gen = self._rngs[id(node)] = config.pass_rng(len(self._rngs) + 1)
            if self._pending:
                gen.bit_generator.state = self._pending.pop(0)
        return gen

    def words(self, node, make):
        """The `std::mt19937` engine (`_std_shuffle.Mt19937Words`) of a transform that draws
        as MindSpore's C++ ops do, the calling map worker's copy, made by `make(worker)` on
        first use: MindSpore makes its C++ ops, seeded, whenever an iterator builds the
        pipeline, so each pass starts them afresh and keeps them over its epochs and repeats."""
        # apart from the node's NumPy generator, if it has both
        key = ("words", id(node), self.worker)
        engine = self._rngs.get(key)
        if engine is None:
            engine = self._rngs[key] = make(self.worker)
            if self._pending:
                engine.state = self._pending.pop(0)
        return engine

    def rng_states(self) -> list:
        """The generators' states, in the order the nodes first asked for theirs (the same
        order in every pass over the same pipeline)."""
        return [gen.bit_generator.state if isinstance(gen, np.random.Generator) else gen.state
                for gen in self._rngs.values()]

    def on_epoch_end(self, hook) -> None:
        """Call `hook()` whenever a pass over the pipeline delivers its epoch's last row."""
        if hook not in self._end_hooks:
            self._end_hooks.append(hook)

    def epoch_ended(self) -> None:
        for hook in list(self._end_hooks):
            hook()

    def next_pass(self, node) -> int:
        """The number of passes over `node` begun before this one (epochs and repeats
        together), counted from the restored counts when the pass was resumed."""
        if id(node) not in self._passes:
            self._passes[id(node)] = self._pending_passes.pop(0) if self._pending_passes else 0
        number = self._passes[id(node)]
        self._passes[id(node)] = number + 1
        return number

    def pass_counts(self) -> list:
        """The pass counts, in the order the sources were first counted."""
        return list(self._passes.values())

    def restore_pass_counts(self, counts) -> None:
        """The sources a pass over the same pipeline counts next start from `counts`."""
        if self._passes:
            raise RuntimeError("dataset: the pass has begun; its counts cannot be reset")
        self._pending_passes = list(counts)

    def restore_rng_states(self, states) -> None:
        """The generators a pass over the same pipeline makes next take `states` in turn."""
        if self._rngs:
            raise RuntimeError("dataset: the pass has begun; its generators cannot be reset")
        self._pending = list(states)


_PASS = threading.local()  # the pass whose map is calling its operations, in this thread


def current_pass() -> EpochState | None:
    """The pass a random transform called now draws for (its generator is the pass's), or
    None for a call outside a pipeline."""
    return getattr(_PASS, "state", None)


def calling_for(state: EpochState, function):
    """`function` wrapped so that while it runs `current_pass()` is `state`."""
    def call(*args):
        outer = getattr(_PASS, "state", None)
        _PASS.state = state
        try:
            return function(*args)
        finally:
            _PASS.state = outer

    return call


def at_home(module: str, *classes) -> None:
    """Give `classes` MindSpore's module path (`mindspore.dataset.engine.datasets_vision`...):
    the module a program sees in `type(data)` and pickle finds them by. Each module of
    MindSpore's engine calls it for the classes it holds."""
    for cls in classes:
        cls.__module__ = module


def check_num_parallel_workers(value) -> None:
    """MindSpore's check of a `num_parallel_workers` given to a source, map or batch: an int
    (not a bool) from 1 to the machine's CPU count; None takes the configured default."""
    if value is None:
        return
    if isinstance(value, bool):
        raise TypeError(f"Argument num_parallel_workers with value {value} is not of type "
                        f"(<class 'int'>,), but got <class 'bool'>.")
    if not isinstance(value, int):
        raise TypeError(f"Argument num_parallel_workers with value {value} is not of type "
                        f"[<class 'int'>], but got {type(value)}.")
    cpus = multiprocessing.cpu_count()
    if value < 1 or value > cpus:
        raise ValueError(f"num_parallel_workers exceeds the boundary between 1 and {cpus}!")


def _check_count(value, op: str, name: str, allow_all=False) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or (
            value <= 0 and not (allow_all and value == -1)):
        raise ValueError(f"{op}: `{name}` must be a positive int"
                         f"{' or -1' if allow_all else ''}, got {value!r}")
    return int(value)


def column_list(columns, op: str, name: str) -> list[str] | None:
    if columns is None:
        return None
    columns = [columns] if isinstance(columns, str) else list(columns)
    if not columns or not all(isinstance(c, str) and c for c in columns):
        raise ValueError(f"{op}: `{name}` must be a column name or a list of them, got "
                         f"{columns!r}")
    if len(set(columns)) != len(columns):
        raise ValueError(f"{op}: `{name}` lists a column twice: {columns}")
    return columns



def _check_batch_size(batch_size) -> None:
    """MindSpore's check of a batch size: an int (True counts as 1) in [1, 2**31 - 1] or -1
    (refused when the rows are read: it needs a batch sampler), or a callable of one
    parameter (the BatchInfo)."""
    if not (isinstance(batch_size, int) or callable(batch_size)):
        raise TypeError("batch_size should either be an int or a callable.")
    if callable(batch_size):
        try:
            takes = len(inspect.signature(batch_size).parameters)
        except (TypeError, ValueError):
            takes = 1
        if takes != 1:
            raise ValueError("callable batch_size should take one parameter (BatchInfo).")
    elif batch_size != -1:
        check_value(int(batch_size), [1, INT32_MAX], "batch_size")


def _check_columns(columns, name: str) -> None:
    """MindSpore's check of a list of column names: non-empty strings, none repeated."""
    type_check(columns, (list, str), name)
    if isinstance(columns, str):
        if not columns:
            raise ValueError(f"{name} should not be an empty str.")
        return
    if not columns:
        raise ValueError(f"{name} should not be empty.")
    for i, column in enumerate(columns):
        if not column:
            raise ValueError(f"{name}[{i}] should not be empty.")
        type_check(column, (str,), f"{name}[{i}]")
    if len(set(columns)) != len(columns):
        raise ValueError("Every column name should not be same with others in column_names.")


def _check_pad_entry(key, value) -> None:
    """MindSpore's check of one pad_info entry: column -> (shape list or None, value)."""
    type_check(key, (str,), "key in pad_info")
    if value is None:
        return
    if len(value) != 2:
        raise ValueError("value of pad_info should be a tuple of size 2.")
    type_check(value, (tuple,), "value in pad_info")
    if value[0] is not None:
        type_check(value[0], (list,), "shape in pad_info")
        for dim in value[0]:
            if dim is not None:
                type_check(dim, (int,), "dim of shape in pad_info")
                check_value(dim, [1, INT32_MAX], "dim of shape in pad_info")
    if value[1] is not None:
        type_check(value[1], (int, float, str, bytes), "pad_value")


def _keywords(method: str, given: dict, **defaults) -> dict:
    """The keyword options of a pipeline method: `defaults` updated by `given`; a name not
    among them is a TypeError, as a misspelt keyword is in MindSpore."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise TypeError(f"Dataset.{method}() got an unexpected keyword argument {unknown[0]!r}")
    return {**defaults, **given}

def consumers(node) -> list:
    """Weak references to the nodes built on `node`, one per node (MindSpore's `parent`
    list). A consumer that was collected still counts, as in MindSpore."""
    return node.__dict__.setdefault("parent", [])


def check_tree(root) -> None:
    """MindSpore's check before a pipeline runs or answers a question about its rows: below
    `root`, each node feeds one consumer only. A node zipped or concatenated with itself, or
    one that two pipelines were built on, feeds two; MindSpore refuses it (`root` itself may
    feed others: it is run on its own). A split part reads a copy of the node it split, which
    keeps the consumers that node had then, as MindSpore's copy does, and adds the part's."""
    todo = [(child, root) for child in root.children]
    seen = set()
    while todo:
        node, user = todo.pop()
        count = user.copied_consumers + 1 if user.copies_children else len(consumers(node))
        if count > 1:
            raise ValueError("The data pipeline is not a tree (i.e., one node has 2 consumers)")
        if id(node) in seen:
            continue
        seen.add(id(node))
        todo.extend((child, node) for child in node.children)


def _check_max_rowsize(max_rowsize) -> None:
    """MindSpore's check of map's max_rowsize: None, an int in [-1, INT32_MAX] or a list of
    two such (input and output rows)."""
    if max_rowsize is None:
        return
    type_check(max_rowsize, (int, list), "max_rowsize")
    if isinstance(max_rowsize, int):
        check_value(max_rowsize, [-1, INT32_MAX], "max_rowsize")
    elif len(max_rowsize) == 2:
        for index, value in enumerate(max_rowsize):
            type_check(value, (int,), f"max_rowsize[{index}]")
            check_value(value, [-1, INT32_MAX], f"max_rowsize[{index}]")
    else:
        raise TypeError("max_rowsize should be a single integer or a list[in_rowsize, "
                        "out_rowsize] of length 2.")


def _column_shape(value) -> list[int]:
    """A column value's shape as MindSpore reports it: a Python dict's is [0]."""
    return [0] if isinstance(value, dict) else list(np.shape(value))


class Dataset:
    """Base of every pipeline node: the pipeline methods and the iterators."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        record_arguments(cls)  # what `serialize` writes a source with

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        if cache is not None:
            raise NotImplementedError(f"{type(self).__name__}: a `cache` given to the "
                                      f"constructor is not supported; use the source's `cache`")
        self.children = tuple(children or ())
        self.num_parallel_workers = num_parallel_workers
        consumers(self)
        if not self.copies_children:
            for child in self.children:
                consumers(child).append(weakref.ref(self))

    #: a node that reads a copy of its children (a split's part) is none of their consumers;
    #: `copied_consumers` is the number the child had when it was copied
    copies_children = False
    copied_consumers = 0

    # -- what a node defines ------------------------------------------------------------------
    @property
    def column_names(self) -> list[str]:
        return self.children[0].column_names

    def rows(self, state: EpochState) -> Iterator[tuple]:
        raise NotImplementedError

    def count(self) -> int | None:
        """Rows per epoch, or None when only iterating can tell."""
        return self.children[0].count() if self.children else None

    def sync_notifiers(self) -> dict:
        """condition name -> the ReleasePair of each `sync_wait` upstream."""
        found: dict = {}
        for child in self.children:
            found.update(child.sync_notifiers())
        return found

    # -- pipeline methods ---------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, **kwargs):
        """Apply `operations` (a callable or a list, run in order) to `input_columns`; the
        results become `output_columns` (default: the input columns' names). Keywords as
        MindSpore's: python_multiprocessing, max_rowsize, cache, callbacks, offload (and
        MindSpore 1.x's column_order, which orders the columns as `project` does)."""
        from ..nodes import MapDataset

        check_num_parallel_workers(num_parallel_workers)
        options = _keywords("map", kwargs, python_multiprocessing=False, max_rowsize=None,
                            cache=None, callbacks=None, offload=None, column_order=None)
        type_check(options["python_multiprocessing"], (bool,), "python_multiprocessing")
        if options["cache"] is not None:
            check_independent_mode("Dataset Cache")
        _check_max_rowsize(options["max_rowsize"])
        if options["offload"] is not None:
            type_check(options["offload"], (bool,), "offload")
            check_independent_mode("Dataset Offload", options["offload"])
        callbacks = options["callbacks"]
        if callbacks is not None:  # DSCallback hooks around each step of the map
            from ..callback import DSCallback
            from ..core.validator_helpers import type_check_list

            if isinstance(callbacks, (list, tuple)):
                type_check_list(callbacks, (DSCallback,), "callbacks")
            else:
                type_check(callbacks, (DSCallback,), "callbacks")
            check_independent_mode("Dataset Callbacks")
            callbacks = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
        mapped = MapDataset(self, operations, input_columns, output_columns,
                            options["column_order"], callbacks)
        mapped.num_parallel_workers = num_parallel_workers
        mapped.offload = options["offload"]
        cache = options["cache"]
        return mapped if cache is None else cache.over(mapped)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Stack `batch_size` rows into one (an int, or a callable given the BatchInfo that
        gives each batch's size); the last, smaller batch is dropped if `drop_remainder`.
        Keywords as MindSpore's: per_batch_map, input_columns, output_columns,
        python_multiprocessing, max_rowsize (MindSpore 2's batch refuses 1.x's `pad_info` and
        `column_order`: `padded_batch` pads, `project` orders)."""
        from ..nodes import BatchDataset

        options = _keywords("batch", kwargs, per_batch_map=None, input_columns=None,
                            output_columns=None, python_multiprocessing=False,
                            max_rowsize=None)
        _check_batch_size(batch_size)
        check_num_parallel_workers(num_parallel_workers)
        type_check(drop_remainder, (bool,), "drop_remainder")
        _check_max_rowsize(options["max_rowsize"])
        per_batch_map, input_columns = options["per_batch_map"], options["input_columns"]
        for name in ("input_columns", "output_columns"):  # MindSpore's check and words
            if options[name] is not None:
                type_check(options[name], (list, str), name)
        if input_columns is not None and per_batch_map is None:
            raise ValueError("input_columns can be specified only when per_batch_map is set.")
        if input_columns is not None and callable(per_batch_map):
            count = len([input_columns] if isinstance(input_columns, str) else input_columns)
            try:
                takes = len(inspect.signature(per_batch_map).parameters)
            except (TypeError, ValueError):
                takes = count + 1
            if count != takes - 1:
                raise ValueError("The signature of per_batch_map should match with input "
                                 "columns.")
        if options["python_multiprocessing"] is not None:
            type_check(options["python_multiprocessing"], (bool,), "python_multiprocessing")
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            per_batch_map, input_columns, options["output_columns"],
                            options["python_multiprocessing"], options["max_rowsize"])

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        """Batch rows of similar length together: see nodes.BucketBatchByLengthDataset."""
        from ..nodes import BucketBatchByLengthDataset

        for name, value in (("column_names", column_names),
                            ("bucket_boundaries", bucket_boundaries),
                            ("bucket_batch_sizes", bucket_batch_sizes)):
            type_check(value, (list,), name)
        type_check(pad_to_bucket_boundary, (bool,), "pad_to_bucket_boundary")
        type_check(drop_remainder, (bool,), "drop_remainder")
        _check_columns(column_names, "column_names")
        if element_length_function is None and len(column_names) != 1:
            raise ValueError("If element_length_function is not specified, exactly one column "
                             "name should be passed.")
        if element_length_function is not None and not callable(element_length_function):
            raise TypeError("element_length_function object is not callable.")
        if not bucket_boundaries:
            raise ValueError("bucket_boundaries cannot be empty.")
        if not all(isinstance(b, int) for b in bucket_boundaries):
            raise TypeError("bucket_boundaries should be a list of int.")
        if not all(b > 0 for b in bucket_boundaries):
            raise ValueError("bucket_boundaries must only contain positive numbers.")
        if any(b >= c for b, c in itertools.pairwise(bucket_boundaries)):
            raise ValueError("bucket_boundaries should be strictly increasing.")
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError("bucket_batch_sizes must contain one element more than "
                             "bucket_boundaries.")
        if not all(isinstance(b, int) for b in bucket_batch_sizes):
            raise TypeError("bucket_batch_sizes should be a list of int.")
        if not all(b > 0 for b in bucket_batch_sizes):
            raise ValueError("bucket_batch_sizes should be a list of positive numbers.")
        if pad_info is not None:
            type_check(pad_info, (dict,), "pad_info")
            for key, value in pad_info.items():
                _check_pad_entry(key, value)
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                          bucket_batch_sizes, element_length_function,
                                          pad_info, pad_to_bucket_boundary, drop_remainder)

    def apply(self, apply_func):
        """The dataset `apply_func(self)` gives (it must give a Dataset)."""
        if not callable(apply_func):
            raise TypeError("apply_func must be a function.")
        dataset = apply_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return dataset

    def build_sentencepiece_vocab(self, columns, vocab_size, character_coverage, model_type,
                                  params):
        """A text.SentencePieceVocab trained on this dataset's `columns` (the first of them)."""
        from ..text.sentencepiece import SentencePieceVocab

        return SentencePieceVocab.from_dataset(self, columns, vocab_size, character_coverage,
                                               model_type, params)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """Batch rows of different shapes: each column in `pad_info` ({column: (shape,
        value)}) is padded at the end to `shape` (None, or a None axis: the longest in the
        batch) with `value` (None: 0), every other column to the longest with 0. Without
        `pad_info` nothing is padded."""
        from ..nodes import BatchDataset

        _check_batch_size(batch_size)
        check_num_parallel_workers(num_parallel_workers)
        type_check(drop_remainder, (bool,), "drop_remainder")
        return BatchDataset(self, batch_size, drop_remainder,
                            num_parallel_workers)._padding(pad_info)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which `predicate(*input_columns)` (all columns by default) is
        true."""
        from ..nodes import FilterDataset

        check_num_parallel_workers(num_parallel_workers)
        return FilterDataset(self, predicate, input_columns)

    def shuffle(self, buffer_size):
        """Shuffle through a buffer of `buffer_size` rows (a full shuffle when it holds the
        whole dataset); every epoch shuffles anew."""
        from ..nodes import ShuffleDataset

        type_check(buffer_size, (int,), "buffer_size")
        check_value(buffer_size, [2, INT32_MAX], "buffer_size")
        if self.sync_notifiers():  # a sync_wait upstream (MindSpore's check)
            raise RuntimeError("No shuffle after sync operators.")
        return ShuffleDataset(self, int(buffer_size))

    def repeat(self, count=None):
        """The dataset `count` times over (None or -1: without end)."""
        from ..nodes import RepeatDataset

        if count is None or count == -1:
            return RepeatDataset(self, None)
        return RepeatDataset(self, _check_count(count, "repeat", "count"))

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Block the pipeline after `num_batch` batches until `sync_update(condition_name)`;
        `callback(data)` runs at each update."""
        from ..nodes import SyncWaitDataset

        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Let `num_batch` more batches (default: sync_wait's) through `condition_name`'s
        sync_wait, calling its callback with `data`. A wrong argument stops every sync_wait of
        the pipeline from blocking, then raises, as in MindSpore."""
        check_independent_mode("Dataset sync update")
        if isinstance(num_batch, bool) or (num_batch is not None and (
                not isinstance(num_batch, numbers.Integral) or num_batch <= 0)):
            self.disable_sync()
            raise RuntimeError(f"Sync_update batch size can only be positive integer, got: "
                               f"{num_batch}.")
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name} is not of "
                            f"type str, but got {type(condition_name)}.")
        notifiers = self.sync_notifiers()
        if condition_name not in notifiers:
            self.disable_sync()
            raise RuntimeError(f"Condition name not found. (sync_update: {condition_name!r} "
                               f"names no sync_wait of the pipeline)")
        rows = None if num_batch is None else int(num_batch) * self.get_batch_size()
        notifiers[condition_name].release(rows, data)

    def disable_sync(self):
        """Stop every sync_wait of the pipeline from blocking."""
        for pair in self.sync_notifiers().values():
            pair.disable()

    def project(self, columns):
        """Keep only `columns`, in that order."""
        from ..nodes import ProjectDataset

        return ProjectDataset(self, column_list(columns, "project", "columns"))

    def rename(self, input_columns, output_columns):
        from ..nodes import RenameDataset

        return RenameDataset(self, column_list(input_columns, "rename", "input_columns"),
                             column_list(output_columns, "rename", "output_columns"))

    def take(self, count=-1):
        """The first `count` rows (-1: all)."""
        from ..nodes import TakeDataset

        type_check(count, (int,), "count")
        if count != -1 and not 0 < count <= INT32_MAX:  # MindSpore's words
            raise ValueError(f"count should be either -1 or within the required interval of "
                             f"(0, {INT32_MAX}], got {count}.")
        return self if count == -1 else TakeDataset(self, count)

    def skip(self, count):
        """All rows but the first `count`."""
        from ..nodes import SkipDataset

        type_check(count, (int,), "count")  # MindSpore's checks and words
        check_value(count, (0, INT32_MAX), "count")
        return SkipDataset(self, int(count))

    def split(self, sizes, randomize=True):
        """Disjoint datasets of the given sizes (row counts, or fractions that sum to 1), as
        MindSpore splits a dataset without random access: consecutive runs of the rows, or
        with `randomize`, of the rows as one shuffle orders them (the same in every epoch):
        MindSpore's buffer shuffle of 10000 rows once a dataset seed is set, else a
        permutation all the parts share. A sharded dataset is refused, as in MindSpore."""
        from .. import _std_shuffle
        from ..nodes import SubsetNode

        if self.is_sharded():
            raise RuntimeError("Dataset should not be sharded before split.")
        total = self.get_dataset_size()
        counts = _split_counts(sizes, total)
        order = np.arange(total)
        if randomize:
            seed = config.mindspore_seed()
            order = config.new_rng().permutation(total) if seed is None else np.array(list(
                _std_shuffle.buffer_shuffle(range(total), 10000, _std_shuffle.Mt19937x64(seed))))
        bounds = np.cumsum([0] + counts)
        return [SubsetNode(self, order[lo:hi]) for lo, hi in itertools.pairwise(bounds)]

    def is_sharded(self) -> bool:
        """Whether a source under this node reads one shard of its rows."""
        return any(child.is_sharded() for child in self.children)

    def zip(self, datasets):
        """This dataset's columns followed by those of `datasets` (one or a tuple), row by
        row, as long as the shortest lasts."""
        from ..nodes import ZipDataset

        type_check(datasets, (tuple, Dataset), "datasets")  # MindSpore's check and words
        return ZipDataset((self,) + (datasets if isinstance(datasets, tuple) else (datasets,)))

    def concat(self, datasets):
        """This dataset's rows, then those of `datasets` (one or a list); columns must match."""
        from ..core.validator_helpers import type_check_list
        from ..nodes import ConcatDataset

        type_check(datasets, (list, Dataset), "datasets")  # MindSpore's checks and words
        if isinstance(datasets, list):
            type_check_list(datasets, (Dataset,), "dataset")
        return ConcatDataset([self] + (datasets if isinstance(datasets, list) else [datasets]))

    def __add__(self, other):
        return self.concat(other)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """The rows of one epoch written to `num_files` MindRecord files (`file_name`, or
        `file_name` + 0, 1, ... when there are several), with the schema MindSpore derives
        from the first row (see save.py)."""
        from ..save import check_save_arguments, save

        check_save_arguments(file_name, num_files, file_type)
        check_tree(self)
        save(self, file_name, num_files)

    def reset(self) -> None:
        """Reset the dataset for the next epoch (Model calls it after each epoch, as
        MindSpore's does). As in MindSpore there is nothing to do: each epoch's iteration
        starts from the first row."""

    def set_init_step(self, init_step) -> None:
        """The iterators made from this node from now on start at step `init_step` (the
        rows, or batches, counted over the epochs from the first): they deliver what an
        iterator started at step 0 delivers from that step on, so a training run resumes
        where it stopped (MindSpore's pipeline resuming). The epochs before it count among
        the iterator's `num_epochs`. Debug mode ignores it, with a warning, as MindSpore's."""
        self._global_step = init_step

    def get_init_step(self) -> int:
        """The step `set_init_step` gave this node or, where none was given, the one of its
        only child; 0 with none, or over several children."""
        step = getattr(self, "_global_step", None)
        if step is not None:
            return step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    @property
    def input_indexs(self):
        """The order of the network's inputs the columns feed in sink mode (MindSpore's
        spelling): the value set on this node or, where none was set, the first one set
        below it; () where none was."""
        own = self.__dict__.get("_input_indexs", ())
        if own != ():
            return own
        for child in self.children:
            found = child.input_indexs
            if found != ():
                return found
        return own

    @input_indexs.setter
    def input_indexs(self, value):
        self._input_indexs = value

    def to_json(self, filename=""):
        """The pipeline ending here as MindSpore's JSON (a dict), written to `filename` too
        when given (`dataset.serialize`)."""
        from .serializer_deserializer import to_json

        check_tree(self)
        return to_json(self, filename)

    # -- facts --------------------------------------------------------------------------------
    def get_col_names(self) -> list[str]:
        check_tree(self)
        return list(self.column_names)

    def get_class_indexing(self) -> dict:
        """The class names and indexes of the source under this node (its first child's, as
        MindSpore asks), or {} where no source has them."""
        if self.children:
            return self.children[0].get_class_indexing()
        return {}

    def num_classes(self):
        """The number of classes of the source under this node, or None where it has none."""
        check_tree(self)
        if self.children:
            return self.children[0].num_classes()
        return None

    def get_dataset_size(self) -> int:
        """Rows (or batches, after `batch`) in one epoch."""
        check_tree(self)
        n = self.count()
        if n is None:
            n = sum(1 for _ in self.rows(EpochState()))
        return n

    def get_batch_size(self) -> int:
        from ..nodes import BatchDataset

        check_tree(self)
        node = self
        while node.children and not isinstance(node, BatchDataset):
            if getattr(node, "_batch_sampled", False):
                return -1  # a GeneratorDataset whose batch_sampler sizes each batch
            node = node.children[0]
        if not isinstance(node, BatchDataset):
            return 1
        # a callable batch size sizes each batch: MindSpore answers -1
        return -1 if node.batch_size_func is not None else node.batch_size

    def get_repeat_count(self) -> int:
        from ..nodes import RepeatDataset

        check_tree(self)
        node = self
        while node.children and not isinstance(node, RepeatDataset):
            node = node.children[0]
        if isinstance(node, RepeatDataset):
            return -1 if node.times is None else node.times
        return 1

    def output_shapes(self, estimate=False) -> list[list[int]]:
        """The shape of each column in the first row; with `estimate`, over every row, an
        axis whose length varies is None (a rank that varies is an error)."""
        type_check(estimate, (bool,), "estimate")
        check_tree(self)
        if not estimate:
            row = next(iter(self.rows(EpochState())))
            return [_column_shape(v) for v in row]
        shapes = None
        for row in self.rows(EpochState()):
            now = [_column_shape(v) for v in row]
            if shapes is None:
                shapes = now
                continue
            for i, (seen, shape) in enumerate(zip(shapes, now)):
                if len(seen) != len(shape):  # MindSpore's words (and order)
                    raise RuntimeError(
                        f"Inconsistent shapes, expect same shape for each data row, last data "
                        f"row: <{','.join(map(str, shape))}>, current data row: "
                        f"<{','.join(map(str, seen))}> (column {self.column_names[i]!r})")
                shapes[i] = [a if a == b else None for a, b in zip(seen, shape)]
        return shapes or []

    def output_types(self) -> list[np.dtype]:
        check_tree(self)
        row = next(iter(self.rows(EpochState())))
        # strings and bytes are typed without their width (dtype('<U'), which equals np.str_)
        return [np.dtype(d.type) if d.kind in "US" else d
                for d in (np.asarray(v).dtype for v in row)]

    # -- iterators ----------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=False):
        """An iterator of lists of Tensors (NumPy arrays with `output_numpy`); each `for` over
        it is one epoch."""
        from ..iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """An iterator of {column name: Tensor} dicts; each `for` over it is one epoch."""
        from ..iterators import DictIterator

        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def flat_map(self, func):
        """The datasets `func` makes of each row (its columns as arguments), concatenated in
        row order, as MindSpore builds it: this dataset is read once, when flat_map is called."""
        if not callable(func):
            raise TypeError("func must be a function.")
        dataset = None
        for row in self.create_tuple_iterator(num_epochs=1, output_numpy=True):
            made = func(*row)
            dataset = made if dataset is None else dataset + made
        if not isinstance(dataset, Dataset):
            raise TypeError("flat_map must return a Dataset object.")
        return dataset

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """A TransferDataset that sends this pipeline's rows to the data queue a training
        step reads (`send()` starts it)."""
        from ..transfer import TransferDataset

        return TransferDataset(self, send_epoch_end, create_data_info_queue, queue_name)

    def __len__(self):
        """The number of rows: `len(data)` is `data.get_dataset_size()`, as in MindSpore."""
        return self.get_dataset_size()


def _split_counts(sizes, total: int) -> list[int]:
    """The row count of each split, as MindSpore checks and computes them: ints that sum to
    the dataset size, or fractions in (0, 1] summing to 1, each rounded, the rows still wanted
    given to the first split and the rows too many taken from the first split that keeps at
    least one."""
    type_check(sizes, (list,), "sizes")
    if not sizes:
        raise ValueError("sizes cannot be empty.")
    all_int = all(isinstance(s, int) for s in sizes)
    if not (all_int or all(isinstance(s, float) for s in sizes)):
        raise ValueError("sizes should be list of int or list of float.")
    if all_int and not all(s > 0 for s in sizes):
        raise ValueError("sizes is a list of int, but there should be no negative or zero "
                         "numbers.")
    if not all_int:
        if not all(0 < s <= 1 for s in sizes):
            raise ValueError("sizes is a list of float, but there should be no numbers outside "
                             "the range (0, 1].")
        if not abs(sum(sizes) - 1) < 0.00001:
            raise ValueError("sizes is a list of float, but the percentages do not sum up to 1.")
    if not total or total <= 0:
        raise RuntimeError("dataset_size is unknown, unable to split.")
    if all_int:
        if sum(sizes) != total:
            raise RuntimeError(f"Sum of split sizes {sum(sizes)} is not equal to dataset size "
                               f"{total}.")
        return list(sizes)
    counts = []
    for size in sizes:
        count = round(size * total)
        if count == 0:
            raise RuntimeError(f"Split percentage {size} is too small.")
        counts.append(count)
    difference = int(total - sum(counts))
    if difference > 0:
        counts[0] += difference
    else:
        for i, count in enumerate(counts):
            if count + difference > 0:
                counts[i] += difference
                break
    if sum(counts) != total:
        raise RuntimeError(f"Sum of calculated split sizes {sum(counts)} is not equal to dataset "
                           f"size {total}.")
    return counts


def find_column(names: list[str], column: str, op: str) -> int:
    try:
        return names.index(column)
    except ValueError:
        raise ValueError(f"{op}: no column named {column!r}; the columns are {names}") from None

