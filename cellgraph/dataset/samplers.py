"""Samplers: the order in which a source with random access hands out its rows each epoch.

DistributedSampler gives each of `num_shards` processes its own slice: every shard draws the
same permutation (seeded by the dataset seed and the epoch, not by the process), pads it by
wrapping around to a multiple of `num_shards`, and takes every `num_shards`-th index from
`shard_id` on, so the shards are disjoint and equally long.
"""
from __future__ import annotations

import numbers
from enum import Enum

import numpy as np

from . import _std_shuffle
from .core import config
from .core.arguments import record_arguments

__all__ = ["DistributedSampler", "IterSampler", "PKSampler", "RandomSampler", "Sampler",
           "SequentialSampler", "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler"]


_INT64_MAX = 2**63 - 1


def _optional_count(value, op: str, name: str):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{op}: {name} must be integer but was: {value!r}.")
    if not 0 <= value <= _INT64_MAX:  # MindSpore's words, which its users' tests match
        raise ValueError(f"{op}: {name} exceeds the boundary between 0 and {_INT64_MAX}"
                         f"(INT64_MAX)! got {value}")
    return int(value) or None  # MindSpore reads 0 as "all"



class Shuffle(str, Enum):
    """How a source shuffles: not at all (FALSE), every row (GLOBAL), the order of its files
    (FILES), the rows within each file (INFILE), MindRecord's shuffle of every million rows
    (PARTIAL, not supported here) or ADAPTIVE (GLOBAL up to 100 million rows, PARTIAL past
    that)."""

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


_ADAPTIVE_LIMIT = 100_000_000  # rows up to which Shuffle.ADAPTIVE shuffles globally


def _global_shuffle(shuffle, op: str, rows=None):
    """A sampler's shuffle argument with FALSE and ADAPTIVE resolved (False, or True for a
    global shuffle); PARTIAL, MindRecord's block shuffle, is refused."""
    if shuffle is Shuffle.FALSE:
        return False
    if shuffle is Shuffle.ADAPTIVE and (rows is None or rows <= _ADAPTIVE_LIMIT):
        return True
    if shuffle in (Shuffle.PARTIAL, Shuffle.ADAPTIVE):
        from cellgraph.primitives.errors import UnsupportedError

        raise UnsupportedError(f"{op}: Shuffle.PARTIAL (MindRecord's shuffle of every million "
                               f"rows) is not supported; use Shuffle.GLOBAL")
    return shuffle

def _shuffle_mode(sampler) -> Shuffle:
    """A sampler's shuffle as a Shuffle mode (True: GLOBAL; none given: FALSE)."""
    mode = getattr(sampler, "shuffle_mode", None)
    if isinstance(mode, Shuffle):
        return mode
    return Shuffle.GLOBAL if mode is True else Shuffle.FALSE


class Sampler:
    """Base: `indices(num_rows, state)` for one epoch.

    A user-defined sampler, as MindSpore has them written, subclasses Sampler and defines
    `__iter__`, yielding row indices; it may read `self.dataset_size`, the source's row count,
    which is set before every epoch."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        record_arguments(cls)  # what `serialize` writes a sampler with

    def __init__(self, num_samples=None):
        self.num_samples = _optional_count(num_samples, type(self).__name__, "num_samples")

    def add_child(self, sampler) -> None:
        """Chain `sampler` under this one: this sampler then samples the ids the child gives
        (its rows are the child's output, in the child's order). As MindSpore: the child may
        not shuffle PARTIAL, this sampler only GLOBAL or not at all."""
        if getattr(self, "child_sampler", None) is not None:
            raise RuntimeError("Cannot add child sampler, this sampler already has a child.")
        if sampler is not None and _shuffle_mode(sampler) is Shuffle.PARTIAL:
            raise RuntimeError("When multiple samplers are used, ensure that the shuffle of the "
                               "input sampler must not be Shuffle.PARTIAL.")
        if _shuffle_mode(self) not in (Shuffle.GLOBAL, Shuffle.FALSE):
            raise RuntimeError(f"When multiple samplers are used, ensure that the shuffle of the "
                               f"current sampler must be Shuffle.FALSE or Shuffle.GLOBAL, but "
                               f"got: {_shuffle_mode(self)}.")
        self.child_sampler = sampler

    def get_child(self):
        return getattr(self, "child_sampler", None)

    def get_num_samples(self):
        """num_samples as given (None: all), or, when unset, the child sampler's."""
        limit = getattr(self, "num_samples", None)
        child = getattr(self, "child_sampler", None)
        if limit is None and child is not None:
            return child.get_num_samples()
        return limit

    def _limit(self, indices: np.ndarray) -> np.ndarray:
        limit = getattr(self, "num_samples", None)  # a subclass may skip __init__
        return indices if limit is None else indices[:limit]

    def indices(self, num_rows: int, state) -> np.ndarray:
        op = type(self).__name__
        self.dataset_size = num_rows
        if state.epoch > 0 and callable(getattr(self, "reset", None)):
            self.reset()  # MindSpore's hook before each pass after the first
        try:
            iterator = iter(self)
        except TypeError:
            raise TypeError(f"{op}: a user-defined sampler must define __iter__, yielding row "
                            f"indices") from None
        ids = np.fromiter(iterator, dtype=np.int64)
        declared = self._declared_count()
        if declared is not None:  # num_samples, or the sampler's own len()
            if len(ids) < declared:
                raise RuntimeError(f"The actual amount of data read from generator {len(ids)} "
                                   f"is different from generator.len {declared}, you should "
                                   f"adjust generator.len to make them match.")
            ids = ids[:declared]
        return _checked_indices(ids, num_rows, op, self._limit)

    def _declared_count(self):
        """A user-defined sampler's size as it declares it: num_samples, else its len()."""
        limit = getattr(self, "num_samples", None)
        if limit is None and hasattr(self, "__len__"):
            limit = len(self)
        return limit

    def count(self, num_rows: int) -> int:
        full = self._full_count(num_rows)
        limit = getattr(self, "num_samples", None)
        return full if limit is None else min(full, limit)

    def _full_count(self, num_rows: int) -> int:
        if type(self).indices is Sampler.indices:  # user-defined: its declared size, or a pass
            self.dataset_size = num_rows
            declared = self._declared_count()
            return declared if declared is not None else sum(1 for _ in iter(self))
        return num_rows


def _checked_indices(indices: np.ndarray, num_rows: int, op: str, limit) -> np.ndarray:
    outside = (indices >= num_rows) | (indices < 0)
    if outside.any():  # MindSpore's words, naming the first index out of bounds
        raise RuntimeError(f"Sample ID ({indices[outside.argmax()]}) is out of bound, expected "
                           f"range [0, {num_rows - 1}]")
    return limit(indices)


class SequentialSampler(Sampler):
    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        self.start_index = int(start_index or 0)

    def indices(self, num_rows, state):
        return self._limit(np.arange(self.start_index, num_rows))

    def _full_count(self, num_rows):
        return max(0, num_rows - self.start_index)


class RandomSampler(Sampler):
    """Rows in a random order (with `replacement`, drawn independently). Of MindSpore's
    shuffle modes, only GLOBAL applies to a sampler outside the file-based readers."""

    def __init__(self, replacement=False, num_samples=None, shuffle=Shuffle.GLOBAL):
        super().__init__(num_samples)
        if not isinstance(shuffle, Shuffle):
            raise TypeError(f"RandomSampler: shuffle must be a Shuffle mode, got {shuffle!r}")
        # ADAPTIVE is GLOBAL; the modes a sampler here cannot apply are refused when it samples
        self.shuffle_mode = shuffle
        self.replacement = bool(replacement)

    def indices(self, num_rows, state):
        """MindSpore's orders after a dataset seed is set (see _std_shuffle.py). Unseeded,
        MindSpore takes its seed from the system, so no order is its: NumPy's generator draws
        one, without the emulation's Python loop."""
        if _global_shuffle(self.shuffle_mode, "RandomSampler", num_rows) is not True and \
                self.shuffle_mode is not Shuffle.GLOBAL:
            from cellgraph.primitives.errors import UnsupportedError

            raise UnsupportedError(f"RandomSampler: shuffle={self.shuffle_mode} is not "
                                   f"supported; use Shuffle.GLOBAL")
        seed = config.mindspore_seed()
        if seed is None:
            rng = state.rng(self)
            if self.replacement:
                return rng.integers(0, num_rows, self.count(num_rows))
            return self._limit(rng.permutation(num_rows))
        if self.replacement:
            return _std_shuffle.draws_with_replacement(seed, num_rows, self.count(num_rows),
                                                      state.epoch)
        if getattr(self, "_order", None) is None:
            self._order = _std_shuffle.SamplerOrder()
        return self._limit(self._order.permutation(seed, num_rows, state.epoch))


class SubsetSampler(Sampler):
    """The given row indices, in order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        if isinstance(indices, numbers.Integral):
            indices = [indices]
        indices = list(indices)
        for index, item in enumerate(indices):  # MindSpore's check and words
            if not isinstance(item, numbers.Integral):
                raise TypeError(f"SubsetSampler: Type of indices element must be int, but got "
                                f"list[{index}]: {item}, type: {type(item)}.")
        self.subset = np.asarray(indices, dtype=np.int64)

    def indices(self, num_rows, state):
        return _checked_indices(self.subset, num_rows, type(self).__name__, self._limit)

    def _full_count(self, num_rows):
        return len(self.subset)


class SubsetRandomSampler(SubsetSampler):
    """The given row indices, in a new random order each epoch."""

    def indices(self, num_rows, state):
        subset = super().indices(num_rows, state)
        return subset[state.rng(self).permutation(len(subset))]


class IterSampler(Sampler):
    """Any iterable of row indices that is not a dataset sampler: an object with `__iter__`,
    or with `__getitem__` (read from index 0 until IndexError, as Python iterates it), read
    anew each epoch; `num_samples` defaults to its `len()` when it has one."""

    def __init__(self, sampler, num_samples=None):
        if num_samples is None and hasattr(sampler, "__len__"):
            num_samples = len(sampler)
        super().__init__(num_samples)
        self.sampler = sampler

    def __iter__(self):
        return iter(self.sampler)


class WeightedRandomSampler(Sampler):
    """`num_samples` row indices (default: one per weight) drawn from the first len(weights)
    rows, each with probability weight / sum(weights), with or without replacement."""

    def __init__(self, weights, num_samples=None, replacement=True):
        # MindSpore's checks and words: the element types here, the values where its C++
        # sampler is built (a RuntimeError)
        if not isinstance(weights, list):
            weights = [weights]
        for i, w in enumerate(weights):
            if not isinstance(w, numbers.Number):
                raise TypeError(f"type of weights element must be number, but got w[{i}]: {w}, "
                                f"type: {type(w)}.")
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement must be a boolean value but was: {replacement}.")
        self.weights = np.asarray(weights, dtype=np.float64)
        if not len(self.weights):
            raise RuntimeError("WeightedRandomSampler: weights vector must not be empty")
        negative = np.flatnonzero(self.weights < 0)
        if len(negative):
            raise RuntimeError(f"WeightedRandomSampler: weights vector must not contain negative "
                               f"numbers, got: weights[{negative[0]}] = "
                               f"{self.weights[negative[0]]:f}")
        if not self.weights.any():
            raise RuntimeError("WeightedRandomSampler: elements of weights vector must not be all "
                               "zero")
        self.replacement = replacement
        if not self.replacement and self.count(len(self.weights)) > np.count_nonzero(
                self.weights):
            raise ValueError("WeightedRandomSampler: without replacement, num_samples must not "
                             "exceed the number of nonzero weights")

    def indices(self, num_rows, state):
        if len(self.weights) > num_rows:
            raise ValueError(f"WeightedRandomSampler: {len(self.weights)} weights for a dataset "
                             f"of {num_rows} rows")
        return state.rng(self).choice(len(self.weights), self.count(num_rows),
                                      replace=self.replacement,
                                      p=self.weights / self.weights.sum())

    def count(self, num_rows):
        """num_samples draws (with replacement they may outnumber the weights)."""
        return self.num_samples or len(self.weights)


class DistributedSampler(Sampler):
    """Shard `shard_id` of `num_shards`. With an `offset` (set by ConcatDataset.use_sampler,
    the position its child starts at in the concatenation), row j goes to the shard
    (j + offset) % num_shards, without wrapping around: the shards of the concatenation are
    then the rows whose position p in it has p % num_shards == shard_id."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        check_shard(num_shards, shard_id, "DistributedSampler")
        if isinstance(offset, bool) or not isinstance(offset, numbers.Integral):
            raise TypeError(f"DistributedSampler: offset must be integer but was: {offset!r}.")
        self.num_shards, self.shard_id = int(num_shards), int(shard_id)
        self.shuffle_mode = shuffle  # PARTIAL is refused when it samples
        self.shuffle = shuffle not in (False, Shuffle.FALSE)
        self.offset = int(offset)
        # MindSpore's shards shuffle with the dataset seed of when the sampler was made (its
        # default, 5489, too: every shard must draw the same permutation)
        self.seed = config.get_seed()

    def set_offset(self, offset):
        self.offset = offset
        return self

    def is_shuffled(self):
        return self.shuffle

    def is_sharded(self):
        return self.num_shards > 1

    def indices(self, num_rows, state):
        if isinstance(self.shuffle_mode, Shuffle):
            _global_shuffle(self.shuffle_mode, "DistributedSampler", num_rows)
        order = np.arange(num_rows)
        if self.shuffle:  # the same permutation in every shard: MindSpore's std::shuffle
            # of the last pass's order, with std::mt19937 seeded by seed + 1 + the pass's number
            # (MindSpore resets the sampler, which moves its seed on, before the first pass)
            ids = list(range(num_rows))
            for number in range(state.epoch + 1):
                _std_shuffle.shuffle(ids, _std_shuffle.Mt19937Words(
                    (self.seed + 1 + number) % 2 ** 32))
            order = np.asarray(ids, np.int64)
        if self.offset != -1:
            first = self.shard_id - self.offset
            first += -(first // self.num_shards) * self.num_shards if first < 0 else 0
            picked = order[first::self.num_shards] if num_rows else order
            return self._limit(picked[:self._full_count(num_rows)])
        per_shard = -(-num_rows // self.num_shards)
        padded = np.resize(order, per_shard * self.num_shards)  # wraps around
        return self._limit(padded[self.shard_id::self.num_shards])

    def _full_count(self, num_rows):
        if self.offset == -1:
            return -(-num_rows // self.num_shards)
        total = num_rows + self.offset
        return total // self.num_shards + (self.shard_id < total % self.num_shards) - \
            (self.shard_id < self.offset)


class PKSampler(Sampler):
    """P classes times K rows: for each class of `class_column` (in ascending label order, or
    a new random order each epoch with `shuffle`), `num_val` of its rows, repeated in turn
    when the class has fewer (and drawn in a random order with `shuffle`)."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label",
                 num_samples=None):
        super().__init__(num_samples)
        if isinstance(num_val, bool) or not isinstance(num_val, numbers.Integral) or \
                num_val < 1:
            raise ValueError(f"PKSampler: `num_val` must be a positive int, got {num_val!r}")
        if num_class is not None:
            raise NotImplementedError("PKSampler: `num_class` is not supported (as in "
                                      "MindSpore); every class is sampled")
        if not isinstance(class_column, str):
            raise TypeError(f"PKSampler: `class_column` must be a str, got {class_column!r}")
        self.num_val, self.shuffle, self.class_column = int(num_val), bool(shuffle), class_column
        self._classes = None

    def attach(self, source) -> None:
        """Read the labels of `source` (a source with random access), grouped by class: those
        its `class_labels()` gives where it has one (MindSpore's readers that group rows by
        something other than a label column), else its `class_column`."""
        class_labels = getattr(source, "class_labels", None)
        if class_labels is not None:
            labels = np.asarray(class_labels())
            self._classes = [np.flatnonzero(labels == label) for label in np.unique(labels)]
            return
        if self.class_column not in source.column_names:
            raise ValueError(f"PKSampler: the dataset has no column {self.class_column!r}; its "
                             f"columns are {source.column_names}")
        column = source.column_names.index(self.class_column)
        labels = np.array([np.asarray(source.row_at(i)[column]).item()
                           for i in range(source.num_rows)])
        self._classes = [np.flatnonzero(labels == label) for label in np.unique(labels)]

    def _groups(self):
        if self._classes is None:
            raise RuntimeError("PKSampler: it samples by class and so needs a source with "
                               "random access and a label column")
        return self._classes

    def indices(self, num_rows, state):
        groups = self._groups()
        rng = state.rng(self)
        order = rng.permutation(len(groups)) if self.shuffle else range(len(groups))
        picks = []
        for c in order:
            rows = rng.permutation(groups[c]) if self.shuffle else groups[c]
            picks.append(np.resize(rows, self.num_val))  # wraps around a small class
        return self._limit(np.concatenate(picks) if picks else np.zeros(0, np.int64))

    def _full_count(self, num_rows):
        return self.num_val * len(self._groups())


def check_shard(num_shards, shard_id, op: str) -> None:
    for name, value in (("num_shards", num_shards), ("shard_id", shard_id)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{op}: `{name}` must be an int, got {value!r}")
    if num_shards < 1 or not 0 <= shard_id < num_shards:
        raise ValueError(f"{op}: expected num_shards >= 1 and 0 <= shard_id < num_shards, got "
                         f"num_shards={num_shards}, shard_id={shard_id}")


def choose_sampler(op: str, shuffle, sampler, num_samples, num_shards, shard_id) -> Sampler:
    """MindSpore's rule for a source's arguments: an explicit sampler, else a
    DistributedSampler when sharded, else a random order unless shuffle=False."""
    if sampler is not None:
        if isinstance(sampler, Sampler) and not isinstance(sampler, IterSampler):
            if any(a is not None for a in (num_shards, shard_id, shuffle, num_samples)):
                raise ValueError(f"Conflicting arguments during sampler assignments. "
                                 f"num_samples: {num_samples}, num_shards: {num_shards}, "
                                 f"shard_id: {shard_id}, shuffle: {shuffle}.")
            return sampler
        if isinstance(sampler, (list, tuple, range, np.ndarray)):
            return SubsetSampler(sampler, num_samples)  # row indices, in that order
        if isinstance(sampler, numbers.Integral) and not isinstance(sampler, bool):
            return SubsetSampler([sampler])
        if not isinstance(sampler, (str, bytes)) and (hasattr(sampler, "__iter__") or
                                                       hasattr(sampler, "__getitem__")):
            return IterSampler(sampler, num_samples)
        raise TypeError(f"Unsupported sampler object of type ({type(sampler)})")
    shuffle = _global_shuffle(shuffle, op)
    if (num_shards is None) != (shard_id is None):
        raise RuntimeError(f"{op}: give both `num_shards` and `shard_id`, or neither")
    mode = shuffle if isinstance(shuffle, Shuffle) else Shuffle.GLOBAL  # FILES or INFILE
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id,
                                  shuffle=False if shuffle is False else mode,
                                  num_samples=num_samples)
    if shuffle is False:
        return SequentialSampler(num_samples=num_samples)
    # as MindSpore: a shuffled source cut to num_samples draws its rows with replacement
    return RandomSampler(replacement=num_samples is not None, num_samples=num_samples,
                         shuffle=mode)


def chained_indices(sampler, num_rows: int, state) -> np.ndarray:
    """The row ids `sampler` gives for one epoch, through its chain of child samplers: each
    parent samples positions in its child's output."""
    child = getattr(sampler, "child_sampler", None)
    if child is None:
        return np.asarray(sampler.indices(num_rows, state), np.int64)
    ids = chained_indices(child, num_rows, state)
    return ids[np.asarray(sampler.indices(len(ids), state), np.int64)]


def chained_count(sampler, num_rows: int) -> int:
    """How many rows `sampler` gives over a dataset of `num_rows`, through its children."""
    child = getattr(sampler, "child_sampler", None)
    if child is not None:
        num_rows = chained_count(child, num_rows)
    return sampler.count(num_rows)
