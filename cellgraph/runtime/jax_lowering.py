"""Lowering an optimised graph to ONE `jax.jit` function, so that XLA sees the whole program.

cellgraph's pipeline (parse, AD, optimise) runs first; its result is walked once, under JAX's
tracing, node by node through the kernel table (kernels over `jax.numpy`), and the trace is
compiled by XLA: elementwise chains fuse, and the same program compiles for a GPU when JAX sees
one. The walk happens at trace time only; a call runs XLA's executable.

    %3 = switch(%p, %x) {then_graph=@t, else_graph=@e}     ->  lax.cond(p, t, e, x)
    %4, %5 = while_loop(%i, %x) {cond_graph, body_graph}   ->  lax.while_loop(cond, body, (i, x))
    %6, %7 = scan(%n, %c, %xs) {body_graph, reverse}        ->  lax.scan(body, c, xs, reverse)
    while_loop stacking per trip, scans walking the stacks ->  buffers of a static bound (tapes)
    %8 = uniform_real() {shape, dtype}                      ->  jax.random.uniform(next key)
    print(%x) {template}                                   ->  io_callback(host print, ordered)
    %9 = check_range(%labels) {low, high}                  ->  a flag the call reads afterwards
                                                               (io_callback inside a loop/branch)

Random numbers go through explicit keys: a compiled function that draws takes a key as an
extra first argument, made on every call from cellgraph's global generator (so `set_seed` makes
runs reproducible; the numbers are `jax.random`'s, not NumPy's), split once per draw and carried
through branches and loops. Parameters a graph assigns are trailing outputs (`Graph.updates`);
their input buffers are donated to XLA, so an optimiser step updates weights in place.

A check of the top-level graph (labels in range) is no host callback: a callback stalls the
device mid-program for a round trip to Python (on a GPU it cost a LeNet step four times JAX's
time). Its flag and the checked value are extra outputs (`_Results`); the call reads the flags
once the program ends and, when one is set, raises the NumPy kernel's error, located at the
user's line, with every Parameter the run would have updated keeping its value. So a graph
with such checks donates no buffer: the arguments stay whole, and a failed run gives them back
(run_errors.UnappliedRun). Keeping them inside the program instead (a select between the old and
new values) made XLA copy every weight and moment it updates.
"""
from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

from cellgraph.compiler.ir import Constant, Graph, all_graphs
from cellgraph.primitives.comm_ops import COLLECTIVES
from cellgraph.primitives.errors import CellgraphError
from cellgraph.primitives.redistribution_ops import REDISTRIBUTIONS

from .numpy_backend import K as NUMPY_KERNELS
from .rng import generator
from .run_errors import UnappliedRun, kernel_error

# primitive name -> fn(lowering, node, inputs, key) -> (outputs, key)
LOWERING_RULES: dict[str, Callable] = {}
DRAWING = frozenset({"uniform_real"})  # primitives that consume a random key

# Weights that are still NumPy arrays (made before the backend was selected) cannot be donated;
# XLA copies them that once, and the results replace them.
warnings.filterwarnings("ignore", message="Some donated buffers were not usable")


def rule(name: str):
    def deco(fn):
        LOWERING_RULES[name] = fn
        return fn
    return deco


def typed(value, aval):
    """A value as a JAX array of its IR type (kernels may hand back Python numbers or a weaker
    dtype; `lax.cond` and `lax.while_loop` need both sides' types to agree exactly)."""
    return jnp.asarray(value, dtype=aval.dtype.np)


class Lowering:
    """Runs graphs on traced values through `kernels`; one per compiled graph."""

    def __init__(self, kernels: dict[str, Callable], bound: int | None = None):
        self.kernels = kernels
        self._draws: dict[int, bool] = {}
        self.host_errors: list[Exception] = []  # raised by host callbacks (a failed check)
        # the trips a tape buffer holds (`tape_loops`); the loops' trip counts, while tracing
        self.bound, self.trips = bound, []
        # while tracing: (node, value, flag) of the top-level graph's checks (`_Results`)
        self.deferred: list | None = None
        # whether the program calls host functions that may raise (`_on_host`): a GPU reports
        # their errors when something next waits on the device, so a call waits for its results
        self.raising = [False]
        self.depth = 0  # graphs being run: 1 in the top-level graph

    def trace(self, bound: int | None = None) -> Lowering:
        """A Lowering for one trace of the compiled function (traces may run at once in
        several threads): its own trip counts and deferred checks, this one's errors."""
        trace = Lowering(self.kernels, bound)
        trace._draws, trace.host_errors, trace.deferred = self._draws, self.host_errors, []
        trace.raising = self.raising
        return trace

    def draws(self, graph: Graph) -> bool:
        """Whether running `graph` consumes random keys (itself or a graph it runs)."""
        found = self._draws.get(id(graph))
        if found is None:
            found = any(node.callee.name in DRAWING or any(self.draws(g) for g in
                                                           node.subgraphs())
                        for node in graph.nodes)
            self._draws[id(graph)] = found
        return found

    def run(self, graph: Graph, args: list, key=None) -> tuple[list, object]:
        """`graph`'s outputs (typed) on `args`, and the key left after its draws."""
        env = {id(p): a for p, a in zip(graph.params, args)}

        def value(v):
            return v.value if isinstance(v, Constant) else env[id(v)]

        self.depth += 1
        try:
            for node in graph.nodes:
                inputs = [value(v) for v in node.inputs]
                lower = LOWERING_RULES.get(node.callee.name)
                if lower is not None:
                    outs, key = lower(self, node, inputs, key)
                else:
                    params = {k: v for k, v in node.params.items() if not isinstance(v, Graph)}
                    result = self.kernels[node.callee.name](*inputs, **params)
                    outs = result if node.callee.multiple_results else (result,)
                for out, v in zip(node.outputs, outs):
                    env[id(out)] = v
        finally:
            self.depth -= 1
        return [typed(value(o), o.aval) for o in graph.outputs], key


# ----- structured nodes ------------------------------------------------------------------------

def _branch(lowering: Lowering, graph: Graph, with_key: bool):
    def branch(operands, key):
        outs, key = lowering.run(graph, list(operands), key if with_key else None)
        return tuple(outs), key
    return branch


@rule("switch")
def _switch(lowering, node, inputs, key):
    then_graph, else_graph = node.params["then_graph"], node.params["else_graph"]
    with_key = key is not None and (lowering.draws(then_graph) or lowering.draws(else_graph))
    operands = tuple(typed(v, p.aval) for v, p in zip(inputs[1:], then_graph.params))
    pred = jnp.reshape(jnp.asarray(inputs[0]), ()).astype(bool)
    outs, new_key = lax.cond(pred, _branch(lowering, then_graph, with_key),
                             _branch(lowering, else_graph, with_key), operands,
                             key if with_key else None)
    return list(outs), new_key if with_key else key


@rule("while_loop")
def _while_loop(lowering, node, inputs, key):
    m = node.params["n_carried"]
    cond_graph, body_graph = node.params["cond_graph"], node.params["body_graph"]
    with_key = key is not None and (lowering.draws(cond_graph) or lowering.draws(body_graph))
    carried = tuple(typed(v, p.aval) for v, p in zip(inputs[:m], body_graph.params))
    invariant = list(inputs[m:])
    if len(node.outputs) > m:  # it stacks values per trip: a tape (`tape_loops`)
        return _taped_while(lowering, node, carried, invariant, key, with_key)

    def cond(state):
        values, k = state
        (pred,), _ = lowering.run(cond_graph, list(values) + invariant, k)
        return jnp.reshape(pred, ()).astype(bool)

    def body(state):
        values, k = state
        if with_key:  # the condition's draws (if any) used k: move on before the body's
            k = jax.random.split(k)[0]
        outs, k = lowering.run(body_graph, list(values) + invariant, k)
        return tuple(outs), k

    values, new_key = lax.while_loop(cond, body, (carried, key if with_key else None))
    return list(values), new_key if with_key else key


def _taped_while(lowering, node, carried, invariant, key, with_key):
    """A while_loop that stacks values per trip, its stacks in buffers of `lowering.bound`
    trips: trip t writes row t (the last row once t passes the bound, as the run is then made
    again with a bound that holds every trip: `_Taped`). The loop runs to its end whatever the
    bound, so its trip count is the run's; the condition is evaluated as often as lax's loop
    evaluates it, on the key the body then splits."""
    m, bound = node.params["n_carried"], lowering.bound
    cond_graph, body_graph = node.params["cond_graph"], node.params["body_graph"]
    count_aval, stacks = node.outputs[m].aval, node.outputs[m + 1:]
    buffers = tuple(jnp.zeros((bound,) + s.aval.shape[1:], s.aval.dtype.np) for s in stacks)

    def holds(values, k):
        (pred,), _ = lowering.run(cond_graph, list(values) + invariant, k)
        return jnp.reshape(pred, ()).astype(bool)

    def body(state):
        values, trips, rows, _, k = state
        if with_key:
            k = jax.random.split(k)[0]
        outs, k = lowering.run(body_graph, list(values) + invariant, k)
        values = tuple(typed(v, p.aval) for v, p in zip(outs[:m], body_graph.params))
        at = jnp.minimum(trips, bound - 1)
        rows = tuple(lax.dynamic_update_index_in_dim(r, y.astype(r.dtype), at, 0)
                     for r, y in zip(rows, outs[m:]))
        return values, trips + 1, rows, holds(values, k), k

    key = key if with_key else None
    state = (carried, jnp.zeros((), jnp.int64), buffers, holds(carried, key), key)
    values, trips, rows, _, new_key = lax.while_loop(lambda st: st[3], body, state)
    lowering.trips.append(trips)
    return list(values) + [typed(trips, count_aval)] + list(rows), new_key if with_key else key


@rule("scan")
def _scan(lowering, node, inputs, key):
    """`lax.scan` over the xs (their length is static); without xs, only carries: a
    `fori_loop` over the run-time length."""
    nc, nx = node.params["n_carry"], node.params["n_xs"]
    body_graph = node.params["body_graph"]
    with_key = key is not None and lowering.draws(body_graph)
    carry = tuple(typed(v, p.aval) for v, p in zip(inputs[1:1 + nc], body_graph.params))
    xs = tuple(jnp.asarray(v) for v in inputs[1 + nc:1 + nc + nx])
    consts = list(inputs[1 + nc + nx:])

    def step(state, slices):
        values, k = state
        outs, k = lowering.run(body_graph, list(values) + list(slices) + consts, k)
        return (tuple(outs[:nc]), k), tuple(outs[nc:])

    state = (carry, key if with_key else None)
    if nx and None in node.inputs[1 + nc].aval.shape[:1]:  # over a tape's buffers (`tape_loops`)
        n = jnp.reshape(inputs[0], ()).astype(jnp.int64)
        reverse = node.params["reverse"]

        bound = xs[0].shape[0]  # the ys are tapes too, of the same bound
        rows = tuple(jnp.zeros((bound,) + y.aval.shape[1:], y.aval.dtype.np)
                     for y in node.outputs[nc:])

        def trip(i, st):
            st, rows = st
            at = n - 1 - i if reverse else i
            st, ys = step(st, [lax.dynamic_index_in_dim(x, at, 0, keepdims=False) for x in xs])
            return st, tuple(lax.dynamic_update_index_in_dim(r, y.astype(r.dtype), at, 0)
                             for r, y in zip(rows, ys))

        (carry, new_key), ys = lax.fori_loop(jnp.zeros((), jnp.int64), n, trip, (state, rows))
    elif nx:
        (carry, new_key), ys = lax.scan(step, state, xs, reverse=node.params["reverse"])
    else:
        assert len(body_graph.outputs) == nc, "per-step outputs need xs for their length"
        (carry, new_key), ys = lax.fori_loop(
            0, jnp.reshape(inputs[0], ()), lambda i, st: step(st, ())[0], state), ()
    return list(carry) + list(ys), new_key if with_key else key


@rule("uniform_real")
def _uniform_real(lowering, node, inputs, key):
    if "seed" in node.params:  # an op-level seed's stream lives on the host
        shape, dtype = tuple(node.params["shape"]), node.params["dtype"].np
        out = io_callback(lambda: np.asarray(NUMPY_KERNELS["uniform_real"](**node.params)),
                          jax.ShapeDtypeStruct(shape, dtype), ordered=True)
        return [out], key
    key, draw = jax.random.split(key)
    dtype = node.params["dtype"].np
    return [jax.random.uniform(draw, tuple(node.params["shape"]), dtype)], key


@rule("print")
def _print(lowering, node, inputs, key):
    def host_print(*values):
        NUMPY_KERNELS["print"](*[np.asarray(v) for v in values], **node.params)

    io_callback(host_print, None, *inputs, ordered=True)
    return [], key


@rule("py_hook")
def _py_hook(lowering, node, inputs, key):
    x = inputs[0]
    out = _on_host(lowering, lambda v: np.asarray(node.params["fn"](np.asarray(v))),
                   jax.ShapeDtypeStruct(x.shape, x.dtype), [x])
    return [out], key


def _on_host(lowering, fn, shapes, inputs):
    """`fn` on host values in program order (an ordered callback); an exception it raises is
    kept for the call to re-raise, as XLA reports it as its own error."""
    def call(*values):
        try:
            return fn(*values)
        except Exception as e:
            lowering.host_errors.append(e)
            raise

    lowering.raising[0] = True
    return io_callback(call, shapes, *inputs, ordered=True)


@rule("py_func")
def _py_func(lowering, node, inputs, key):
    """ops.Custom's function, called on the host in program order (an ordered callback)."""
    call = node.params["call"]
    shapes = tuple(jax.ShapeDtypeStruct(t.shape, t.dtype.np) for t in call.out_types)

    def host_call(*values):
        return call(*[np.asarray(v) for v in values])

    return list(_on_host(lowering, host_call, shapes, inputs)), key


@rule("checked_value")
@rule("check_range")
def _check_range(lowering, node, inputs, key):
    """In the top-level graph, a flag the call reads after the run (`_Results`); inside a loop or
    a branch, a check on the host in program order (an ordered callback). The value passes."""
    x = inputs[0]
    if lowering.deferred is not None and lowering.depth == 1:
        outside = (x < node.params["low"]) | (x >= node.params["high"])
        lowering.deferred.append((node, x, jnp.any(outside)))
        return [x], key

    def host_check(x):
        NUMPY_KERNELS["check_range"](np.asarray(x), **node.params)

    _on_host(lowering, host_check, None, inputs[:1])
    return [inputs[0]], key


# the collectives (runtime/collective_kernels.py) move host memory through torch.distributed
def _host_collective(lowering, node, inputs, name: str, params: dict, outputs) -> list:
    """Collective `name` on the host, in program order (an ordered callback): its NumPy kernel
    on host copies of the operands, its results back on the device."""
    kernel = NUMPY_KERNELS[name]
    shapes = tuple(jax.ShapeDtypeStruct(o.aval.shape, o.aval.dtype.np) for o in outputs)

    def host_call(*values):
        out = kernel(*[np.asarray(v) for v in values], **params)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(np.asarray(o, dtype=s.dtype).reshape(s.shape) for o, s in zip(outs, shapes))

    return list(_on_host(lowering, host_call, shapes, inputs))


def _collective(lowering, node, inputs, key):
    return _host_collective(lowering, node, inputs, node.callee.name, node.params,
                            node.outputs), key


@rule("all_reduce_start")
def _all_reduce_start(lowering, node, inputs, key):
    """The whole all-reduce, when it starts (an XLA program cannot hold a transfer in flight
    across its nodes): its token is a placeholder, and all_reduce_done passes the buffers on."""
    params = {k: v for k, v in node.params.items() if k != "covers"}
    outs = _host_collective(lowering, node, inputs, "all_reduce", params, node.outputs[1:])
    return [jnp.zeros((), jnp.int64)] + outs, key


@rule("all_reduce_done")
def _all_reduce_done(lowering, node, inputs, key):
    return list(inputs[1:]), key


for _prim in COLLECTIVES + REDISTRIBUTIONS:  # the sharding moves run on the host too
    LOWERING_RULES.setdefault(_prim.name, _collective)


# ----- the compiled function -------------------------------------------------------------------

def top_level_checks(graph: Graph) -> bool:
    """Whether the graph's own nodes hold checks read after the run (`_check_range`)."""
    return any(node.callee.name in ("check_range", "checked_value") for node in graph.nodes)


def donated_positions(graph: Graph) -> tuple[int, ...]:
    """Argument positions of the weights the graph assigns: their buffers can be reused."""
    updated = {id(p) for p in graph.updates}
    return tuple(graph.n_inputs + i for i, w in enumerate(graph.weights) if id(w) in updated)


def new_key() -> np.ndarray:
    """A raw jax.random key drawn from cellgraph's global generator (seeded by set_seed)."""
    return generator().integers(0, 2**32, size=2, dtype=np.uint32)


# what a run made again (a tape that outgrew its bound) must not do twice where it shows
_REPEATED_VISIBLY = frozenset(p.name for p in COLLECTIVES + REDISTRIBUTIONS) | {
    "print", "py_func", "py_hook", "summary", "all_reduce_start", "all_reduce_done"}
FIRST_BOUND = 16  # the trips a tape's buffers hold at first; a longer run sets the next bound


def tape_loops(graph: Graph) -> tuple[list, str | None]:
    """The nodes of `graph` itself that make or walk tapes, and why XLA cannot take them (None
    when it can). A tape is a value stacked per trip by a while_loop (a Tensor `while` under
    reverse mode), or by a scan over tapes (the backward pass of a higher derivative); each
    must be read only as the xs of scans of `graph` over its loop's trip count, so that buffers
    of a static bound can hold it (`_taped_while`, `_scan`); and nothing in the graph may show
    a second run (printing, host functions, collectives), as a run whose trips outgrow the
    bound is made again."""
    count_of, taped = {}, []  # id(tape) -> the trip count of the loop that stacks it
    for node in graph.nodes:
        if node.callee.name == "while_loop" and len(node.outputs) > node.params["n_carried"]:
            m = node.params["n_carried"]
            count_of.update((id(s), node.outputs[m]) for s in node.outputs[m + 1:])
            taped.append(node)
            continue
        read = [v for v in node.inputs if id(v) in count_of]
        if not read:
            continue
        nc, nx = node.params.get("n_carry", 0), node.params.get("n_xs", 0)
        xs = node.inputs[1 + nc:1 + nc + nx]
        if node.callee.name != "scan" or any(id(v) not in count_of for v in xs) or any(
                count_of[id(v)] is not node.inputs[0] for v in xs) or any(
                v in read for v in node.inputs[:1 + nc] + node.inputs[1 + nc + nx:]):
            return taped, (f"its per-trip stacks are read by {node.callee.name}, not only "
                           f"walked by the backward pass")
        count_of.update((id(y), node.inputs[0]) for y in node.outputs[nc:])
        taped.append(node)
    if not taped:
        return [], None
    if any(id(v) in count_of for v in graph.outputs):
        return taped, "its per-trip stacks are results of the graph"
    for g in all_graphs(graph):
        shown = next((n for n in g.nodes if n.callee.name in _REPEATED_VISIBLY), None)
        if shown is not None:
            return taped, (f"a run that outgrows its tape's bound is made again, and the "
                           f"graph's {shown.callee.name} would show it")
    return taped, None


def dynamic_node(graph: Graph):
    """(node, why) for the first node of the graph (or of the graphs its nodes run) whose
    values XLA cannot take, as XLA needs every shape static; None when there is none. The
    stacks of `tape_loops` it can take, in buffers of a static bound."""
    taped, why_not = tape_loops(graph)
    if why_not is not None:
        return taped[0], why_not
    taped = {id(n) for n in taped}
    for g in all_graphs(graph):
        for param in g.params:
            if param.aval is not None and None in param.aval.shape:
                return None, f"input {param} has a shape known only at run time"
        for node in g.nodes:
            if g is graph and id(node) in taped:
                continue
            if any(o.aval is not None and None in o.aval.shape for o in node.outputs):
                return node, "its result's shape is known only when it runs"
            if node.callee.name == "while_loop" and \
                    len(node.outputs) > node.params["n_carried"]:
                return node, ("it stacks values over its trips inside another loop or branch "
                              "(a Tensor `while` under reverse mode there), whose count is known "
                              "only when it runs")
    return None


def compile_graph(graph: Graph, kernels: dict[str, Callable]) -> Callable:
    """`fn(*arrays) -> tuple of arrays`: the graph as one jitted function (compiled for the
    argument types on its first call). Takes the graph's inputs, then its weights; every shape
    in it must be static, or a tape's (`dynamic_node` finds none)."""
    if tape_loops(graph)[0]:
        return _Taped(graph, kernels)
    lowering = Lowering(kernels)
    donated = () if top_level_checks(graph) else donated_positions(graph)
    results = _Results(graph, donated)
    if not lowering.draws(graph):
        def whole(*args):
            trace = lowering.trace()
            return results.outputs(trace, trace.run(graph, list(args))[0])

        jitted = jax.jit(whole, donate_argnums=donated)
        return functools.partial(_run, lowering, results, jitted, None)

    def whole_with_key(key, *args):
        trace = lowering.trace()
        return results.outputs(trace, trace.run(graph, list(args), key)[0])

    jitted = jax.jit(whole_with_key, donate_argnums=tuple(i + 1 for i in donated))
    return functools.partial(_run, lowering, results, jitted, new_key)


class _Results:
    """The jitted function's results, and back. Its outputs are the graph's, reordered so that
    each updated weight's new value comes in the order of the donated arguments: JAX lends a
    donated buffer to the first output of its shape and dtype, and when that output is another
    weight's (a weight and its moment have one shape), XLA copies buffers to keep both (16 copy
    kernels in a transformer step on a GPU). After them, the checks of the graph's top level,
    read after the run: whether every check held, and each checked value. When one failed, the
    call raises the check's error with the updated weights' old values, the arguments (such a
    graph donates none), for the caller to keep (`UnappliedRun`)."""

    def __init__(self, graph: Graph, donated: tuple[int, ...] = ()):
        self.nodes = ()
        weights = {id(w): graph.n_inputs + i for i, w in enumerate(graph.weights)}
        # output position -> argument position of the weight whose new value it is
        n_results = len(graph.outputs) - len(graph.updates)
        self.kept = {n_results + j: weights[id(p)] for j, p in enumerate(graph.updates)
                     if id(p) in weights}
        first = [o for o, a in sorted(self.kept.items(), key=lambda item: item[1])
                 if a in donated]
        order = first + [o for o in range(len(graph.outputs)) if o not in set(first)]
        self.order = None if order == sorted(order) else order
        self.inverse = None if self.order is None else \
            [self.order.index(o) for o in range(len(order))]

    def outputs(self, trace: Lowering, outs: list) -> tuple:
        """(At trace time) the jitted function's results."""
        if self.order is not None:
            outs = [outs[o] for o in self.order]
        if not trace.deferred:
            return tuple(outs)
        self.nodes = tuple(node for node, _, _ in trace.deferred)  # the same each trace
        held = ~functools.reduce(jnp.logical_or, [bad for _, _, bad in trace.deferred])
        return (*outs, held, *(x for _, x, _ in trace.deferred))

    def verify(self, results: tuple, args: tuple) -> tuple:
        """The graph's outputs, or UnappliedRun when a check failed."""
        n = len(self.nodes)
        outs = results[:-n - 1] if n else results
        if self.inverse is not None:
            outs = tuple([outs[k] for k in self.inverse])
        if not n or bool(results[-n - 1]):
            return outs
        outs = tuple(args[self.kept[i]] if i in self.kept else o for i, o in enumerate(outs))
        for node, value in zip(self.nodes, results[-n:]):
            try:
                NUMPY_KERNELS[node.callee.name](np.asarray(value), **node.params)
            except (IndexError, ValueError) as e:  # the check kernel's errors
                error = kernel_error(e, node.callee, [np.asarray(value)], node.params)
                if isinstance(error, CellgraphError):
                    error = error.with_loc(node.loc)
                raise UnappliedRun(error, outs) from None
        raise AssertionError("a check's flag was set but its kernel passed")  # not reached


class _Taped:
    """A graph with tapes (`tape_loops`), compiled for a bound on their trips, which grows: a
    run whose loops take more trips than the bound holds is made again, on the same arguments
    and random key, compiled for the next power of two that holds them all. So no argument is
    donated, and each bound compiles once (per argument types, as jax.jit keys its cache)."""

    def __init__(self, graph: Graph, kernels: dict[str, Callable]):
        self.graph, self.kernels = graph, kernels
        self.lowering, self.results = Lowering(kernels), _Results(graph)
        self.draws = self.lowering.draws(graph)
        self.lock = threading.Lock()
        self.bound, self.jitted = FIRST_BOUND, self._compiled(FIRST_BOUND)

    def _compiled(self, bound: int):
        def whole(key, *args):
            trace = self.lowering.trace(bound)  # a trace's own trip counts
            outs, _ = trace.run(self.graph, list(args), key)
            most = functools.reduce(jnp.maximum, trace.trips)
            return self.results.outputs(trace, outs), most

        return jax.jit(whole)

    def __call__(self, *args):
        key = new_key() if self.draws else None
        while True:
            with self.lock:
                bound, jitted = self.bound, self.jitted
            outs, most = _run(self.lowering, None, jitted, None, key, *args)
            most = int(most)
            if most <= bound:  # the checks of a run cut short by the bound are not read
                return self.results.verify(outs, args)
            with self.lock:
                if self.bound < most:
                    self.bound = 1 << (most - 1).bit_length()
                    self.jitted = self._compiled(self.bound)


def _run(lowering: Lowering, results: _Results | None, jitted, make_key, *args):
    """One call: a fresh key first when the graph draws; an error a host callback raised (a
    failed run-time check) surfaces as itself, not as XLA's report of it; the outputs put back
    in the graph's order and the top-level checks read (`results`, unless the caller does)."""
    try:
        out = jitted(make_key(), *args) if make_key is not None else jitted(*args)
        if lowering.raising[0]:  # its error now, not at some later wait on the device
            jax.block_until_ready(out)
    except Exception:
        if lowering.host_errors:
            raise lowering.host_errors.pop() from None
        raise
    return results.verify(out, args) if results is not None else out
