"""`&`, `|`, `^`, `<<` and `>>` between Python scalars in a graph, as MindSpore's graphs compute
them (its scalar operators BitAnd, BitOr, BitXor, BitLeftShift, BitRightShift):

    True & 1  ->  1          (bools count as integers; the result is an int)
    10.0 & 1  ->  TypeError  (floats are refused; `^` and the shifts refuse bools too)
    5 << -1   ->  ValueError (a negative shift count)

Operands that are not both Python scalars (Tensors, containers) take Python's operator."""
from __future__ import annotations

import operator

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.check_convert import dtype_error, value_type_name
from cellgraph.primitives.errors import ArgumentValueError, DTypeError


def _is_scalar(value) -> bool:
    return type(value) in (bool, int, float)


def _imm(value) -> str:
    """MindSpore's words for a scalar in its messages: `type of x:FP32Imm, value of x:10`."""
    if isinstance(value, bool):
        return "BoolImm", "true" if value else "false"
    if isinstance(value, int):
        return "Int64Imm", str(value)
    return "FP32Imm", f"{value:g}"


def _and_or(name: str, fn):
    def op(x, y):
        if not (_is_scalar(x) and _is_scalar(y)):
            return fn(x, y)
        for arg, value in (("x", x), ("y", y)):
            if isinstance(value, float):
                raise dtype_error(name, f"{arg}_dtype", (dt.bool_, dt.int32, dt.int64),
                                  value_type_name(value))
        return int(fn(x, y))
    return op


def _integer_only(name: str, fn, shift: bool):
    def op(x, y):
        if not (_is_scalar(x) and _is_scalar(y)):
            return fn(x, y)
        if any(isinstance(v, (bool, float)) for v in (x, y)):
            (tx, vx), (ty, vy) = _imm(x), _imm(y)
            raise DTypeError(f"Unsupported input type. For {name}, only integer types are "
                             f"supported, but got type of x:{tx}, value of x:{vx}, type of "
                             f"y:{ty}, value of y:{vy}")
        if shift and y < 0:
            raise ArgumentValueError("For shift operator, shift count must be a non-negative "
                                     "integer.")
        return fn(x, y)
    return op


bit_and = _and_or("bit_and", operator.and_)
bit_or = _and_or("bit_or", operator.or_)
bit_xor = _integer_only("BitXor", operator.xor, shift=False)
left_shift = _integer_only("BitLeftShift", operator.lshift, shift=True)
right_shift = _integer_only("BitRightShift", operator.rshift, shift=True)
