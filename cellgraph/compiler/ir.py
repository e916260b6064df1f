"""The IR: closed, flat graphs of primitive applications (A-normal form).

A `Graph` has parameters, a list of `Apply` nodes in execution order and outputs. A value is a
`Var` (a parameter or the result of an Apply) or a `Constant`. Control flow and differentiation
are primitives whose parameters hold graphs (`switch` has a graph per branch, `while_loop` a
condition and a body graph, `grad` the graph it differentiates): graphs are values, and every
graph is closed, so passes and code generation never chase free variables.

Printed form (the golden-test format; numbering is assigned at print time):

    graph @construct(%x: f32[2,3], %y: f32[3,3], %z: f32[1]) -> f32[2,3] {   # net.py:19
      %1 = mul(%x, %z)  : f32[2,3]   # net.py:20  x = x * self.z
      %2 = matmul(%1, %y)  : f32[2,3]   # net.py:21  out = self.matmul(x, y)
      return %2
    }
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cellgraph.primitives.core import Primitive, TensorType
from cellgraph.primitives.errors import SourceLoc


@dataclass(slots=True, eq=False)
class Var:
    """A value produced inside a graph; `hint` is a readable name for the printer."""

    aval: TensorType
    hint: str | None = None


@dataclass(slots=True, eq=False)
class Constant:
    """A literal: a NumPy array or a Python scalar, with its abstract value."""

    value: Any
    aval: TensorType


Atom = Var | Constant


@dataclass(frozen=True)
class ElidedValue:
    """The value of a constant read back from printed text, which leaves out the elements of
    arrays over six elements (see ir_parser.py): such a graph prints and rewrites, but does not
    run."""

    aval: TensorType


@dataclass(slots=True, eq=False)
class Apply:
    """outputs = callee(*inputs, **params); graph-valued params make it a higher-order node."""

    callee: Primitive
    inputs: list
    params: dict
    outputs: list
    loc: SourceLoc | None = None
    # the user's sharding strategy of a primitive called as `prim.shard(in_strategy,
    # out_strategy)`: (in_strategy, out_strategy), each a tuple of split counts per input
    # (output) dimension or None; read by the shard_operators pass (sharding.py)
    strategy: tuple | None = None

    def subgraphs(self) -> list[Graph]:
        return [v for v in self.params.values() if isinstance(v, Graph)]


def has_effects(node: Apply) -> bool:
    """Whether running `node` does something besides computing its outputs (printing, raising,
    drawing random numbers), itself or inside one of its graphs: such nodes are never folded,
    merged or dropped."""
    return _has_effects(node, set())


def _has_effects(node: Apply, seen: set) -> bool:
    if node.callee.effectful:
        return True
    todo = [g for g in node.subgraphs() if id(g) not in seen]  # a recursive graph calls itself
    seen.update(id(g) for g in todo)
    return any(_has_effects(inner, seen) for g in todo for inner in g.nodes)


@dataclass(slots=True, eq=False, weakref_slot=True)
class Graph:
    """A closed function. `weights` are the Parameter objects bound to the trailing params."""

    name: str
    params: list
    nodes: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    loc: SourceLoc | None = None
    weights: list = field(default_factory=list)
    out_tree: Any = None  # how the flat outputs nest into tuples, for the caller
    updates: list = field(default_factory=list)  # Parameters set to the last len(updates) outputs
    # per weight: None, or (axis, ranks, group) when each rank holds a slice of it (sharding.py)
    weight_splits: list = field(default_factory=list)
    # (AttributeSlot, value known when compiling) set after each run: `self.attr = 2`
    host_writes: list = field(default_factory=list)

    @property
    def n_inputs(self) -> int:
        return len(self.params) - len(self.weights)

    def out_avals(self) -> list[TensorType]:
        return [o.aval for o in self.outputs]

    def __repr__(self) -> str:
        return f"@{self.name}"


def all_graphs(graph: Graph) -> list[Graph]:
    """`graph` and every graph nested in its nodes' params, each once, outermost first."""
    seen, order, todo = set(), [], [graph]
    while todo:
        g = todo.pop(0)
        if id(g) in seen:
            continue
        seen.add(id(g))
        order.append(g)
        for node in g.nodes:
            todo.extend(node.subgraphs())
    return order


def copy_graph(graph: Graph) -> Graph:
    """A copy of `graph` and of every graph nested in it, with new values and nodes (a graph
    two nodes share stays shared): a pass that rewrites in place works on a copy, so no cache
    holding the original ever sees it change."""
    copies: dict[int, Graph] = {}

    def copy(g: Graph) -> Graph:
        if id(g) in copies:
            return copies[id(g)]
        values: dict[int, Var] = {}

        def value(a):
            if isinstance(a, Constant):
                return a
            if id(a) not in values:
                values[id(a)] = Var(a.aval, a.hint)
            return values[id(a)]

        new = Graph(g.name, [value(p) for p in g.params], [], [], g.loc, list(g.weights),
                    g.out_tree, list(g.updates), list(g.weight_splits), list(g.host_writes))
        copies[id(g)] = new
        for node in g.nodes:
            params = {k: copy(v) if isinstance(v, Graph) else v for k, v in node.params.items()}
            new.nodes.append(Apply(node.callee, [value(a) for a in node.inputs], params,
                                   [value(o) for o in node.outputs], node.loc, node.strategy))
        new.outputs = [value(o) for o in g.outputs]
        return new

    return copy(graph)


# ----- printing --------------------------------------------------------------------------------

def _fmt_param(value, names) -> str:
    if isinstance(value, Graph):
        return names[id(value)]
    if isinstance(value, tuple):
        inner = ", ".join(_fmt_param(v, names) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, float):
        return repr(value)
    return str(value) if not isinstance(value, str) else repr(value)


def _fmt_constant(c: Constant) -> str:
    v = c.value
    if isinstance(v, ElidedValue):
        return f"const(<{c.aval}>)"
    if isinstance(v, (bool, int, float, np.generic)) or (isinstance(v, np.ndarray) and v.ndim == 0):
        return repr(v.item() if hasattr(v, "item") else v)
    arr = np.asarray(v)
    if arr.size <= 6:
        return f"const({np.array2string(arr, separator=', ').replace(chr(10), '')}: {c.aval})"
    return f"const(<{c.aval}>)"


def print_graph(graph: Graph) -> str:
    """Text for `graph` and the graphs nested in it, with deterministic numbering."""
    graphs = all_graphs(graph)
    names = graph_names(graphs)
    return "\n\n".join(_print_one(g, names) for g in graphs) + "\n"


def graph_names(graphs: list[Graph]) -> dict[int, str]:
    """`@name` for each graph by id; graphs that share a name become `@name.2`, `@name.3`."""
    names: dict[int, str] = {}
    used: set[str] = set()
    for g in graphs:
        name, k = "@" + g.name, 1
        while name in used:
            k += 1
            name = f"@{g.name}.{k}"
        used.add(name)
        names[id(g)] = name
    return names


def _print_one(graph: Graph, names: dict) -> str:
    ids: dict[int, str] = {}
    used: set[str] = set()
    for p in graph.params:
        base = p.hint or "arg"
        name, k = base, 1
        while name in used:
            k += 1
            name = f"{base}.{k}"
        used.add(name)
        ids[id(p)] = "%" + name
    counter = 0

    def ref(a) -> str:
        return _fmt_constant(a) if isinstance(a, Constant) else ids.get(id(a), "%<undefined>")

    sig = ", ".join(f"{ids[id(p)]}: {p.aval}" for p in graph.params)
    outs = ", ".join(str(o.aval) for o in graph.outputs)
    outs = outs if len(graph.outputs) == 1 else f"({outs})"
    lines = [f"graph {names[id(graph)]}({sig}) -> {outs} {{" + _loc_comment(graph.loc, False)]
    for node in graph.nodes:
        for o in node.outputs:
            counter += 1
            ids[id(o)] = f"%{counter}"
        lhs = ", ".join(ids[id(o)] for o in node.outputs)
        args = ", ".join(ref(a) for a in node.inputs)
        params = ", ".join(f"{k}={_fmt_param(v, names)}" for k, v in node.params.items())
        call = f"{node.callee.name}({args})" + (f" {{{params}}}" if params else "")
        if node.strategy is not None:
            call += " <" + ", ".join(f"{k}={_fmt_param(v, names)}" for k, v in zip(
                ("in_strategy", "out_strategy"), node.strategy) if v is not None) + ">"
        types = ", ".join(str(o.aval) for o in node.outputs)
        text = f"{lhs} = {call}  : {types}" if node.outputs else call  # an effect (barrier)
        lines.append(f"  {text}" + _loc_comment(node.loc, True))
    ret = ", ".join(ref(o) for o in graph.outputs)
    lines.append(f"  return {ret if len(graph.outputs) == 1 else '(' + ret + ')'}")
    if graph.updates:  # which Parameters the trailing outputs are written back into
        names = ", ".join(p.name or "?" for p in graph.updates)
        lines.append(f"  # the last {len(graph.updates)} outputs update {names}")
    lines.append("}")
    return "\n".join(lines)


def _loc_comment(loc: SourceLoc | None, with_text: bool) -> str:
    if loc is None:
        return ""
    text = f"  {loc.text.strip()}" if with_text and loc.text else ""
    return f"   # {loc.short()}{text}"


# ----- verification ----------------------------------------------------------------------------

def verify(graph: Graph) -> None:
    """Check the invariants every pass must keep; raises AssertionError naming the node."""
    for g in all_graphs(graph):
        defined = {id(p) for p in g.params}
        for node in g.nodes:
            for a in node.inputs:
                assert isinstance(a, Constant) or id(a) in defined, (
                    f"{g!r}: {node.callee.name} uses a value before it is defined")
            avals = [a.aval for a in node.inputs]
            expected = node.callee.abstract_eval(avals, node.params)
            expected = list(expected) if node.callee.multiple_results else [expected]
            got = [o.aval for o in node.outputs]
            assert [e.strong() for e in expected] == [o.strong() for o in got], (
                f"{g!r}: {node.callee.name} outputs {got}, its type rule says {expected}")
            for o in node.outputs:
                assert id(o) not in defined, f"{g!r}: a value is defined twice"
                defined.add(id(o))
        for o in g.outputs:
            assert isinstance(o, Constant) or id(o) in defined, f"{g!r}: undefined output"
