"""Iterators over a pipeline, with the next rows prepared in a worker thread.

Each `for` over a DatasetIterator is one epoch. The epoch's rows are produced by a daemon
thread into a bounded queue (`config.get_prefetch_size()` deep), so reading files, decoding,
transforming and batching overlap the training step that consumes the previous batch; NumPy
releases the GIL in its array work, which is what lets the two run at once. An exception in
the pipeline is raised in the consumer, and an epoch abandoned early stops its thread.
"""
from __future__ import annotations

import queue
import threading

import numpy as np

from . import config
from .engine import EpochState, column_list, find_column

_END = object()


class _Failure:
    def __init__(self, error: BaseException):
        self.error = error


class _Producer(threading.Thread):
    def __init__(self, rows, convert, depth: int):
        super().__init__(daemon=True, name="cellgraph-dataset-prefetch")
        self.rows, self.convert = rows, convert
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.stopped = threading.Event()

    def run(self):
        try:
            for row in self.rows:
                if not self._put(self.convert(row)):
                    return
            self._put(_END)
        except BaseException as error:  # noqa: BLE001  (handed to the consumer, raised there)
            self._put(_Failure(error))

    def _put(self, item) -> bool:
        while not self.stopped.is_set():
            try:
                self.queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def stop(self):
        self.stopped.set()


class DatasetIterator:
    """`for row in it` runs one epoch; rows are lists of Tensors (or NumPy arrays, or dicts
    by column name)."""

    def __init__(self, dataset, columns, num_epochs, output_numpy, as_dict):
        if num_epochs is None or (isinstance(num_epochs, int) and num_epochs == -1):
            num_epochs = None
        elif isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or num_epochs < 1:
            raise ValueError(f"create_tuple_iterator: `num_epochs` must be a positive int or "
                             f"-1, got {num_epochs!r}")
        self.dataset, self.num_epochs = dataset, num_epochs
        self.names = dataset.column_names
        self.index = None if columns is None else [
            find_column(self.names, c, "create_tuple_iterator") for c in columns]
        if self.index is not None:
            self.names = list(columns)
        self.output_numpy, self.as_dict = bool(output_numpy), bool(as_dict)
        self.state = EpochState()
        self.epochs_started = 0
        self._producer: _Producer | None = None

    def _convert(self, row):
        if self.index is not None:
            row = tuple(row[i] for i in self.index)
        if self.output_numpy:
            values = [np.asarray(v) for v in row]
        else:
            from cellgraph.runtime.tensor import Tensor

            values = [Tensor(np.asarray(v)) for v in row]
        return dict(zip(self.names, values)) if self.as_dict else values

    def _start_epoch(self):
        if self.num_epochs is not None and self.epochs_started >= self.num_epochs:
            raise RuntimeError(f"dataset iterator: all {self.num_epochs} epoch(s) it was made "
                               f"for have run; create it with a larger `num_epochs`")
        self.stop()
        self.state.epoch = self.epochs_started
        self.epochs_started += 1
        rows = self.dataset.rows(self.state)
        self._producer = _Producer(rows, self._convert, config.get_prefetch_size())
        self._producer.start()

    def __iter__(self):
        self._start_epoch()
        return self

    def __next__(self):
        if self._producer is None:
            self._start_epoch()
        item = self._producer.queue.get()
        if item is _END:
            self._producer = None
            raise StopIteration
        if isinstance(item, _Failure):
            self._producer = None
            raise item.error
        return item

    def get_next(self):
        return next(self)

    def stop(self):
        """Stop the epoch in progress (its worker thread ends)."""
        if self._producer is not None:
            self._producer.stop()
            self._producer = None

    def __del__(self):
        self.stop()


class TupleIterator(DatasetIterator):
    """`dataset.create_tuple_iterator(...)`: each row as a list of Tensors (NumPy arrays with
    `output_numpy`), of all columns or of `columns` in that order."""

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        super().__init__(dataset, column_list(columns, "create_tuple_iterator", "columns"),
                         num_epochs, output_numpy, as_dict=False)


class DictIterator(DatasetIterator):
    """`dataset.create_dict_iterator(...)`: each row as {column name: Tensor}."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=False):
        super().__init__(dataset, None, num_epochs, output_numpy, as_dict=True)
