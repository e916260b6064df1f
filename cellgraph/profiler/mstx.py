"""`mindspore.profiler.mstx`: user markers in the trace of the profilers recording now (as in
MindSpore, a marker with no profiler recording is not kept)."""
from __future__ import annotations

import itertools

from .profiler import _ACTIVE

_ids = itertools.count(1)
_open: dict = {}  # range id -> (message, start ns per profiler)


def mark(message: str, stream=None, domain: str = "default") -> None:
    """An instant event named `message`."""
    for prof in _ACTIVE:
        if prof.recording.active:
            prof.recording.markers.append((message, prof.recording.now(), 0))


def range_start(message: str, stream=None, domain: str = "default") -> int:
    """Open a range named `message`; returns its id for range_end."""
    range_id = next(_ids)
    _open[range_id] = (message, {id(p): p.recording.now() for p in _ACTIVE})
    return range_id


def range_end(range_id: int, domain: str = "default") -> None:
    """Close the range: one event spanning it in each profiler that recorded its start."""
    if range_id not in _open:
        raise ValueError(f"mstx.range_end: no open range with id {range_id!r}")
    message, starts = _open.pop(range_id)
    for prof in _ACTIVE:
        if id(prof) in starts and prof.recording.active:
            start = starts[id(prof)]
            prof.recording.markers.append((message, start, prof.recording.now() - start))
