"""Graphviz export: a Graph as `dot` text, for people who would rather look than read.

One box per Apply (operation, static params, output types), one ellipse per graph parameter,
one plain node per Constant use, and a `return` node; edges run from producer to consumer.
Each graph (the top one and every graph nested in a node's params, e.g. the graph a `grad`
node differentiates) is drawn as its own cluster, in the printer's order:

    digraph cellgraph {
      subgraph cluster_0 {
        label="@construct";
        g0_x [label="%x\\nf32[2,3]", shape=ellipse];
        g0_n1 [label="%1 = mul\\nf32[2,3]", shape=box];
        g0_x -> g0_n1;
        ...
"""
from __future__ import annotations

from .ir import Apply, Constant, Graph, _fmt_constant, _fmt_param, all_graphs, graph_names


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class _Cluster:
    """The dot lines of one graph; `ids` maps each value to the dot node that produces it."""

    def __init__(self, index: int, graph: Graph, graph_names: dict):
        self.prefix = f"g{index}_"
        self.graph, self.graph_names = graph, graph_names
        self.ids: dict[int, str] = {}
        self.lines: list[str] = []
        self.constants = 0
        self.values = 0  # the printer's %N numbering

    def node(self, name: str, label: str, shape: str) -> str:
        node_id = self.prefix + name
        self.lines.append(f"    {node_id} [label={_quote(label)}, shape={shape}];")
        return node_id

    def source(self, value) -> str:
        if isinstance(value, Constant):
            self.constants += 1
            return self.node(f"c{self.constants}", _fmt_constant(value), "plaintext")
        return self.ids[id(value)]

    def add_params(self) -> None:
        for i, p in enumerate(self.graph.params):
            label = f"%{p.hint or f'arg{i}'}\n{p.aval}"
            self.ids[id(p)] = self.node(f"p{i}", label, "ellipse")

    def add_apply(self, node: Apply) -> None:
        """A box labelled like the text printer's line: `%4, %5 = op {params}` and types."""
        first = self.values + 1
        self.values += len(node.outputs)
        lhs = ", ".join(f"%{n}" for n in range(first, self.values + 1))
        params = ", ".join(f"{k}={_fmt_param(v, self.graph_names)}"
                           for k, v in node.params.items())
        types = ", ".join(str(o.aval) for o in node.outputs)
        label = f"{lhs} = {node.callee.name}" + (f"\n{{{params}}}" if params else "")
        node_id = self.node(f"n{first}", f"{label}\n{types}", "box")
        for value in node.inputs:
            self.lines.append(f"    {self.source(value)} -> {node_id};")
        for o in node.outputs:
            self.ids[id(o)] = node_id

    def add_return(self) -> None:
        node_id = self.node("return", "return", "doublecircle")
        for value in self.graph.outputs:
            self.lines.append(f"    {self.source(value)} -> {node_id};")

    def text(self, name: str) -> str:
        body = "\n".join(self.lines)
        return (f"  subgraph cluster_{self.prefix[1:-1]} {{\n    label={_quote(name)};\n"
                f"{body}\n  }}")


def to_dot(graph: Graph) -> str:
    """Graphviz `dot` source for `graph` and every graph nested in it."""
    graphs = all_graphs(graph)
    names = graph_names(graphs)
    clusters = []
    for index, g in enumerate(graphs):
        cluster = _Cluster(index, g, names)
        cluster.add_params()
        for node in g.nodes:
            cluster.add_apply(node)
        cluster.add_return()
        clusters.append(cluster.text(names[id(g)]))
    return "digraph cellgraph {\n  node [fontname=monospace];\n" + "\n".join(clusters) + "\n}\n"

