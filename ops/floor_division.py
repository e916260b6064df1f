"""Floor division and its remainder (`x // y`, `x % y`; MindSpore's FloorDiv and FloorMod), as
composites of existing primitives.

    floor_div(x, y) = floor(x / y)            (no gradient: piecewise constant)
    floor_mod(x, y) = x - floor_div(x, y) * y (dx = dout, dy = -floor(x / y) * dout)

Integer operands use the floor_div/floor_mod primitives (exact; an integer divided by 0 gives
what MindSpore's CPU kernels give, runtime/kernels.py); float ones take floor(x / y).
"""
from __future__ import annotations

import numpy as np

from . import functional as F
from . import math_ops as M
from . import rounding_ops as R
from .core import abstract_of, result_dtype
from .derive import export
from .errors import ArgumentValueError


def _result_dtype(x, y):
    return result_dtype(abstract_of(x), abstract_of(y))


def floor_div(x, y):
    """`x // y` elementwise, rounding towards minus infinity, in the operands' promoted dtype."""
    out_dtype = _result_dtype(x, y)
    if not out_dtype.is_float:
        return F.stop_gradient(R.floor_div(x, y))
    return F.stop_gradient(R.floor(F.div(x, y)))


def floor_mod(x, y):
    """`x % y` elementwise, with the sign of `y` (Python's and MindSpore's FloorMod)."""
    if not _result_dtype(x, y).is_float:
        return R.floor_mod(x, y)
    return F.sub(x, F.mul(floor_div(x, y), y))


floor_divide = floor_div


def _trunc_div(x, y):
    """x / y rounded toward zero; an integer divided by 0 gives 0, or the dtype's min for
    signed 32- and 64-bit integers (MindSpore's CPU kernel)."""
    out_dtype = _result_dtype(x, y)
    if out_dtype.is_float:
        return F.stop_gradient(R.trunc(F.div(x, y)))
    quotient, rest = R.floor_div(x, y), R.floor_mod(x, y)
    # floor rounded down where the exact quotient was negative and not whole: step back up
    inexact = M.logical_and(M.not_equal(rest, 0), M.not_equal(M.less(x, 0), M.less(y, 0)))
    quotient = M.add(quotient, F.cast(inexact, out_dtype))
    at_zero = np.iinfo(out_dtype.np).min if out_dtype.np.kind == "i" and \
        out_dtype.np.itemsize >= 4 else 0
    zeros = F.zeros_like(quotient)
    return F.stop_gradient(M.select(M.equal(M.add(zeros, y), 0), M.add(zeros, at_zero),
                                    quotient))


def div(input, other, *, rounding_mode=None):
    """input / other; rounding_mode "floor" rounds the quotient down, "trunc" toward zero (both
    in the operands' dtype, as MindSpore's ops.div)."""
    if rounding_mode is None:
        return M.div(input, other)
    if rounding_mode == "floor":
        return floor_div(input, other)
    if rounding_mode == "trunc":
        return _trunc_div(input, other)
    raise ArgumentValueError(f"div: rounding_mode must be None, 'floor' or 'trunc', got "
                             f"{rounding_mode!r}")


export(div, method=True, name="div")
export(div, method=True, name="divide")


class FloorDiv:
    """`ops.FloorDiv()(x, y)`."""

    def __call__(self, x, y):
        return floor_div(x, y)


class FloorMod:
    """`ops.FloorMod()(x, y)`."""

    def __call__(self, x, y):
        return floor_mod(x, y)


__all__ = ["FloorDiv", "FloorMod", "floor_div", "floor_divide", "floor_mod"]
