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

Device matrices of two axes (device_matrix): when an operation splits two of its dimensions
(Megatron with data parallelism on 4 ranks: MatMul ((2, 1), (2, 1)), then ((2, 2), (1, 2))),
the ranks form a matrix (d0, d1), rank = i0 * d1 + i1 as in MindSpore. A layout then has one
entry per axis (the shard_rules layout along that axis: the dimension split, PARTIAL or
whole), each node's rule runs per axis, and each move runs within the group of the ranks
along one axis (redistribution_ops.device_axis_group):

    %1 = shard_slice(%x) {axis=0, group='shard_device_axis_2x2_0', rank_size=2}  : f32[2,8]
    %4 = matmul(%3, %2) {transpose_b=True} <in_strategy=((2, 1), (2, 1))>  : f32[2,8]
    %9 = matmul(%7, %8) {transpose_b=True} <in_strategy=((2, 2), (1, 2))>  : f32[2,8]
    %10 = shard_all_reduce(%9) {group='shard_device_axis_2x2_1', rank_size=2}  : f32[2,8]

With one axis the layouts are 1-tuples over the world group and the graph is as above.

A strategy this cannot run (three split dimensions, a split that fits no axis of the graph's
device matrix, strategies over different matrices, a split of a softmax axis) raises
UnsupportedError or ArgumentValueError naming the operation, the strategy and the user's
line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cellgraph.primitives import redistribution_ops as R
from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP
from cellgraph.primitives.core import PRIMITIVES, TensorType
from cellgraph.primitives.dtype import bfloat16, float16, float32
from cellgraph.primitives.errors import (
    ArgumentValueError,
    CellgraphError,
    RunError,
    UnsupportedError,
)
from cellgraph.primitives.math_ops import mul

from .ir import Apply, Constant, Graph, Var, all_graphs
from .shard_rules import PARTIAL, REPLICATED, Cannot, _matmul_roles, elementwise, rule_of

UNKNOWN = "unknown"  # a weight whose layout its first reader decides
ROUNDS = 4  # weight layouts settle in two rounds (optimizer states follow their weights)


@dataclass
class ShardSettings:
    """The auto-parallel context the compiler reads (set_auto_parallel_context sets it):
    whether the process runs semi_auto_parallel, the mode, the device_num set (None: the
    job's), pipeline stages and optimizer sharding."""

    semi_auto: bool = False
    parallel_mode: str = "stand_alone"
    device_num: int | None = None
    pipeline_stages: int = 1
    parallel_optimizer: bool = False
    full_batch: bool = False
    dataset_strategy_set: bool = False  # a split or a Layout per input, not a str
    gradient_fp32_sync: bool = True  # half-precision gradients all-reduced in float32


SETTINGS = ShardSettings()
OPERATOR_MODES = ("semi_auto_parallel", "auto_parallel")
HALF_FLOATS = (float16, bfloat16)


def _world_size() -> int:
    from cellgraph.primitives import comm_ops

    try:
        return comm_ops.group_rank_and_size(WORLD_COMM_GROUP)[1]
    except CellgraphError:
        return 1


def check_parallel_job() -> None:
    """What a compile in semi_auto or auto parallel mode checks first, as MindSpore's does
    (GetCommInfo): a device_num set in the context must be the number of processes the job
    has (1 before communication.init()), else RuntimeError. Then the settings cellgraph
    cannot run are refused: strategy search (auto_parallel), pipeline stages, optimizer
    sharding. In the other modes, full_batch (every process reads the whole batch) is refused
    as MindSpore refuses it."""
    if SETTINGS.parallel_mode not in OPERATOR_MODES:
        if SETTINGS.full_batch:
            raise RunError("full_batch could only be used under semi_auto_parallel or "
                           "auto_parallel.")
        return
    _check_device_num()
    if SETTINGS.parallel_mode == "auto_parallel":
        raise UnsupportedError("parallel_mode 'auto_parallel' searches the operators' "
                               "strategies; cellgraph runs the strategies a program sets: "
                               "use 'semi_auto_parallel' with Primitive.shard")
    if SETTINGS.pipeline_stages > 1:
        raise UnsupportedError(f"pipeline_stages={SETTINGS.pipeline_stages}: cellgraph runs "
                               f"no pipeline stages; every process runs the whole network")
    if SETTINGS.parallel_optimizer:
        raise UnsupportedError("enable_parallel_optimizer=True: cellgraph shards no optimizer "
                               "states; every process holds whole ones")


def _check_device_num() -> None:
    """MindSpore's GetCommInfo: a device_num set in the context must be the number of
    processes the job has (1 before communication.init()), else RuntimeError."""
    world = _world_size()
    if SETTINGS.device_num is not None and SETTINGS.device_num != world:
        raise RunError(f"The device_num {SETTINGS.device_num} set in the context is not "
                       f"consist with {world} devices you have. Please check your rank_table "
                       f"file(for Ascend) or host file(for GPU).")


def check_split_batch_inputs(args: tuple) -> None:
    """What a compile in semi_auto or auto parallel checks before parsing when each process
    reads its share of the batch (neither full_batch nor a dataset_strategy per input):
    MindSpore widens every Tensor argument of rank >= 1 to the whole batch before inferring
    anything (ToFullShape), asking the job's size as it does (GetCommInfo), so a device_num
    that is not the job's is refused before any operator's shape check."""
    if SETTINGS.parallel_mode not in OPERATOR_MODES or SETTINGS.full_batch \
            or SETTINGS.dataset_strategy_set:
        return
    if any(len(getattr(arg, "shape", ()) or ()) > 0 and hasattr(arg, "dtype") for arg in args):
        _check_device_num()


def sharding_ranks() -> int:
    """The number of ranks operators are split over: the world's size in semi-auto parallel
    mode once communication is initialised, else 1 (no sharding)."""
    if not SETTINGS.semi_auto:
        return 1
    return _world_size()


def has_strategies(graph: Graph) -> bool:
    return any(node.strategy is not None for g in all_graphs(graph) for node in g.nodes)


def _is_dim(entry) -> bool:
    return isinstance(entry, int) and not isinstance(entry, bool)


def _unpartial(layout: tuple) -> tuple:
    return tuple(REPLICATED if e == PARTIAL else e for e in layout)


def dim_keys(node: Apply, kind: str) -> list:
    """For each input (kind "in") or output ("out") of `node`, the dimension of the operation
    each of its dimensions is, as sortable keys in the order MindSpore lays the operation's
    dimensions out on its device matrix: a matmul's (batch..., M, K, N), a broadcasting
    operator's output dimensions, a bias add's input dimensions, else each tensor's own."""
    if kind == "out":
        return [[(i, d) for d in range(len(o.aval.shape))] for i, o in enumerate(node.outputs)]
    shapes = [tuple(a.aval.shape) for a in node.inputs]
    name = node.callee.name
    if name == "matmul" and len(shapes) == 2:
        a_roles, b_roles, _ = _matmul_roles(node)
        order = {"m": (1,), "k": (2,), "n": (3,)}

        def key(role):
            return (0, role[1]) if isinstance(role, tuple) else order[role]
        return [[key(r) for r in a_roles], [key(r) for r in b_roles]]
    if name == "bias_add" and len(shapes) == 2 and shapes[0]:
        channel = node.params.get("axis", 1) % len(shapes[0])
        return [[(0, d) for d in range(len(shapes[0]))], [(0, channel)]]
    if rule_of(node, 1) is elementwise:
        out = len(node.outputs[0].aval.shape)
        return [[(0, d + out - len(s)) for d in range(len(s))] for s in shapes]
    return [[(i, d) for d in range(len(s))] for i, s in enumerate(shapes)]


def _split_counts(node: Apply, kind: str, strategy: tuple) -> dict:
    """The operation's split dimensions (dim_keys) and the largest count each is split into."""
    counts: dict = {}
    for tensor, keys in zip(strategy, dim_keys(node, kind)):
        for count, key in zip(tensor, keys):
            if isinstance(count, int) and count > 1:
                counts[key] = max(counts.get(key, 1), count)
    return counts


def device_matrix(graph: Graph, ranks: int) -> tuple:
    """The device matrix the strategies of `graph` split over `ranks` ranks: (ranks,) when
    every split is into `ranks` slices; (d0, d1) when an operation splits two of its
    dimensions (into d0 and d1, in dim_keys' order, as MindSpore's device matrix of that
    operation), or one into fewer slices than ranks (d1 of them: MindSpore repeats the
    computation along the leading axis). Strategies that fit no matrix of the job are refused
    by the pass, at their operation."""
    pairs, singles = [], set()
    for g in all_graphs(graph):
        for node in g.nodes:
            for kind, strategy in zip(("in", "out"), node.strategy or ()):
                if not strategy:
                    continue
                try:
                    split = [c for _, c in sorted(_split_counts(node, kind, strategy).items())]
                except (TypeError, IndexError, KeyError):
                    continue  # a malformed strategy: refused where the pass reads it
                if len(split) == 2 and split[0] * split[1] == ranks:
                    pairs.append(tuple(split))
                elif len(split) == 1 and split[0] < ranks and ranks % split[0] == 0:
                    singles.add(split[0])
    if pairs:
        return pairs[0]  # the first operation's; another matrix is refused at its operation
    if singles:
        inner = min(singles)
        return (ranks // inner, inner)
    return (ranks,)


def shard_operators(graph: Graph, ranks: int, group: str = WORLD_COMM_GROUP) -> Graph:
    """The per-rank graph of `graph` over `ranks` ranks of `group` (a new graph). Weights
    already held as slices keep their layout; the others take the layout of their first
    sharded reader, then (next round) that of the value the graph writes into them."""
    matrix = device_matrix(graph, ranks)
    if len(matrix) == 1:
        groups: tuple = (group,)
    elif group != WORLD_COMM_GROUP:
        raise UnsupportedError(f"operators split over a device matrix {matrix} run on the "
                               f"world group, not on {group!r}")
    else:
        groups = tuple(R.device_axis_group(matrix, a) for a in range(len(matrix)))
    held = {}
    for i, split in enumerate(graph.weight_splits):
        if split is not None:
            if (tuple(split[1]), tuple(split[2])) != (matrix, groups):
                raise UnsupportedError(f"Parameter {graph.weights[i].name!r} is held as slices "
                                       f"over the device matrix {tuple(split[1])} of groups "
                                       f"{tuple(split[2])}; this graph splits over {matrix} "
                                       f"of {groups}")
            held[i] = tuple(split[0])
    seeds = dict(held)
    for _ in range(ROUNDS):
        sharder = _Sharder(ranks, matrix, groups, seeds)
        result = sharder.top(graph)
        wanted = {**sharder.written, **held}
        if wanted == seeds:
            return result
        seeds = wanted
    return result


@dataclass
class _Value:
    atom: object  # the per-rank value (None while an UNKNOWN weight waits for its layout)
    layout: object  # one entry per device-matrix axis (shard_rules' layouts), or UNKNOWN
    aval: TensorType  # the global type
    hint: str | None = None


@dataclass
class _Plan:
    """A node's sharding on every axis of the device matrix: the layouts of its inputs and
    outputs (one entry per axis), its params on the slices, the factor its outputs are
    scaled by, and (axis, emit) when it computes on the slices with other nodes."""

    inputs: list
    outputs: list
    params: dict
    scale: float | None
    emit: tuple | None


@dataclass
class _Sharder:
    ranks: int
    matrix: tuple  # the device matrix: ranks along each axis
    groups: tuple  # the group of this rank's peers along each axis
    seeds: dict  # weight index -> layout, from the previous round
    written: dict = field(default_factory=dict)  # weight index -> layout of its new value

    @property
    def whole(self) -> tuple:
        return (REPLICATED,) * len(self.matrix)

    # ----- graphs ------------------------------------------------------------------------------

    def top(self, graph: Graph) -> Graph:
        n_inputs = graph.n_inputs
        layouts = [self.whole] * n_inputs + [self.seeds.get(i, UNKNOWN)
                                             for i in range(len(graph.weights))]
        new, env, params = self._begin(graph, layouts)
        n_updates = len(graph.updates)
        plain = graph.outputs[:len(graph.outputs) - n_updates]
        outputs = [self._whole(new, env, o) for o in plain]
        weight_index = {id(w): i for i, w in enumerate(graph.weights)}
        for out, param in zip(graph.outputs[len(plain):], graph.updates):
            value = self._value(env, out)
            index = weight_index.get(id(param))  # else an argument or attribute: whole
            target = self.whole if index is None else self._weight_layout(
                env, params[n_inputs + index])
            if index is not None and value.layout != UNKNOWN and PARTIAL not in value.layout:
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
            self._decide(value, self.whole)
        return value.atom

    def _weight_layout(self, env, p):
        value = env[id(p)]
        if value.layout == UNKNOWN:
            self._decide(value, self.whole)
        return value.layout

    def _split_of(self, env, p):
        """(layout, device matrix, groups) of a weight held as slices, else None."""
        layout = env[id(p)].layout
        if layout == UNKNOWN or layout == self.whole:
            return None
        return (layout, self.matrix, self.groups)

    # ----- values ------------------------------------------------------------------------------

    def _local(self, aval: TensorType, layout) -> TensorType:
        shape = list(aval.shape)
        for axis, entry in enumerate(layout):
            if _is_dim(entry):
                shape[entry] //= self.matrix[axis]
        return TensorType(tuple(shape), aval.dtype, aval.weak)

    def _value(self, env, atom) -> _Value:
        if isinstance(atom, Constant):
            return _Value(atom, self.whole, atom.aval)
        return env[id(atom)]

    def _decide(self, value: _Value, layout) -> None:
        """An UNKNOWN weight takes `layout`: its input holds that slice (no communication)."""
        value.layout = _unpartial(layout)
        value.atom = Var(self._local(value.aval, value.layout), value.hint)

    def _emit(self, graph: Graph, prim, inputs: list, params: dict, loc) -> list:
        avals = prim.abstract_eval([a.aval for a in inputs], params)
        avals = list(avals) if prim.multiple_results else [avals]
        outputs = [Var(a) for a in avals]
        graph.nodes.append(Apply(prim, inputs, params, outputs, loc))
        return outputs

    def _mirror(self, graph: Graph, atom, axis: int, loc):
        """`atom` through a mirror over `axis`' group; with gradient_fp32_sync a half-precision
        one is mirrored in float32 (cast there and back, exact), so its gradient is all-reduced
        in float32, as MindSpore's gradient_fp32_sync does.

            %1 = cast(%w) {dtype=Float32}  ;  %2 = shard_mirror(%1)  ;  %3 = cast(%2)
        """
        dtype = atom.aval.dtype
        if not (SETTINGS.gradient_fp32_sync and dtype in HALF_FLOATS):
            return self._emit(graph, R.shard_mirror, [atom], self._comm(axis), loc)[0]
        wide = self._emit(graph, PRIMITIVES["cast"], [atom], {"dtype": float32}, loc)[0]
        mirrored = self._emit(graph, R.shard_mirror, [wide], self._comm(axis), loc)[0]
        return self._emit(graph, PRIMITIVES["cast"], [mirrored], {"dtype": dtype}, loc)[0]

    def _comm(self, axis: int) -> dict:
        return {"group": self.groups[axis], "rank_size": self.matrix[axis]}

    def _move(self, graph: Graph, value: _Value, target, loc):
        """The per-rank atom of `value` in layout `target`, through the collectives that move
        it there, each within the ranks along one axis of the device matrix. A dimension split
        along both axes holds block (i0 * d1 + i1) of d0 * d1 on rank (i0, i1): an axis moves
        on its own unless a later axis splits a dimension it moves; else the later axis is
        gathered first and split again after."""
        if value.layout == UNKNOWN:
            self._decide(value, target)
        source, atom = value.layout, value.atom
        if source == target:
            return atom
        if len(self.matrix) == 1:
            return self._move_axis(graph, atom, source[0], target[0], 0, loc)
        (s0, s1), (t0, t1) = source, target
        if s0 == t0:
            return self._move_axis(graph, atom, s1, t1, 1, loc)
        if s1 == t1 and not (_is_dim(s1) and s1 in (s0, t0)):
            return self._move_axis(graph, atom, s0, t0, 0, loc)
        atom = self._move_axis(graph, atom, s1, REPLICATED, 1, loc)
        atom = self._move_axis(graph, atom, s0, t0, 0, loc)
        return self._move_axis(graph, atom, REPLICATED, t1, 1, loc)

    def _move_axis(self, graph: Graph, atom, source, target, axis: int, loc):
        """`atom` from `source` to `target` along one axis of the device matrix."""
        if source == target:
            return atom
        comm = self._comm(axis)
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
        return self._move(graph, value, self.whole, None)

    # ----- nodes -------------------------------------------------------------------------------

    def _plan(self, node: Apply, layouts: list, given: bool) -> _Plan:
        """The node's rule on each axis of the device matrix (raises Cannot)."""
        per = [rule_of(node, size)([layout[axis] for layout in layouts], node, given)
               for axis, size in enumerate(self.matrix)]
        inputs = [tuple(s.inputs[i] for s in per) for i in range(len(node.inputs))]
        outputs = [tuple(s.outputs[i] for s in per) for i in range(len(node.outputs))]
        emits = [axis for axis, s in enumerate(per) if s.emit is not None]
        if emits and len(self.matrix) > 1:
            (axis,) = emits if len(emits) == 1 else (None,)
            others = [layout[a] for layout in inputs + outputs
                      for a in range(len(self.matrix)) if a != axis]
            if axis is None or any(e is not REPLICATED for e in others):
                raise Cannot("this split computes on its slices with its own nodes, which "
                             "cellgraph runs along one axis of the device matrix only")
        scale = None
        for axis, s in enumerate(per):
            if s.scale is not None:
                scale = (1.0 if scale is None else scale) / self.matrix[axis]
        params = node.params
        if any(s.params is not None for s in per):
            params = {**node.params}
            for s in per:
                params.update(s.params or {})
            if node.callee.name == "reshape":
                params["shape"] = self._local(node.outputs[0].aval, outputs[0]).shape
        emit = (emits[0], per[emits[0]].emit) if emits else None
        return _Plan(inputs, outputs, params, scale, emit)

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
        arriving = [self.whole if v.layout == UNKNOWN else _unpartial(v.layout) for v in values]
        if any(v.layout == UNKNOWN for v in values):  # a weight follows its neighbours
            arriving = self._adopting(node, values, arriving)
        try:
            plan = self._plan(node, arriving, False)
        except Cannot:
            return self._whole_node(graph, env, node, node.params)
        self._apply(graph, env, node, plan)

    def _adopting(self, node, values, arriving) -> list:
        """The arriving layouts, with each UNKNOWN weight in the one the rule would ask of it
        (so an optimizer's first read of its state needs no communication)."""
        try:
            wanted = self._plan(node, arriving, False).inputs
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
            plan = self._plan(node, layouts, True)
        except Cannot as why:
            raise UnsupportedError(f"{node.callee.label}: in_strategy {in_strategy} cannot be "
                                   f"run on {self._ranks_text()}: {why}", node.loc) from None
        self._apply(graph, env, node, plan)
        if out_strategy is not None:
            wanted = self._layouts_of(node, out_strategy, [o.aval for o in node.outputs], "out")
            for old, layout in zip(node.outputs, wanted):
                value = env[id(old)]
                env[id(old)] = _Value(self._move(graph, value, layout, node.loc), layout,
                                      value.aval)

    def _ranks_text(self) -> str:
        if len(self.matrix) == 1:
            return f"{self.ranks} ranks"
        return f"{self.ranks} ranks (device matrix {self.matrix})"

    def _layouts_of(self, node: Apply, strategy: tuple, avals: list, kind: str) -> list:
        """The layouts a strategy names (one tuple of split counts per tensor): each split
        dimension of the operation (dim_keys) along the axes of the device matrix its count
        covers."""
        label = f"{node.callee.label}: {kind}_strategy {strategy}"
        for counts in strategy:
            if not all(_is_dim(c) for c in counts):
                raise UnsupportedError(f"{label}: {counts} splits the tensors of a tuple input "
                                       f"one by one, which cellgraph's sharding does not run; "
                                       f"give a tuple of split counts per tensor input",
                                       node.loc)
        if len(strategy) != len(avals):
            raise ArgumentValueError(f"{label} gives {len(strategy)} inputs' splits, the "
                                     f"operation has {len(avals)}", node.loc)
        for counts, aval in zip(strategy, avals):
            if len(counts) != len(aval.shape):
                raise ArgumentValueError(f"{label}: {counts} gives {len(counts)} dimensions for "
                                         f"a tensor of shape {aval.shape}", node.loc)
            for i, c in enumerate(counts):
                if c != 1 and (c < 1 or (aval.shape[i] is not None and aval.shape[i] % c)):
                    raise ArgumentValueError(f"{label}: dimension {i} of shape {aval.shape} "
                                             f"does not split into {c}", node.loc)
        axes = self._axes_of(sorted(_split_counts(node, kind, strategy).items()), label,
                             node.loc)
        layouts = []
        for counts, keys in zip(strategy, dim_keys(node, kind)):
            layout = list(self.whole)
            for dim, (count, key) in enumerate(zip(counts, keys)):
                if count == 1:
                    continue
                along = axes[key]
                if count != _product(self.matrix[a] for a in along):
                    raise UnsupportedError(f"{label}: a dimension is split into {count} here "
                                           f"and into {_product(self.matrix[a] for a in along)} "
                                           f"in another input; cellgraph splits a dimension of "
                                           f"the operation alike in every input", node.loc)
                for a in along:
                    layout[a] = dim
            layouts.append(tuple(layout))
        return layouts

    def _axes_of(self, split: list, label: str, loc) -> dict:
        """The device-matrix axes each split dimension of an operation goes along."""
        if len(self.matrix) == 1:
            for _, count in split:
                if count != self.ranks:
                    if len(split) > 1:
                        raise UnsupportedError(
                            f"{label}: splits {len(split)} dimensions into "
                            f"{[c for _, c in split]}, which needs a device matrix of two axes "
                            f"over {_product(c for _, c in split)} ranks; this job has "
                            f"{self.ranks}", loc)
                    raise UnsupportedError(f"{label}: a split into {count} does not fit "
                                           f"{self.ranks} ranks: cellgraph splits a dimension "
                                           f"into one slice per rank ({self.ranks}) or over a "
                                           f"device matrix of two axes", loc)
            if len(split) > 1:
                raise UnsupportedError(f"{label}: splits {len(split)} dimensions into "
                                       f"{[c for _, c in split]}, which needs a device matrix "
                                       f"of two axes over "
                                       f"{_product(c for _, c in split)} ranks; this job has "
                                       f"{self.ranks}", loc)
            return {key: (0,) for key, _ in split}
        counts = tuple(c for _, c in split)
        if len(split) > 2:
            raise UnsupportedError(f"{label}: splits {len(split)} dimensions of the operation; "
                                   f"cellgraph's device matrices have two axes", loc)
        if len(split) == 2:
            if counts != self.matrix:
                raise UnsupportedError(f"{label}: splits into {counts}, which is not this "
                                       f"graph's device matrix {self.matrix} (every strategy "
                                       f"of a graph splits over one device matrix)", loc)
            return {split[0][0]: (0,), split[1][0]: (1,)}
        if not split:
            return {}
        key, count = split[0]
        if count == self.ranks:
            return {key: (0, 1)}
        if count in self.matrix:
            return {key: (1,) if count == self.matrix[1] else (0,)}
        raise UnsupportedError(f"{label}: a split into {count} fits no axis of this graph's "
                               f"device matrix {self.matrix}", loc)

    def _apply(self, graph: Graph, env, node: Apply, plan: _Plan) -> None:
        """Emit `node` on the slices `plan` names, its inputs moved there first; an input whole
        along an axis its outputs are split (or partial) along goes through a mirror over that
        axis' group (its cotangent is partial there)."""
        values = [self._value(env, a) for a in node.inputs]
        inputs = [self._move(graph, v, want, node.loc) for v, want in zip(values, plan.inputs)]
        for axis in range(len(self.matrix)):
            if all(out[axis] is REPLICATED for out in plan.outputs):
                continue
            inputs = [self._mirror(graph, a, axis, node.loc)
                      if want[axis] is REPLICATED and not isinstance(a, Constant)
                      and a.aval.dtype.is_float else a
                      for a, want in zip(inputs, plan.inputs)]
        if plan.emit is None:
            outputs = self._emit(graph, node.callee, inputs, plan.params, node.loc)
            graph.nodes[-1].strategy = node.strategy
        else:
            axis, emit = plan.emit
            outputs = emit(lambda prim, args, params: self._emit(
                graph, prim, args, params, node.loc), inputs, node, self.matrix[axis],
                self.groups[axis])
        if plan.scale is not None:  # a mean over a split axis: the ranks' means add up
            outputs = [self._scaled(graph, o, plan.scale, node.loc) for o in outputs]
        for old, new, layout in zip(node.outputs, outputs, plan.outputs):
            env[id(old)] = _Value(new, layout, old.aval)

    def _scaled(self, graph: Graph, atom, scale: float, loc):
        factor = Constant(scale, TensorType((), atom.aval.dtype, weak=True))
        return self._emit(graph, mul, [atom, factor], {}, loc)[0]

    def _whole_node(self, graph: Graph, env, node: Apply, params: dict) -> None:
        """`node` on whole tensors (an operation with no rule, control flow)."""
        for inner in node.subgraphs():
            if has_strategies(inner):
                raise UnsupportedError(f"{node.callee.label}: operators sharded inside "
                                       f"control flow are not supported; shard the operators "
                                       f"outside it", node.loc)
        inputs = [self._move(graph, self._value(env, a), self.whole, node.loc)
                  for a in node.inputs]
        outputs = self._emit(graph, node.callee, inputs, params, node.loc)
        for old, new in zip(node.outputs, outputs):
            env[id(old)] = _Value(new, self.whole, old.aval)

    def _grad(self, graph: Graph, env, node: Apply) -> None:
        """The differentiated graph sharded with the layouts its inputs arrive in (a weight
        first read inside it takes the layout it needs there); its gradients come in the
        layouts of their inputs."""
        inner = node.params["graph"]
        n_in = len(inner.params)
        values = [self._value(env, a) for a in node.inputs[:n_in]]
        layouts = [UNKNOWN if v.layout == UNKNOWN else _unpartial(v.layout) for v in values]
        sharded, taken = self.subgraph(inner, layouts)
        inputs = []
        for value, layout in zip(values, taken):
            inputs.append(self._move(graph, value, layout, node.loc))
        sens = [self._move(graph, self._value(env, a), self.whole, node.loc)
                for a in node.inputs[n_in:]]
        params = {**node.params, "graph": sharded}
        outputs = self._emit(graph, node.callee, inputs + sens, params, node.loc)
        n_out = len(inner.outputs)
        layouts_out = [self.whole] * n_out + [taken[i] for i in node.params["wrt"]]
        for old, new, layout in zip(node.outputs, outputs, layouts_out):
            env[id(old)] = _Value(new, layout, old.aval)


def _product(values) -> int:
    total = 1
    for v in values:
        total *= v
    return total
