"""Python's lazy sequence builtins in a graph, as MindSpore's graph mode has them: `range`
is a tuple; `map` gives a tuple over tuples and a list over lists, `zip` and `enumerate` tuples
of tuples (a Tensor enumerates its rows), `filter` a list. The functions they are given are
traced like any call in the graph, not run as plain Python.

    map(add, (1, 2), (3, 4))  ->  (4, 6)
"""
from __future__ import annotations

import builtins

from cellgraph.primitives.errors import CompileError, DTypeError

from .builder import Tracer

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
    if not isinstance(sequence, Tracer) and not hasattr(sequence, "__iter__"):
        raise DTypeError(f"For 'enumerate', the 'first input' should be tuple or list or "
                         f"tensor, but got {type(sequence)}.")
    if isinstance(start, bool) or not isinstance(start, int):
        raise DTypeError(f"For 'enumerate', the 'start' should be a const int number, but got "
                         f"{start}.")
    return tuple(enumerate(_items(sequence), start))


def _filter(call, fn, sequence):
    items = _items(sequence)
    if fn is None:
        return [v for v in items if v]
    return [v for v in items if call(fn, [v])]


BUILTINS = {builtins.range: _range, builtins.map: _map, builtins.zip: _zip,
            builtins.enumerate: _enumerate, builtins.filter: _filter}

