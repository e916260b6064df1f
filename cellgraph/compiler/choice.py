"""A Python tuple or list indexed by a Tensor, and `tensor in sequence`.

`layers[i](x)` with a Tensor `i` (MindSpore's switch_layer) picks the item at run time. Tensors
of one type are stacked and gathered from; anything else (Cells, functions, primitives) becomes
a `Choice`, which, when called, runs the call on every item in its own branch of a chain of
switches on `i == k`:

    layers[i](x)   ->   switch(i == 0, then: layers[0](x),
                               else: switch(i == 1, then: layers[1](x), else: layers[2](x)))

so only the chosen item runs, and gradients flow through the branch taken. An index past the
end takes the last item.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from . import control_flow
from .builder import Tracer, is_tensor_like


def is_sequence(value) -> bool:
    """A Python sequence of items (a tuple, a list, a CellList), not a Tensor or a dict."""
    if is_tensor_like(value) or isinstance(value, (str, bytes, dict)):
        return False
    return isinstance(value, (tuple, list)) or (
        hasattr(value, "__len__") and hasattr(value, "__iter__") and hasattr(value, "cells"))


def index_sequence(items, index, loc=None):
    """`items[index]` for a Tensor `index`."""
    items = list(items)
    if not items:
        raise ArgumentValueError("For primitive:'TupleGetItem', cannot get item by index from an "
                                 "empty sequence.")
    if all(is_tensor_like(v) for v in items) and len({abstract_of(v).strong()
                                                       for v in items}) == 1:
        return F.stack(items)[F.reshape(index, ())]
    numbers_at = _number_columns(items)
    if numbers_at is not None:  # sequences of numbers alike: each item a variable scalar
        from .dynamic_sequence import variable_scalar

        position = F.reshape(index, ())
        return type(items[0])(variable_scalar(F.getitem(column, position))
                              for column in numbers_at)
    return Choice(items, index, loc)


def _number_columns(items):
    """For tuples (or lists) of numbers of one length and one type at each position: the
    numbers at each position as an array; else None."""
    first = items[0]
    if not isinstance(first, (tuple, list)) or not first or any(
            type(v) is not type(first) or len(v) != len(first) for v in items):
        return None
    columns = []
    for j in range(len(first)):
        column = [v[j] for v in items]
        kinds = {bool if isinstance(x, bool) else int if isinstance(x, numbers.Integral) else
                 float if isinstance(x, numbers.Real) else None for x in column}
        if len(kinds) != 1 or None in kinds:
            return None
        kind = kinds.pop()
        columns.append(np.asarray(column, {bool: np.bool_, int: np.int64,
                                           float: np.float32}[kind]))
    return columns


class Choice:
    """The item of `items` that a Tensor `index` picks, known at run time; call it."""

    def __init__(self, items: list, index, loc):
        self.items, self.index, self.loc = items, F.reshape(index, ()), loc

    def call(self, call_item, args: list, kwargs: dict):
        """The chosen item called: `call_item(item, args, kwargs)` runs each item's call in its
        own branch (the front end passes its own call, which interprets what it parses)."""
        return self._chain(0, lambda item: call_item(item, args, kwargs))

    def __call__(self, *args, **kwargs):
        return self.call(lambda item, a, k: item(*a, **k), list(args), kwargs)

    def _chain(self, k: int, use):
        Branch, emit_switch = control_flow.Branch, control_flow.emit_switch
        if k == len(self.items) - 1:
            return use(self.items[k])
        then_branch = Branch(f"choice{k}", self.loc)
        else_branch = Branch(f"choice{k}_rest", self.loc)
        then_value = then_branch.run(None, lambda: use(self.items[k]))
        else_value = else_branch.run(None, lambda: self._chain(k + 1, use))
        return emit_switch(F.equal(self.index, k), ["the chosen item's result"], then_branch,
                           [then_value], else_branch, [else_value], self.loc)[0]

    def value(self):
        """The chosen item itself (the items are values, not callables)."""
        return self._chain(0, lambda item: item)

    def __repr__(self) -> str:
        return f"Choice({len(self.items)} items)"


control_flow.make_choice = Choice  # a Tensor `if` that gives one of two functions


def switch(cond, true_value, false_value):
    """MindSpore's `F.switch`: `true_value` if `cond` holds, else `false_value`. On a condition
    known only at run time the choice is made then: values are merged by a switch node, and
    callables give a Choice that calls the one picked."""
    if not isinstance(cond, Tracer):
        return true_value if bool(cond) else false_value
    if None not in cond.shape and math.prod(cond.shape) != 1:
        raise ArgumentValueError("The truth value of an array with more than one element is "
                                 "ambiguous.")
    pick = Choice([true_value, false_value], F.cast(F.logical_not(cond), dt.int32), None)
    if callable(true_value) and callable(false_value) and not is_tensor_like(true_value):
        return pick
    return pick.value()


def contains(value, sequence):
    """`value in sequence`. When the value or an item of a tuple or list is a Tensor: whether
    the value equals one of the items, a bool Tensor (a Tensor never equals a string or None;
    a Python item equal to a Python value makes it True)."""
    if not isinstance(sequence, (tuple, list)):
        if not hasattr(sequence, "__contains__") and not hasattr(sequence, "__iter__"):
            raise DTypeError(f"argument of type {type(sequence).__name__!r} is not iterable")
        return value in sequence
    if not (is_tensor_like(value) or any(is_tensor_like(item) for item in sequence)):
        return value in sequence
    found = None
    for item in sequence:
        if not is_tensor_like(value) and not is_tensor_like(item):
            if value == item:
                return True
            continue
        other = item if is_tensor_like(value) else value
        if not is_tensor_like(other) and not isinstance(other, numbers.Number):
            continue
        hit = F.equal(value, item).all()
        found = hit if found is None else F.logical_or(found, hit)
    return found if found is not None else False
