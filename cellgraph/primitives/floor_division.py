"""Floor division and its remainder (`x // y`, `x % y`; MindSpore's FloorDiv and FloorMod), as
composites of existing primitives.

    floor_div(x, y) = floor(x / y)            (no gradient: piecewise constant)
    floor_mod(x, y) = x - floor_div(x, y) * y (dx = dout, dy = -floor(x / y) * dout)

Integer operands use the floor_div/floor_mod primitives (exact; an integer divided by 0 gives
what MindSpore's CPU kernels give, runtime/kernels.py); float ones take floor(x / y).
"""
from __future__ import annotations

from . import functional as F
from . import rounding_ops as R
from .core import abstract_of, result_dtype


def _result_dtype(x, y):
    return result_dtype(abstract_of(x), abstract_of(y))


def floor_div(x, y):
    """`x // y` elementwise, rounding towards minus infinity, in the operands' promoted dtype."""
    out_dtype = _result_dtype(x, y)
    if not out_dtype.is_float:
        return F.stop_gradient(R.floor_div(x, y))
    # cast first: div ranks a 0-d tensor below the other operand (MindSpore's Div), FloorDiv
    # promotes as Add does
    return F.stop_gradient(R.floor(F.div(_cast_strong(x, out_dtype), _cast_strong(y, out_dtype))))


def _cast_strong(value, dtype):
    """A tensor operand in `dtype`; a Python number stays a number."""
    if hasattr(value, "aval") and not abstract_of(value).weak and \
            abstract_of(value).dtype != dtype:
        return F.cast(value, dtype)
    return value


def floor_mod(x, y):
    """`x % y` elementwise, with the sign of `y` (Python's and MindSpore's FloorMod)."""
    if not _result_dtype(x, y).is_float:
        return R.floor_mod(x, y)
    return F.sub(x, F.mul(floor_div(x, y), y))


def floor_divide(input, other):
    """`input // other` elementwise, rounding towards minus infinity (floor_div's)."""
    return floor_div(input, other)


class FloorDiv:
    """`ops.FloorDiv()(x, y)`."""

    def __call__(self, x, y):
        return floor_div(x, y)


class FloorMod:
    """`ops.FloorMod()(x, y)`."""

    def __call__(self, x, y):
        return floor_mod(x, y)


__all__ = ["FloorDiv", "FloorMod", "floor_div", "floor_divide", "floor_mod"]
