"""Code generation: each graph becomes one Python function with one line per node.

    def construct(x, y, z):
        _v1 = _k_mul(x, z)
        _v2 = _k_matmul(_v1, y)
        del _v1
        return (_v2,)

Names from the user (graphs, parameters) never start with `_`; every name the generator makes
(values `_v1`, kernels `_k_mul`, constants `_c0`/`_p0`) does, so the two cannot collide.

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
        self.line_nodes: dict = {}

    def kernel(self, node: Apply) -> str:
        params = {k: v for k, v in node.params.items() if not isinstance(v, Graph)}
        key = (node.callee.name, repr(sorted(params.items())))
        name = self.kernel_keys.get(key)
        if name is None:
            name = f"_k_{node.callee.name}" + (f"_{len(self.kernels)}" if params else "")
            while name in self.kernels:
                name += "_"
            self.kernels[name] = (node.callee.name, params)
            self.kernel_keys[key] = name
        return name

    def call(self, node: Apply, args: list[str]) -> str:
        """`k_name(args, param=literal, ...)`: params as keywords, no pre-bound partial."""
        name = f"_k_{node.callee.name}"
        self.kernels[name] = (node.callee.name, {})
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
        return self.graph_names[id(g)]


def _is_literal(value) -> bool:
    """True when repr(value) evaluates back to an equal value of the same type."""
    if value is None or type(value) in (bool, int, str):
        return True
    if type(value) is float:
        return bool(np.isfinite(value))
    if type(value) is tuple:
        return all(_is_literal(v) for v in value)
    return False


def _safe(hint: str | None, used: set, fallback: str) -> str:
    """A Python name for a user-given name (a graph's or a parameter's), unique in `used`.
    It never starts with `_`: those names are the generated code's own (see the module doc)."""
    base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in (hint or fallback))
    if not base or base[0].isdigit() or base[0] == "_" or keyword.iskeyword(base):
        base = "a_" + base
    return fresh_name(base, used)


def fresh_name(base: str, used: set) -> str:
    """`base`, or `base_2`, `base_3`...: the first not in `used`, which it is added to."""
    name, k = base, 1
    while name in used:
        k += 1
        name = f"{base}_{k}"
    used.add(name)
    return name


def generate(graph: Graph) -> Module:
    graphs = all_graphs(graph)
    names, used_names = {}, set()
    for g in graphs:
        names[id(g)] = _safe(g.name, used_names, "graph")
    ctx = _Context(names)
    lines: list[str] = []
    functions = {}
    for g in reversed(graphs):
        if lines:
            lines.append("")
        first = len(lines)
        _function(g, ctx, lines)
        functions[names[id(g)]] = (first, len(lines))
    return Module("\n".join(lines) + "\n", names[id(graph)], ctx.kernels, ctx.constants,
                  ctx.line_nodes, functions)


def _function(graph: Graph, ctx: _Context, lines: list[str]) -> None:
    """Append the source of `graph`'s function to `lines`, noting which node each line runs."""
    used: set = set(ctx.graph_names.values())  # a parameter never hides a graph's function
    local: dict[int, str] = {}
    params = []
    for p in graph.params:
        local[id(p)] = _safe(p.hint, used, "arg")
        params.append(local[id(p)])
    last_use = _last_uses(graph)
    keep = {id(o) for o in graph.outputs}

    def ref(a) -> str:
        return ctx.constant(a) if isinstance(a, Constant) else local[id(a)]

    lines.append(f"def {ctx.graph(graph)}({', '.join(params)}):")
    counter = 0
    for i, node in enumerate(graph.nodes):
        outs = []
        for o in node.outputs:
            counter += 1
            local[id(o)] = f"_v{counter}"
            outs.append(local[id(o)])
        args = [ref(a) for a in node.inputs]
        rule = CODEGEN_RULES.get(node.callee.name)
        if rule is not None:
            body = rule(ctx, node, args, outs)
        else:
            lhs = ", ".join(outs) + ("," if len(outs) == 1 and node.callee.multiple_results
                                     else "")
            body = [f"{lhs} = {ctx.call(node, args)}"]
        for line in body:
            lines.append("    " + line)
            ctx.line_nodes[len(lines)] = (node, tuple(args), graph.name)
        dead = [local[k] for k in last_use.get(i, ()) if k not in keep and k in local
                and local[k].startswith("_v")]
        if dead:
            lines.append(f"    del {', '.join(dead)}")
    rets = [ref(o) for o in graph.outputs]
    lines.append(f"    return ({', '.join(rets)}{',' if len(rets) == 1 else ''})")


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
