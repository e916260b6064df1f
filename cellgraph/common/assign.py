"""Updating Parameters: `ops.assign(param, value)`, `assign_add`, `assign_sub`, `depend`.

Eagerly (PyNative mode, `__init__` code) the Parameter changes at once. While a graph is being
built, the update is recorded in the builder: later reads of the Parameter in the same graph see
the new value, the graph returns the new value as an extra trailing output, and the executor
writes it into the Parameter after the run. So a whole training step (forward, backward and the
optimizer's updates) compiles into one graph. No gradient flows into the assigned value; the
gradient of a read after the assignment goes to the Parameter, as MindSpore's graphs give it.
"""
from __future__ import annotations

from cellgraph.compiler.builder import checked_assign_value
from cellgraph.compiler.effects import update_in_place
from cellgraph.ops.primitive_class import function_class
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import ShapeError

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


def assign(variable, value):
    """`variable = value` for a Parameter, or in place for a Tensor; returns the new value."""
    checked_assign_value("Assign", variable, value)  # Assign's own dtype rule, then the update
    if hasattr(value, "aval") and hasattr(variable, "aval"):  # a Tensor value is not broadcast
        given, target = tuple(value.aval.shape), tuple(variable.aval.shape)
        scalar = given == (1,) and target == ()  # MindSpore's Assign takes [1] for a scalar
        if len(given) != len(target) and not scalar:
            raise ShapeError(f"For 'Assign','value' must have the same rank as 'variable'. But "
                             f"got 'value' rank: {len(given)}, 'variable' rank: {len(target)}.")
        if given != target and not scalar:
            raise ShapeError(f"For 'Assign','value' must have the same shape as 'variable'. But "
                             f"got 'value' shape: {given}, 'variable' shape: {target}.")
    return update_in_place(variable, value)


def assign_add(variable, value):
    """`variable += value` for a Parameter or, in place, a Tensor; returns the new value."""
    checked_assign_value("AssignAdd", variable, value)
    return assign(variable, F.add(variable, value))


def assign_sub(variable, value):
    """`variable -= value` for a Parameter or, in place, a Tensor; returns the new value."""
    checked_assign_value("AssignSub", variable, value)
    return assign(variable, F.sub(variable, value))


def depend(value, expr):
    """`value`, after `expr` (ordering is already sequential here, so this returns `value`)."""
    return value


Assign = function_class("Assign", assign, "`ops.Assign()(variable, value)`")
AssignAdd = function_class("AssignAdd", assign_add, "`ops.AssignAdd()(variable, value)`")
AssignSub = function_class("AssignSub", assign_sub, "`ops.AssignSub()(variable, value)`")
Depend = function_class("Depend", depend, "`ops.Depend()(value, expr)`")
