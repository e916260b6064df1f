"""Item assignments into an attribute of `self`, checked as MindSpore's parser checks them,
before anything of the statement is evaluated:

    self.x[i] = v            # also self.x[i][j] = v, self.x[i] += v
    self.x[i].append(v)      # an in-place list/dict method on an item: MindSpore writes it
                             # back as self.x[i] = self.x[i].append(v)

* `self.x` must exist: otherwise a TypeError at every jit_syntax_level;
* below LAX, `self.x` must be a Parameter (MindSpore keeps other attributes constant then).

An item reached through a slice (`self.x[1:][0] = v`) is a copy, and is not checked.
"""
from __future__ import annotations

import gast

from cellgraph.primitives.errors import DTypeError

from .builder import is_parameter
from .compile_context import LAX

# the methods whose call as a statement MindSpore writes back into their receiver
WRITE_BACK_METHODS = ("append", "insert", "clear", "reverse", "extend", "update")


def written_subscripts(target):
    """The subscripts an assignment target writes (the items of a tuple or list target)."""
    if isinstance(target, gast.Starred):
        yield from written_subscripts(target.value)
    elif isinstance(target, (gast.Tuple, gast.List)):
        for element in target.elts:
            yield from written_subscripts(element)
    elif isinstance(target, gast.Subscript):
        yield target


def method_receiver(statement_value):
    """The subscript a statement `x[i].append(v)` (a write-back method) writes, else None."""
    if isinstance(statement_value, gast.Call) and \
            isinstance(statement_value.func, gast.Attribute) and \
            statement_value.func.attr in WRITE_BACK_METHODS and \
            isinstance(statement_value.func.value, gast.Subscript):
        return statement_value.func.value
    return None


def member_of_self(subscript):
    """The attribute name `x` when `subscript` writes into `self.x` (through items, not
    slices), else None."""
    container = subscript.value
    while isinstance(container, gast.Subscript) and not isinstance(container.slice, gast.Slice):
        container = container.value
    if isinstance(container, gast.Attribute) and isinstance(container.value, gast.Name) and \
            container.value.id == "self":
        return container.attr
    return None


def check_member_subscript(owner, attr: str, syntax_level: int, loc=None) -> None:
    """MindSpore's refusals for `self.<attr>[...] = ...` with `self` being `owner`."""
    name = f"self.{attr}"
    try:
        value = getattr(owner, attr)
    except AttributeError:
        raise DTypeError(f"'{name}' should be initialized in the '__init__' function before "
                         f"subscript.", loc) from None
    if syntax_level < LAX and not is_parameter(value):
        raise DTypeError(f"When JIT_SYNTAX_LEVEL is not set to LAX, {name} should be "
                         f"initialized as a 'Parameter' in the '__init__' function to perform "
                         f"assign subscript, but got: '{value}' with type "
                         f"'{type(value).__name__}'.", loc)
