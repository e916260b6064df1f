"""data_sink: a function that runs `fn` over the next `sink_size` batches of a dataset per
call (MindSpore's sink mode for hand-written loops; on the CPU the batches come from the
prefetching iterator)."""
from __future__ import annotations

import numbers

__all__ = ["data_sink"]


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """`sink_fn()` calls `fn(*batch)` on the next `sink_size` batches (continuing across
    epochs) and returns the last result."""
    if not callable(fn):
        raise TypeError(f"data_sink: `fn` must be callable, got {type(fn).__name__}")
    if not hasattr(dataset, "create_tuple_iterator"):
        raise TypeError(f"data_sink: `dataset` must be a dataset, got {type(dataset).__name__}")
    if isinstance(sink_size, bool) or not isinstance(sink_size, numbers.Integral) or \
            sink_size < 1:
        raise ValueError(f"data_sink: `sink_size` must be a positive int, got {sink_size!r}")
    iterator = dataset.create_tuple_iterator(num_epochs=-1)
    stream = [None]

    def next_batch():
        if stream[0] is None:
            stream[0] = iter(iterator)
        try:
            return next(stream[0])
        except StopIteration:
            stream[0] = iter(iterator)
            return next(stream[0])

    def sink_fn(*args):
        result = None
        for _ in range(sink_size):
            result = fn(*next_batch(), *args)
        return result

    return sink_fn
