"""Updating Parameters: `ops.assign(param, value)`, `assign_add`, `assign_sub`, `depend`.

Eagerly (PyNative mode, `__init__` code) the Parameter changes at once. While a graph is being
built, the update is recorded in the builder: later reads of the Parameter in the same graph see
the new value, the graph returns the new value as an extra trailing output, and the executor
writes it into the Parameter after the run. So a whole training step (forward, backward and the
optimizer's updates) compiles into one graph. The new value is a `stop_gradient` value: a
Parameter is a leaf, and an update never feeds a gradient.
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.compiler.builder import current_builder, is_parameter
from cellgraph.ops import functional as F
from cellgraph.ops.composite_classes import function_class
from cellgraph.ops.core import abstract_of, broadcast_shapes, fmt_shape, is_value
from cellgraph.ops.errors import CellgraphError, DTypeError, ShapeError

__all__ = [
    "Assign",
    "AssignAdd",
    "AssignSub",
    "Depend",
    "assign",
    "assign_add",
    "assign_sub",
    "depend",
]


def _checked_value(op: str, variable, value):
    """`value` with the Parameter's shape and dtype, or an error naming both."""
    if not is_parameter(variable):
        raise DTypeError(f"{op}: expected a Parameter as `variable`, got "
                         f"{type(variable).__name__}")
    if not is_value(value):
        raise DTypeError(f"{op}: expected a Tensor or a number as `value`, got "
                         f"{type(value).__name__} {value!r:.60}")
    target, given = variable.aval, abstract_of(value)
    name = variable.name or "Parameter"
    try:
        fits = broadcast_shapes(given.shape, target.shape) == target.shape
    except CellgraphError:
        fits = False
    if not fits:
        raise ShapeError(f"{op}: cannot assign a value of shape {fmt_shape(given.shape)} to "
                         f"Parameter '{name}' of shape {fmt_shape(target.shape)}")
    if given.dtype.is_float and not target.dtype.is_float:
        raise DTypeError(f"{op}: cannot assign a {given.dtype} value to Parameter '{name}' of "
                         f"dtype {target.dtype}")
    if isinstance(value, numbers.Number):
        return F.fill(target.dtype, target.shape, value)
    value = F.cast(value, target.dtype)
    if given.shape != target.shape:
        value = F.broadcast_to(value, target.shape)
    return value


def assign(variable, value):
    """`variable = value` for a Parameter; returns the new value."""
    new = _checked_value("Assign", variable, value)
    builder = current_builder()
    if builder is None:
        variable.set_data(np.asarray(new.asnumpy()))
        return variable
    new = F.stop_gradient(new)
    builder.record_update(variable, new)
    return new


def assign_add(variable, value):
    """`variable += value` for a Parameter; returns the new value."""
    _checked_value("AssignAdd", variable, value)
    return assign(variable, F.add(variable, value))


def assign_sub(variable, value):
    """`variable -= value` for a Parameter; returns the new value."""
    _checked_value("AssignSub", variable, value)
    return assign(variable, F.sub(variable, value))


def depend(value, expr):
    """`value`, after `expr` (ordering is already sequential here, so this returns `value`)."""
    return value


Assign = function_class("Assign", assign, "`ops.Assign()(variable, value)`")
AssignAdd = function_class("AssignAdd", assign_add, "`ops.AssignAdd()(variable, value)`")
AssignSub = function_class("AssignSub", assign_sub, "`ops.AssignSub()(variable, value)`")
Depend = function_class("Depend", depend, "`ops.Depend()(value, expr)`")
