"""`print` inside a graph: an effectful node that prints when the graph runs.

    print("loss:", x)   ->   print(%x) {template=('loss:', 0)}   (printed at run time)
"""
from __future__ import annotations

import operator
import re

from cellgraph.primitives.core import Primitive

from . import codegen
from .builder import Tracer, is_tensor_like

print_p = Primitive("print", lambda *avals, template, sep=" ", end="\n": (),
                    label="Print", multiple_results=True, nondifferentiable=True,
                    effectful=True)


class RuntimeString:
    """An f-string with Tensor parts: known only at run time, so it can be printed only there.

    print(f"loss {x}")   ->   print(%x) {template=('loss ', 0), sep=''}
    """

    def __init__(self, parts: list):
        self.parts = parts  # strings and graph values, in order

    def __str__(self) -> str:
        return "".join(p if isinstance(p, str) else f"<{type(p).__name__}>" for p in self.parts)


def joined_string(parts: list):
    """The value of an f-string whose formatted parts are `parts`."""
    if any(not isinstance(p, str) for p in parts):
        return RuntimeString(parts)
    return "".join(parts)


class _Slot:
    """Stands for a Tensor while a %-format is applied; prints as a marker of its position."""

    def __init__(self, index: int):
        self.index = index

    def __str__(self) -> str:
        return f"\x00{self.index}\x00"


def modulo(left, right):
    """`left % right`; a string %-formatted with Tensors (`"bad %s" % x`) is a RuntimeString,
    each Tensor written where its %s is."""
    items = right if isinstance(right, tuple) else (right,)
    if not isinstance(left, str) or not any(isinstance(i, Tracer) for i in items):
        return operator.mod(left, right)
    slots = tuple(_Slot(i) if isinstance(item, Tracer) else item for i, item in enumerate(items))
    text = left % (slots if isinstance(right, tuple) else slots[0])
    pieces = re.split("\x00([0-9]+)\x00", text)
    parts = [items[int(p)] if k % 2 else p for k, p in enumerate(pieces)]
    return RuntimeString([p for p in parts if not isinstance(p, str) or p])


def emit_print(args, kwargs):
    """Text parts stay in the node's template; Tensor parts become its inputs."""
    if any(isinstance(a, RuntimeString) for a in args):  # its parts print with no separator
        sep = kwargs.get("sep", " ")
        parts = []
        for i, a in enumerate(args):
            parts += ([sep] if i else []) + (a.parts if isinstance(a, RuntimeString) else [a])
        args, kwargs = parts, {**kwargs, "sep": ""}
    template, values = [], []
    for a in args:
        if isinstance(a, Tracer) or is_tensor_like(a):
            template.append(len(values))
            values.append(a)
        else:
            template.append(str(a))
    params = {k: kwargs[k] for k in ("sep", "end") if k in kwargs}
    print_p(*values, template=tuple(template), **params)


def _print_code(ctx, node, args, outs):
    return [f"{ctx.kernel(node)}({', '.join(args)})"]


codegen.CODEGEN_RULES["print"] = _print_code
