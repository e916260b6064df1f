"""`print` inside a graph: an effectful node that prints when the graph runs.

    print("loss:", x)   ->   print(%x) {template=('loss:', 0), lines=(('loss:',), (('t', 0, 'Float32'),))}

It prints as MindSpore does where the code runs: where MindSpore runs it as a graph (a `jit`
function, or any graph once `set_context(mode=GRAPH_MODE)` was called) as its Print operator
writes (`lines`: each argument on a line of its own, the elements of a tuple or list too, a
Tensor as its repr without commas, a number as C++ writes it, a bool as 1 or 0); elsewhere
(MindSpore's default PyNative mode, where Python's print runs) as Python's print does
(`template`: a Tensor as its str, a tuple holding Tensors as its repr). Constants print at run
time too, on every run.
"""
from __future__ import annotations

import builtins
import operator
import re

from cellgraph.primitives.core import Primitive, abstract_of
from cellgraph.primitives.errors import CompileError

from . import codegen
from .builder import Tracer, compile_context, is_tensor_like
from .pytree import ReprPart, RuntimeString

print_p = Primitive("print", lambda *avals, template, lines, style="mode", sep=None, end="\n",
                    flush=False: (),
                    label="Print", multiple_results=True, nondifferentiable=True,
                    effectful=True)


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

    def __repr__(self) -> str:  # inside a formatted tuple or list: the Tensor's repr goes there
        return f"\x01{self.index}\x01"

    def __format__(self, spec: str) -> str:
        if spec:
            raise CompileError(f"a Tensor in str.format prints as print(x) does; the format "
                               f"spec {spec!r} on it is not supported in graph mode")
        return str(self)


def _with_slots(render, items: list):
    """`render(slots)` with the graph Tensors of `items`, also inside their tuples and lists
    (`"{0[1]}".format([x, y])`), as slots, split into a RuntimeString."""
    found = []

    def slotted(item):
        if isinstance(item, Tracer):
            found.append(item)
            return _Slot(len(found) - 1)
        if isinstance(item, (tuple, list)):
            return list(map(slotted, item)) if isinstance(item, list) else \
                tuple(map(slotted, item))
        return item

    slots = [slotted(item) for item in items]
    return _runtime_string(render(slots), lambda i: found[i], lambda i: ReprPart(found[i]))


def holds_tracer(value) -> bool:
    if isinstance(value, Tracer):
        return True
    return isinstance(value, (tuple, list)) and any(holds_tracer(v) for v in value)


def _runtime_string(text: str, part, repr_part=None) -> RuntimeString:
    """`text`, whose slot markers are replaced by part(slot index) (a repr marker by
    repr_part(slot index))."""
    pieces = re.split("(\x00|\x01)([0-9]+)\\1", text)
    parts = []
    for k in range(0, len(pieces), 3):
        parts.append(pieces[k])
        if k + 2 < len(pieces):
            index = int(pieces[k + 2])
            parts.append(part(index) if pieces[k + 1] == "\x00" or repr_part is None
                         else repr_part(index))
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
    if not any(holds_tracer(v) for v in values):
        return None
    if getattr(fn, "__name__", None) == "format" and type(getattr(fn, "__self__", None)) is str:
        names = list(kwargs)

        def render(slots):
            return fn.__self__.format(*slots[:len(args)], **dict(zip(names, slots[len(args):])))

        return _with_slots(render, values)
    if fn in (builtins.format, builtins.str) and len(args) == 1 and not kwargs and \
            isinstance(args[0], Tracer):
        return RuntimeString([args[0]])
    return None


def _slotted(value):
    """`value` (a tuple or list) with its Tensors, at any depth, as slots, and those Tensors."""
    found = []

    def walk(v):
        if isinstance(v, Tracer) or is_tensor_like(v):
            found.append(v)
            return _Slot(len(found) - 1)
        if isinstance(v, (tuple, list)):
            return type(v)(walk(e) for e in v)
        if isinstance(v, dict):
            return {k: walk(e) for k, e in v.items()}
        return v

    return walk(value), found


def python_text(value):
    """A tuple or list holding Tensors as Python's print writes it: a RuntimeString whose
    Tensors print as their repr."""
    slotted, found = _slotted(value)
    if not found:
        return value
    return _runtime_string(repr(slotted), lambda i: ReprPart(found[i]))


def _constant_text(value) -> str:
    """A constant as MindSpore's Print operator writes it (C++'s `<<`)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return format(value, "g")
    if isinstance(value, tuple):
        return "(" + ", ".join(_constant_text(v) for v in value) + ")"
    return str(value)


def _graph_lines(value, piece, out: list) -> None:
    """The lines MindSpore's Print operator writes for one argument."""
    if isinstance(value, Tracer) or is_tensor_like(value):
        out.append((piece(value, "t"),))
    elif isinstance(value, RuntimeString):
        out.append(tuple(p if isinstance(p, str) else piece(p, "s") for p in value.parts))
    elif isinstance(value, (tuple, list, dict)) and _slotted(value)[1]:
        for v in value.values() if isinstance(value, dict) else value:
            _graph_lines(v, piece, out)
    else:
        out.append((_constant_text(value),))


def emit_print(args, kwargs):
    """A print node: its Tensors are its inputs; `template` and `lines` say how the rest
    reads in each of the two forms."""
    values = []

    def piece(value, form: str):
        for i, v in enumerate(values):
            if v is value:
                break
        else:
            values.append(value)
            i = len(values) - 1
        return i if form == "s" else (form, i, abstract_of(value).dtype.label)

    lines = []
    for a in args:
        _graph_lines(a, piece, lines)
    sep = kwargs.get("sep")
    template = []  # Python's form, the separators included
    for i, a in enumerate(args):
        if i:
            template.append(" " if sep is None else str(sep))
        if isinstance(a, (tuple, list, dict)):
            a = python_text(a)
        for p in a.parts if isinstance(a, RuntimeString) else [a]:
            if isinstance(p, ReprPart):
                template.append(piece(p.repr_value, "r"))
            elif isinstance(p, Tracer) or is_tensor_like(p):
                template.append(piece(p, "s"))
            else:
                template.append(str(p))
    params = {"sep": sep} if sep is not None else {}
    for key in ("end", "flush"):
        if key in kwargs:
            params[key] = kwargs[key]
    style = "graph" if compile_context().graph_print else "mode"
    print_p(*values, template=tuple(template), lines=tuple(lines), style=style, **params)


def _print_code(ctx, node, args, outs):
    return [f"{ctx.kernel(node)}({', '.join(args)})"]


codegen.CODEGEN_RULES["print"] = _print_code
