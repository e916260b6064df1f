"""`print` inside a graph: an effectful node that prints when the graph runs.

    print("loss:", x)   ->   print(%x) {template=('loss:', 0)}   (printed at run time)
"""
from __future__ import annotations

import builtins
import operator
import re

from cellgraph.primitives.core import Primitive
from cellgraph.primitives.errors import CompileError

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

    @property
    def runtime_parts(self) -> list:
        """The parts, for the argument and result trees (pytree's "text" kind)."""
        return self.parts

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

    def __format__(self, spec: str) -> str:
        if spec:
            raise CompileError(f"a Tensor in str.format prints as print(x) does; the format "
                               f"spec {spec!r} on it is not supported in graph mode")
        return str(self)


def _with_slots(render, items: list):
    """`render(slots)` with the Tensors of `items` as slots, split into a RuntimeString."""
    slots = [_Slot(i) if isinstance(item, Tracer) else item for i, item in enumerate(items)]
    pieces = re.split("\x00([0-9]+)\x00", render(slots))
    parts = [items[int(p)] if k % 2 else p for k, p in enumerate(pieces)]
    return RuntimeString([p for p in parts if not isinstance(p, str) or p])


def modulo(left, right):
    """`left % right`; a string %-formatted with Tensors (`"bad %s" % x`) is a RuntimeString,
    each Tensor written where its %s is."""
    items = right if isinstance(right, tuple) else (right,)
    if not isinstance(left, str) or not any(isinstance(i, Tracer) for i in items):
        return operator.mod(left, right)
    tupled = isinstance(right, tuple)
    return _with_slots(lambda slots: left % (tuple(slots) if tupled else slots[0]), list(items))


def text_call(fn, args: list, kwargs: dict):
    """`"..{}".format(x)`, `format(x)` or `str(x)` with Tensor arguments: a RuntimeString,
    each Tensor written where it goes when the graph runs. None for any other call."""
    values = [*args, *kwargs.values()]
    if not any(isinstance(v, Tracer) for v in values):
        return None
    if getattr(fn, "__name__", None) == "format" and type(getattr(fn, "__self__", None)) is str:
        names = list(kwargs)

        def render(slots):
            return fn.__self__.format(*slots[:len(args)], **dict(zip(names, slots[len(args):])))

        return _with_slots(render, values)
    if fn in (builtins.format, builtins.str) and len(args) == 1 and not kwargs:
        return RuntimeString([args[0]])
    return None


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
