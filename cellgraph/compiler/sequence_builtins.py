"""Python's lazy sequence builtins in a graph, as MindSpore's graph mode has them: `range`
is a tuple; `map` gives a tuple over tuples and a list over lists, `zip` and `enumerate` tuples
of tuples (a Tensor enumerates its rows), `filter` a list. The functions they are given are
traced like any call in the graph, not run as plain Python.

    map(add, (1, 2), (3, 4))  ->  (4, 6)

A list's or tuple's `index` and `count` compare as MindSpore's graphs do: values of different
types never match (1, True and 1.0 are three values), and Tensors match by their values, when
the graph runs if either is computed there; then `count` is a variable int (a number known
only at run time, dynamic_sequence.py) and `index` picks the first match as the graph runs,
failing there if there is none.

    [Tensor(1), t].count(Tensor(1))  ->  1 + (t == 1)  (a variable int)
"""
from __future__ import annotations

import builtins
import math
import operator

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_ops import checked_value
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    CompileError,
    DTypeError,
    IndexValueError,
)

from .builder import Tracer, compile_context, is_tensor_like
from .compile_context import LAX
from .dynamic_sequence import check_range_arguments, is_runtime_scalar, variable_scalar

MAX_RANGE = 100_000  # a tuple this long is a graph's constant; an unrolled loop's limit too


def _items(value) -> list:
    if isinstance(value, Tracer):  # a Tensor is a sequence of its rows
        return [value[i] for i in range(value.shape[0])]
    return list(value)


def _range(call, *args):
    # (bounds known only at run time give a dynamic-length tuple: dynamic_sequence.py)
    check_range_arguments(args)
    values = builtins.range(*args)
    if len(values) > MAX_RANGE:
        raise CompileError(f"range() of {len(values)} elements: a graph makes it a tuple, "
                           f"of at most {MAX_RANGE}")
    return tuple(values)


def _map(call, fn, *sequences):
    if not sequences:
        raise ArgumentError(f"The Map operator must have at least two arguments. But the size "
                            f"of arguments is {1 + len(sequences)}.")
    _check_map_sequences(sequences)
    out = [call(fn, list(items)) for items in zip(*(_items(s) for s in sequences))]
    return out if isinstance(sequences[0], list) else tuple(out)


def _check_map_sequences(sequences) -> None:
    """MindSpore's Map: lists or tuples, of one kind and one length, not Python's
    shortest-wins; Tensors map over their rows. A NumPy array among them is Python's map
    (MindSpore's fallback)."""
    if any(isinstance(s, np.ndarray) for s in sequences):
        return
    kinds = {list if isinstance(s, list) else tuple if isinstance(s, tuple) else
             Tracer if is_tensor_like(s) else type(s) for s in sequences}
    if len(kinds) > 1:
        raise CompileError("The types of arguments in Map must be consistent, but the types of "
                           "arguments are inconsistent.")
    (kind,) = kinds
    if kind is Tracer:
        return
    if kind not in (list, tuple):
        raise CompileError(f"Map can only be applied to list, tuple, but got "
                           f"{_graph_type_name(sequences[0])}.")
    if len({len(_items(s)) for s in sequences}) > 1:
        raise CompileError(f"For 'Map', the length of {'lists' if kind is list else 'tuples'} "
                           f"must be the same. ")


def _graph_type_name(value) -> str:
    """MindSpore's name for the type of a Python value in a graph (Int64, Float32, ...)."""
    names = {bool: "Bool", int: "Int64", float: "Float32", str: "String", dict: "Dictionary"}
    return next((name for kind, name in names.items() if type(value) is kind),
                type(value).__name__)


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


def extreme(fn, args):
    """`max`/`min` (`fn`) over Tensors in a graph, as MindSpore's graph mode has them: of one
    1-D Tensor, its largest (smallest) element as a 0-d Tensor; of several values or of a
    sequence holding Tensors, the first largest (smallest), chosen when the graph runs. As in
    Python, Tensors of more than one element cannot be compared to a truth value."""
    is_max = fn is builtins.max
    empty = f"{fn.__name__}() arg is an empty sequence."
    if len(args) == 1 and is_graph_tensor(args[0]):
        (seq,) = args
        if not seq.shape:
            raise DTypeError("Cannot iterate over a scalar tensor.")
        if len(seq.shape) > 1:
            raise ArgumentValueError(_AMBIGUOUS)
        if seq.shape[0] == 0:
            raise ArgumentValueError(empty)
        return (F.reduce_max if is_max else F.reduce_min)(seq, 0)
    items = _items(args[0]) if len(args) == 1 else list(args)
    if not items:
        raise ArgumentValueError(empty)
    nested = [item for item in items if isinstance(item, (tuple, list)) and holds_tensor(item)]
    if nested and len(args) == 1:
        raise DTypeError(f"{fn.__name__}() cannot support tensor in list or tuple nested now.")
    if any(math.prod(t.shape) != 1 for item in nested for t in item if is_graph_tensor(t)):
        raise ArgumentValueError(_AMBIGUOUS)  # sequences compare their Tensors' truth values
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


def extreme_applies(args) -> bool:
    """Whether `max`/`min` of `args` is MindSpore's graph form (extreme): a Tensor among them
    or inside a tuple or list of them, or one empty tuple or list."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)) and not args[0]:
        return True
    return holds_tensor(args)


def holds_tensor(value) -> bool:
    """A graph Tensor, or a tuple or list holding one (at any depth)."""
    if isinstance(value, (tuple, list)):
        return any(holds_tensor(v) for v in value)
    return is_graph_tensor(value)


def is_graph_tensor(value) -> bool:
    """A Tracer or a Tensor (not a NumPy array, which compares as NumPy does)."""
    return is_tensor_like(value) and not isinstance(value, np.ndarray)


_AMBIGUOUS = "The truth value of an array with more than one element is ambiguous."


BUILTINS = {builtins.range: _range, builtins.map: _map, builtins.zip: _zip,
            builtins.enumerate: _enumerate, builtins.filter: _filter}



def tensor_bool(value):
    """`bool(x)` of a graph Tensor: a variable bool scalar, true when its one element is
    nonzero, as MindSpore's (a Tensor of several elements has no truth value)."""
    if int(np.prod(value.aval.shape)) != 1:
        raise ArgumentValueError("The truth value of an array with more than one element is "
                                 "ambiguous.")
    if not isinstance(value, Tracer):  # a Tensor constant: its truth is known now
        return bool(np.asarray(value.asnumpy()).reshape(()))
    truth = variable_scalar(F.cast(F.reshape(value, ()), dt.bool_))
    # an operation's Python code that tests it reads it where value's are known (an input)
    truth.builder.record_derived(truth, value, lambda known: known.reshape(()).astype(bool))
    return truth


def _matches(item, value):
    """Whether `item` is `value` in MindSpore's sense: a Python bool, or a bool Tracer when a
    Tensor computed in the graph takes part."""
    if is_tensor_like(item) or is_tensor_like(value):
        tracer = item if isinstance(item, Tracer) else value
        other = value if tracer is item else item
        if isinstance(tracer, Tracer) and _is_number(other):  # compared when the graph runs
            return F.equal(F.reduce_sum(F.cast(F.not_equal(tracer, other), dt.int32)), 0)
        if not (is_tensor_like(item) and is_tensor_like(value)):
            return False
        if tuple(item.shape) != tuple(value.shape):
            return False
        if not isinstance(item, Tracer) and not isinstance(value, Tracer):
            return bool(np.array_equal(np.asarray(item), np.asarray(value)))
        mismatches = F.reduce_sum(F.cast(F.not_equal(item, value), dt.int32))
        return F.equal(mismatches, 0)
    if type(item) is not type(value):
        return False
    if isinstance(item, (tuple, list)):
        return len(item) == len(value) and _all_pairs(_matches, item, value)
    return bool(item == value)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not is_tensor_like(value)


def _count(sequence, value):
    total, found = 0, []
    for item in sequence:
        match = _matches(item, value)
        if isinstance(match, Tracer):
            found.append(match)
        else:
            total += match
    for match in found:
        total = F.add(F.cast(match, dt.int64), total)
    return variable_scalar(total) if isinstance(total, Tracer) else total


def _index(sequence, value, start=0, stop=None):
    positions = range(len(sequence))[slice(start, stop)]
    pending = []  # (position, Tracer) of matches decided when the graph runs
    for position in positions:
        match = _matches(sequence[position], value)
        if match is True:
            found = _first_of(pending, position)
            return variable_scalar(found) if isinstance(found, Tracer) else found
        if isinstance(match, Tracer):
            pending.append((position, match))
    if not pending:
        shown = repr(value) if is_tensor_like(value) else value
        raise ArgumentValueError(f"{shown} is not in {sequence}")
    missing = len(sequence)  # no match: the run-time check below names it
    found = _first_of(pending, missing)
    kind = type(sequence).__name__
    return variable_scalar(checked_value(
        found, low=0, high=missing, what=f"{kind}.index: the value is not in the {kind}; its "
        f"position", op="index", error="value"))


def _first_of(pending, otherwise):
    result = otherwise
    for position, match in reversed(pending):
        result = F.select(match, F.cast(position, dt.int64) if isinstance(result, Tracer)
                          else np.int64(position), result if isinstance(result, Tracer)
                          else np.int64(result))
    return result


# MindSpore's names for the type of a constant scalar in its messages
_IMM_NAMES = {bool: "BoolImm", int: "Int64Imm", float: "FP32Imm", str: "StringImm"}


def _value_words(value) -> tuple[str, str]:
    """MindSpore's name for the kind of a constant and how its messages show it:
    ("FP32Imm", "1") for 1.0, ("BoolImm", "true"), ("ValueTuple", "(1)") for (1,)."""
    if isinstance(value, bool):
        return _IMM_NAMES[bool], "true" if value else "false"
    if isinstance(value, float):
        return _IMM_NAMES[float], f"{value:g}"
    if isinstance(value, (int, str)):
        return _IMM_NAMES[type(value)], str(value)
    if value is None:
        return "None", "None"
    if isinstance(value, (tuple, list)):
        shown = ", ".join(_value_words(item)[1] for item in value)
        return ("ValueTuple", f"({shown})") if isinstance(value, tuple) else \
            ("ValueList", f"[{shown}]")
    if is_tensor_like(value):
        return "Tensor", repr(value)
    return type(value).__name__, repr(value)


def _refused_index(index) -> bool:
    """A constant that is not an integer (MindSpore's list.pop and list.insert refuse bools)."""
    return isinstance(index, (bool, float, str, tuple, list, type(None))) or (
        is_tensor_like(index) and not isinstance(index, Tracer))


def _check_integer_index(index) -> None:
    if _refused_index(index):
        kind, shown = _value_words(index)
        raise DTypeError(f"Integer argument expected, but got {kind} type value: {shown}")


def _pop(sequence, *args):
    """`list.pop([index])` in a graph: an int index within the list (MindSpore's errors for
    another type, or one out of range, or an empty list)."""
    if not isinstance(sequence, list) or len(args) > 1:
        return sequence.pop(*args)
    index = args[0] if args else -1
    _check_integer_index(index)
    if isinstance(index, int) and not -len(sequence) <= index < len(sequence):
        raise IndexValueError("The pop index out of range.")
    return sequence.pop(index)


def _insert(sequence, *args):
    """`list.insert(index, value)` in a graph: the index a Python int, as MindSpore's graphs
    require (a bool or a float is a TypeError there; its words differ by jit_syntax_level,
    as LAX inserts in place with another operator)."""
    if not isinstance(sequence, list) or len(args) != 2:
        return sequence.insert(*args)
    index = args[0]
    if compile_context().syntax_level < LAX:
        _check_integer_index(index)
    elif _refused_index(index):
        raise DTypeError(f"The second input to ListInplaceInsert must be int scalar but got "
                         f"{_value_words(index)[0]}")
    return sequence.insert(*args)


SEQUENCE_METHODS = {"count": _count, "index": _index, "pop": _pop, "insert": _insert}


def tensor_all_any(fn, tensor):
    """`all(t)` / `any(t)` of a Tensor computed in the graph: over its rows, each a truth value
    (so each must hold one element), as a bool Tensor."""
    if tensor.ndim == 0:
        raise DTypeError("iteration over a 0-d tensor")
    row = int(np.prod(tensor.shape[1:]))
    if row != 1:
        raise ArgumentValueError(f"The tensor should have only one element, but got {row}, "
                                 f"more than one element is ambiguous.")
    flat = F.reshape(tensor, (tensor.shape[0],))
    if fn is builtins.all:
        return F.equal(F.reduce_sum(F.cast(F.equal(flat, 0), dt.int32)), 0)
    return F.not_equal(F.reduce_sum(F.cast(F.not_equal(flat, 0), dt.int32)), 0)


def check_classinfo(classinfo) -> None:
    """isinstance's second argument in a graph: a type or a tuple of them, as MindSpore says."""
    if isinstance(classinfo, type):
        return
    if isinstance(classinfo, tuple):
        for item in classinfo:
            check_classinfo(item)
        return
    raise DTypeError("isinstance() arg 2 must be a type or tuple of types.")


def sequence_method(fn):
    """The graph's version of `fn` when it is a list's or tuple's `index` or `count`, or a
    list's `pop` or `insert`, bound to its sequence, else None."""
    owner = getattr(fn, "__self__", None)
    handler = SEQUENCE_METHODS.get(getattr(fn, "__name__", None))
    if handler is None or type(owner) not in (list, tuple):
        return None
    return lambda *args: handler(owner, *args)


# MindSpore's names for ordering two tuples (or lists) in a graph: the operator, and the
# primitive whose element check speaks (`>=` is checked by its equality primitive first, whose
# name it spells so, unquoted)
_ORDERING = {"Lt": ("lt", "'{}_lt'"), "LtE": ("le", "'{}_le'"), "Gt": ("gt", "'{}_gt'"),
             "GtE": ("ge", "tupel_equal")}


def check_sequence_ordering(op: str, left, right) -> None:
    """`left < right` (or <=, >, >=) on two tuples or two lists in a graph: MindSpore orders
    sequences of scalars only. An element that is a sequence, or a Tensor, is a TypeError in
    its words, when the pairs before it are equal numbers, as its elementwise check goes."""
    if op not in _ORDERING or type(left) is not type(right) or \
            not isinstance(left, (tuple, list)):
        return
    kind = "tuple" if isinstance(left, tuple) else "list"
    short, primitive = _ORDERING[op]
    for a, b in zip(left, right):
        nested = next((e for e in (a, b) if isinstance(e, (tuple, list))), None)
        if nested is not None:
            raise DTypeError(f"For op '{kind}_{short}' input must be [int32, int64, float32, "
                             f"float64, bool], but got {nested!r}")
        if any(is_tensor_like(e) and not is_runtime_scalar(e) for e in (a, b)):
            raise DTypeError(f"For primitive {primitive.format(kind)}, the input element must "
                             f"be scalar, but got {_element(a)} and {_element(b)}")
        if not any(is_tensor_like(e) for e in (a, b)) and a != b:
            return  # two numbers that differ decide the order: the rest is never compared


_ORDER_OPS = {"Lt": (operator.lt, "<"), "LtE": (operator.le, "<="), "Gt": (operator.gt, ">"),
              "GtE": (operator.ge, ">=")}


def orders_at_run_time(op: str, left, right) -> bool:
    """Whether `left < right` (or <=, >, >=) on two sequences is Python's comparison, made
    when the graph runs. MindSpore's sequence primitive checks the pairs in order; the first
    pair that holds a sequence with a graph value in it hands the comparison to Python code
    (run when the graph runs); a Tensor before it, or a sequence of constants, is its
    TypeError (check_sequence_ordering), and two numbers that differ decide it at once."""
    if op not in _ORDER_OPS or not all(type(s) in (tuple, list) for s in (left, right)):
        return False
    for a, b in zip(left, right):
        if any(isinstance(e, (tuple, list)) for e in (a, b)):
            return _holds_graph_value(a) or _holds_graph_value(b)
        if any(is_tensor_like(e) and not is_runtime_scalar(e) for e in (a, b)):
            return False
        if not any(is_tensor_like(e) for e in (a, b)) and a != b:
            return False
    return False


def _holds_graph_value(value) -> bool:
    if isinstance(value, Tracer):
        return True
    return type(value) in (tuple, list) and any(_holds_graph_value(v) for v in value)


def ordered(op: str, left, right):
    """Python's `left < right` (or <=, >, >=) over values some of which are known only at run
    time: the first pair of elements that differ decides, else the lengths do. A pair whose
    equality is known only at run time becomes a choice between both outcomes (bool Tensors)."""
    compare, symbol = _ORDER_OPS[op]
    if type(left) not in (tuple, list) or type(right) not in (tuple, list):
        if any(type(s) in (tuple, list) for s in (left, right)):
            _refuse_order(symbol, left, right)
        return compare(left, right)
    if type(left) is not type(right):
        _refuse_order(symbol, left, right)
    pending = []  # (run-time equality, the outcome when the pair differs), in order
    outcome = compare(len(left), len(right))
    for a, b in zip(left, right):
        same = _equal(a, b)
        if same is True:
            continue
        if same is False:
            outcome = ordered(op, a, b)
            break
        pending.append((same, ordered(op, a, b)))
    for same, differs in reversed(pending):
        outcome = F.where(same, _as_bool_tensor(outcome), _as_bool_tensor(differs))
    return outcome


def _refuse_order(symbol: str, left, right):
    raise ArgumentError(f"'{symbol}' not supported between instances of "
                        f"'{type(left).__name__}' and '{type(right).__name__}'")


def _all_pairs(test, a, b):
    """`test` of each pair of items of `a` and `b`, anded: False at the first False, True when
    every one is, else the graph bool of those known only at run time."""
    truth = True
    for x, y in zip(a, b):
        same = test(x, y)
        if same is False:
            return False
        if same is not True:
            truth = same if truth is True else F.logical_and(truth, same)
    return truth


def _equal(a, b):
    """Python's `a == b` as a truth value, as a sequence's comparison takes it (the same
    object is equal to itself): a bool, or a variable bool scalar."""
    if a is b:
        return True
    if type(a) in (tuple, list) or type(b) in (tuple, list):
        if type(a) is not type(b) or len(a) != len(b):
            return False
        return _all_pairs(_equal, a, b)
    same = a == b
    return tensor_bool(same) if isinstance(same, Tracer) else bool(same)


def _as_bool_tensor(value):
    if isinstance(value, Tracer):
        return F.cast(value, dt.bool_)
    return np.asarray(bool(value))


def _element(value) -> str:
    if is_tensor_like(value):
        return f"Tensor(shape={list(value.shape)}, dtype={value.dtype})"
    return repr(value)
