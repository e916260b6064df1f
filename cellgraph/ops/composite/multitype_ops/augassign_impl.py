"""MindSpore's `augassign_add`, `augassign_sub`, ... (`ops.augassign_add(x, y)` is `x += y`):
the operator on the two values; inside a graph, a Tensor `x` with a Tensor or number `y` is
updated in place (MindSpore's InplaceAddExt, ...), so that the caller's Tensor or Parameter
holds the result, while outside a graph MindSpore's PyNative call returns a new Tensor and
leaves `x` as it is. Two numbers are combined as ops.functional's scalar operations combine them
(MindSpore's ValueError for a zero divisor)."""
from __future__ import annotations

import numbers
import operator

from cellgraph.compiler.builder import current_builder, is_tensor_like
from cellgraph.compiler.effects import update_in_place
from cellgraph.primitives.errors import ArgumentValueError

__all__ = ["augassign_add", "augassign_div", "augassign_floordiv", "augassign_mod",
           "augassign_mul", "augassign_sub"]


def _number(value) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, complex)


def _augassign(name: str, op, scalar_op):
    def augassign(x, y):
        if _number(x) and _number(y):
            return scalar_op(x, y)
        result = op(x, y)
        if current_builder() is not None and is_tensor_like(x) and (
                is_tensor_like(y) or _number(y)):
            return update_in_place(x, result)
        return result

    augassign.__name__ = augassign.__qualname__ = name
    augassign.__doc__ = f"`x {op.__name__}= y` (MindSpore's {name})."
    return augassign


_DIVISOR = "The divisor could not be zero. But the divisor is zero now."


def _nonzero(op, message: str):
    """`op` on two numbers, F.scalar_div's ValueError (or scalar_mod's) for a zero divisor."""
    def divide(x, y):
        if y == 0:
            raise ArgumentValueError(message)
        return op(x, y)
    return divide


augassign_add = _augassign("augassign_add", operator.add, operator.add)
augassign_sub = _augassign("augassign_sub", operator.sub, operator.sub)
augassign_mul = _augassign("augassign_mul", operator.mul, operator.mul)
augassign_div = _augassign("augassign_div", operator.truediv,
                           _nonzero(operator.truediv, _DIVISOR))
augassign_floordiv = _augassign("augassign_floordiv", operator.floordiv,
                                _nonzero(operator.floordiv, _DIVISOR))
augassign_mod = _augassign("augassign_mod", operator.mod,
                           _nonzero(operator.mod, "Cannot perform modulo operation on zero."))
