"""Floor division and its remainder (`x // y`, `x % y`; MindSpore's FloorDiv and FloorMod), as
composites of existing primitives.

    floor_div(x, y) = floor(x / y)            (no gradient: piecewise constant)
    floor_mod(x, y) = x - floor_div(x, y) * y (dx = dout, dy = -floor(x / y) * dout)

floor(q) is trunc(q) - (q < trunc(q)), trunc a round trip through int64. The quotient is taken
in float64, so integer operands are exact up to 2**53 and come back in their own dtype.
"""
from __future__ import annotations

from . import dtype as dt
from . import functional as F
from .core import abstract_of, result_dtype


def _result_dtype(x, y):
    return result_dtype(abstract_of(x), abstract_of(y))


def _floor(q):
    truncated = F.cast(F.cast(q, dt.int64), abstract_of(q).dtype)
    return F.sub(truncated, F.cast(F.less(q, truncated), abstract_of(q).dtype))


def floor_div(x, y):
    """`x // y` elementwise, rounding towards minus infinity, in the operands' promoted dtype."""
    out_dtype = _result_dtype(x, y)
    wide = dt.float64 if not out_dtype.is_float else out_dtype
    quotient = F.div(F.cast(x, wide) if not out_dtype.is_float else x,
                     F.cast(y, wide) if not out_dtype.is_float else y)
    return F.stop_gradient(F.cast(_floor(quotient), out_dtype))


def floor_mod(x, y):
    """`x % y` elementwise, with the sign of `y` (Python's and MindSpore's FloorMod)."""
    return F.sub(x, F.mul(floor_div(x, y), y))


floor_divide = floor_div


class FloorDiv:
    """`ops.FloorDiv()(x, y)`."""

    def __call__(self, x, y):
        return floor_div(x, y)


class FloorMod:
    """`ops.FloorMod()(x, y)`."""

    def __call__(self, x, y):
        return floor_mod(x, y)


__all__ = ["FloorDiv", "FloorMod", "floor_div", "floor_divide", "floor_mod"]
