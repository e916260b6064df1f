"""The pipeline operations as nodes: map, batch, shuffle, repeat, project, rename, take/skip,
sync_wait and the subsets that split makes. Each is named as MindSpore names the dataset the
operation returns (`MapDataset`, `TakeDataset`, ...), the name a program sees in `type(data)`."""
from __future__ import annotations

import collections
import copy
import inspect
import itertools
import numbers
import threading
import traceback
import types
import warnings

import numpy as np

from cellgraph.mindrecord.checks import pipeline_error

from . import _std_shuffle
from .core import config
from .core.validator_helpers import check_independent_mode, type_check
from .engine import Dataset, calling_for, column_list, consumers, find_column
from .transforms.transforms import TensorOperation

_RULE = "-" * 66
# the file the row being read came from, set by the file sources as they read (per thread)
ROW_FILE = threading.local()


def user_code_error(error: Exception, context: str = "") -> RuntimeError:
    """An error of the user's Python code run by the pipeline (a generator, a map function, a
    per_batch_map), as MindSpore reports it: a RuntimeError with the code's traceback."""
    stack = "".join(traceback.format_exception(error)).rstrip("\n")
    return user_code_failure(f"{context}{stack}")


def user_code_failure(call_stack: str) -> RuntimeError:
    """MindSpore's report of user Python code that failed, with `call_stack` (a traceback, or
    what its check of the code's result found) under "Python Call Stack"."""
    return RuntimeError(
        f"Exception thrown from user defined Python function in dataset. \n\n{_RULE}\n"
        f"- Python Call Stack: \n{_RULE}\n{call_stack}\n\n{_RULE}\n- Dataset Pipeline "
        f"Error Message: \n{_RULE}\n[ERROR] Execute user Python code failed, check 'Python "
        f"Call Stack' above.")


def _pyfunc_error(error: Exception) -> RuntimeError:
    """A Python function's error in a map, as MindSpore reports it: a RuntimeError naming the
    map, the data file of the row (when a file source read it) and the function's traceback."""
    path = getattr(ROW_FILE, "path", None)
    where = f" The corresponding data file is: {path}." if path else ""
    return user_code_error(error, f"map operation: [PyFunc] failed.{where} Error description:\n"
                                  f"{type(error).__name__}: ")


def _call(op, *values):
    """One map operation on the values; a Python function's error becomes MindSpore's
    RuntimeError (the dataset transforms raise their own, MindSpore's, errors)."""
    if isinstance(op, TensorOperation):
        if len(values) > 1 and not _takes(op, len(values)):
            raise RuntimeError(f"map operation: [{type(op).__name__}] failed. The op is "
                               f"OneToOne, can only accept one tensor as input.")
        try:
            return op(*values)
        except RuntimeError as error:  # MindSpore names the map's operation and the data file
            path = getattr(ROW_FILE, "path", None)
            where = f" The corresponding data file is: {path}." if path else ""
            raise RuntimeError(f"map operation: [{type(op).__name__}] failed.{where} "
                               f"{error}") from error
        except Exception as error:  # a Python (Pillow-path) transform's: as a function's
            raise _pyfunc_error(error) from error
    try:
        return op(*values)
    except Exception as error:
        raise _pyfunc_error(error) from error


def _check_function_values(values: tuple) -> None:
    """MindSpore's check of the values a map's Python function returned, as it makes them
    tensors: None, values NumPy cannot make one array of, and objects of no data type (a
    generator) are the function's errors."""
    for value in values:
        if value is None:
            raise user_code_failure("map operation: [PyFunc] failed. Got None from Python "
                                    "object.")
        if isinstance(value, (dict, str, bytes, numbers.Number)):
            continue
        try:
            array = np.asarray(value)
        except (ValueError, TypeError) as error:
            raise _pyfunc_error(error) from error
        if array.dtype == object:
            raise user_code_failure(f"map operation: [PyFunc] failed. Failed to create tensor "
                                    f"from numpy array, data type is unknown (the function "
                                    f"returned {type(value).__name__}).")


def _takes(op, count: int) -> bool:
    """Whether the transform's __call__ takes `count` inputs."""
    try:
        inspect.signature(op.__call__).bind(*range(count))
    except TypeError:
        return False
    return True


def _as_tuple(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _decomposed(ops: list) -> list:
    """A Compose among the operations as its transforms, in place (MindSpore decomposes it,
    so an error names the transform that failed)."""
    from .transforms.transforms import Compose

    out = []
    for op in ops:
        out.extend(_decomposed(op.transforms) if type(op) is Compose else [op])
    return out


def _operation_list(operations) -> list:
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    for op in ops:  # MindSpore's checks and words
        if type(op) is type:  # a transform class given without its parentheses
            raise ValueError(f"Parameter operations's element of method map should be a dataset "
                             f"processing operation instance, but got: {op}. It may be missing "
                             f"parentheses for instantiation.")
        if not callable(op):
            raise ValueError(  # noqa: TRY004 (MindSpore raises ValueError)
                f"Parameter operations's element of method map should be a python function or "
                f"class method which should be callable, but got: {op}. It doesn't need "
                f"parentheses for python function or class method.")
    ops = _decomposed(ops)
    if not ops:
        raise ValueError("map: `operations` is empty")
    from .debug import DebugHook

    if any(isinstance(op, DebugHook) for op in ops) and not config.get_debug_mode():
        raise ValueError("It is not allowed to inject DebugHook object in non-debug mode.")
    if config.get_debug_mode() and config._get_debug_hook_list():
        steps = _debug_steps(_operation_name(ops[0]), first=True)
        for op in ops:
            steps += [op] + _debug_steps(_operation_name(op))
        ops = steps
    return [_DebugStep(op) if isinstance(op, DebugHook) else op for op in ops]


def _operation_name(op) -> str:
    return getattr(op, "__name__", None) if isinstance(op, types.FunctionType) else \
        type(op).__name__


def _debug_steps(name: str, first: bool = False) -> list:
    """A copy of each of debug mode's hooks, told the operation it sees the input (before the
    first operation) or the output of."""
    steps = []
    for hook in config._get_debug_hook_list():
        hook = copy.deepcopy(hook)
        hook.set_previous_op_name(name)
        hook.set_is_first(first)
        steps.append(hook)
    return steps


class _DebugStep:
    """A DebugHook among a map's operations: the hook sees the columns, which pass on as they
    came."""

    def __init__(self, hook):
        self.hook = hook

    def __call__(self, *columns):
        self.hook(*columns)
        return columns[0] if len(columns) == 1 else columns


def _map_layout(names: list, inputs: list, outputs: list, input_index: list):
    """A map's columns as MindSpore lays them out: as many outputs as inputs take the inputs'
    places; otherwise the outputs come first, then the columns the map does not read. A name
    given twice keeps its later place (the earlier column is no longer seen). Returns the names
    and, for each, (True, output index) or (False, the child's column index)."""
    if len(inputs) == len(outputs):
        places = {n: (j, (False, j)) for j, n in enumerate(names)}
        for name in inputs:
            places.pop(name, None)
        for i, name in enumerate(outputs):
            places[name] = (input_index[i], (True, i))
    else:
        places = {n: (i, (True, i)) for i, n in enumerate(outputs)}
        kept = [j for j, n in enumerate(names) if n not in inputs]
        for t, j in enumerate(kept):
            places[names[j]] = (len(outputs) + t, (False, j))
    ordered = sorted(places.items(), key=lambda item: item[1][0])
    return [n for n, _ in ordered], [source for _, (_, source) in ordered]


class MapDataset(Dataset):
    """Each row's `input_columns` go through the operations; the results take their place."""

    def __init__(self, child, operations, input_columns, output_columns, column_order,
                 callbacks=None):
        super().__init__([child])
        self.operations = _operation_list(operations)
        self.callbacks = callbacks or []  # DSCallbacks (dataset.callback)
        names = child.column_names
        self.inputs = column_list(input_columns, "map", "input_columns") or names[:1]
        self.outputs = column_list(output_columns, "map", "output_columns") or self.inputs
        self.input_index = [find_column(names, c, "map") for c in self.inputs]
        self._names, self._sources = _map_layout(names, self.inputs, self.outputs,
                                                 self.input_index)
        if column_order is not None:
            self._names_order = column_list(column_order, "map", "column_order")
        else:
            self._names_order = None
        one_to_one = len(self.inputs) == len(self.outputs) == 1 and \
            self._names_order is None and len(self._names) == len(names)
        self._one_to_one = self.input_index[0] if one_to_one else None
        self._handling_key = object()  # what the iterator keeps the error handling under
        self._turns_key = object()  # and the workers' turns (_WorkerTurns)
        # a Python function's values become the row's tensors when the map's operations end in
        # one (the functions in a row are composed, passing Python values to each other)
        self._ends_in_function = bool(self.operations) and \
            not isinstance(self.operations[-1], TensorOperation)

    @property
    def column_names(self):
        return list(self._names_order or self._names)

    def transform(self, row: tuple) -> tuple:
        return self._arrange(row, self._operate(row))

    def _operate(self, row: tuple):
        """The operations on the row's input columns: the one value of a one-to-one map that
        gives one, else a tuple of the values."""
        if self._one_to_one is not None:  # the common case, kept lean: it runs once per row
            value = row[self._one_to_one]
            for op in self.operations:  # a transform's several outputs go on as several inputs
                value = _call(op, *value) if type(value) is tuple else _call(op, value)
            if self._ends_in_function:
                _check_function_values(_as_tuple(value))
            return value
        values = tuple(row[i] for i in self.input_index)
        for op in self.operations:
            values = _as_tuple(_call(op, *values))
        if self._ends_in_function:
            _check_function_values(values)
        return values

    def _arrange(self, row: tuple, values) -> tuple:
        """The output row: the operations' values in place of the input columns."""
        if type(values) is not tuple:
            i = self._one_to_one
            return row[:i] + (values,) + row[i + 1:]
        if len(values) != len(self.outputs):
            raise RuntimeError(f"Invalid columns, the number of columns returned in 'map' "
                               f"operations should match the number of 'output_columns', but "
                               f"got the number of columns returned in 'map' operations: "
                               f"{len(values)}, the number of 'output_columns': "
                               f"{len(self.outputs)}.")
        out = tuple(values[i] if is_output else row[i] for is_output, i in self._sources)
        if self._names_order is not None:
            out = tuple(out[self._names.index(c)] for c in self._names_order)
        return out

    def _transform_or_fail(self, row: tuple):
        """The output row, or _FAILED where the operations raise (the rows the error samples
        mode replaces or skips; a wrong count of outputs still raises, as in MindSpore)."""
        try:
            values = self._operate(row)
        except Exception:  # noqa: BLE001 - any error of the operations marks the row
            return _FAILED
        return self._arrange(row, values)

    def rows(self, state):
        # MindSpore checks each operation's parameters when it builds the pipeline, before any
        # row is read (and this map's before those of the maps it reads from)
        for op in self.operations:
            check = getattr(op, "_validate_params", None)
            if check is not None:
                check()
        # the error samples mode is the one set when the iterator started (MindSpore sets the
        # map's strategy when it launches the pipeline)
        handling = state.keep(self._handling_key, _error_handling)
        run = calling_for(state, self.transform if handling is None else self._transform_or_fail)
        # (MindSpore's debug mode runs the pipeline in one thread)
        workers = 1 if config.get_debug_mode() else \
            getattr(self, "num_parallel_workers", None) or config.get_num_parallel_workers()
        if workers > 1:
            turns = state.keep(self._turns_key, lambda: _WorkerTurns(workers))
            state.on_epoch_end(turns.end_epoch)
            run = turns.wrap(state, run)
        if not self.callbacks or not state.runs_callbacks:
            out = map(run, self.children[0].rows(state))
        else:
            from .callback import _MapCallbacks

            hooks = state.keep(self, lambda: _MapCallbacks(self.callbacks))
            hooks.enter(state.epoch)
            state.on_epoch_end(hooks.end_epoch)
            out = (hooks.step(run, row) for row in self.children[0].rows(state))
        return out if handling is None else handling.rows(out)


_FAILED = object()  # a row the map's operations failed on


class _WorkerTurns:
    """Which of a map's workers runs each row, as MindSpore deals them: in turn, over a
    pass's epochs, each epoch's end marker taking a turn too. The worker's index picks the
    copy of the C++ random ops that draws for the row (EpochState.words)."""

    def __init__(self, workers: int):
        self.workers, self.turn = workers, 0

    def end_epoch(self) -> None:
        self.turn += 1

    def wrap(self, state, run):
        def run_on_worker(row):
            state.worker = self.turn % self.workers
            self.turn += 1
            try:
                return run(row)
            finally:
                state.worker = 0

        return run_on_worker


def _error_handling():
    if config.get_debug_mode():  # MindSpore's debug mode ignores the error samples mode
        return None
    mode = config.get_error_samples_mode()
    if mode == config.ErrorSamplesMode.REPLACE:
        return _ReplaceFailed()
    if mode == config.ErrorSamplesMode.SKIP:
        return _SkipFailed()
    return None


class _SkipFailed:
    """ErrorSamplesMode.SKIP: the rows the operations failed on are left out."""

    @staticmethod
    def rows(rows):
        return (row for row in rows if row is not _FAILED)


class _ReplaceFailed:
    """ErrorSamplesMode.REPLACE, as MindSpore's map replaces a failed row: it keeps copies of up
    to 16 good rows, newest first; while that cache is not full of unused rows a failed row is
    owed, and each good row that comes once it is full first pays one owed row with a cached
    copy (and takes that copy's place in the cache); the rows still owed at the end of an epoch
    are paid from the cache, and an epoch that owes rows with none cached raises. The cache
    lasts across the iterator's epochs, as MindSpore's does."""

    SIZE = 16

    def __init__(self):
        self.cache = collections.deque()
        self.index = -1  # the cached row to send next (it goes below 0 once all are used)
        self.owed = 0

    def _cached(self) -> tuple:
        # MindSpore indexes the cache with the index as an unsigned 64-bit number (so an index
        # below 0 counts from 2**64)
        row = self.cache[(self.index % 2 ** 64) % len(self.cache)]
        self.index -= 1
        return copy.deepcopy(row)

    def _keep(self, row: tuple) -> None:
        self.cache.appendleft(copy.deepcopy(row))
        self.index += 1

    def rows(self, rows):
        for row in rows:
            if row is _FAILED:
                if self.index != self.SIZE - 1:
                    self.owed += 1
                else:
                    yield self._cached()
                continue
            if self.index < self.SIZE - 1:  # the cache has used rows or room
                if len(self.cache) == self.SIZE:
                    self.cache.pop()  # the oldest, a used one
                self._keep(row)
            elif self.owed:
                replacement = self._cached()
                self.cache.pop()
                self.owed -= 1
                self._keep(row)
                yield replacement
            yield row
        if self.owed and not self.cache:
            raise pipeline_error("All data is garbage and cannot be replaced.")
        while self.owed:
            self.owed -= 1
            yield self._cached()


class BatchInfo:
    """What `per_batch_map` learns about the batch it is given."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self) -> int:
        return self._batch_num

    def get_epoch_num(self) -> int:
        return self._epoch_num


def _collate_dicts(values: list, index: int) -> dict:
    """Rows that are dicts, as one dict of lists (key by key, in the first row's order), with
    MindSpore's checks that the rows share their keys."""
    keys = list(values[0])
    for row in values[1:]:
        if len(row) != len(keys):
            raise RuntimeError(f"Failed to create a batch since number of key/value pairs in "
                               f"dictionaries do not match. First row: {len(keys)}, current "
                               f"row: {len(row)}")
        for key in row:
            if key not in values[0]:
                raise RuntimeError(f"Python dictionary keys do not match when creating a batch: "
                                   f"{key} was not found in previous rows.")
    return {k: [row[k] for row in values] for k in keys}


def stack_column(values, column: str, index: int = 0, per_batch_map=False):
    """A batch of one column: its rows stacked along a new first axis. Rows that are dicts
    batch key by key, as MindSpore batches them: each key's values as one NumPy array, or,
    after a `per_batch_map`, as a list. A dict a `per_batch_map` returned is already the
    batch's value, as is an array it returned with every other column an array or a dict."""
    if isinstance(values, (dict, np.ndarray)):
        return values
    if values and isinstance(values[0], dict):
        collated = _collate_dicts(values, index)
        if per_batch_map:
            return collated
        out = {}
        for key, items in collated.items():
            try:
                array = np.array(items)
            except ValueError as error:
                raise RuntimeError(f"Failed to batch Python dictionary: ValueError: {error}") \
                    from None
            if array.dtype == object:
                raise RuntimeError(f"Batch: failed to create a NumPy array with primitive types "
                                   f"for the dictionary objects in column {index}, key: "
                                   f"'{key}'.\nIf you want a customized array, define a custom "
                                   f"'per_batch_map' function.")
            out[key] = array
        return out
    arrays = [np.asarray(v) for v in values]
    for array in arrays[1:]:  # MindSpore's words, which its tests match
        if array.shape != arrays[0].shape:
            raise RuntimeError(f"Cannot batch tensors with different shapes in column {index}. "
                               f"First element had shape {_shape_text(arrays[0].shape)} and "
                               f"this element had shape {_shape_text(array.shape)}")
        if array.dtype != arrays[0].dtype and not (array.dtype.kind in "US" and
                                                   arrays[0].dtype.kind in "US"):
            raise RuntimeError(f"Cannot batch tensors with different types in column {index}. "
                               f"First element had type {_type_text(arrays[0].dtype)} and this "
                               f"element had type {_type_text(array.dtype)}")
    return np.stack(arrays)


def _shape_text(shape) -> str:
    return "<" + ",".join(str(d) for d in shape) + ">"


def _type_text(dtype) -> str:
    return "string" if dtype.kind in "US" else dtype.name


def pad_column(values: list, column: str, pad) -> list:
    """The column's arrays padded at the end of each axis to `pad` = (shape, value): a shape
    of None, or a None axis in it, pads to the longest in the batch; value None is 0 ("" for
    strings). An array longer than a fixed shape is an error, as in MindSpore."""
    shape, value = pad
    arrays = [np.asarray(v) for v in values]
    ranks = {a.ndim for a in arrays}
    if len(ranks) != 1:
        raise ValueError(f"batch: column {column!r} holds rows of different ranks {sorted(ranks)}")
    longest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else ()
    shape = list(longest) if shape is None else list(shape)
    if len(shape) != len(longest):
        raise ValueError(f"batch: the pad shape {shape} of column {column!r} has {len(shape)} "
                         f"axes, its rows have {len(longest)}")
    target = tuple(int(n) if d is None else int(d) for n, d in zip(longest, shape))
    out = []
    for a in arrays:
        if any(n > t for n, t in zip(a.shape, target)):
            raise ValueError(f"batch: a row of column {column!r} of shape {a.shape} is longer "
                             f"than the pad shape {list(target)}")
        fill = value if value is not None else ("" if a.dtype.kind in "US" else 0)
        padded = np.full(target, fill, dtype=a.dtype)
        padded[tuple(slice(0, n) for n in a.shape)] = a
        out.append(padded)
    return out


class BatchDataset(Dataset):
    """`dataset.batch(...)`: `batch_size` rows stacked into one (MindSpore's BatchDataset);
    with `pad_info`, rows of different shapes are padded first (`padded_batch`)."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False,
                 num_parallel_workers=None, per_batch_map=None, input_columns=None,
                 output_columns=None, python_multiprocessing=False, max_rowsize=None):
        super().__init__([input_dataset])
        child = input_dataset
        # the class takes any int or callable, as MindSpore's does (`batch()` checks the range
        # first); an int below 1 is refused when the rows are read
        if not (isinstance(batch_size, int) or callable(batch_size)):
            raise TypeError("batch_size should either be an int or a callable.")
        # a callable gives each batch's size from its BatchInfo; -1 is refused when read
        self.batch_size_func = batch_size if callable(batch_size) else None
        self.batch_size = 1 if callable(batch_size) else int(batch_size)
        for pair in child.sync_notifiers().values():  # sync_wait counts batches of this size
            pair.update_batched_size(self.batch_size)
        self.drop_remainder = bool(drop_remainder)
        self.pad_info = None
        self.per_batch_map = per_batch_map
        names = child.column_names
        self.inputs = column_list(input_columns, "batch", "input_columns") or names
        self.outputs = column_list(output_columns, "batch", "output_columns") or self.inputs
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"batch: `per_batch_map` must be callable, got {per_batch_map!r}")

    def _padding(self, pad_info) -> BatchDataset:
        """Pad each batch's rows as `pad_info` says (`padded_batch`); returns self."""
        self.pad_info = _check_pad_info(pad_info, self.children[0].column_names)
        return self

    def _layout(self) -> tuple[list[int], list[str], bool]:
        """The positions of the input columns, the names of the output columns and whether
        the mapped columns take the inputs' places, as MindSpore's batch lays them out: as
        many outputs as inputs take their places; otherwise the outputs come first, then the
        columns that were not inputs. Columns that do not fit are MindSpore's RuntimeError,
        raised when the pipeline is read."""
        names = self.children[0].column_names
        if self.per_batch_map is None:
            return [], list(names), True
        for column in self.inputs:
            if column not in names:
                raise RuntimeError(f"Invalid input_columns, '{column}' of 'input_columns' "
                                   f"doesn't exist.")
        index = [names.index(c) for c in self.inputs]
        if self.outputs == self.inputs:
            return index, list(names), True
        rest = [c for c in names if c not in self.inputs]
        in_place = len(self.outputs) == len(self.inputs)
        if in_place:
            out = list(names)
            for position, column in zip(index, self.outputs):
                out[position] = column
        else:
            out = list(self.outputs) + rest
        if len(set(out)) != len(out):
            raise RuntimeError(
                f"Invalid output_columns, columns that are not involved in 'per_batch_map' "
                f"should not be in output_columns, but got columns that are not in "
                f"input_columns: [{''.join(c + ',' for c in rest)}], output_columns: "
                f"[{''.join(c + ',' for c in self.outputs)}].")
        return index, out, in_place

    @property
    def column_names(self):
        return self._layout()[1]

    def count(self):
        n = self.children[0].count()
        if n is None or self.batch_size_func is not None or self.batch_size < 1:
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def rows(self, state):
        if self.batch_size == -1:
            raise RuntimeError("Batch size cannot be -1 without using batch sampler.")
        if self.batch_size_func is None and self.batch_size < 1:
            raise RuntimeError(f"Batch: 'batch_size' should be positive integer, but got: "
                               f"{self.batch_size}")
        rows = self.children[0].rows(state)
        for number in itertools.count():
            size = self.batch_size
            if self.batch_size_func is not None:
                size = self.batch_size_func(BatchInfo(number, state.epoch))
                if isinstance(size, bool) or not isinstance(size, numbers.Integral) or \
                        size < 1:
                    raise RuntimeError(f"batch: the callable batch_size gave {size!r}; "
                                       f"expected a positive int")
            chunk = list(itertools.islice(rows, size))
            if not chunk or (self.drop_remainder and len(chunk) < size):
                return
            yield self._stack(chunk, number, state)

    def _stack(self, chunk, number, state) -> tuple:
        names = self.children[0].column_names
        columns = [[row[i] for row in chunk] for i in range(len(names))]
        if self.per_batch_map is not None:
            index, _, in_place = self._layout()
            try:
                mapped = self.per_batch_map(*(columns[i] for i in index),
                                            BatchInfo(number, state.epoch))
            except Exception as error:
                raise user_code_error(error) from error
            mapped = _as_tuple(mapped)
            if len(mapped) != len(self.outputs):  # MindSpore's words
                raise RuntimeError(f"Invalid per_batch_map, the number of columns returned in "
                                   f"'per_batch_map' function should be {len(self.outputs)} , "
                                   f"but got: {len(mapped)}")
            mapped = self._batch_map_columns(mapped, len(chunk))
            if in_place:
                for i, values in zip(index, mapped):
                    columns[i] = values
            else:
                columns = mapped + [c for i, c in enumerate(columns) if i not in index]
        if self.pad_info is not None:
            columns = [pad_column(values, name, self.pad_info.get(name, (None, None)))
                       if name in self.pad_info or not isinstance(values, dict) else values
                       for values, name in zip(columns, self.column_names)]
        return tuple(stack_column(values, name, index, self.per_batch_map is not None)
                     for index, (values, name) in enumerate(zip(columns, self.column_names)))

    def _batch_map_columns(self, mapped: tuple, rows: int) -> list:
        """What `per_batch_map` returned, as MindSpore reads it: arrays and dicts only, each the
        batch's value as it is; otherwise each a list of one value per row (a dict refused)."""
        if all(isinstance(v, (np.ndarray, dict)) for v in mapped):
            return [dict(v) if isinstance(v, dict) else v for v in mapped]
        columns = []
        for name, values in zip(self.outputs, mapped):
            if isinstance(values, dict):  # MindSpore's error type and words
                raise RuntimeError(  # noqa: TRY004
                    "Failed to convert rows: mismatched types returned from per_batch_map "
                    "function. If different types are returned, all of them should be "
                    "convertible to Python lists. Got: Python dict")
            values = list(values)
            if len(values) != rows:
                raise RuntimeError(f"Invalid data, column: {name} expects: {rows} rows returned "
                                   f"from 'per_batch_map', got: {len(values)}")
            columns.append(values)
        return columns


class BucketBatchByLengthDataset(Dataset):
    """`dataset.bucket_batch_by_length(...)`: each row goes to the bucket of its length (the
    first axis of its column, or `element_length_function` of the columns named), bucket i
    holding lengths in [boundary[i-1], boundary[i]); a bucket that reaches its batch size is
    padded (`pad_info`, None axes to the longest, or with `pad_to_bucket_boundary` to the
    bucket's boundary - 1) and batched; at the end the partial buckets follow in order unless
    `drop_remainder`."""

    def __init__(self, input_dataset, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                 drop_remainder=False):
        super().__init__([input_dataset])
        self.length_columns = list(column_names)
        self.boundaries, self.batch_sizes = list(bucket_boundaries), list(bucket_batch_sizes)
        self.length_function = element_length_function
        # a pad_info (even {}) pads every column, None axes to the longest, with 0
        self.pad_info = None if pad_info is None else dict(pad_info)
        self.pad_to_boundary, self.drop_remainder = pad_to_bucket_boundary, drop_remainder

    @property
    def column_names(self):
        return self.children[0].column_names

    def count(self):
        return None

    def _length(self, row) -> int:
        if self.length_function is None:
            value = np.asarray(row[self.length_index[0]])
            if value.ndim == 0:
                raise RuntimeError("BucketBatchByLength: the column to bucket by must have at "
                                   "least one axis when no element_length_function is given")
            return int(value.shape[0])
        length = self.length_function(*(row[i] for i in self.length_index))
        if isinstance(length, np.ndarray):
            length = length.item()
        if isinstance(length, bool) or not isinstance(length, numbers.Integral) or length < 0:
            raise RuntimeError(f"BucketBatchByLength: element_length_function must return a "
                               f"non-negative int, got {length!r}")
        return int(length)

    def _batch(self, rows, bucket) -> tuple:
        names = self.column_names
        columns = [[row[i] for row in rows] for i in range(len(names))]
        out = []
        for index, (values, name) in enumerate(zip(columns, names)):
            if self.pad_info is not None:
                shape, value = self.pad_info.get(name) or (None, None)
                if self.pad_to_boundary and self.pad_info.get(name) is not None:
                    if bucket >= len(self.boundaries):  # MindSpore's words
                        raise RuntimeError(f"Invalid data, requested to pad to bucket boundary "
                                           f"failed, bucket index should be less than "
                                           f"{len(self.boundaries) + 1}, but got {bucket}")
                    rank = np.asarray(values[0]).ndim
                    shape = [None] * rank if shape is None else list(shape)
                    shape = [self.boundaries[bucket] - 1 if d is None else d for d in shape]
                values = pad_column(values, name, (shape, value))
            out.append(stack_column(values, name, index))
        return tuple(out)

    def rows(self, state):
        names = self.column_names
        if any(c not in names for c in self.length_columns):
            raise RuntimeError("BucketBatchByLength: Couldn't find the specified column in the "
                               f"dataset: {self.length_columns} among {names}")
        self.length_index = [names.index(c) for c in self.length_columns]
        buckets = [[] for _ in self.batch_sizes]
        for row in self.children[0].rows(state):
            length = self._length(row)
            bucket = sum(1 for b in self.boundaries if b <= length)
            buckets[bucket].append(row)
            if len(buckets[bucket]) == self.batch_sizes[bucket]:
                yield self._batch(buckets[bucket], bucket)
                buckets[bucket] = []
        if not self.drop_remainder:
            for bucket, rows in enumerate(buckets):
                if rows:
                    yield self._batch(rows, bucket)


def _check_pad_info(pad_info, names) -> dict | None:
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise TypeError(f"batch: `pad_info` must be a dict of column -> (shape, value), got "
                        f"{type(pad_info).__name__}")
    for column, pad in pad_info.items():
        find_column(names, column, "batch")
        if not isinstance(pad, (tuple, list)) or len(pad) != 2 or not (
                pad[0] is None or isinstance(pad[0], (list, tuple))):
            raise TypeError(f"batch: `pad_info[{column!r}]` must be (shape or None, value), "
                            f"got {pad!r}")
    return {column: tuple(pad) for column, pad in pad_info.items()}


class FilterDataset(Dataset):
    """The rows for which `predicate(*input_columns)` is true."""

    def __init__(self, child, predicate, input_columns):
        super().__init__([child])
        if not callable(predicate):
            raise TypeError(f"filter: `predicate` must be callable, got {predicate!r}")
        self.predicate = predicate
        names = child.column_names
        inputs = column_list(input_columns, "filter", "input_columns") or names
        self.input_index = [find_column(names, c, "filter") for c in inputs]

    def count(self):
        return None

    def rows(self, state):
        for row in self.children[0].rows(state):
            if bool(np.asarray(self.predicate(*(row[i] for i in self.input_index)))):
                yield row


class ShuffleDataset(Dataset):
    """MindSpore's buffer shuffle: each row out is drawn at random from a buffer that the rows
    coming in refill."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = buffer_size

    def rows(self, state):
        seed = config.mindspore_seed()
        if seed is not None:  # MindSpore's order: its generator, kept over epochs and repeats
            words = state.keep(self, lambda: _std_shuffle.Mt19937x64(seed))
            yield from _std_shuffle.buffer_shuffle(self.children[0].rows(state),
                                                   self.buffer_size, words)
            return
        rng = state.rng(self)
        buffer, picks = [], iter(())
        for row in self.children[0].rows(state):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            pick = next(picks, None)
            if pick is None:  # drawn in blocks: one draw per row costs more than the row
                picks = iter(rng.integers(self.buffer_size, size=256).tolist())
                pick = next(picks)
            yield buffer[pick]
            buffer[pick] = row
        for pick in rng.permutation(len(buffer)):
            yield buffer[pick]


class ReleasePair:
    """`sync_wait`'s condition, as MindSpore's BlockReleasePair: `rows` rows pass before the
    pipeline blocks; each `release` (a `sync_update`) lets that many more through and calls the
    callback with its data. Blocking longer than `config.get_callback_timeout()` seconds warns
    and stops blocking, as MindSpore does; an iterator that stops disables it, so that its
    worker thread ends."""

    def __init__(self, rows: int, callback=None):
        self.default_rows = rows
        self.row_count = -rows
        self.callback = callback
        self.disabled = False
        self.cv = threading.Condition()

    def reset(self) -> None:
        with self.cv:
            self.row_count, self.disabled = -self.default_rows, False
            self.cv.notify_all()

    def update_batched_size(self, batch_size: int) -> None:
        self.row_count *= batch_size
        self.default_rows *= batch_size

    def block(self, name: str) -> None:
        with self.cv:
            if not self.cv.wait_for(lambda: self.row_count < 0 or self.disabled,
                                    timeout=config.get_callback_timeout()):
                warnings.warn(f"sync_wait: no sync_update(condition_name={name!r}) within "
                              f"{config.get_callback_timeout()} s; it no longer blocks",
                              RuntimeWarning, stacklevel=2)
                self.disabled = True
            self.row_count += 1

    def release(self, rows=None, data=None) -> None:
        with self.cv:
            self.row_count -= self.default_rows if rows is None else rows
            if self.callback is not None:
                self.callback(data)
            self.cv.notify_all()

    def disable(self) -> None:
        with self.cv:
            self.disabled = True
            self.cv.notify_all()


class SyncWaitDataset(Dataset):
    """`dataset.sync_wait(condition_name, num_batch, callback)`: the pipeline stops after
    `num_batch` batches until `sync_update(condition_name)` lets more through (a training loop
    feeding its state to the data augmentation, as MindSpore's augmentation tutorial does)."""

    def __init__(self, child, condition_name, num_batch=1, callback=None):
        super().__init__([child])
        type_check(condition_name, (str,), "condition_name")  # MindSpore's checks and words
        type_check(num_batch, (int,), "num_batch")
        check_independent_mode("Dataset sync wait")
        if num_batch <= 0:
            raise ValueError("num_batch need to be greater than 0.")
        if callback is not None and not callable(callback):
            raise TypeError(f"sync_wait: `callback` must be callable, got {callback!r}")
        if condition_name in child.sync_notifiers():
            raise RuntimeError("Condition name is already in use.")
        self.condition_name = condition_name
        self.pair = ReleasePair(int(num_batch), callback)

    def sync_notifiers(self) -> dict:
        return {**self.children[0].sync_notifiers(), self.condition_name: self.pair}

    def rows(self, state):
        for row in self.children[0].rows(state):
            self.pair.block(self.condition_name)
            yield row


class RepeatDataset(Dataset):
    def __init__(self, child, times):
        super().__init__([child])
        self.times = times

    def count(self):
        n = self.children[0].count()
        return None if n is None or self.times is None else n * self.times

    def rows(self, state):
        passes = itertools.count() if self.times is None else range(self.times)
        for _ in passes:
            yield from self.children[0].rows(state)


class ProjectDataset(Dataset):
    def __init__(self, child, columns):
        super().__init__([child])
        self.index = [find_column(child.column_names, c, "project") for c in columns]
        self._names = columns

    @property
    def column_names(self):
        return list(self._names)

    def rows(self, state):
        for row in self.children[0].rows(state):
            yield tuple(row[i] for i in self.index)


class RenameDataset(Dataset):
    def __init__(self, child, inputs, outputs):
        super().__init__([child])
        if len(inputs) != len(outputs):
            raise ValueError(f"rename: {len(inputs)} input column(s) but {len(outputs)} "
                             f"output column(s)")
        names = child.column_names
        for c in inputs:
            find_column(names, c, "rename")
        new = dict(zip(inputs, outputs))
        self._names = [new.get(c, c) for c in names]
        if len(set(self._names)) != len(self._names):
            raise ValueError(f"rename: the new names {self._names} repeat a column")

    @property
    def column_names(self):
        return list(self._names)

    def rows(self, state):
        return self.children[0].rows(state)


class _SliceDataset(Dataset):
    """Rows [start, stop) of each epoch: take and skip."""

    def __init__(self, child, start, stop):
        super().__init__([child])
        self.start, self.stop = start, stop

    def count(self):
        n = self.children[0].count()
        if n is None:
            return None
        stop = n if self.stop is None else min(n, self.stop)
        return max(0, stop - self.start)

    def rows(self, state):
        return itertools.islice(self.children[0].rows(state), self.start, self.stop)


class TakeDataset(_SliceDataset):
    """`dataset.take(count)`: the first `count` rows of each epoch."""

    def __init__(self, child, count):
        super().__init__(child, 0, count)


class SkipDataset(_SliceDataset):
    """`dataset.skip(count)`: the rows after the first `count` of each epoch."""

    def __init__(self, child, count):
        super().__init__(child, count, None)


class SubsetNode(Dataset):
    """The rows at `indices` of each epoch of the child, in that order: one part of a split."""

    copies_children = True  # MindSpore splits a copy of the dataset

    def __init__(self, child, indices):
        super().__init__([child])
        self.copied_consumers = len(consumers(child))
        self.indices = np.asarray(indices)
        self._wanted = set(self.indices.tolist())

    def count(self):
        return len(self.indices)

    def rows(self, state):
        if np.all(self.indices[1:] > self.indices[:-1]):  # in order: no rows held
            for i, row in enumerate(self.children[0].rows(state)):
                if i in self._wanted:
                    yield row
            return
        held = {i: row for i, row in enumerate(self.children[0].rows(state)) if i in self._wanted}
        for i in self.indices.tolist():
            yield held[i]


def _dataset_tuple(datasets, op: str) -> tuple:
    datasets = (datasets,) if isinstance(datasets, Dataset) else tuple(datasets)
    for d in datasets:
        if not isinstance(d, Dataset):  # MindSpore's words
            raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}!")
    if not datasets:
        raise ValueError(f"{op}: expected at least one Dataset, got none")
    return datasets


class ZipDataset(Dataset):
    """The columns of several datasets side by side, row by row; the shortest one ends it."""

    def __init__(self, datasets):
        datasets = _dataset_tuple(datasets, "zip")
        super().__init__(datasets)

    @property
    def column_names(self):
        """The children's columns in turn; a name two children have is MindSpore's error when
        the pipeline is read (building the zip is allowed, as in MindSpore). MindSpore looks
        at a child's columns in its hash map's order, the last column first in the maps a
        pipeline's few columns make: the duplicate it names is the last one."""
        names: list[str] = []
        for child in self.children:
            columns = child.column_names
            for column in reversed(columns):
                if column in names:
                    raise RuntimeError(f"Invalid data, duplicate column {column} already exists "
                                       f"when zipping datasets.")
            names.extend(columns)
        return names

    def count(self):
        counts = [d.count() for d in self.children]
        return None if None in counts else min(counts)

    def rows(self, state):
        for parts in zip(*(d.rows(state) for d in self.children)):
            yield tuple(value for part in parts for value in part)


class ConcatDataset(Dataset):
    """The rows of several datasets with the same columns, one dataset after the other. As in
    MindSpore, differing column names, ranks or types are refused when the rows are read: the
    first row of each dataset is checked against the first row of the first."""

    def __init__(self, datasets):
        datasets = _dataset_tuple(datasets, "concat")
        super().__init__(datasets)
        for index, child in enumerate(datasets):  # MindSpore's check, when it is made
            if child.get_dataset_size() == 0:
                raise ValueError(f"There are no samples in the dataset number {index}. Please "
                                 f"make sure there are valid samples in the dataset.")
        self._sampler = None  # set by use_sampler
        self._full_sizes = None  # the children's sizes before use_sampler shards them

    def use_sampler(self, sampler):
        """Shard the concatenation (a DistributedSampler without shuffle or num_samples) or
        draw its rows in a random order of children (a RandomSampler without replacement or
        num_samples), as MindSpore does: a sharded concatenation keeps the rows whose
        position p in it (counted over the epochs of an iterator for the children read front
        to back) has p % num_shards == shard_id; each child with random access is given its
        own DistributedSampler, offset to the position it starts at."""
        from .samplers import DistributedSampler, RandomSampler
        from .sources import GeneratorDataset

        if not isinstance(sampler, (DistributedSampler, RandomSampler)):
            raise TypeError(f"The parameter {sampler} of concat must be DistributedSampler or "
                            f"RandomSampler!")
        if isinstance(sampler, RandomSampler):
            if sampler.replacement:
                raise ValueError("The parameter replacement of RandomSampler must be False!")
            if sampler.get_num_samples() is not None:
                raise ValueError("The parameter num_samples of RandomSampler is not support to "
                                 "be set!")
            self._sampler = sampler
            for child in _descendants(self):
                if isinstance(child, ConcatDataset):
                    child.use_sampler(sampler)
            return
        if sampler.is_shuffled():
            raise ValueError("The parameter shuffle of DistributedSampler must be False!")
        if sampler.num_shards <= 0:
            raise ValueError("The parameter num_shards of DistributedSampler must be positive "
                             "int!")
        if sampler.get_num_samples() is not None:
            raise ValueError("The parameter num_samples of DistributedSampler is not support "
                             "to be set!")
        self._sampler = sampler
        if self._full_sizes is None:  # before any child's sampler is replaced
            self._full_sizes = [d.get_dataset_size() for d in self.children]
        start = 0
        for child, full in zip(self.children, self._full_sizes):
            source = _random_access(child)
            own = getattr(source if source is not None else child, "sampler", None)
            if own is not None and own.get_num_samples() is not None:
                raise ValueError(f"The parameter NumSamples of {child} is not support to be "
                                 f"set!")
            if isinstance(child, BatchDataset):
                raise TypeError(f"The parameter {child} of concat must not be BatchDataset or "
                                f"PaddedBatchDataset!")
            if source is not None:
                source.use_sampler(copy.deepcopy(sampler).set_offset(start))
            # MindSpore counts every child's rows here but a generator read front to back's
            iterable = isinstance(child, GeneratorDataset) and source is None
            start = (start + (0 if iterable else full)) % sampler.num_shards

    def _check_columns(self) -> None:
        names = self.children[0].column_names
        if any(d.column_names != names for d in self.children[1:]):
            raise RuntimeError("Invalid columns, 'column name' or 'column order' of concat "
                               "datasets should be the same.")

    def count(self):
        if self._sampler is not None:
            return None  # the rows a sampler keeps are counted by reading them
        # each dataset counted on its own (by reading it where it cannot say), so that a size
        # is given before the columns are checked, as MindSpore gives it
        return sum(d.get_dataset_size() for d in self.children)

    def _child_rows(self, state):
        """Each child's rows in turn, sharded or drawn at random when a sampler is set."""
        from .samplers import DistributedSampler

        if isinstance(self._sampler, DistributedSampler):
            position = state.keep(self, lambda: [0])  # goes on over the epochs
            shards, shard = self._sampler.num_shards, self._sampler.shard_id
            for index, d in enumerate(self.children):
                if _random_access(d) is not None:  # sharded by its own sampler
                    for row in d.rows(state):
                        yield index, row
                    position[0] += self._full_sizes[index]
                    continue
                for row in d.rows(state):
                    if position[0] % shards == shard:
                        yield index, row
                    position[0] += 1
            return
        if self._sampler is not None:  # RandomSampler: a child drawn by its rows left
            rng = state.rng(self)
            streams = [d.rows(state) for d in self.children]
            left = [d.get_dataset_size() for d in self.children]
            while sum(left):
                index = int(rng.choice(len(left), p=np.asarray(left) / sum(left)))
                row = next(streams[index], None)
                if row is None:
                    raise RuntimeError(f"The actual size of dataset {index} does not match its "
                                       f"defined size, maybe the dataset size is variable or "
                                       f"`__len__` is incorrect.")
                left[index] -= 1
                yield index, row
            return
        for index, d in enumerate(self.children):
            for row in d.rows(state):
                yield index, row

    def rows(self, state):
        self._check_columns()
        first, checked = None, set()
        for index, row in self._child_rows(state):
            if first is None:
                first = [np.asarray(v) for v in row]
            elif index not in checked:  # the first row of each dataset
                _check_concat_row(first, [np.asarray(v) for v in row])
            checked.add(index)
            yield row


def _descendants(node):
    for child in node.children:
        yield child
        yield from _descendants(child)


def _random_access(dataset):
    """The source with random access behind `dataset` (itself, or a GeneratorDataset's or
    PaddedDataset's), whose sampler ConcatDataset.use_sampler replaces; None for a dataset read
    front to back."""
    from .sources import GeneratorDataset, MappableSource

    if isinstance(dataset, GeneratorDataset):
        dataset = dataset.children[0]
    # the text-file readers keep MappableSource's shape but read their files front to back
    sampled = isinstance(dataset, MappableSource) and type(dataset).rows is MappableSource.rows
    return dataset if sampled else None


def _check_concat_row(first: list, row: list) -> None:
    for a, b in zip(first, row):
        if a.ndim != b.ndim:
            raise RuntimeError(f"Concat: the data tensor rank of the two datasets to be "
                               f"concatenated should be the same, but got: {a.ndim} and "
                               f"{b.ndim}.")
        if a.dtype.kind in "US" and b.dtype.kind in "US":
            continue  # strings of any width
        if a.dtype != b.dtype:
            raise RuntimeError(f"Concat: the data types of the two datasets to be concatenated "
                               f"should be the same, but got: {a.dtype} and {b.dtype}.")
