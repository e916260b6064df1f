"""`mutable(value)`: mark a Python scalar (or the scalars inside a tuple, list or dict) as a
graph input that varies between calls, instead of a constant the graph is specialised on.

A mutable scalar becomes a 0-d Tensor (int64 for ints, float32 for floats, bool for bools): the
compiled graph takes it as an input like any Tensor, so calls with other values reuse it and
gradients can be taken with respect to it. Tensors pass through unchanged; containers keep
their structure. With `dynamic_len=True`, a tuple or list whose elements share one shape and
dtype is accepted, and each length gets its own specialisation (graphs here are specialised on
the structure of their inputs).
"""
from __future__ import annotations

import numbers

from cellgraph.compiler.builder import Tracer
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["mutable"]


def mutable(input_data, dynamic_len=False):
    """`input_data` with every scalar made a graph input (see the module docstring)."""
    if dynamic_len:
        if not isinstance(input_data, (tuple, list)):
            raise DTypeError(f"mutable: dynamic_len=True needs a tuple or list, got "
                            f"{type(input_data).__name__}")
        _check_same_kind(input_data)
    return _as_variable(input_data)


def _as_variable(value):
    if isinstance(value, (Tensor, Tracer)):
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return Tensor(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_as_variable(v) for v in value)
    if isinstance(value, dict):
        return {k: _as_variable(v) for k, v in value.items()}
    raise DTypeError(f"mutable: expected a Tensor, a scalar, or a tuple, list or dict of them, "
                    f"got {type(value).__name__} {value!r:.60}")


def _check_same_kind(items) -> None:
    kinds = {(tuple(getattr(v, "shape", ())), str(getattr(v, "dtype", type(v).__name__)))
             for v in items}
    if len(kinds) > 1:
        raise ArgumentValueError(f"mutable: with dynamic_len=True every element must have one "
                                 f"shape and dtype, got {sorted(kinds)}")
