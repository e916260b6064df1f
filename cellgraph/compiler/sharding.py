"""Operator sharding (semi-auto parallel): `shard_operators` turns the user's single-device
graph into the graph each rank runs, from the strategies the user put on primitives
(`matmul.shard(((1, 1), (2, 1)))`, which the nodes carry as `node.strategy`).

Every value of the per-rank graph stands for one tensor of the user's program, held in a
layout (shard_rules.py: replicated, split along an axis into one slice per rank, or partial
sums). A node with a strategy works on the slices its strategy names; a node without one keeps
the layouts its inputs arrive in where its rule allows (an elementwise op on a split tensor
stays split), else works on whole tensors. Where a value's layout differs from the one its
reader needs, a redistribution collective is inserted (primitives/redistribution_ops.py):
AllReduce (partial -> whole), ReduceScatter (partial -> split), AllGather (split -> whole),
AllToAll (split on one axis -> another), a local slice (whole -> split); and a whole input read
by a node whose result is split or partial goes through a mirror, whose derivative sums the
ranks' partial cotangents. Graph outputs are gathered whole. Differentiation then runs on the
per-rank graph like on any other (the pass runs before expand_grad), so the derivatives of the
moves are moves too.

Parameters are held as slices: a weight read by a sharded node takes the layout the node
needs, and one written back (an optimizer's state) the layout of the value written. The
graph's `weight_splits` say which (the executor slices the Parameters' data to match).
Megatron's two-layer MLP on 2 ranks, column-parallel then row-parallel:

    Before:  %1 = matmul(%x, %w1) {transpose_b=True} <in_strategy=((1, 1), (2, 1))>  : f32[4,8]
             %2 = relu(%1)  : f32[4,8]
             %3 = matmul(%2, %w2) {transpose_b=True} <in_strategy=((1, 2), (1, 2))>  : f32[4,3]
             return %3                                  (%w1: f32[8,4], %w2: f32[3,8])
    After:   %1 = shard_mirror(%x)  : f32[4,4]
             %2 = matmul(%1, %w1) {transpose_b=True} <...>  : f32[4,4]
             %3 = relu(%2)  : f32[4,4]
             %4 = matmul(%3, %w2) {transpose_b=True} <...>  : f32[4,3]
             %5 = shard_all_reduce(%4) {group=..., rank_size=2}  : f32[4,3]
             return %5                                  (%w1: f32[4,4], %w2: f32[3,4])

A strategy this cannot run (two split dimensions in one tensor, a split count other than the
number of ranks, a split of a softmax axis) raises UnsupportedError or ArgumentValueError
naming the operation, the strategy and the user's line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cellgraph.primitives import redistribution_ops as R
from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP
from cellgraph.primitives.core import TensorType
from cellgraph.primitives.errors import ArgumentValueError, CellgraphError, UnsupportedError
from cellgraph.primitives.math_ops import mul

from .ir import Apply, Constant, Graph, Var, all_graphs
from .shard_rules import PARTIAL, REPLICATED, Cannot, rule_of

UNKNOWN = "unknown"  # a weight whose layout its first reader decides
ROUNDS = 4  # weight layouts settle in two rounds (optimizer states follow their weights)


@dataclass
class ShardSettings:
    """Whether the process runs semi_auto_parallel (set_auto_parallel_context sets it)."""

    semi_auto: bool = False


SETTINGS = ShardSettings()


def sharding_ranks() -> int:
    """The number of ranks operators are split over: the world's size in semi-auto parallel
    mode once communication is initialised, else 1 (no sharding)."""
    if not SETTINGS.semi_auto:
        return 1
    from cellgraph.primitives import comm_ops

    try:
        return comm_ops.group_rank_and_size(WORLD_COMM_GROUP)[1]
    except CellgraphError:
        return 1


def has_strategies(graph: Graph) -> bool:
    return any(node.strategy is not None for g in all_graphs(graph) for node in g.nodes)


def shard_operators(graph: Graph, ranks: int, group: str = WORLD_COMM_GROUP) -> Graph:
    """The per-rank graph of `graph` over `ranks` ranks of `group` (a new graph). Weights
    already held as slices keep their layout; the others take the layout of their first
    sharded reader, then (next round) that of the value the graph writes into them."""
    held = {}
    for i, split in enumerate(graph.weight_splits):
        if split is not None:
            if tuple(split[1:]) != (ranks, group):
                raise UnsupportedError(f"Parameter {graph.weights[i].name!r} is held as slices "
                                       f"over {split[1]} ranks of {split[2]!r}; this graph "
                                       f"splits over {ranks} of {group!r}")
            held[i] = split[0]
    seeds = dict(held)
    for _ in range(ROUNDS):
        sharder = _Sharder(ranks, group, seeds)
        result = sharder.top(graph)
        wanted = {**sharder.written, **held}
        if wanted == seeds:
            return result
        seeds = wanted
    return result


@dataclass
class _Value:
    atom: object  # the per-rank value (None while an UNKNOWN weight waits for its layout)
    layout: object
    aval: TensorType  # the global type
    hint: str | None = None


@dataclass
class _Sharder:
    ranks: int
    group: str
    seeds: dict  # weight index -> layout, from the previous round
    written: dict = field(default_factory=dict)  # weight index -> layout of its new value

    # ----- graphs ------------------------------------------------------------------------------

    def top(self, graph: Graph) -> Graph:
        n_inputs = graph.n_inputs
        layouts = [REPLICATED] * n_inputs + [self.seeds.get(i, UNKNOWN)
                                             for i in range(len(graph.weights))]
        new, env, params = self._begin(graph, layouts)
        n_updates = len(graph.updates)
        plain = graph.outputs[:len(graph.outputs) - n_updates]
        outputs = [self._whole(new, env, o) for o in plain]
        weight_index = {id(w): i for i, w in enumerate(graph.weights)}
        for out, param in zip(graph.outputs[len(plain):], graph.updates):
            value = self._value(env, out)
            index = weight_index.get(id(param))  # else an argument or attribute: whole
            target = REPLICATED if index is None else self._weight_layout(
                env, params[n_inputs + index])
            if index is not None and value.layout not in (PARTIAL, UNKNOWN):
                self.written[index] = value.layout
            outputs.append(self._move(new, value, target, None))
        new.outputs = outputs
        new.params = [self._param_atom(env, p) for p in params]
        new.weight_splits = [self._split_of(env, params[n_inputs + i])
                             for i in range(len(graph.weights))]
        return new

    def _begin(self, graph: Graph, layouts: list):
        """The nodes of `graph` per rank, its inputs in `layouts`; (the new graph without its
        params and outputs, the values by id of the old, the old params)."""
        new = Graph(graph.name, [], [], [], graph.loc, list(graph.weights), graph.out_tree,
                    list(graph.updates))
        env: dict = {}
        for p, layout in zip(graph.params, layouts):
            env[id(p)] = _Value(None, layout, p.aval, p.hint)
            if layout != UNKNOWN:
                env[id(p)].atom = Var(self._local(p.aval, layout), p.hint)
        for node in graph.nodes:
            self._node(new, env, node)
        return new, env, list(graph.params)

    def subgraph(self, graph: Graph, layouts: list) -> tuple[Graph, list]:
        """A graph called with inputs in `layouts` (UNKNOWN: its first reader decides): the
        per-rank graph, with its outputs whole, and the layouts its inputs took."""
        new, env, params = self._begin(graph, layouts)
        new.outputs = [self._whole(new, env, o) for o in graph.outputs]
        new.params = [self._param_atom(env, p) for p in params]
        return new, [env[id(p)].layout for p in params]

    def _param_atom(self, env, p) -> Var:
        value = env[id(p)]
        if value.layout == UNKNOWN:  # never read: whole
            self._decide(value, REPLICATED)
        return value.atom

    def _weight_layout(self, env, p):
        value = env[id(p)]
        if value.layout == UNKNOWN:
            self._decide(value, REPLICATED)
        return value.layout

    def _split_of(self, env, p):
        layout = env[id(p)].layout
        return None if layout in (REPLICATED, UNKNOWN) else (layout, self.ranks, self.group)

    # ----- values ------------------------------------------------------------------------------

    def _local(self, aval: TensorType, layout) -> TensorType:
        if not isinstance(layout, int) or isinstance(layout, bool):
            return aval
        shape = list(aval.shape)
        shape[layout] //= self.ranks
        return TensorType(tuple(shape), aval.dtype, aval.weak)

    def _value(self, env, atom) -> _Value:
        if isinstance(atom, Constant):
            return _Value(atom, REPLICATED, atom.aval)
        return env[id(atom)]

    def _decide(self, value: _Value, layout) -> None:
        """An UNKNOWN weight takes `layout`: its input holds that slice (no communication)."""
        if layout == PARTIAL:
            layout = REPLICATED
        value.layout = layout
        value.atom = Var(self._local(value.aval, layout), value.hint)

    def _emit(self, graph: Graph, prim, inputs: list, params: dict, loc) -> list:
        avals = prim.abstract_eval([a.aval for a in inputs], params)
        avals = list(avals) if prim.multiple_results else [avals]
        outputs = [Var(a) for a in avals]
        graph.nodes.append(Apply(prim, inputs, params, outputs, loc))
        return outputs

    def _move(self, graph: Graph, value: _Value, target, loc):
        """The per-rank atom of `value` in layout `target`, through the collective that moves
        it there."""
        if value.layout == UNKNOWN:
            self._decide(value, target)
        source, atom = value.layout, value.atom
        if source == target:
            return atom
        comm = {"group": self.group, "rank_size": self.ranks}
        if source == PARTIAL:
            if target is REPLICATED:
                return self._emit(graph, R.shard_all_reduce, [atom], comm, loc)[0]
            return self._emit(graph, R.shard_reduce_scatter, [atom], {"axis": target, **comm},
                              loc)[0]
        if source is REPLICATED:
            return self._emit(graph, R.shard_slice, [atom], {"axis": target, **comm}, loc)[0]
        if target is REPLICATED:
            return self._emit(graph, R.shard_all_gather, [atom], {"axis": source, **comm},
                              loc)[0]
        return self._emit(graph, R.shard_all_to_all, [atom],
                          {"split_axis": target, "concat_axis": source, **comm}, loc)[0]

    def _whole(self, graph: Graph, env, atom):
        value = self._value(env, atom)
        return self._move(graph, value, REPLICATED, None)

    # ----- nodes -------------------------------------------------------------------------------

    def _node(self, graph: Graph, env, node: Apply) -> None:
        if node.callee.name == "grad":
            return self._grad(graph, env, node)
        if node.subgraphs():
            return self._whole_node(graph, env, node, node.params)
        rule = rule_of(node, self.ranks)
        if node.strategy is not None and node.strategy[0]:  # shard(()) leaves it to the pass
            return self._strategy_node(graph, env, node, rule)
        if rule is None:
            return self._whole_node(graph, env, node, node.params)
        values = [self._value(env, a) for a in node.inputs]
        arriving = [REPLICATED if v.layout in (PARTIAL, UNKNOWN) else v.layout for v in values]
        if any(v.layout == UNKNOWN for v in values):  # a weight follows its neighbours
            arriving = self._adopting(node, rule, values, arriving)
        try:
            sharding = rule(arriving, node, False)
        except Cannot:
            return self._whole_node(graph, env, node, node.params)
        self._apply(graph, env, node, sharding)

    def _adopting(self, node, rule, values, arriving) -> list:
        """The arriving layouts, with each UNKNOWN weight in the one the rule would ask of it
        (so an optimizer's first read of its state needs no communication)."""
        try:
            wanted = rule(arriving, node, False).inputs
        except Cannot:
            return arriving
        return [w if v.layout == UNKNOWN else a for v, a, w in zip(values, arriving, wanted)]

    def _strategy_node(self, graph: Graph, env, node: Apply, rule) -> None:
        in_strategy, out_strategy = node.strategy
        layouts = self._layouts_of(node, in_strategy, [a.aval for a in node.inputs], "in")
        if rule is None:
            raise UnsupportedError(f"{node.callee.label}: in_strategy {in_strategy} cannot be "
                                   f"run: cellgraph has no sharding rule for this operation; "
                                   f"remove its shard(...)", node.loc)
        try:
            sharding = rule(layouts, node, True)
        except Cannot as why:
            raise UnsupportedError(f"{node.callee.label}: in_strategy {in_strategy} cannot be "
                                   f"run on {self.ranks} ranks: {why}", node.loc) from None
        self._apply(graph, env, node, sharding)
        if out_strategy is not None:
            wanted = self._layouts_of(node, out_strategy, [o.aval for o in node.outputs], "out")
            for old, layout in zip(node.outputs, wanted):
                value = env[id(old)]
                env[id(old)] = _Value(self._move(graph, value, layout, node.loc), layout,
                                      value.aval)

    def _layouts_of(self, node: Apply, strategy: tuple, avals: list, kind: str) -> list:
        """The layouts a strategy names (one tuple of split counts per tensor)."""
        label = f"{node.callee.label}: {kind}_strategy {strategy}"
        if len(strategy) != len(avals):
            raise ArgumentValueError(f"{label} gives {len(strategy)} inputs' splits, the "
                                     f"operation has {len(avals)}", node.loc)
        layouts = []
        for counts, aval in zip(strategy, avals):
            if len(counts) != len(aval.shape):
                raise ArgumentValueError(f"{label}: {counts} gives {len(counts)} dimensions for "
                                         f"a tensor of shape {aval.shape}", node.loc)
            split = [i for i, c in enumerate(counts) if c != 1]
            for i in split:
                if counts[i] < 1 or (aval.shape[i] is not None and aval.shape[i] % counts[i]):
                    raise ArgumentValueError(f"{label}: dimension {i} of shape {aval.shape} "
                                             f"does not split into {counts[i]}", node.loc)
            if len(split) > 1 or (split and counts[split[0]] != self.ranks):
                raise UnsupportedError(f"{label}: cellgraph splits at most one dimension of a "
                                       f"tensor, into one slice per rank ({self.ranks})",
                                       node.loc)
            layouts.append(split[0] if split else REPLICATED)
        return layouts

    def _apply(self, graph: Graph, env, node: Apply, sharding) -> None:
        """Emit `node` on the slices `sharding` names, its inputs moved there first."""
        values = [self._value(env, a) for a in node.inputs]
        inputs = [self._move(graph, v, want, node.loc) for v, want in zip(values, sharding.inputs)]
        if any(layout is not REPLICATED for layout in sharding.outputs):
            inputs = [self._emit(graph, R.shard_mirror, [a], {"group": self.group,
                                                                "rank_size": self.ranks},
                                 node.loc)[0] if want is REPLICATED and not isinstance(
                a, Constant) and a.aval.dtype.is_float else a
                for a, want in zip(inputs, sharding.inputs)]
        params = node.params if sharding.params is None else sharding.params
        if sharding.emit is None:
            outputs = self._emit(graph, node.callee, inputs, params, node.loc)
            graph.nodes[-1].strategy = node.strategy
        else:
            outputs = sharding.emit(lambda prim, args, params: self._emit(
                graph, prim, args, params, node.loc), inputs, node, self.ranks, self.group)
        if sharding.scale is not None:  # a mean over a split axis: the ranks' means add up
            outputs = [self._scaled(graph, o, node.loc) for o in outputs]
        for old, new, layout in zip(node.outputs, outputs, sharding.outputs):
            env[id(old)] = _Value(new, layout, old.aval)

    def _scaled(self, graph: Graph, atom, loc):
        factor = Constant(1.0 / self.ranks, TensorType((), atom.aval.dtype, weak=True))
        return self._emit(graph, mul, [atom, factor], {}, loc)[0]

    def _whole_node(self, graph: Graph, env, node: Apply, params: dict) -> None:
        """`node` on whole tensors (an operation with no rule, control flow)."""
        for inner in node.subgraphs():
            if has_strategies(inner):
                raise UnsupportedError(f"{node.callee.label}: operators sharded inside "
                                       f"control flow are not supported; shard the operators "
                                       f"outside it", node.loc)
        inputs = [self._move(graph, self._value(env, a), REPLICATED, node.loc)
                  for a in node.inputs]
        outputs = self._emit(graph, node.callee, inputs, params, node.loc)
        for old, new in zip(node.outputs, outputs):
            env[id(old)] = _Value(new, REPLICATED, old.aval)

    def _grad(self, graph: Graph, env, node: Apply) -> None:
        """The differentiated graph sharded with the layouts its inputs arrive in (a weight
        first read inside it takes the layout it needs there); its gradients come in the
        layouts of their inputs."""
        inner = node.params["graph"]
        n_in = len(inner.params)
        values = [self._value(env, a) for a in node.inputs[:n_in]]
        layouts = [REPLICATED if v.layout == PARTIAL else v.layout for v in values]
        sharded, taken = self.subgraph(inner, layouts)
        inputs = []
        for value, layout in zip(values, taken):
            inputs.append(self._move(graph, value, layout, node.loc))
        sens = [self._move(graph, self._value(env, a), REPLICATED, node.loc)
                for a in node.inputs[n_in:]]
        params = {**node.params, "graph": sharded}
        outputs = self._emit(graph, node.callee, inputs + sens, params, node.loc)
        n_out = len(inner.outputs)
        layouts_out = [REPLICATED] * n_out + [taken[i] for i in node.params["wrt"]]
        for old, new, layout in zip(node.outputs, outputs, layouts_out):
            env[id(old)] = _Value(new, layout, old.aval)
