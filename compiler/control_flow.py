"""Control flow that depends on Tensor values, and Python truthiness rules for graph values.

`if` on a Tensor becomes a `switch` node: each branch is traced into its own closed graph and
the variables the branches assign become the switch's outputs. A branch that returns takes the
rest of the function with it (both branches then end in a return). `while` on a Tensor becomes a
`while_loop` node over the variables the body assigns (the loop-carried values). The primitives
themselves (type rules, gradients, code generation) are in control_prims.py and loop_prims.py.
"""
from __future__ import annotations

import numbers
import weakref

import gast
import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.core import abstract_of
from cellgraph.ops.errors import CompileError, DTypeError

from .builder import Builder, Tracer, current_builder, is_tensor_like
from .control_prims import switch_p, while_p
from .ir import Constant, Var
from .loop_prims import loop_options
from .print_op import emit_print
from .pytree import flatten, unflatten
from .scope import ReturnSignal

_MISSING = object()
_NO_RETURN = object()


def truth(value) -> bool:
    """Python truthiness of a compile-time value (a concrete Tensor counts by its value)."""
    return bool(value)


def logical_not(value):
    return F.logical_not(value) if isinstance(value, Tracer) else (not value)


def logical_and(a, b):
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return F.logical_and(a, b)
    return a and b


def bool_op(interp, node):
    """`and`/`or`: Python short-circuit on constants, elementwise logic on Tensors."""
    is_and = isinstance(node.op, gast.And)
    result = interp.eval(node.values[0])
    for value_node in node.values[1:]:
        if isinstance(result, Tracer):
            other = interp.eval(value_node)
            result = F.logical_and(result, other) if is_and else F.logical_or(result, other)
        elif truth(result) == is_and:
            result = interp.eval(value_node)
        else:
            return result
    return result


# ----- tracing a branch ------------------------------------------------------------------------

class _Branch:
    """One side of a Tensor `if` (or a loop part): its builder and what it left behind."""

    def __init__(self, name: str, loc):
        self.builder = Builder(name, loc)
        self.vars: dict = {}
        self.returned = _NO_RETURN

    def run(self, interp, fn):
        """Run fn() with this branch's builder listening and a private copy of the locals."""
        saved = interp.scope.vars
        interp.scope.vars = dict(saved)
        try:
            with self.builder.active():
                try:
                    return fn()
                except ReturnSignal as r:
                    self.returned = r.value
        finally:
            self.vars = interp.scope.vars
            interp.scope.vars = saved


def _is_leaf(x) -> bool:
    return is_tensor_like(x) or isinstance(x, numbers.Number)


def _as_array(value, like=None):
    """A Python number as a strong 0-d array (of `like`'s dtype when given)."""
    if like is not None:
        return np.asarray(value, abstract_of(like).dtype.np)
    if isinstance(value, bool):
        return np.asarray(value)
    return np.asarray(value, np.int64 if isinstance(value, numbers.Integral) else np.float32)


def _pair_leaves(labels, then_values, else_values, loc):
    """Flatten each (then, else) pair; returns the leaf pairs that must become outputs, the
    structure of each value, and the static leaves kept as they are."""
    trees, pairs = [], []
    for label, vt, ve in zip(labels, then_values, else_values):
        lt, tt = flatten(vt, _is_leaf)
        le, te = flatten(ve, _is_leaf)
        if tt != te or len(lt) != len(le):
            raise CompileError(f"{label} has a different structure in the two branches of the "
                               f"Tensor `if` ({_describe(vt)} vs {_describe(ve)})", loc)
        leaves = []
        for a, b in zip(lt, le):
            if isinstance(a, numbers.Number) and isinstance(b, numbers.Number) and a == b \
                    and type(a) is type(b):
                leaves.append(("static", a))
            else:
                leaves.append(("dynamic", len(pairs)))
                pairs.append((label, a, b))
        trees.append((tt, leaves))
    return pairs, trees


def _describe(value) -> str:
    if isinstance(value, Tracer):
        return f"Tensor {value.aval}"
    return type(value).__name__ if not isinstance(value, numbers.Number) else repr(value)


def _unify_leaf(label, a, b, loc):
    """Make a pair of branch results the same type: numbers take the other side's dtype."""
    if isinstance(a, numbers.Number) and not isinstance(b, numbers.Number):
        a = _as_array(a, b)
    elif isinstance(b, numbers.Number) and not isinstance(a, numbers.Number):
        b = _as_array(b, a)
    elif isinstance(a, numbers.Number):
        a, b = _as_array(a), _as_array(b, _as_array(a))
    ta, tb = abstract_of(a).strong(), abstract_of(b).strong()
    if ta != tb:
        raise DTypeError(f"{label} is {ta} in one branch of the Tensor `if` and {tb} in the "
                         f"other; both branches must give the same shape and dtype", loc)
    return a, b


def _close(branch: _Branch, leaves: list):
    with branch.builder.active():
        return branch.builder.finish(list(leaves))


def unify_params(closed: list, n_explicit: int) -> list:
    """Give graphs built separately one parameter list: their `n_explicit` own parameters, then
    every outer value any of them captured (tracers and Parameters). Returns those outer values."""
    keys, externals = [], []
    for graph, captured in closed:
        for value in list(captured) + list(graph.weights):
            key = id(value.ir_var) if isinstance(value, Tracer) else id(value)
            if key not in keys:
                keys.append(key)
                externals.append(value)
    for graph, captured in closed:
        own = {}
        outer = list(captured) + list(graph.weights)
        for value, var in zip(outer, graph.params[n_explicit:]):
            own[id(value.ir_var) if isinstance(value, Tracer) else id(value)] = var
        extra = [own.get(k) or Var(abstract_of(v).strong(), "unused")
                 for k, v in zip(keys, externals)]
        graph.params = graph.params[:n_explicit] + extra
        graph.weights = []
    return externals


def emit_switch(interp, test, labels, then_branch, then_values, else_branch, else_values, loc):
    """Emit the switch node that merges the branches' values; returns the merged values."""
    pairs, trees = _pair_leaves(labels, then_values, else_values, loc)
    unified = [_unify_leaf(label, a, b, loc) for label, a, b in pairs]
    then_graph, then_caps = _close(then_branch, [a for a, _ in unified])
    else_graph, else_caps = _close(else_branch, [b for _, b in unified])
    externals = unify_params([(then_graph, then_caps), (else_graph, else_caps)], 0)
    outs = switch_p(test, *externals, then_graph=then_graph, else_graph=else_graph)
    merged = []
    for tree, leaves in trees:
        values = [value if kind == "static" else outs[value] for kind, value in leaves]
        merged.append(unflatten(tree, values))
    return merged


# ----- if --------------------------------------------------------------------------------------

def _contains(nodes, kinds) -> bool:
    """Whether any statement in `nodes` is of `kinds`, not looking into nested defs/lambdas."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        if isinstance(node, (gast.For, gast.While)) and kinds == (gast.Break, gast.Continue):
            stack.extend(node.orelse)  # a break inside a nested loop belongs to that loop
            continue
        stack.extend(gast.iter_child_nodes(node))
    return False


def tensor_if(interp, node, test, rest) -> bool:
    """`if` on a Tensor. Returns True when the rest of the block was run inside the branches."""
    loc = interp.loc(node)
    if _contains([node], (gast.Break, gast.Continue)):
        raise CompileError("`break`/`continue` under an `if` on a Tensor is not supported; "
                           "use a Tensor `while` condition instead", loc)
    name = f"{interp.name.rsplit('.', 1)[-1]}_if{loc.line if loc else ''}"
    if _contains([node], (gast.Return,)):
        if getattr(interp, "loop_depth", 0):
            raise CompileError("`return` under an `if` on a Tensor inside a loop is not "
                               "supported; assign the result and return after the loop", loc)
        _if_with_return(interp, node, test, list(rest), name, loc)
    then_branch, else_branch = _Branch(name + "_then", loc), _Branch(name + "_else", loc)
    outer = current_builder()
    seeded = [_share_updates(outer, b.builder) for b in (then_branch, else_branch)]
    before = interp.scope.vars
    then_branch.run(interp, lambda: interp.exec_block(node.body))
    else_branch.run(interp, lambda: interp.exec_block(node.orelse))
    params, (then_new, else_new) = _branch_updates(
        outer, [(then_branch.builder, seeded[0]), (else_branch.builder, seeded[1])])
    names = []
    for n in list(then_branch.vars) + list(else_branch.vars):
        vt, ve = then_branch.vars.get(n, _MISSING), else_branch.vars.get(n, _MISSING)
        old = before.get(n, _MISSING)
        if n in names or (vt is old and ve is old):
            continue
        if vt is _MISSING or ve is _MISSING:
            continue  # defined on one side only: undefined after the `if`, as in Python
        names.append(n)
    labels = [f"variable `{n}`" for n in names] + [f"Parameter '{p.name}'" for p in params]
    merged = emit_switch(interp, test, labels, then_branch,
                         [then_branch.vars[n] for n in names] + then_new, else_branch,
                         [else_branch.vars[n] for n in names] + else_new, loc)
    interp.scope.vars.update(zip(names, merged))
    for param, value in zip(params, merged[len(names):]):
        outer.record_update(param, value)
    return False


# ----- Parameter updates in a Tensor `if` ------------------------------------------------------

def _share_updates(outer: Builder, branch: Builder) -> dict:
    """A branch may assign Parameters when its enclosing graph may (the updates leave the `if`
    as switch outputs), and reads there see the updates made before the `if`. Returns what
    the branch started with."""
    branch.accepts_updates = outer.accepts_updates
    for key, (param, value) in outer.updates.items():
        branch.updates[key] = (param, branch.atom(_value_of(outer, value)))
    return {key: value for key, (_, value) in branch.updates.items()}


def _value_of(builder: Builder, atom):
    return atom.value if isinstance(atom, Constant) else Tracer(builder, atom)


def _branch_updates(outer: Builder, branches: list) -> tuple[list, list]:
    """The Parameters that any branch assigned, and per branch the value each ends with (its
    own new value, or the value before the `if`). The branches' builders forget them: the
    `if` hands them to the enclosing graph. `branches`: (builder, what it started with)."""
    params: dict = {}
    for builder, seeded in branches:
        for key, (param, value) in builder.updates.items():
            if seeded.get(key) is not value:
                params.setdefault(key, param)
    values = []
    for builder, _ in branches:
        ends = []
        for key, param in params.items():
            entry = builder.updates.get(key)
            ends.append(_value_of(builder, entry[1]) if entry else _current(outer, param))
        values.append(ends)
        builder.updates.clear()
    return list(params.values()), values


def _current(outer: Builder, param):
    entry = outer.updates.get(id(param))
    return param if entry is None else _value_of(outer, entry[1])


def _if_with_return(interp, node, test, rest, name, loc):
    """Both branches continue with the rest of the function, so both end in a return."""
    then_branch, else_branch = _Branch(name + "_then", loc), _Branch(name + "_else", loc)
    then_branch.run(interp, lambda: interp.exec_block(list(node.body) + rest))
    else_branch.run(interp, lambda: interp.exec_block(list(node.orelse) + rest))
    values = [None if b.returned is _NO_RETURN else b.returned for b in (then_branch,
                                                                         else_branch)]
    merged = emit_switch(interp, test, ["the return value"], then_branch, [values[0]],
                         else_branch, [values[1]], loc)
    raise ReturnSignal(merged[0])


def if_expression(interp, node):
    """`a if cond else b`: folded on a constant, a switch on a Tensor (only one side runs)."""
    test = interp.eval(node.test)
    if not isinstance(test, Tracer):
        return interp.eval(node.body if truth(test) else node.orelse)
    loc = interp.loc(node)
    then_branch, else_branch = _Branch("ifexp_then", loc), _Branch("ifexp_else", loc)
    vt = then_branch.run(interp, lambda: interp.eval(node.body))
    ve = else_branch.run(interp, lambda: interp.eval(node.orelse))
    return emit_switch(interp, test, ["the conditional expression"], then_branch, [vt],
                       else_branch, [ve], loc)[0]


# ----- while -----------------------------------------------------------------------------------

def _assigned_names(stmts) -> list:
    names = []
    for node in stmts:
        for sub in gast.walk(node):
            if isinstance(sub, gast.Name) and isinstance(sub.ctx, gast.Store) and \
                    sub.id not in names:
                names.append(sub.id)
    return names


def tensor_while(interp, node):
    """`while` on a Tensor: a while_loop node over the loop-carried variables."""
    loc = interp.loc(node)
    if _contains(node.body, (gast.Break, gast.Continue, gast.Return)):
        raise CompileError("`break`, `continue` and `return` inside a `while` on a Tensor are "
                           "not supported; fold the exit into the loop condition", loc)
    names = [n for n in _assigned_names(node.body) if n in interp.scope.vars]
    init_leaves, trees = [], []
    for n in names:
        leaves, tree = flatten(interp.scope.vars[n], _is_leaf)
        trees.append((tree, len(leaves)))
        init_leaves += [_as_array(v) if isinstance(v, numbers.Number) else v for v in leaves]
    avals = [abstract_of(v).strong() for v in init_leaves]

    def bind_state(values):
        start = 0
        for n, (tree, count) in zip(names, trees):
            interp.scope.vars[n] = unflatten(tree, values[start:start + count])
            start += count

    cond_branch = _Branch("while_cond", loc)

    def trace_cond():
        bind_state([cond_branch.builder.add_param(a, h) for a, h in zip(avals, _hints(names,
                                                                                      trees))])
        return interp.eval(node.test)

    pred = cond_branch.run(interp, trace_cond)
    body_branch = _Branch("while_body", loc)

    def trace_body():
        bind_state([body_branch.builder.add_param(a, h) for a, h in zip(avals, _hints(names,
                                                                                      trees))])
        interp.exec_block(node.body)
        return [interp.scope.vars[n] for n in names]

    new_values = body_branch.run(interp, trace_body)
    new_leaves = _carried_leaves(names, trees, new_values, avals, loc)
    cond_graph, cond_caps = _close(cond_branch, [pred])
    body_graph, body_caps = _close(body_branch, new_leaves)
    externals = unify_params([(cond_graph, cond_caps), (body_graph, body_caps)], len(avals))
    outs = while_p(*init_leaves, *externals, cond_graph=cond_graph, body_graph=body_graph,
                   n_carried=len(avals), **loop_options())
    bind_state(list(outs))
    interp.exec_block(node.orelse)


def _hints(names, trees):
    hints = []
    for n, (_, count) in zip(names, trees):
        hints += [n] if count == 1 else [f"{n}_{i}" for i in range(count)]
    return hints


def _carried_leaves(names, trees, new_values, avals, loc):
    leaves = []
    for n, (tree, count), value in zip(names, trees, new_values):
        new, new_tree = flatten(value, _is_leaf)
        if new_tree != tree:
            raise CompileError(f"loop-carried variable `{n}` changes structure inside the "
                               f"`while` loop ({_describe(value)})", loc)
        leaves += new
    out = []
    for n, value, aval in zip(_hints(names, trees), leaves, avals):
        if isinstance(value, numbers.Number):
            value = np.asarray(value, aval.dtype.np)
        got = abstract_of(value).strong()
        if got != aval:
            raise DTypeError(f"loop-carried variable `{n}` changes from {aval} to {got} across "
                             f"iterations of the `while` loop; it must keep its shape and dtype",
                             loc)
        out.append(value)
    return out


# ----- print -----------------------------------------------------------------------------------

def graph_print(args, kwargs):
    """`print` inside construct: Tensors print when the graph runs, constants print now."""
    if any(isinstance(a, Tracer) for a in args):
        return emit_print(args, kwargs)
    print(*args, **kwargs)



# ----- break / continue as flags ---------------------------------------------------------------

# loop node -> (lowered loop, flag names); held by the (cached) AST, freed with it
_LOWERED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _name(ident: str, store: bool, where):
    ctx = gast.Store() if store else gast.Load()
    return gast.copy_location(gast.Name(ident, ctx, None, None), where)


def _set(ident: str, value: bool, where):
    node = gast.Assign([_name(ident, True, where)], gast.Constant(value, None), None)
    return gast.copy_location(node, where)


def _not_any(idents, where):
    names = [_name(i, False, where) for i in idents]
    test = names[0] if len(names) == 1 else gast.BoolOp(gast.Or(), names)
    return gast.copy_location(gast.UnaryOp(gast.Not(), test), where)


def _guarded(stmts, idents, where):
    return gast.copy_location(gast.If(_not_any(idents, where), stmts, []), where)


def _lower_block(stmts, brk: str, cont: str) -> list:
    """Replace break/continue by flag assignments; what follows an exit runs under a guard."""
    out = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, gast.Break):
            return out + [_set(brk, True, stmt)]
        if isinstance(stmt, gast.Continue):
            return out + [_set(cont, True, stmt)]
        if isinstance(stmt, gast.If) and _contains([stmt], (gast.Break, gast.Continue)):
            lowered = gast.If(stmt.test, _lower_block(stmt.body, brk, cont),
                              _lower_block(stmt.orelse, brk, cont))
            out.append(gast.copy_location(lowered, stmt))
            rest = stmts[i + 1:]
            if rest:
                out.append(_guarded(_lower_block(rest, brk, cont), (brk, cont), rest[0]))
            return out
        out.append(stmt)
    return out


def lower_loop_exits(node):
    """A loop whose `break`/`continue` sit under an `if` becomes a loop over flags:

        for i in xs:                 brk = False
            A                        for i in xs:
            if c:                        cont = False
                break          ->        if not brk:
            B                                A
                                             if c: brk = True
                                             if not (brk or cont): B

    On Python conditions the flags stay Python bools and everything folds away; on Tensor
    conditions they become Tensors and the guards become switches. Returns (loop, flag names
    to set to False before it) — the loop itself when there is nothing to lower.
    """
    hit = _LOWERED.get(node)
    if hit is not None:
        return (hit[0] or node), hit[1]
    exits_under_if = any(isinstance(s, gast.If) and _contains([s], (gast.Break, gast.Continue))
                         for s in node.body)
    if not exits_under_if:
        _LOWERED[node] = (None, ())  # None: the loop itself (a value must not hold its key)
        return node, ()
    line = getattr(node, "lineno", 0)
    brk, cont = f"_break_{line}", f"_continue_{line}"
    body = [_set(cont, False, node)] + _lower_block(node.body, brk, cont)
    orelse = [_guarded(node.orelse, (brk,), node)] if node.orelse else []
    if isinstance(node, gast.For):
        loop = gast.For(node.target, node.iter, [_guarded(body, (brk,), node)], orelse, None)
    else:
        test = gast.BoolOp(gast.And(), [node.test, _not_any((brk,), node)])
        loop = gast.While(gast.copy_location(test, node.test), body, orelse)
    loop = gast.copy_location(loop, node)
    _LOWERED[node] = (loop, (brk,))
    return loop, (brk,)


# ----- a sequence indexed by a Tensor (MindSpore's switch_layer) -------------------------------

class IndexedChoice:
    """`items[i]` with a Tensor `i` over callables (Cells, functions): a call runs every item
    on the arguments and selects item i's result, leaf by leaf (so the items must give
    results of one structure, shape and dtype)."""

    def __init__(self, items: list, index):
        self.items, self.index = items, index

    def __call__(self, *args, **kwargs):
        from .frontend import Interpreter

        results = [Interpreter.call(item, list(args), kwargs) for item in self.items]
        return select_by_index(self.index, results)


def select_by_index(index, candidates: list):
    """candidates[index] for a Tensor index, each leaf chosen with select."""
    flat = [flatten(c, _is_leaf) for c in candidates]
    tree = flat[0][1]
    if any(t != tree for _, t in flat):
        raise CompileError("the items of a sequence indexed by a Tensor give results of "
                           "different structures; they must match", None)
    chosen = []
    for j in range(len(flat[0][0])):
        acc = flat[-1][0][j]
        for k in range(len(candidates) - 2, -1, -1):
            leaf, acc = _unify_leaf(f"result {j}", flat[k][0][j], acc, None)
            picked = F.broadcast_to(F.equal(index, k), abstract_of(leaf).shape)
            acc = F.select(picked, leaf, acc)
        chosen.append(acc)
    return unflatten(tree, chosen)


def index_by_tensor(items: list, index):
    """`items[index]` for a Tensor index: Tensors are stacked and gathered; callables give an
    IndexedChoice."""
    if not items:
        raise CompileError("cannot index an empty sequence with a Tensor", None)
    if all(is_tensor_like(v) or isinstance(v, numbers.Number) for v in items):
        return F.gather(F.stack([_as_array(v) if isinstance(v, numbers.Number) else v
                                 for v in items]), index, 0)
    if all(callable(v) for v in items):
        return IndexedChoice(list(items), index)
    raise CompileError("a sequence indexed by a Tensor must hold Tensors or callables (Cells, "
                       "functions)", None)
