"""Python's lazy sequence builtins in a graph, as MindSpore's graph mode has them: `range`
is a tuple; `map` gives a tuple over tuples and a list over lists, `zip` and `enumerate` tuples
of tuples (a Tensor enumerates its rows), `filter` a list. The functions they are given are
traced like any call in the graph, not run as plain Python.

    map(add, (1, 2), (3, 4))  ->  (4, 6)
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, CompileError

from .builder import Tracer, is_tensor_like

MAX_RANGE = 100_000  # a tuple this long is a graph's constant; an unrolled loop's limit too


def _items(value) -> list:
    if isinstance(value, Tracer):  # a Tensor is a sequence of its rows
        return [value[i] for i in range(value.shape[0])]
    return list(value)


def _range(call, *args):
    if any(isinstance(a, Tracer) for a in args):
        raise CompileError("range() takes Python ints in a graph, not Tensors; iterate with a "
                           "Tensor `while` loop instead")
    values = builtins.range(*args)
    if len(values) > MAX_RANGE:
        raise CompileError(f"range() of {len(values)} elements: a graph makes it a tuple, "
                           f"of at most {MAX_RANGE}")
    return tuple(values)


def _map(call, fn, *sequences):
    if not sequences:
        raise TypeError("map() must have at least two arguments.")
    out = [call(fn, list(items)) for items in zip(*(_items(s) for s in sequences))]
    return out if isinstance(sequences[0], list) else tuple(out)


def _zip(call, *sequences):
    return tuple(zip(*(_items(s) for s in sequences)))


def _enumerate(call, sequence, start=0):
    return tuple(enumerate(_items(sequence), start))


def _filter(call, fn, sequence):
    items = _items(sequence)
    if fn is None:
        return [v for v in items if v]
    return [v for v in items if call(fn, [v])]


def extreme(fn, args):
    """`max`/`min` (`fn`) over Tensors in a graph, as MindSpore's graph mode has them: of one
    1-D Tensor, its largest (smallest) element as a 0-d Tensor; of several values or of a
    sequence holding Tensors, the first largest (smallest), chosen when the graph runs. As in
    Python, Tensors of more than one element cannot be compared to a truth value."""
    is_max = fn is builtins.max
    if len(args) == 1 and is_graph_tensor(args[0]):
        (seq,) = args
        if not seq.shape:
            raise ArgumentError(f"{fn.__name__}() of a 0-d Tensor: it is not iterable")
        if len(seq.shape) > 1:
            raise ArgumentValueError(_AMBIGUOUS)
        if seq.shape[0] == 0:
            raise ArgumentValueError(f"{fn.__name__}() arg is an empty sequence")
        return (F.reduce_max if is_max else F.reduce_min)(seq, 0)
    items = _items(args[0]) if len(args) == 1 else list(args)
    if not items:
        raise ArgumentValueError(f"{fn.__name__}() arg is an empty sequence")
    current = items[0]
    for item in items[1:]:
        better = item > current if is_max else item < current
        if not is_graph_tensor(better):
            current = item if better else current
            continue
        if math.prod(better.shape) != 1:
            raise ArgumentValueError(_AMBIGUOUS)
        current = F.where(better, item, current)
    return current


def is_graph_tensor(value) -> bool:
    """A Tracer or a Tensor (not a NumPy array, which compares as NumPy does)."""
    return is_tensor_like(value) and not isinstance(value, np.ndarray)


_AMBIGUOUS = "The truth value of an array with more than one element is ambiguous."


BUILTINS = {builtins.range: _range, builtins.map: _map, builtins.zip: _zip,
            builtins.enumerate: _enumerate, builtins.filter: _filter}

