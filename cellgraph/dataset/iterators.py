"""Iterators over a pipeline, with the next rows prepared in a worker thread.

An iterator runs its epochs one after the other: `iter(it)` is `it` (as in MindSpore), so a
loop that stops early and a later loop over the same iterator continue one epoch, and the next
epoch starts with the first `next` after an epoch's end. The epoch's rows are produced by a
daemon thread into a bounded channel (`config.get_prefetch_size()` deep), so reading files,
decoding, transforming and batching overlap the training step that consumes the previous
batch; NumPy releases the GIL in its array work, which is what lets the two run at once. An
exception in the pipeline is raised in the consumer.

The worker holds no reference to its iterator: when the iterator is collected (or `stop()`ped)
the channel closes, which wakes a worker waiting for room, and the worker ends. Nothing polls.

Threads may share one iterator: each row goes to exactly one of them, and every thread that
took rows of an epoch sees that epoch's end (StopIteration, or the pipeline's error) once.
"""
from __future__ import annotations

import collections
import functools
import numbers
import os
import threading
import traceback
import weakref

import numpy as np

from .core import config
from .engine import EpochState, check_tree, column_list, find_column

_END = object()  # the epoch's last row was delivered
_CLOSED = object()  # the channel was closed before the epoch ended


class _Failure:
    def __init__(self, error: BaseException):
        self.error = error


class _Channel:
    """A bounded queue from the worker to the iterator. `close()` wakes both sides: a worker
    waiting for room gives up, a reader waiting for a row gets `_CLOSED`."""

    def __init__(self, depth: int):
        self._items: collections.deque = collections.deque()
        self._depth = depth
        self._ready = threading.Condition(threading.Lock())
        self.closed = False

    def put(self, item) -> bool:
        """Append `item` once there is room; False if the channel closed first."""
        with self._ready:
            while len(self._items) >= self._depth and not self.closed:
                self._ready.wait()
            if self.closed:
                return False
            self._items.append(item)
            self._ready.notify_all()
            return True

    def get(self):
        with self._ready:
            while not self._items and not self.closed:
                self._ready.wait()
            if not self._items:
                return _CLOSED
            item = self._items.popleft()
            self._ready.notify_all()
            return item

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._items.clear()
            self._ready.notify_all()


_RULE = "-" * 66
# the summaries MindSpore's data engine opens its errors with (one per status code)
_SUMMARIES = ("Exception thrown from ", "Syntax error.", "Shape is incorrect.",
              "Unexpected error.", "Data is out of memory.", "Interrupted system call")


def _as_pipeline_error(error: BaseException) -> BaseException:
    """A pipeline's RuntimeError as MindSpore's engine reports it when iterating: its summary,
    the message under "Dataset Pipeline Error Message" and, under MindSpore's heading for the
    framework's own call stack, where in cellgraph it was raised. Other errors, and those
    already worded so (a user function's report), pass as they are."""
    if type(error) is not RuntimeError or str(error).startswith(_SUMMARIES):
        return error
    root, summary = error, None
    while True:  # the error first raised (a map re-raises its operation's), and its summary
        summary = summary or getattr(root, "pipeline_summary", None)
        if root.__cause__ is None:
            break
        root = root.__cause__
    summary = summary or "Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline " \
                         "Error Message'."
    frames = traceback.extract_tb(root.__traceback__)
    where = ""
    if frames:
        path = frames[-1].filename.replace(os.sep, "/")
        path = path[path.rfind("cellgraph/"):] if "cellgraph/" in path else os.path.basename(path)
        where = f"{path}({frames[-1].lineno})."
    wrapped = RuntimeError(
        f"{summary} \n\n{_RULE}\n- Dataset Pipeline Error Message: \n{_RULE}\n[ERROR] {error}\n\n{_RULE}\n"
        f"- C++ Call Stack: (For framework developers) \n{_RULE}\n{where}\n\n\n")
    wrapped.__cause__ = error
    return wrapped


def _produce(rows, convert, channel: _Channel, on_end=None) -> None:
    """The worker thread's body: one epoch's rows into `channel`, then `_END` (or the error);
    `on_end()` runs once the epoch's rows are all out (the maps' dataset callbacks)."""
    try:
        for row in rows:
            if not channel.put(convert(row)):
                return
        if on_end is not None:
            on_end()
        channel.put(_END)
    except BaseException as error:  # noqa: BLE001  (handed to the consumer, raised there)
        channel.put(_Failure(_as_pipeline_error(error)))
    finally:
        close = getattr(rows, "close", None)
        if close is not None:  # a generator pipeline stopped early releases what it holds
            close()


def _numpy_out(value) -> np.ndarray:
    """A column's array as MindSpore's iterators hand it out: its 64-bit integers typed as C's
    long long, as the arrays MindSpore makes over its C++ tensors are (NumPy then writes
    `dtype=int64` in their repr), and C-contiguous, as every array over a MindSpore tensor is
    (a transform may have left a transposed view)."""
    array = np.asarray(value)
    if not array.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
        array = np.ascontiguousarray(array)
    if array.dtype.kind in "iu" and array.dtype.itemsize == 8:
        return array.view(np.longlong if array.dtype.kind == "i" else np.ulonglong)
    return array


def _python_out(value, output_numpy: bool):
    """What a dict column holds, as MindSpore's iterators hand it out: every value inside dicts,
    lists and tuples, recursively, as a NumPy array or a Tensor (strings stay arrays); other
    objects as they are."""
    if isinstance(value, dict):
        return {k: _python_out(v, output_numpy) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_python_out(v, output_numpy) for v in value)
    if not isinstance(value, (np.ndarray, np.generic, numbers.Number, str, bytes)):
        return value
    array = np.array(value)
    if output_numpy or array.dtype.kind in "SUO":
        return array
    from cellgraph.runtime.tensor import Tensor

    return Tensor.from_numpy(array)


def _convert(index, names, output_numpy: bool, as_dict: bool, row):
    if index is not None:
        row = tuple(row[i] for i in index)
    if output_numpy:
        values = [_python_out(v, True) if isinstance(v, dict) else _numpy_out(v) for v in row]
    else:
        from cellgraph.runtime.tensor import Tensor

        # strings and bytes stay NumPy arrays, as MindSpore gives them: no Tensor holds them
        # (a copy, as before: the pipeline may reuse its arrays; MindSpore makes these Tensors
        # over NumPy arrays, so they print as NumPy does)
        values = []
        for v in row:
            if isinstance(v, dict):
                values.append(_python_out(v, False))
                continue
            a = np.asarray(v)
            values.append(a if a.dtype.kind in "SUO" else Tensor.from_numpy(np.array(a)))
    return dict(zip(names, values)) if as_dict else values


class _Epoch:
    """One epoch in progress: its number, its worker's channel, and how it ended."""

    def __init__(self, number: int, channel: _Channel):
        self.number, self.channel = number, channel
        self.ended = False
        self.failure: BaseException | None = None


class DatasetIterator:
    """`for row in it` reads the current epoch; rows are lists of Tensors (or NumPy arrays, or
    dicts by column name)."""

    def __init__(self, dataset, columns, num_epochs, output_numpy, as_dict):
        if num_epochs is None or (isinstance(num_epochs, int) and num_epochs == -1):
            num_epochs = None
        elif isinstance(num_epochs, bool) or not isinstance(num_epochs, int) or num_epochs < 1:
            raise ValueError(f"create_tuple_iterator: `num_epochs` must be a positive int or "
                             f"-1, got {num_epochs!r}")
        check_tree(dataset)
        config._seed_for_debug_mode()
        self.dataset, self.num_epochs = dataset, num_epochs
        self.names = dataset.column_names
        self.index = None if columns is None else [
            find_column(self.names, c, "create_tuple_iterator") for c in columns]
        if self.index is not None:
            self.names = list(columns)
        elif any(name.startswith("_meta-") for name in self.names):
            # a source's metadata columns (extra_metadata=True) are left out until renamed
            self.index = [i for i, name in enumerate(self.names) if not name.startswith("_meta-")]
            self.names = [self.names[i] for i in self.index]
        self.output_numpy, self.as_dict = bool(output_numpy), bool(as_dict)
        self.state = EpochState()
        self.state.runs_callbacks = True  # a getter's pass (sizes, shapes) runs none
        self.epochs_started = 0
        self._epoch: _Epoch | None = None
        self._rows = 0  # rows the current epoch has delivered
        self._epoch_rngs: list = []  # the pipeline's generators as the current epoch began
        self._epoch_passes: list = []  # the sources' pass counts as it began
        self._stopped = False
        self._lock = threading.Lock()  # one reader at a time takes a row or ends an epoch
        self._reading = threading.local()  # per thread: the epoch it took rows from
        # closes the running epoch's channel when the iterator is collected: its worker ends
        self._channels: list[_Channel] = []
        # a new iterator starts every sync_wait afresh; when it ends, they stop blocking, so
        # that its worker, waiting in one, ends too
        self._syncs = list(dataset.sync_notifiers().values())
        for pair in self._syncs:
            pair.reset()
        weakref.finalize(self, _close_all, self._channels, self._syncs)
        ITERATORS_LIST.append(weakref.ref(self, _forget))
        init_step = dataset.get_init_step()
        if init_step:
            if config.get_debug_mode():
                from cellgraph import log as logger

                logger.warning("Dataset init step will be ignored in debug mode.")
            else:
                self._skip_steps(init_step)

    def _skip_steps(self, steps: int) -> None:
        """Read and drop the first `steps` rows (over the epochs, as an iterator started at
        step 0 reads them), so that every random generator of the pipeline (shuffles,
        samplers, random transforms) stands where that iterator's stood at that step."""
        size = self.dataset.get_dataset_size()
        if size:
            for _ in range(steps // size):
                epoch = self._start_epoch()
                while epoch.channel.get() is not _END:
                    pass  # (a failure ends the drain too: it is raised below, when read)
                epoch.ended = True
                self._channels.clear()
            steps %= size
        for _ in range(steps):
            try:
                next(self)
            except StopIteration:
                break

    def _reset(self, step: int, dataset_size: int) -> None:
        """Go back to (or on to) global step `step`, `dataset_size` steps an epoch: the rows
        from there come as they came to an iterator started at step 0 (MindSpore's recovery
        after a failure: the pipeline is replayed from its start, as set_init_step does)."""
        if step < 0:
            raise RuntimeError("Cannot reset the pipeline, reset step must be >= 0.")
        if self.num_epochs is not None and step >= dataset_size * self.num_epochs:
            raise RuntimeError("Cannot reset the pipeline, reset step must be less than "
                               "dataset_size * num_epochs.")
        with self._lock:
            _close_all(self._channels)  # the running epoch's worker ends
            self._channels.clear()
            self.state = EpochState()
            self.state.runs_callbacks = True
            self.epochs_started, self._epoch, self._rows = 0, None, 0
            self._reading = threading.local()
        self._skip_steps(step)

    def _start_epoch(self) -> _Epoch:
        if self.num_epochs is not None and self.epochs_started >= self.num_epochs:
            raise RuntimeError(f"User tries to fetch data beyond the specified number of "
                               f"epochs. (The dataset iterator was made for "
                               f"{self.num_epochs} epoch(s); create it with a larger "
                               f"`num_epochs`.)")
        self.state.epoch = self.epochs_started
        self.epochs_started += 1
        self._rows = 0
        self._epoch_rngs = self.state.rng_states()
        self._epoch_passes = self.state.pass_counts()
        channel = _Channel(config.get_prefetch_size())
        convert = functools.partial(_convert, self.index, self.names, self.output_numpy,
                                    self.as_dict)
        worker = threading.Thread(target=_produce, name="cellgraph-dataset-prefetch",
                                  args=(self.dataset.rows(self.state), convert, channel,
                                        self.state.epoch_ended),
                                  daemon=True)
        self._channels[:] = [channel]
        self._epoch = _Epoch(self.state.epoch, channel)
        worker.start()
        return self._epoch

    def __iter__(self):
        return self

    def __next__(self):
        with self._lock:
            if self._stopped:
                raise RuntimeError("dataset iterator: it was stopped (`stop()` or "
                                   "`release()`); create a new iterator to read again")
            epoch, mine = self._epoch, getattr(self._reading, "epoch", None)
            if mine is not None and (mine != epoch.number or epoch.ended):
                # this thread read an epoch that has ended since: it sees that end, once
                self._reading.epoch = None
                if mine == epoch.number and epoch.failure is not None:
                    raise epoch.failure
                raise StopIteration
            if epoch is None or epoch.ended:
                epoch = self._start_epoch()
            self._reading.epoch = epoch.number
            item = epoch.channel.get()
            if item is _CLOSED:
                raise RuntimeError("dataset iterator: it was stopped while reading")
            if item is _END or isinstance(item, _Failure):
                epoch.ended = True
                self._channels.clear()
                self._reading.epoch = None
                if item is _END:
                    if epoch.number == 0:
                        self._write_autotune()
                    raise StopIteration
                epoch.failure = item.error
                raise item.error
            self._rows += 1
            return item

    def _write_autotune(self) -> None:
        """With AutoTune writing its file, the pipeline this iterator ran (its first epoch
        done), as MindSpore's AutoTune writes it."""
        path = config.autotune_file()
        if path is None:
            return
        from cellgraph import log as logger

        from .engine.serializer_deserializer import write_autotune

        def offloaded(node):
            return getattr(node, "offload", None) is True or any(
                offloaded(child) for child in node.children)

        if offloaded(self.dataset):
            logger.warning("Some nodes have been offloaded. AutoTune is unable to write the "
                           "autotune configuration to disk. Disable offload to prevent this "
                           "from happening.")
            return
        if os.path.exists(path):
            logger.warning(f"File: <{path}> already exists. File will be overwritten with the "
                           f"AutoTuned data pipeline configuration.")
        write_autotune(self.dataset, path)

    @property
    def position(self) -> dict:
        """Where reading goes on, for `seek` to return to (a checkpoint records it to resume a
        run): {"epoch", "rows" delivered in it, "rng_states": the pipeline's random generators
        (shuffles, random samplers and transforms) as that epoch began, "passes": the passes
        begun over each source before it (their samplers draw by it)}. A finished epoch is the
        next one at row 0."""
        with self._lock:
            if self._epoch is None or self._epoch.ended:
                return {"epoch": self.epochs_started, "rows": 0,
                        "rng_states": self.state.rng_states(),
                        "passes": self.state.pass_counts()}
            return {"epoch": self._epoch.number, "rows": self._rows,
                    "rng_states": list(self._epoch_rngs), "passes": list(self._epoch_passes)}

    def seek(self, position: dict) -> None:
        """Continue from the `position` of an iterator over the same pipeline: the epoch's
        rows come in the order they came there (its random generators are restored) and the
        first `rows` of them are read and dropped. Only before the first row is read."""
        if not isinstance(position, dict) or not {"epoch", "rows"} <= set(position):
            raise ValueError(f"dataset iterator seek: expected a `position` of an iterator, got "
                             f"{position!r:.80}")
        epoch, rows = position["epoch"], position["rows"]
        for name, value in (("epoch", epoch), ("rows", rows)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"dataset iterator seek: `{name}` must be an int >= 0, got "
                                 f"{value!r}")
        with self._lock:
            if self._epoch is not None:
                raise RuntimeError("dataset iterator seek: the iterator has already been read; "
                                   "seek a new iterator")
            self.state.restore_rng_states(position.get("rng_states", ()))
            self.state.restore_pass_counts(position.get("passes", ()))
            self.epochs_started = int(epoch)
        for _ in range(int(rows)):
            try:
                next(self)
            except StopIteration:
                raise ValueError(f"dataset iterator seek: epoch {epoch} has fewer than {rows} "
                                 f"rows") from None

    def get_next(self):
        return next(self)

    def stop(self):
        """End the iterator: its worker thread ends, and reading from it again is an error
        (MindSpore's `stop`)."""
        self._stopped = True
        _close_all(self._channels, self._syncs)

    def release(self):
        self.stop()


# a weak reference to every iterator not yet collected, oldest first, for `_cleanup` to
# release (MindSpore's ITERATORS_LIST, which its tests read)
ITERATORS_LIST: list = []


def _forget(reference) -> None:
    if reference in ITERATORS_LIST:
        ITERATORS_LIST.remove(reference)


_CLEANUP_STATE = {"done": False}


def _cleanup() -> None:
    """Release every live iterator (their workers end), and note that it was done: MindSpore
    calls it at exit and its test suites after each test."""
    _set_iterator_cleanup()
    for reference in reversed(list(ITERATORS_LIST)):
        iterator = reference()
        if iterator is not None:
            iterator.release()


def _set_iterator_cleanup() -> None:
    _CLEANUP_STATE["done"] = True


def _unset_iterator_cleanup() -> None:
    _CLEANUP_STATE["done"] = False


def check_iterator_cleanup() -> bool:
    """Whether `_cleanup` has released the iterators since the flag was last unset."""
    return _CLEANUP_STATE["done"]


def _close_all(channels: list[_Channel], syncs: list = ()) -> None:
    for pair in syncs:
        pair.disable()
    for channel in list(channels):
        channel.close()


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
