"""Argument and input checks shared by the layers.

Library Cells run as Python over graph values (not parsed like a user's construct), so their
shape checks raise errors located at the user's line that called the layer. Attributes that
may change between runs (`training`) are read through `guarded`, so the compiled graph is
rebuilt when they change.
"""
from __future__ import annotations

import numbers

from cellgraph.compiler.builder import parameter_read_dtype
from cellgraph.compiler.guards import record_guard
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
)

from ..cell import Cell
from .activation import get_activation


def guarded(cell: Cell, attr: str):
    """`cell.attr`, recorded so that the graph being compiled is rebuilt when it changes."""
    value = cell.__dict__[attr]
    record_guard(cell, attr, value)
    return value


def positive_int(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"{op}: `{name}` must be an int, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be >= 1, got {value}")
    return int(value)


def check_input(op: str, x, rank=None, channels=None, channel_axis=1, dtype=None) -> None:
    """Shape and dtype checks on a layer's input, worded for the layer."""
    shape = x.shape
    if rank is not None and len(shape) not in (rank if isinstance(rank, tuple) else (rank,)):
        want = " or ".join(str(r) for r in (rank if isinstance(rank, tuple) else (rank,)))
        raise ShapeError(f"{op}: expected an input of rank {want}, got shape {fmt_shape(shape)}")
    if channels is not None and (len(shape) <= channel_axis % max(len(shape), 1)
                                 or shape[channel_axis] != channels):
        raise ShapeError(f"{op}: expected {channels} channels on axis {channel_axis} of the "
                         f"input, got shape {fmt_shape(shape)}")
    if dtype is not None:
        dtype = parameter_read_dtype(dtype)  # under Cell.to_float, the compute dtype
    if dtype is not None and x.dtype != dtype:
        raise DTypeError(f"{op}: the input has dtype {x.dtype} but the layer's parameters are "
                         f"{dtype}; cast one to the other")


def params_in_input_dtype(op: str, x, *params) -> tuple:
    """`params` in a float input's dtype: MindSpore's LayerNorm and GroupNorm take a float16
    input with float32 parameters and give float16. A non-float input is refused as
    check_input refuses it."""
    import cellgraph.ops as P

    dtype = parameter_read_dtype(params[0].dtype)
    if x.dtype == dtype or not (x.dtype.is_float and dtype.is_float):
        check_input(op, x, dtype=params[0].dtype)
        return params
    return tuple(P.cast(p, x.dtype) for p in params)


def make_activation(activation, op: str):
    if activation is None or isinstance(activation, Cell):
        return activation
    if isinstance(activation, str):
        return get_activation(activation)
    if callable(activation):
        return activation
    raise DTypeError(f"{op}: `activation` must be a name, a Cell or None, got "
                     f"{type(activation).__name__}")
