"""Control flow that depends on Tensor values, and Python truthiness rules for graph values.

`if` on a Tensor becomes a `switch` node whose branches are closed graphs; `while` on a Tensor
becomes a `while_loop` node with a condition graph and a body graph over the loop-carried values.
"""
from __future__ import annotations

from cellgraph.ops import functional as F
from cellgraph.ops.errors import CompileError

from .builder import Tracer


def truth(value) -> bool:
    """Python truthiness of a compile-time value (a concrete Tensor counts by its value)."""
    return bool(value)


def logical_not(value):
    return F.logical_not(value) if isinstance(value, Tracer) else (not value)


def logical_and(a, b):
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return F.logical_and(a, b)
    return a and b


def bool_op(interp, node):
    """`and`/`or`: Python short-circuit on constants, elementwise logic on Tensors."""
    import gast

    is_and = isinstance(node.op, gast.And)
    result = interp.eval(node.values[0])
    for value_node in node.values[1:]:
        if isinstance(result, Tracer):
            other = interp.eval(value_node)
            result = F.logical_and(result, other) if is_and else F.logical_or(result, other)
        elif truth(result) == is_and:
            result = interp.eval(value_node)
        else:
            return result
    return result


def if_expression(interp, node):
    test = interp.eval(node.test)
    if isinstance(test, Tracer):
        raise CompileError("a conditional expression on a Tensor is not supported yet",
                           interp.loc(node))
    return interp.eval(node.body if truth(test) else node.orelse)


def tensor_if(interp, node, test, rest) -> bool:
    raise CompileError("`if` on a Tensor value is not supported yet", interp.loc(node))


def tensor_while(interp, node):
    raise CompileError("`while` on a Tensor value is not supported yet", interp.loc(node))


def graph_print(args, kwargs):
    """`print` inside construct: values known at compile time print now."""
    print(*args, **kwargs)
