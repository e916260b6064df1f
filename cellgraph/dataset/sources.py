"""Sources built from Python data: GeneratorDataset and NumpySlicesDataset, and the base of
every source with random access (`MappableSource`), which a sampler orders each epoch."""
from __future__ import annotations

import copy
import itertools
import json
import numbers
import threading
import types
import warnings
from collections.abc import Iterator

import numpy as np

from cellgraph.mindrecord.checks import pipeline_error
from cellgraph.primitives import dtype as dt

from .core.validator_helpers import check_independent_mode, check_value, type_check
from .engine import Dataset, check_num_parallel_workers, column_list
from .samplers import (
    Sampler,
    SequentialSampler,
    Shuffle,
    SubsetSampler,
    _shuffle_mode,
    chained_count,
    chained_indices,
    check_shard,
    choose_sampler,
)

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset"]


def as_row(value, names: list[str], op: str) -> tuple:
    """A source's item as a tuple of arrays, one per column."""
    values = tuple(value) if isinstance(value, (tuple, list)) and len(names) > 1 or \
        isinstance(value, tuple) else (value,)
    if len(values) != len(names):
        if op == "GeneratorDataset":
            from .nodes import user_code_failure

            raise user_code_failure(
                f"Invalid Python function, the 'source' of 'GeneratorDataset' should return same "
                f"number of NumPy arrays as specified in column_names, the size of column_names "
                f"is:{len(names)} and number of returned NumPy array is:{len(values)}")
        raise ValueError(f"{op}: the source gave {len(values)} value(s) per row but the "
                         f"columns are {names}")
    # a dict stays the Python object it is (MindSpore keeps a reference to it and converts
    # what it holds only when an iterator hands it out)
    row = tuple(v if isinstance(v, dict) else np.asarray(v) for v in values)
    if op == "GeneratorDataset":
        single = len(values) == 1 and values[0] is value  # one item, not a tuple of them
        for number, item in enumerate(row, 1):  # MindSpore's check of what a source gives
            if not isinstance(item, dict) and item.dtype == object:
                from .nodes import user_code_error

                which = "" if single else f"{number}th item of "
                error = TypeError(f"Data type of {which}the input or its converted Numpy array "
                                  f"is expected to be int or float or str, but got object.")
                raise user_code_error(error) from error
    return row


class MappableSource(Dataset):
    """A source whose rows can be read by index; subclasses define `num_rows` and
    `row_at(index)`."""

    op = "dataset"

    def __init__(self, names, num_samples=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        super().__init__()
        if cache is not None:
            check_independent_mode("Dataset Cache")
        self._names = list(names)
        self.sampler = choose_sampler(self.op, shuffle, sampler, num_samples, num_shards,
                                      shard_id)
        self.cache = cache
        sampler = self.sampler
        while sampler is not None:  # a sampler that reads the rows (PKSampler), or its child
            if hasattr(sampler, "attach"):
                sampler.attach(self)
            sampler = getattr(sampler, "child_sampler", None)

    @property
    def column_names(self):
        return list(self._names)

    @property
    def num_rows(self) -> int:
        raise NotImplementedError

    def row_at(self, index: int) -> tuple:
        raise NotImplementedError

    def count(self):
        return chained_count(_for_iterator(self.sampler), self.num_rows)

    def add_sampler(self, new_sampler):
        """`new_sampler` on top of the sampler: it samples positions in the sampler's output
        (MindSpore's checks: neither may be PARTIAL, the new one FALSE or GLOBAL)."""
        if _shuffle_mode(self.sampler) is Shuffle.PARTIAL:
            raise RuntimeError("When multiple samplers are used, ensure that the shuffle of the "
                               "current sampler must not be Shuffle.PARTIAL.")
        mode = _shuffle_mode(new_sampler)
        if mode not in (Shuffle.GLOBAL, Shuffle.FALSE):
            raise RuntimeError(f"When multiple samplers are used, ensure that the shuffle of the "
                               f"input sampler must be Shuffle.FALSE or Shuffle.GLOBAL, but got: "
                               f"{mode}.")
        new_sampler.add_child(self.sampler)
        self.sampler = new_sampler

    def use_sampler(self, new_sampler):
        """MindSpore's replacement of the sampler: without a child sampler, `new_sampler`
        takes the sampler's place; with one, `new_sampler` takes it on top of the child (it
        samples positions in the child's output, as `add_sampler` chains it)."""
        if new_sampler is None:
            raise TypeError("Input sampler can not be None.")
        if not isinstance(new_sampler, Sampler):
            raise TypeError("Input sampler is not an instance of a sampler.")
        child = getattr(self.sampler, "child_sampler", None)
        if child is None:
            self.sampler = new_sampler
        else:
            self.sampler = child
            self.add_sampler(new_sampler)

    def rows(self, state):
        read = self.row_at if self.cache is None else \
            (lambda index: self.cache.row(self, index, self.row_at))
        # the sampler draws a new order for every pass over the source, a repeat's as an
        # epoch's, as MindSpore resets its sampler for each: its epoch is the pass's number
        sampler = state.keep(self, lambda: _for_iterator(self.sampler))
        sampler_state = _Pass(state, state.next_pass(self))
        for index in self._epoch_indices(sampler, sampler_state):
            yield read(int(index))

    def _epoch_indices(self, sampler, state) -> np.ndarray:
        """The row ids of one pass (a source whose reader orders rows its own way overrides
        this)."""
        return chained_indices(sampler, self.num_rows, state)

    def is_sharded(self) -> bool:
        """Whether the sampler reads one of several shards (MindSpore's answer)."""
        shards = getattr(self.sampler, "num_shards", None)
        return bool(shards) and shards > 1

    def split(self, sizes, randomize=True):
        """Splits of a source with random access, as MindSpore makes them: one permutation of
        the rows, drawn once (by MindSpore's random sampler after a dataset seed is set), is
        cut into consecutive parts; each part keeps its rows in that order in every epoch. A
        part splits its own rows, as MindSpore's samplers chained on the part's give them."""
        from . import _std_shuffle
        from .core import config
        from .engine import _split_counts

        if self.is_sharded():
            raise RuntimeError("Dataset should not be sharded before split.")
        rows = getattr(self, "_split_rows", None)  # set on a part of a split
        total = self.num_rows if rows is None else len(rows)
        counts = _split_counts(sizes, total)
        order = np.arange(total)
        if randomize:
            seed = config.mindspore_seed()
            order = config.new_rng().permutation(total) if seed is None else \
                _std_shuffle.SamplerOrder().permutation(seed, total, 0)
        bounds = np.cumsum([0] + counts)
        parts = []
        for lo, hi in itertools.pairwise(bounds):
            part = object.__new__(type(self))
            part.__dict__.update(self.__dict__)
            # a copy, as MindSpore's: it keeps the record of the nodes built on this one
            part.parent = list(self.parent)
            part._split_rows = order[lo:hi] if rows is None else rows[order[lo:hi]]
            # MindSpore puts a sequential sampler on top, which `use_sampler` replaces: a
            # sampler given to the part samples its rows
            part.sampler = SequentialSampler()
            part.sampler.add_child(SubsetSampler(part._split_rows))
            parts.append(part)
        return parts


def _for_iterator(sampler):
    """The sampler an iterator (or a count) uses: a user-defined sampler anywhere in the chain
    is copied with the chain, as MindSpore copies it for each, so that its state (its own
    generator, a counter its reset() moves) starts afresh."""
    node = sampler
    while node is not None:
        if type(node).indices is Sampler.indices:
            return copy.deepcopy(sampler)
        node = getattr(node, "child_sampler", None)
    return sampler


class _Pass:
    """A pass's view of the pipeline state, whose epoch is the number of the pass."""

    def __init__(self, state, number: int):
        self._state, self.epoch = state, number

    def __getattr__(self, name):
        return getattr(self._state, name)


class _Mapped(MappableSource):
    op = "GeneratorDataset"

    def __init__(self, source, names, **sampling):
        self.source = source
        super().__init__(names, **sampling)

    @property
    def num_rows(self):
        return len(self.source)

    def row_at(self, index):
        try:
            item = self.source[index]
        except Exception as error:  # MindSpore's report of the source's own error
            from .nodes import user_code_error

            raise user_code_error(error) from error
        return as_row(item, self._names, self.op)


class _Iterated(Dataset):
    """A source read front to back (a generator function or an iterable); sharding keeps
    every num_shards-th row."""

    def __init__(self, source, names, num_samples, num_shards, shard_id):
        super().__init__()
        if isinstance(source, types.GeneratorType):  # read again by every pass, as MindSpore
            source = _Replayed(source)
        elif isinstance(source, zip):  # MindSpore reads a zip into a list
            source = list(source)
        self.source, self._names = source, list(names)
        self.num_samples = num_samples
        self.shard = None if num_shards is None else (num_shards, shard_id)
        # any other one-shot source (an iterator) is one stream for every iterator over the
        # dataset: their workers take turns, so none runs it twice at once and each row goes
        # to one of them
        self._turns = threading.Lock() if isinstance(source, Iterator) and not callable(
            source) else None

    def is_sharded(self) -> bool:
        return self.shard is not None and self.shard[0] > 1

    @property
    def column_names(self):
        return list(self._names)

    def count(self):
        return None

    def rows(self, state):
        items = self.source() if callable(self.source) else iter(self.source)
        if self._turns is not None:
            items = _taking_turns(items, self._turns)
        if self.shard is not None:
            items = itertools.islice(items, self.shard[1], None, self.shard[0])
        if self.num_samples:
            items = itertools.islice(items, self.num_samples)
        for item in items:
            yield as_row(item, self._names, "GeneratorDataset")


class _Replayed:
    """A generator object as a source that every pass reads from its first row (MindSpore tees
    it): the rows it gave are kept, and a pass past them takes the next one from the generator
    (one pass at a time), so epochs, `get_dataset_size` and `output_shapes` lose no row."""

    def __init__(self, generator):
        self._generator, self._rows = generator, []
        self._taking, self._done = threading.Lock(), False

    def __iter__(self):
        index = 0
        while True:
            if index < len(self._rows):
                index += 1
                yield self._rows[index - 1]
                continue
            with self._taking:
                if index < len(self._rows):
                    continue
                if self._done:
                    return
                item = next(self._generator, _DONE)
                if item is _DONE:
                    self._done = True
                    return
                self._rows.append(item)


def _taking_turns(items, lock):
    while True:
        with lock:
            item = next(items, _DONE)
        if item is _DONE:
            return
        yield item


_DONE = object()


def _names_for(column_names, count: int | None, op: str) -> list[str]:
    names = column_list(column_names, op, "column_names")
    if names is not None:
        return names
    if count is None:
        raise ValueError(f"{op}: give `column_names` (one name per value the source yields)")
    return [f"column_{i}" for i in range(count)]


class GeneratorDataset(Dataset):
    """A dataset from Python: a generator function, an iterable, or an object with
    `__getitem__` and `__len__` (random access: shuffled by default, and samplers and
    sharding apply). With `batch_sampler` (an iterable of index lists, random access only)
    each row is a batch: per column, the rows' values stacked, or what `collate_fn` makes of
    the per-column lists."""

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        check_num_parallel_workers(num_parallel_workers)
        if max_rowsize is not None:
            type_check(max_rowsize, (int,), "max_rowsize")
            check_value(max_rowsize, [-1, 2 ** 31 - 1], "max_rowsize")
        _check_batch_sampler(source, batch_sampler, collate_fn,
                             (num_samples, shuffle, num_shards, shard_id, sampler))
        if column_names is None and schema is None:
            raise ValueError("Neither columns_names nor schema are provided.")
        if schema is not None:  # the schema's names and types, as MindSpore's node takes them
            from .schema import Schema

            if not isinstance(schema, (Schema, str)):
                raise ValueError("schema should be a path to schema file or a schema object.")
            schema = Schema(schema) if isinstance(schema, str) else schema
            columns = json.loads(schema.to_json())["columns"] or []
            column_names = [c["name"] for c in columns]
            column_types = [c["type"] for c in columns]
        if batch_sampler is not None:
            child = _batch_sampled(source, column_names, batch_sampler, collate_fn,
                                   (num_samples, shuffle, num_shards, shard_id, sampler))
        else:
            if collate_fn is not None:
                raise ValueError("collate_fn can be specified only when batch_sampler is set.")
            child = _generator_source(source, column_names, num_samples, shuffle, sampler,
                                      num_shards, shard_id)
        super().__init__([child], num_parallel_workers)
        self._batch_sampled = batch_sampler is not None
        # None (or no type) leaves a column unchecked, as MindSpore's DE_UNKNOWN
        self._column_types = None if column_types is None else [
            _column_type(t) for t in column_types]

    def rows(self, state):
        rows = self.children[0].rows(state)
        return rows if self._column_types is None else _typed_rows(rows, self._column_types)

    def use_sampler(self, new_sampler):
        if not isinstance(self.children[0], MappableSource):
            raise ValueError("GeneratorDataset: `sampler` needs a source with random access "  # noqa: TRY004
                             "(__getitem__ and __len__)")
        self.children[0].use_sampler(new_sampler)

    def __getitem__(self, index):
        """`source[i]` of the row the sampler gives `index`-th in an epoch (its first, as a
        new pass draws it): MindSpore's random access to a GeneratorDataset."""
        from .engine import EpochState
        from .samplers import chained_indices

        type_check(index, (int, np.number), "index")
        child = self.children[0]
        if not isinstance(child, _Mapped):
            if self._batch_sampled:
                raise RuntimeError("GeneratorDataset with batch_sampler does not support "
                                   "random access.")
            raise RuntimeError("Dataset don't support randomized access.")  # noqa: TRY004
        if index < 0:
            raise RuntimeError(f"Index [{index}] can not be a negative number.")
        ids = chained_indices(child.sampler, child.num_rows, EpochState())
        if index >= len(ids):
            raise RuntimeError(f"Index [{index}] exceeded the number of data samples.")
        return child.source[int(ids[int(index)])]

    def split(self, sizes, randomize=True):
        if isinstance(self.children[0], MappableSource):
            return self.children[0].split(sizes, randomize)
        return super().split(sizes, randomize)


def _check_batch_sampler(source, batch_sampler, collate_fn, exclusive) -> None:
    """MindSpore's checks of batch_sampler and collate_fn (and of the samplers a source without
    __getitem__ cannot take), with its messages."""
    import collections.abc

    _, _, num_shards, _, sampler = exclusive
    if batch_sampler is not None:
        if any(option is not None for option in exclusive):
            raise ValueError("batch_sampler is mutually exclusive with num_samples, shuffle, "
                             "num_shards, shard_id and sampler.")
        if not isinstance(batch_sampler, (Sampler, collections.abc.Iterable)):
            raise TypeError("batch_sampler should have __getitem__ or __iter__ method.")
    if collate_fn is not None:
        if batch_sampler is None:
            raise ValueError("collate_fn can be specified only when batch_sampler is set.")
        if not callable(collate_fn):
            raise TypeError("collate_fn should be callable.")
    if not hasattr(source, "__getitem__"):
        for name, value in (("sampler", sampler), ("batch_sampler", batch_sampler),
                            ("num_shards", num_shards)):
            if value is not None:
                raise ValueError(f"{name} is not supported if source does not have attribute "
                                 f"'__getitem__'.")


def _batch_sampled(source, column_names, batch_sampler, collate_fn, exclusive):
    op = "GeneratorDataset"
    if not hasattr(source, "__len__"):
        raise TypeError(f"{op}: `batch_sampler` needs a source with random access "
                        f"(__getitem__ and __len__), got {type(source).__name__}")

    def batches(batch_sampler):
        for indices in batch_sampler:
            if isinstance(indices, (int, np.integer)):
                raise pipeline_error("Batch sampler should return a list, but got an integer.")
            indices = np.asarray(indices)
            if indices.dtype.kind not in "iu":
                kind = "string" if indices.dtype.kind in "US" else str(indices.dtype)
                raise pipeline_error(f"Python sampler should return index of type integer, but "
                                     f"got: {kind}")
            rows = [source[int(i)] for i in indices]
            rows = [tuple(r) if isinstance(r, (tuple, list)) else (r,) for r in rows]
            # a dict stays the object it is: collate_fn reads it (MindSpore hands it over so)
            columns = [[v if isinstance(v, dict) else np.asarray(v) for v in column]
                       for column in zip(*rows)]
            if collate_fn is None:
                yield tuple(np.stack(column) for column in columns)
                continue
            out = collate_fn(*columns)
            yield tuple(out) if isinstance(out, (tuple, list)) else (out,)

    return _SampledBatches(batches, batch_sampler, _names_for(column_names, None, op))


class _SampledBatches(_Iterated):
    """The batches a batch_sampler's index lists make. Each pass over the pipeline (an
    iterator's epochs) reads its own copy of the sampler, as MindSpore copies it into every
    pipeline an iterator builds: a sampler's own state (a generator it shuffles with) starts
    afresh in each iterator and goes on over that iterator's epochs."""

    def __init__(self, batches, batch_sampler, names):
        super().__init__(batches, names, None, None, None)
        self.batch_sampler = batch_sampler

    def rows(self, state):
        def copied():
            try:
                return copy.deepcopy(self.batch_sampler)
            except Exception:  # noqa: BLE001 - a sampler that cannot be copied is shared
                return self.batch_sampler

        for item in self.source(state.keep(self, copied)):
            yield as_row(item, self._names, "GeneratorDataset")


def _column_type(kind):
    """A declared column type as (its MindSpore name, the NumPy dtype that matches it), or None
    for an unchecked column."""
    if kind is None:
        return None
    from .schema import _is_dtype, _type_name

    name = _type_name(kind) if _is_dtype(kind) else str(kind)  # a dtype or a schema's name
    if name in ("string", "bytes"):
        return name, None
    return name, np.dtype(dt.as_dtype(name).np)


def _typed_rows(rows, types):
    """MindSpore's check of `column_types` (or a schema's types): each column's data has the
    declared type."""
    for row in rows:
        for value, want in zip(row, types):
            if want is None or isinstance(value, dict):
                continue
            name, numpy = want
            ok = value.dtype.kind in "US" if numpy is None else value.dtype == numpy
            if not ok:
                rule = "-" * 66
                raise RuntimeError(
                    f"Exception thrown from user defined Python function in dataset. \n\n"
                    f"{rule}\n- Python Call Stack: \n{rule}\nInvalid Python function, type of "
                    f"returned data in 'GeneratorDataset' should be same with specified "
                    f"column_types, but the type of returned data: {type(value)}, specified "
                    f"column type: {name}\n\n{rule}\n- Dataset Pipeline Error Message: \n"
                    f"{rule}\n[ERROR] Execute user Python code failed, check 'Python Call "
                    f"Stack' above.")
        yield row


class _WithoutLength(Dataset):
    """A source with `__getitem__` but no `__len__` (nor `__iter__`): MindSpore takes it as a
    random-access source and fails when the pipeline is used, as this node does."""

    def __init__(self, names):
        super().__init__()
        self._names = list(names)

    @property
    def column_names(self):
        return list(self._names)

    @staticmethod
    def _fail():
        raise RuntimeError("Attempt to construct a random access dataset, '__len__' method is "
                           "required!")

    def count(self):
        self._fail()

    def rows(self, state):
        self._fail()


def _generator_source(source, column_names, num_samples, shuffle, sampler, num_shards,
                      shard_id):
    op = "GeneratorDataset"
    names = _names_for(column_names, None, op)
    if sampler is not None and not isinstance(sampler, Sampler):
        try:
            iter(sampler)
        except TypeError as exc:
            raise TypeError("sampler should be either iterable or from "
                            "cellgraph.dataset.samplers.") from exc
    random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
    if random_access:
        return _Mapped(source, names, num_samples=num_samples, shuffle=shuffle,
                       sampler=sampler, num_shards=num_shards, shard_id=shard_id)
    if hasattr(source, "__getitem__") and not callable(source) and \
            not hasattr(source, "__iter__"):
        return _WithoutLength(names)
    if not (callable(source) or hasattr(source, "__iter__")):
        raise TypeError(f"{op}: `source` must be a generator function, an iterable or a "
                        f"random-access object, got {type(source).__name__}")
    if sampler is not None:
        raise ValueError(f"{op}: `sampler` needs a source with random access (__getitem__ and "
                         f"__len__), got {type(source).__name__}")
    if shuffle:  # MindSpore takes it and reads the source in order: so does cellgraph, saying so
        warnings.warn(f"{op}: shuffle=True has no effect on a source without random access "
                      f"({type(source).__name__} has no __getitem__ and __len__): its rows come "
                      f"in order, as in MindSpore; shuffle the pipeline with .shuffle()",
                      UserWarning, stacklevel=4)
    if num_shards is not None or shard_id is not None:
        check_shard(num_shards, shard_id, op)
    if num_samples is not None and (isinstance(num_samples, bool) or not isinstance(
            num_samples, numbers.Integral) or num_samples < 0):
        raise ValueError(f"{op}: `num_samples` must be an int >= 0, got {num_samples!r}")
    return _Iterated(source, names, num_samples, num_shards, shard_id)


def _slices(values):
    """A column's rows: one array sliced along its first axis, or, for rows of different
    lengths (ragged lists, as MindSpore takes them), a list of one array per row."""
    try:
        return np.asarray(values)
    except ValueError:
        if not isinstance(values, (list, tuple)):
            raise
        return [np.asarray(v) for v in values]


class NumpySlicesDataset(MappableSource):
    """Rows sliced along the first axis of arrays: a list or array (one column), a tuple of
    them (one column each) or a dict (column name -> values)."""

    op = "NumpySlicesDataset"

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        check_num_parallel_workers(num_parallel_workers)
        if isinstance(data, dict):
            columns = [_slices(v) for v in data.values()]
            names = column_list(column_names, self.op, "column_names") or list(data)
        else:
            columns = [_slices(v) for v in data] if isinstance(data, tuple) else \
                [_slices(data)]
            names = _names_for(column_names, len(columns), self.op)
        if len(names) != len(columns):
            raise ValueError(f"{self.op}: {len(columns)} column(s) of data but "
                             f"{len(names)} column name(s) {names}")
        lengths = {len(c) for c in columns}
        if len(lengths) != 1:
            raise ValueError(f"{self.op}: the columns have different lengths "
                             f"{[len(c) for c in columns]}")
        self.columns = columns
        super().__init__(names, num_samples, shuffle, sampler, num_shards, shard_id)

    @property
    def num_rows(self):
        return len(self.columns[0])

    def row_at(self, index):
        return tuple(c[index] for c in self.columns)


class _PaddedSamples:
    """A list of dicts as a random-access source: row i is dict i's values, in the first
    dict's key order."""

    def __init__(self, padded_samples):
        self.column_names = list(padded_samples[0].keys())
        self.padded_samples = padded_samples

    def __getitem__(self, index):
        return tuple(self.padded_samples[index][key] for key in self.column_names)

    def __len__(self):
        return len(self.padded_samples)


class PaddedDataset(GeneratorDataset):
    """Rows given as a list of dicts (column name -> value), in order: the filler samples a
    program adds to a dataset (with `+`) so that its shards come out even."""

    def __init__(self, padded_samples):
        from .core.validator_helpers import type_check

        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        type_check(padded_samples, (list,), "padded_samples")
        type_check(padded_samples[0], (dict,), "padded_element")
        samples = _PaddedSamples(padded_samples)
        super().__init__(samples, column_names=samples.column_names, shuffle=False)
        self.padded_samples = padded_samples
