"""DatasetCache: rows kept in memory after the first pass, so later epochs skip reading and
decoding.

MindSpore's cache is a separate server process (`cache_admin`) that several pipelines share
through a session id. Here the cache lives in the training process: a source with random access
caches each row by its index the first time the sampler asks for it; a `map(..., cache=c)`
caches the map's output rows once one whole epoch has run through it, and replays them after
that (so random transforms under a cached map are drawn once, as in MindSpore). With `size`
(MB) set, rows past that budget are not cached: a source reads them again each epoch, and a
map whose output did not fit whole keeps recomputing its epochs.
"""
from __future__ import annotations

import numbers

import numpy as np

from .engine import Dataset

__all__ = ["DatasetCache"]


def _nbytes(row: tuple) -> int:
    return sum(np.asarray(value).nbytes for value in row)


class CacheStat:
    """What `DatasetCache.get_stat()` returns: rows held in memory and on disk, and the mean
    size in bytes of a cached row."""

    def __init__(self, num_mem_cached: int, num_disk_cached: int, avg_cache_sz: int):
        self.num_mem_cached, self.num_disk_cached = num_mem_cached, num_disk_cached
        self.avg_cache_sz = avg_cache_sz

    def __repr__(self) -> str:
        return (f"CacheStat(num_mem_cached={self.num_mem_cached}, num_disk_cached="
                f"{self.num_disk_cached}, avg_cache_sz={self.avg_cache_sz})")


class DatasetCache:
    """An in-process cache for a pipeline's rows (`cache=` of a source or of `map`)."""

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        for name, value in (("session_id", session_id), ("size", size)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise ValueError(f"DatasetCache: `{name}` must be an int >= 0, got {value!r}")
        if spilling:
            raise ValueError("DatasetCache: `spilling` to disk needs MindSpore's cache server, "
                             "which cellgraph does not run; this cache holds rows in memory "
                             "only (spilling=False)")
        self.session_id, self.size, self.spilling = int(session_id), int(size), False
        self.hostname, self.port = hostname, port
        self.num_connections, self.prefetch_size = num_connections, prefetch_size
        self._rows: dict = {}
        self._bytes = 0

    def _store(self, key, row: tuple) -> None:
        nbytes = _nbytes(row)
        if self.size and self._bytes + nbytes > self.size * 1024 * 1024:
            return  # full: this row is recomputed each epoch
        self._rows[key] = row
        self._bytes += nbytes

    def row(self, source, index: int, read) -> tuple:
        """Row `index` of `source`, read with `read(index)` on a miss."""
        key = (id(source), index)
        row = self._rows.get(key)
        if row is None:
            row = read(index)
            self._store(key, row)
        return row

    def over(self, node: Dataset) -> Dataset:
        """`node` with its output rows cached after its first complete epoch."""
        return CachedNode(node, self)

    def get_stat(self) -> CacheStat:
        count = len(self._rows)
        return CacheStat(count, 0, self._bytes // count if count else 0)


class CachedNode(Dataset):
    """The rows of its child, replayed from the cache once a full epoch has been stored."""

    def __init__(self, child, cache: DatasetCache):
        super().__init__([child])
        self.cache = cache
        self._complete = False

    def rows(self, state):
        if self._complete:
            yield from (self.cache._rows[(id(self), i)] for i in range(self._length))
            return
        length = 0
        for row in self.children[0].rows(state):
            self.cache._store((id(self), length), row)
            length += 1
            yield row
        self._length = length  # reached only when the epoch ran to its end
        self._complete = all((id(self), i) in self.cache._rows for i in range(length))
