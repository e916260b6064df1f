"""`mindspore.set_dump`: mark a Cell (with the Cells and marked primitives inside it) or a
primitive for MindSpore's Ascend graph dump.

The dump itself is an Ascend feature of MindSpore's `ms_backend`: on any other device MindSpore
warns and only records the mark (a Cell's flag `dump`, a primitive's attribute `dump`, "true"
or "false"), and so does cellgraph, whose device is never Ascend."""
from __future__ import annotations

import warnings

from cellgraph.primitives.errors import UnsupportedError

__all__ = ["set_dump"]


def set_dump(target, enabled=True):
    """Record the dump mark `enabled` on `target` (a Cell or a Primitive) and what it holds."""
    from cellgraph import context
    from cellgraph.nn import Cell
    from cellgraph.ops.primitive import Primitive
    from cellgraph.ops.primitive_class import PrimitiveClass

    primitive_types = (Primitive, PrimitiveClass)
    # ValueErrors for wrong types, as MindSpore raises them
    if not isinstance(target, (Cell, *primitive_types)):
        raise ValueError(  # noqa: TRY004
            f'The "target" parameter must be an instance of Cell or Primitive, but got an '
            f'instance of {type(target)}.')
    if not isinstance(enabled, bool):
        raise ValueError('The "enabled" parameter must be bool.')  # noqa: TRY004
    device = context.get_context("device_target")
    if device != "Ascend":
        warnings.warn(f"Current device_target is {device}, which is not supported by set_dump. "
                      f"Only Ascend device target is supported currently. If you have Ascend "
                      f"device, consider set device_target to Ascend before calling set_dump.",
                      stacklevel=2)
    _mark(target, enabled, Cell, primitive_types)


def _mark(target, enabled, cell_type, primitive_types):
    if isinstance(target, cell_type):
        target.add_flags(dump=enabled)
        for cell in target.cells():
            _mark(cell, enabled, cell_type, primitive_types)
        for value in vars(target).values():  # the primitives the Cell holds, once marked
            if isinstance(value, primitive_types) and "dump" in getattr(value, "attrs", {}):
                _mark(value, enabled, cell_type, primitive_types)
        return
    add_prim_attr = getattr(target, "add_prim_attr", None)
    if add_prim_attr is None:
        raise UnsupportedError(f"set_dump: {type(target).__name__} is one of cellgraph's "
                               f"built-in operations, which carry no primitive attributes to "
                               f"mark; mark the Cell that calls it instead")
    add_prim_attr("dump", "true" if enabled else "false")
