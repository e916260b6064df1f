"""The IR printer's inverse: `parse_ir(text)` reads what `print_graph` writes back into a Graph.

    graph @f(%x: f32[2]) -> f32[2] {   # net.py:3
      %1 = mul(%x, 2.0)  : f32[2]   # net.py:4  y = x * 2.0
      %2 = reduce_sum(%1) {axis=(0,), keep_dims=True}  : f32[1]
      return %2
    }

    parse_ir(text)  ->  Graph @f with one parameter and two Apply nodes;
    print_graph(parse_ir(text)) == text   for every text print_graph wrote.

The first graph in the text is the result; the graphs after it are the ones its nodes' params
name (`{then_graph=@f_then}`), in any order. Hand-written text may leave out a node's types
(`%1 = mul(%x, 2.0)`): the primitive's type rule gives them; and a graph's result types
(`graph @f(%x: f32[2]) {`): its return gives them. What the printed text does not
hold, the parsed graph cannot have: a constant of more than six elements is printed as its type
alone (`const(<f32[4,4]>)`) and comes back as an `ElidedValue` (the graph prints and rewrites,
but cannot be evaluated); the Parameters a graph updates come back as `UpdatedParameter`s that
know only their names; a number's constant type is a Python number's (`abstract_of(2.0)`),
except where it is returned (the header gives it). Two things do not read back at all: a node
parameter that is a live Python object (a hook's function), and graph or value names holding
the printer's delimiters (spaces, brackets, braces, commas, `=`, `:`, line breaks), which the
printer writes unquoted; `IRParseError` names the line.
"""
from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import PRIMITIVES, Slice, TensorType, abstract_of
from cellgraph.primitives.errors import CompileError, SourceLoc

# the modules that declare the compiler's own primitives, which a text may name
from . import (  # noqa: F401
    autodiff,
    control_prims,
    custom,
    effects,
    loop_prims,
    print_op,
    recursion,
)
from .ir import Apply, Constant, ElidedValue, Graph, Var


class IRParseError(CompileError):
    """The text is not IR as the printer writes it; the message names the line."""


@dataclass(frozen=True)
class UpdatedParameter:
    """A Parameter a parsed graph writes back into, known by the name the text gives."""

    name: str


def _dtype_spellings() -> dict[str, dt.DType]:
    found = {}
    for d in vars(dt).values():
        if not isinstance(d, dt.DType):
            continue
        if d.np_name in dt.ML_DTYPES:  # spelt without loading ml_dtypes (d.short would)
            found[dt.ML_DTYPES[d.np_name]] = d
        else:
            found[d.short] = d
    return found


_DTYPES = _dtype_spellings()
_DTYPE_LABELS = {d.label: d for d in _DTYPES.values()}

_TYPE = re.compile(r"([a-z][a-z0-9]*)\[([0-9?,]*)\]")
_NUMBER = re.compile(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[+-]?\d+)?)(?![\w.])")
_COMPLEX = re.compile(r"\(-?[\d.e+-]+[+-](?:[\d.e+-]+|inf|nan)j\)|-?[\d.e+-]*j")
_SLICE = re.compile(r"(-?\d+)?:(-?\d+)?(?::(-?\d+))?")
_NAME = re.compile(r"[A-Za-z_][\w.]*")
_VALUE_NAME = re.compile(r"%([^\s(),:{}=]+)")
_GRAPH_NAME = re.compile(r"@([^\s(),:{}=]+)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_CLASS = re.compile(r"<class '([\w.]+)'>")
_LOC = re.compile(r"(.*?):(\d+)(?:  (.*))?")
_UPDATES = re.compile(r"  # the last (\d+) outputs update (.*)")


class _Line:
    """A scanner over one line of text: regexes matched at the current position."""

    def __init__(self, text: str, number: int):
        self.text, self.pos, self.number = text, 0, number

    def error(self, what: str) -> IRParseError:
        return IRParseError(f"IR line {self.number}: expected {what}, got "
                            f"{self.text[self.pos:self.pos + 30]!r} in {self.text.strip()!r}")

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def at(self, literal: str) -> bool:
        self.skip_spaces()
        return self.text.startswith(literal, self.pos)

    def take(self, literal: str) -> bool:
        if self.at(literal):
            self.pos += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.take(literal):
            raise self.error(repr(literal))

    def match(self, pattern: re.Pattern):
        self.skip_spaces()
        found = pattern.match(self.text, self.pos)
        if found:
            self.pos = found.end()
        return found

    def need(self, pattern: re.Pattern, what: str):
        found = self.match(pattern)
        if found is None:
            raise self.error(what)
        return found

    def done(self) -> bool:
        self.skip_spaces()
        return self.pos >= len(self.text)

    def type(self) -> TensorType:
        found = self.need(_TYPE, "a type such as f32[2,3]")
        if found.group(1) not in _DTYPES:
            raise self.error(f"a dtype ({', '.join(_DTYPES)})")
        dims = found.group(2)
        shape = tuple(None if d == "?" else int(d) for d in dims.split(",")) if dims else ()
        return TensorType(shape, _DTYPES[found.group(1)])

    def sequence(self, item, close: str) -> list:
        """`item(), item(), ...` up to `close`, which it consumes."""
        items = []
        while not self.take(close):
            if items:
                self.expect(",")
                if self.take(close):  # (x,)
                    break
            items.append(item())
        return items

    def location(self, with_text: bool) -> SourceLoc | None:
        """The trailing `# file:line  source text` comment, if any."""
        self.skip_spaces()
        if not self.take("#"):
            return None
        found = _LOC.fullmatch(self.text[self.pos:].strip(" "))
        if found is None:
            raise self.error("a location `# file.py:LINE`")
        self.pos = len(self.text)
        text = (found.group(3) or "") if with_text else ""
        return SourceLoc(found.group(1), int(found.group(2)), 0, text)


def _number(text: str):
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


class _GraphText:
    """The lines of one `graph @name(...) { ... }` block, parsed in two steps: the header
    first (so that every graph can be named by any other), then the body."""

    def __init__(self, lines: list[tuple[int, str]]):
        self.lines = lines
        head = _Line(lines[0][1], lines[0][0])
        head.expect("graph")
        self.name = head.need(_GRAPH_NAME, "a graph name @name").group(1)
        head.expect("(")
        self.values: dict[str, object] = {}
        params = []

        def param():
            name = head.need(_VALUE_NAME, "a parameter %name").group(1)
            head.expect(":")
            var = Var(head.type(), None)
            base = name.rsplit(".", 1)[0] if re.fullmatch(r".+\.\d+", name) else name
            var.hint = None if base == "arg" else base  # the printer writes %arg for no name
            self._define(head, name, var)
            params.append(var)

        head.sequence(param, ")")
        self.out_types = None  # hand-written text may leave them to the return
        if head.take("->"):
            self.out_types = head.sequence(head.type, ")") if head.take("(") else [head.type()]
        head.expect("{")
        self.graph = Graph(self.name, params, loc=head.location(False))
        self.started = False
        if not head.done():
            raise head.error("the end of the line")

    def _define(self, line: _Line, name: str, value) -> None:
        if name in self.values:
            raise line.error(f"a new value name, not %{name} again")
        self.values[name] = value

    def parsed(self, graphs: dict[str, _GraphText]) -> Graph:
        """The graph, its body parsed (first the bodies of the graphs it names, so that their
        result types are known; a graph that names itself, recursion, sees itself unfinished).
        `graphs` maps names to every graph's text."""
        if not self.started:
            self.started = True
            self._parse_body(graphs)
        return self.graph

    def _parse_body(self, graphs: dict[str, _GraphText]) -> None:
        graph, body = self.graph, self.lines[1:]
        if not body or body[-1][1] != "}":
            raise IRParseError(f"graph @{self.name}: expected a closing '}}'")
        returned = False
        for number, text in body[:-1]:
            line = _Line(text, number)
            updates = _UPDATES.fullmatch(text)
            if updates and returned:
                names = [n.strip() for n in updates.group(2).split(",")]
                if len(names) != int(updates.group(1)):
                    raise line.error(f"{updates.group(1)} Parameter names")
                graph.updates = [UpdatedParameter(n) for n in names]
            elif returned:
                raise line.error("'}' after the return")
            elif line.take("return"):
                graph.outputs = self._returned(line)
                returned = True
            else:
                graph.nodes.append(self._node(line, graphs))
        if not returned:
            raise IRParseError(f"graph @{self.name}: expected a return")
        if self.out_types is not None and len(self.out_types) == len(graph.outputs):
            # a number returned prints as a number: its type is the one the header gives
            graph.outputs = [Constant(o.value, t) if isinstance(o, Constant) and not isinstance(
                o.value, np.ndarray) else o for o, t in zip(graph.outputs, self.out_types)]
        got = [o.aval for o in graph.outputs]
        if self.out_types is not None and (
                [t.strong() for t in got] != [t.strong() for t in self.out_types]):
            raise IRParseError(f"graph @{self.name}: the header says it returns "
                               f"{', '.join(map(str, self.out_types))}, its return gives "
                               f"{', '.join(map(str, got))}")

    def _returned(self, line: _Line) -> list:
        """The values of `return %1` or `return (%1, %2)`."""
        if line.take("("):
            outputs = line.sequence(lambda: self._atom(line), ")")
        else:
            outputs = [self._atom(line)]
        if not line.done():
            raise line.error("the end of the line")
        return outputs

    def _node(self, line: _Line, graphs: dict[str, _GraphText]) -> Apply:
        names = []
        if line.at("%"):
            names.append(line.need(_VALUE_NAME, "a value %name").group(1))
            while line.take(","):
                names.append(line.need(_VALUE_NAME, "a value %name").group(1))
            line.expect("=")
        callee_name = line.need(_NAME, "a primitive's name").group(0)
        if callee_name not in PRIMITIVES:
            raise line.error(f"a primitive (no primitive is called {callee_name!r})")
        callee = PRIMITIVES[callee_name]
        line.expect("(")
        inputs = line.sequence(lambda: self._atom(line), ")")
        params = {}
        if line.take("{"):
            def param():
                key = line.need(_NAME, "a parameter name").group(0)
                line.expect("=")
                params[key] = _param_value(line, graphs)
            line.sequence(param, "}")
        strategy = None
        if line.take("<"):  # a sharding strategy: <in_strategy=..., out_strategy=...>
            given = {}

            def strategy_item():
                key = line.need(_NAME, "in_strategy or out_strategy").group(0)
                if key not in ("in_strategy", "out_strategy"):
                    raise line.error("in_strategy or out_strategy")
                line.expect("=")
                given[key] = _param_value(line, graphs)
            line.sequence(strategy_item, ">")
            strategy = (given.get("in_strategy"), given.get("out_strategy"))
        if line.take(":"):
            types = [line.type()]
            while line.take(","):
                types.append(line.type())
        else:  # hand-written: the type rule says
            types = _inferred_types(line, callee, inputs, params) if names else []
        if len(types) != len(names):
            raise line.error(f"{len(names)} types, one per value defined")
        loc = line.location(True)
        if not line.done():
            raise line.error("the end of the line")
        outputs = [Var(t) for t in types]
        for name, var in zip(names, outputs):
            self._define(line, name, var)
        return Apply(callee, inputs, params, outputs, loc, strategy)

    def _atom(self, line: _Line):
        """A value: `%name`, a number, `const([...]: type)` or `const(<type>)`."""
        if line.at("%"):
            name = line.need(_VALUE_NAME, "a value %name").group(1)
            if name not in self.values:
                raise line.error(f"a value defined before (%{name} is not)")
            return self.values[name]
        if line.take("const("):
            if line.take("<"):
                aval = line.type()
                line.expect(">")
                line.expect(")")
                return Constant(ElidedValue(aval), aval)
            end = line.text.find(":", line.pos)  # np.array2string writes no ':'
            if end < 0:
                raise line.error("`const(VALUES: type)`")
            body, line.pos = line.text[line.pos:end], end
            line.expect(":")
            aval = line.type()
            line.expect(")")
            return Constant(_array(line, body, aval), aval)
        value = _scalar(line)
        if isinstance(value, complex):  # a NumPy complex scalar prints as a number (a Python
            return Constant(np.complex128(value), abstract_of(value))  # one as const(...))
        return Constant(value, abstract_of(value))


def _inferred_types(line: _Line, callee, inputs, params) -> list[TensorType]:
    try:
        found = callee.abstract_eval([a.aval for a in inputs], params)
    except Exception as e:  # noqa: BLE001 - any type rule's complaint is the user's line's
        raise IRParseError(f"IR line {line.number}: {callee.name} does not take these "
                           f"operands: {e}") from None
    return list(found) if callee.multiple_results else [found]


def _scalar(line: _Line):
    """A number or bool as `repr` writes it."""
    for literal, value in (("True", True), ("False", False)):
        if line.match(re.compile(literal + r"\b")):
            return value
    found = line.match(_COMPLEX)
    if found:
        return complex(found.group(0).strip("()"))
    found = line.need(_NUMBER, "a value: %name, a number or const(...)")
    return _number(found.group(0))


def _array(line: _Line, body: str, aval: TensorType):
    """The array `np.array2string` wrote as `body` ([[1., 2.], [3., 4.]], with ", " between
    elements; a complex element may hold spaces: `0.78 -1.j`). Of shape (), the Python complex
    number the printer writes this way (a NumPy scalar prints as a plain number)."""
    items = [re.sub(r"[\[\]\s]", "", item) for item in body.split(",")]
    if aval.size is None or len(items) != aval.size or not all(items):
        raise line.error(f"{aval.size} numbers for a constant of type {aval}")
    kind = aval.dtype
    try:
        if kind.is_bool:
            values = [item == "True" for item in items]
        elif kind.is_complex:
            values = [complex(item) for item in items]
        else:
            values = [float(item) for item in items]
    except ValueError:
        raise line.error(f"numbers of type {aval}") from None
    if aval.shape == () and kind.is_complex:
        return values[0]
    return np.array(values).astype(kind.np).reshape(aval.shape)


def _param_value(line: _Line, graphs: dict[str, _GraphText]):
    """A node parameter as the printer writes it: a graph, tuple, list, string, number, bool,
    None, Ellipsis, slice (1:3), dtype (Float32), type (f32[2]) or class (<class 'ValueError'>).
    """
    found = line.match(_GRAPH_NAME)
    if found:
        if found.group(1) not in graphs:
            raise line.error(f"a graph defined in the text (there is no @{found.group(1)})")
        return graphs[found.group(1)].parsed(graphs)
    if line.take("("):
        return tuple(line.sequence(lambda: _param_value(line, graphs), ")"))
    if line.take("["):
        return line.sequence(lambda: _param_value(line, graphs), "]")
    found = line.match(_STRING)
    if found:
        return ast.literal_eval(found.group(0))
    found = line.match(_SLICE)
    if found:
        start, stop, step = (None if g is None else int(g) for g in found.groups())
        return Slice(start, stop, step)
    if _TYPE.match(line.text, line.pos):  # a type: call_graph's out_types
        return line.type()
    found = line.match(_CLASS)
    if found:
        return _class(line, found.group(1))
    found = line.match(_NAME)
    if found:
        word = found.group(0)
        named = {"True": True, "False": False, "None": None, "Ellipsis": Ellipsis,
                 "inf": float("inf"), "nan": float("nan")}
        if word in named:
            return named[word]
        if word in _DTYPE_LABELS:
            return _DTYPE_LABELS[word]
        line.pos = found.start()
        raise line.error("a parameter value (a graph, tuple, string, number, slice or dtype)")
    return _number(line.need(_NUMBER, "a parameter value").group(0))


def _class(line: _Line, qualified: str) -> type:
    """The class `str(cls)` wrote as <class 'module.Name'>: a builtin, or one of a module
    already imported (reading text never imports anything)."""
    module, _, name = qualified.rpartition(".")
    owner = sys.modules.get(module or "builtins")
    found = getattr(owner, name, None) if owner is not None else None
    if not isinstance(found, type):
        raise line.error(f"a class of a module already imported, not {qualified!r}")
    return found


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    """The text's graphs, each as its numbered lines (blank lines between graphs)."""
    blocks, current = [], None
    for number, raw in enumerate(text.splitlines(), 1):
        if current is None:
            if not raw.strip():
                continue
            if not raw.startswith("graph "):
                raise IRParseError(f"IR line {number}: expected `graph @name(...)`, got {raw!r}")
            current = [(number, raw)]
        else:
            current.append((number, raw))
            if raw == "}":
                blocks.append(current)
                current = None
    if current is not None:
        raise IRParseError(f"IR: graph starting on line {current[0][0]} has no closing '}}'")
    if not blocks:
        raise IRParseError("IR: the text holds no graph")
    return blocks


def parse_ir(text: str) -> Graph:
    """The Graph `text` prints (the first graph of the text, with the graphs it names)."""
    parsed = [_GraphText(block) for block in _blocks(text)]
    graphs: dict[str, _GraphText] = {}
    for g in parsed:
        if g.name in graphs:
            raise IRParseError(f"IR: two graphs are called @{g.name}")
        graphs[g.name] = g
    for g in parsed:
        g.parsed(graphs)
    _name_copies(parsed[0].graph)
    return parsed[0].graph


def _name_copies(graph: Graph) -> None:
    """Graphs printed as `@name.2` are a second graph called `name`: their own name again."""
    from .ir import all_graphs

    used = set()
    for g in all_graphs(graph):
        found = re.fullmatch(r"(.+)\.(\d+)", g.name)
        if found and found.group(1) in used:
            g.name = found.group(1)
        used.add(g.name)
