"""Code generation: each graph becomes one Python function with one line per node.

    def construct(x, y, z):
        _v1 = _k_mul(x, z)
        _v2 = _k_matmul(_v1, y)
        del _v1
        return (_v2,)

Names from the user (graphs, parameters) never start with `_`; every name the generator makes
(values `_v1`, kernels `_k_mul`, constants `_c0`/`_p0`) does, so the two cannot collide.
`Module.line_nodes` says which node each line runs (how a run-time error finds the node and
the user's line) and `Module.functions` where each function's lines are (the executor compiles
each function when it is first called).

Kernels are bound as globals of the generated module, by name; a node's parameters are keyword
arguments, written as literals (`k_matmul(v1, y, transpose_b=True)`) or, for values without
one (dtypes, index objects), read from module globals. Values are released after their last use. Structured nodes (`switch`,
`while_loop`) generate `if`/`while` statements over the functions of their graphs, through the
CODEGEN_RULES table.
"""
from __future__ import annotations

import functools
import keyword
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cellgraph.primitives.dtype import ML_DTYPES

from .ir import Apply, Constant, Graph, all_graphs

# primitive name -> fn(ctx, node, input_exprs, output_names) -> list of source lines
CODEGEN_RULES: dict[str, Callable] = {}


@dataclass
class Module:
    """Generated source and the objects its globals must be bound to."""

    source: str
    entry: str
    kernels: dict = field(default_factory=dict)  # global name -> (primitive name, params)
    constants: dict = field(default_factory=dict)  # global name -> value
    # source line (1-based) -> (the node it runs, its input expressions, its graph's name):
    # how a run-time error is traced back to the node and the user's line
    line_nodes: dict = field(default_factory=dict)
    # function name -> (start, stop): its lines are source.splitlines()[start:stop]
    functions: dict = field(default_factory=dict)

    @functools.cached_property
    def lines(self) -> list[str]:
        return self.source.splitlines()

    def function_source(self, name: str) -> tuple[str, int]:
        """The source of one generated function and the line (1-based) it starts at."""
        start, stop = self.functions[name]
        return "\n".join(self.lines[start:stop]) + "\n", start + 1


class _Context:
    def __init__(self, names: dict[int, str]):
        self.graph_names = names
        self.kernels: dict = {}
        self.kernel_keys: dict = {}
        self.constants: dict = {}
        self.counter = 0  # the last `vN` local of the function being generated
        self.pending: list[Graph] = []  # graphs whose functions a generated line calls
        self.marked: list[tuple] = []  # (node, input expressions, graph name) per line marker

    def fresh(self) -> str:
        """A new local name in the function being generated."""
        self.counter += 1
        return f"_v{self.counter}"

    def inline(self, graph: Graph, args: list[str]) -> tuple[list[str], list[str]]:
        """The lines that compute `graph` on the expressions `args` inside the function being
        generated, and the expressions of its outputs. Loop bodies are inlined: a trip then
        costs no call, no argument tuple and no result tuple. Nothing is released inside (each
        trip overwrites the same locals)."""
        local = {id(p): a for p, a in zip(graph.params, args)}
        lines = _node_lines(graph, self, local, None)
        return lines, [self.ref(local, o) for o in graph.outputs]

    def ref(self, local: dict, atom) -> str:
        return self.constant(atom) if isinstance(atom, Constant) else local[id(atom)]

    def kernel(self, node: Apply) -> str:
        params = {k: v for k, v in node.params.items() if not isinstance(v, Graph)}
        key = (node.callee.name, repr(sorted(params.items())))
        name = self.kernel_keys.get(key)
        if name is None:
            name = f"_k_{identifier(node.callee.name)}" + (
                f"_{len(self.kernels)}" if params else "")
            while name in self.kernels:
                name += "_"
            self.kernels[name] = (node.callee.name, params)
            self.kernel_keys[key] = name
        return name

    def kernel_fn(self, prim_name: str) -> str:
        """The global bound to the kernel of `prim_name`, called with params as keywords."""
        name = f"_k_{identifier(prim_name)}"
        while self.kernels.get(name, (prim_name, {})) != (prim_name, {}):
            name += "_"
        self.kernels[name] = (prim_name, {})
        return name

    def call(self, node: Apply, args: list[str]) -> str:
        """`k_name(args, param=literal, ...)`: params as keywords, no pre-bound partial. A
        node of one of its primitive's variants calls the variant's kernel (`name@variant`,
        which a backend without one binds to the primitive's)."""
        prim = node.callee
        variant = prim.kernel_variant and prim.kernel_variant(
            [a.aval for a in node.inputs], node.params)
        name = self.kernel_fn(f"{prim.name}@{variant}" if variant else prim.name)
        params = [f"{k}={self.literal(v)}" for k, v in node.params.items()
                  if not isinstance(v, Graph)]
        return f"{name}({', '.join(args + params)})"

    def literal(self, value) -> str:
        """Python source for a parameter value; other objects become module globals."""
        if _is_literal(value):
            return repr(value)
        name = f"_p{len(self.constants)}"
        self.constants[name] = value
        return name

    def constant(self, c: Constant) -> str:
        v = c.value
        if type(v) in (bool, int) or type(v) is float and np.isfinite(v):
            return repr(v)
        name = f"_c{len(self.constants)}"
        self.constants[name] = v
        return name

    def graph(self, g: Graph) -> str:
        """The name of the function that runs `g` (generated too)."""
        self.pending.append(g)
        return self.graph_names[id(g)]


def _is_literal(value) -> bool:
    """True when repr(value) evaluates back to an equal value of the same type. Strings are
    not: they may come from the user, and are bound as values (module globals) instead."""
    if value is None or type(value) in (bool, int):
        return True
    if type(value) is float:
        return bool(np.isfinite(value))
    if type(value) is tuple:
        return all(_is_literal(v) for v in value)
    return False


def _safe(hint: str | None, used: set, fallback: str) -> str:
    """A Python name for a user-given name (a graph's or a parameter's), unique in `used`.
    It never starts with `_`: those names are the generated code's own (see the module doc)."""
    base = identifier(hint or fallback)
    if not base or base[0].isdigit() or base[0] == "_" or keyword.iskeyword(base):
        base = "a_" + base
    return fresh_name(base, used)


def identifier(text: str) -> str:
    """`text` with every character but ASCII letters, digits and `_` replaced by `_`."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in text)


def fresh_name(base: str, used: set) -> str:
    """`base`, or `base_2`, `base_3`...: the first not in `used`, which it is added to."""
    name, k = base, 1
    while name in used:
        k += 1
        name = f"{base}_{k}"
    used.add(name)
    return name


def generate(graph: Graph) -> Module:
    """The module of `graph`: its function and those of the graphs its nodes call (graphs that
    are inlined, as loop bodies are, get no function of their own)."""
    names, used_names = {}, set()
    for g in all_graphs(graph):
        names[id(g)] = _safe(g.name, used_names, "graph")
    ctx = _Context(names)
    chunks, done = [], set()
    ctx.pending.append(graph)
    while ctx.pending:
        g = ctx.pending.pop()
        if id(g) not in done:
            done.add(id(g))
            chunks.append((names[id(g)], _function(g, ctx)))
    module = Module("", names[id(graph)], ctx.kernels, ctx.constants)
    lines: list[str] = []
    for name, chunk in reversed(chunks):
        if lines:
            lines.append("")
        start = len(lines)
        for line in chunk:
            head, marker, index = line.rpartition(_MARKER)
            if marker:
                module.line_nodes[len(lines) + 1] = ctx.marked[int(index)]
                line = head
            lines.append(line)
        module.functions[name] = (start, len(lines))
    module.source = "\n".join(lines) + "\n"
    return module


# Appended to each generated line while a module is built, naming its node; taken off again.
_MARKER = "  #@node:"


def _function(graph: Graph, ctx: _Context) -> list[str]:
    used: set = set(ctx.graph_names.values())  # a parameter never hides a graph's function
    local: dict[int, str] = {}
    params = []
    for p in graph.params:
        local[id(p)] = _safe(p.hint, used, "arg")
        params.append(local[id(p)])
    ctx.counter = 0
    lines = [f"def {ctx.graph(graph)}({', '.join(params)}):"]
    lines += ["    " + line for line in _node_lines(graph, ctx, local, _last_uses(graph))]
    rets = [ctx.ref(local, o) for o in graph.outputs]
    lines.append(f"    return ({', '.join(rets)}{',' if len(rets) == 1 else ''})")
    return lines


def _node_lines(graph: Graph, ctx: _Context, local: dict, last_use: dict | None) -> list[str]:
    """One or more lines per node; with `last_use`, values are deleted after their last use."""
    keep = {id(o) for o in graph.outputs}
    lines = []
    for i, node in enumerate(graph.nodes):
        outs = []
        for o in node.outputs:
            local[id(o)] = ctx.fresh()
            outs.append(local[id(o)])
        args = [ctx.ref(local, a) for a in node.inputs]
        rule = CODEGEN_RULES.get(node.callee.name)
        if rule is not None:
            body = rule(ctx, node, args, outs)
        elif not outs:  # an effect with no result (a barrier)
            body = [ctx.call(node, args)]
        else:
            lhs = ", ".join(outs) + ("," if len(outs) == 1 and node.callee.multiple_results
                                     else "")
            body = [f"{lhs} = {ctx.call(node, args)}"]
            body += _stored_as_declared(ctx, node, outs)
        marker = f"{_MARKER}{len(ctx.marked)}"
        ctx.marked.append((node, tuple(args), graph.name))
        # lines of an inlined graph carry their own nodes' markers already
        lines += [line if _MARKER in line else line + marker for line in body]
        if last_use is None:
            continue
        dead = [local[k] for k in last_use.get(i, ()) if k not in keep and k in local
                and local[k].startswith("_v")]
        if dead:
            lines.append(f"del {', '.join(dead)}")
    return lines


def _stored_as_declared(ctx: _Context, node: Apply, outs: list[str]) -> list[str]:
    """NumPy computes bfloat16 (and float8) arithmetic in float32 (ml_dtypes' promotion), so
    such a result is cast to the dtype its type rule promised; other dtypes need nothing."""
    if node.callee.name == "cast" or len(outs) != 1 or \
            node.outputs[0].aval.dtype.name not in ML_DTYPES:
        return []
    cast = ctx.kernel_fn("cast")
    return [f"{outs[0]} = {cast}({outs[0]}, dtype={ctx.literal(node.outputs[0].aval.dtype)})"]


def _last_uses(graph: Graph) -> dict[int, list[int]]:
    last: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        for a in node.inputs:
            if not isinstance(a, Constant):
                last[id(a)] = i
    by_node: dict[int, list[int]] = {}
    for key, i in last.items():
        by_node.setdefault(i, []).append(key)
    return by_node
