"""Control flow that depends on Tensor values, and Python truthiness rules for graph values.

`if` on a Tensor becomes a `switch` node: each branch is traced into its own closed graph and
the variables the branches assign become the switch's outputs. A branch that returns takes the
rest of the function with it (both branches then end in a return). `while` on a Tensor becomes a
`while_loop` node over the variables the body assigns (the loop-carried values). The primitives
themselves (type rules, gradients, code generation) are in control_prims.py and loop_prims.py.
"""
from __future__ import annotations

import numbers

import gast
import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentError, CompileError, DTypeError, ShapeError

from . import definedness, dynamic_dims
from .builder import Builder, Tracer, current_builder, is_tensor_like, is_tensor_target
from .control_prims import switch_p, while_p
from .dynamic_sequence import (
    RuntimeScalar,
    RuntimeSequence,
    number_array,
    number_dtype,
    variable_scalar,
)
from .effects import RaiseSignal
from .ir import Var
from .loop_exits import UNBOUND, has_exit, has_return
from .loop_prims import loop_options
from .print_op import emit_print
from .pytree import LEAF, flatten, unflatten
from .runtime_optional import as_optional_pair, joins_with_none
from .scope import ReturnSignal

_MISSING = object()
_NO_RETURN = object()


def truth(value) -> bool:
    """Python truthiness of a compile-time value (a concrete Tensor counts by its value, and
    must hold one element, shape () or (1,), as in MindSpore's graphs)."""
    if is_tensor_like(value) and not isinstance(value, np.ndarray):
        check_truth_shape(value)
    return bool(value)


def logical_not(value):
    return F.logical_not(value) if isinstance(value, Tracer) else (not value)


def logical_and(a, b):
    if isinstance(a, Tracer) or isinstance(b, Tracer):
        return F.logical_and(a, b)
    return a and b


def bool_op(interp, node):
    """`and`/`or`: Python short-circuit on constants, logic on a Tensor computed in the graph,
    which must hold one element (shape () or (1,)) to have a truth value, as MindSpore
    requires. (MindSpore's result is then the operand Python would pick; here it is the
    logical value, and the loop lowering's own `and`s rely on that.)"""
    is_and = isinstance(node.op, gast.And)
    result = interp.eval(node.values[0])
    for value_node in node.values[1:]:
        if isinstance(result, Tracer):
            check_truth_shape(result)
            other = interp.eval(value_node)
            result = F.logical_and(result, other) if is_and else F.logical_or(result, other)
        elif truth(result) == is_and:
            result = interp.eval(value_node)
        else:
            return result
    return result


def check_truth_shape(value) -> None:
    """A Tensor has a truth value when it holds one element."""
    shape = tuple(value.shape)
    if shape not in ((), (1,)):
        raise ShapeError(f"Only tensor which shape is () or (1,) can be converted to bool, but "
                         f"got tensor shape is ({', '.join(map(str, shape))})")


# ----- tracing a branch ------------------------------------------------------------------------

class Branch:
    """One side of a Tensor `if` (or a loop part): its builder and what it left behind."""

    def __init__(self, name: str, loc):
        self.builder = Builder(name, loc)
        self.builder.accepts_updates = True  # the switch or loop carries them out
        self.builder.runs_conditionally = True
        self.vars: dict = {}
        self.returned = _NO_RETURN
        self.raised = False
        # the statement a join failure shows for this side: its `return`, else its last
        self.where = None

    def run(self, interp, fn):
        """Run fn() with this branch's builder listening and (given an interpreter) a private
        copy of its locals."""
        scope = interp.scope if interp is not None else None
        saved = scope.vars if scope is not None else {}
        if scope is not None:
            scope.vars = dict(saved)
        try:
            with self.builder.active():
                try:
                    return fn()
                except ReturnSignal as r:
                    self.returned = r.value
                    self.where = r.loc or self.where
                except RaiseSignal:
                    self.raised = True  # the rest of this branch is dead code
        finally:
            if scope is not None:
                self.vars, scope.vars = scope.vars, saved

    def final_value(self, param):
        """The value `param` has at the end of this branch."""
        entry = self.builder.updates.get(id(param))
        if entry is None:
            return param
        var = entry[1]
        return Tracer(self.builder, var) if isinstance(var, Var) else var.value


def _updated_params(*branches) -> list:
    """The Parameters any of `branches` assigned, in order of first assignment."""
    seen: dict = {}
    for branch in branches:
        for param, _ in branch.builder.outgoing_updates():
            seen.setdefault(id(param), param)
    return list(seen.values())


def _target_label(target) -> str:
    if is_tensor_target(target):
        return f"the Tensor {target.aval} updated in place"
    return f"Parameter '{target.name}'"


def zeros_like_value(value):
    """`value` with every Tensor replaced by zeros of its type (a value that is never read)."""
    leaves, tree = flatten(value, _is_leaf)
    zeros = []
    for leaf in leaves:
        if isinstance(leaf, numbers.Number):
            zeros.append(type(leaf)(0))
        else:
            aval = abstract_of(leaf)
            zeros.append(np.zeros(aval.shape, aval.dtype.np))
    return unflatten(tree, zeros)


def _is_leaf(x) -> bool:
    return is_tensor_like(x) or isinstance(x, numbers.Number)


def _as_array(value, like=None):
    """A Python number as a strong 0-d array (of `like`'s dtype when given)."""
    if like is not None:
        return np.asarray(value, abstract_of(like).dtype.np)
    return number_array(value)


def _pair_leaves(labels, then_values, else_values, loc, branches):
    """Flatten each (then, else) pair; returns the leaf pairs that must become outputs, the
    structure of each value, and the static leaves kept as they are."""
    trees, pairs = [], []
    for label, vt, ve in zip(labels, then_values, else_values):
        if (vt is UNBOUND) != (ve is UNBOUND):  # the side that never set it is never read
            vt, ve = (zeros_like_value(ve), ve) if vt is UNBOUND else (vt, zeros_like_value(vt))
        if joins_with_none(vt, ve):  # a value in one branch, None in the other
            vt, ve = as_optional_pair(vt, ve, zeros_like_value)
        vt, ve = _dynamic_length(vt, ve)
        lt, tt = flatten(vt, _is_leaf)
        le, te = flatten(ve, _is_leaf)
        if not _same_structure(tt, te) or len(lt) != len(le):
            ka, kb = _abstract_kind(vt), _abstract_kind(ve)
            detail = (f"Abstract type {ka} cannot join with {kb}." if ka != kb else
                      f"{label} is {_describe(vt)} in one branch and {_describe(ve)} in the "
                      f"other.")
            raise join_failure(detail, *branches, loc)
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


def _dynamic_length(a, b):
    """Two sequences of Python numbers of different lengths join as MindSpore's dynamic-length
    list: each side becomes a 1-D Tensor (bool, int64 or float32, whichever holds both), whose
    length the switch then leaves to run time."""
    def numbers_only(v):
        return isinstance(v, (tuple, list)) and all(
            isinstance(x, numbers.Real) for x in v)

    if not (numbers_only(a) and numbers_only(b)) or len(a) == len(b):
        return a, b
    items = [*a, *b]
    dtype = (np.bool_ if all(isinstance(x, bool) for x in items) else
             np.int64 if all(isinstance(x, numbers.Integral) for x in items) else np.float32)
    return np.asarray(a, dtype), np.asarray(b, dtype)


def _describe(value) -> str:
    if isinstance(value, Tracer):
        return f"Tensor {value.aval}"
    return type(value).__name__ if not isinstance(value, numbers.Number) else repr(value)


def _unify_leaf(label, a, b, loc, then_branch, else_branch):
    """Make a pair of branch results the same type: two numbers become a 0-d Tensor (a scalar
    known only at run time, which the switch's output stands for), and dims that differ become
    dims known only at run time (dynamic_dims.py). A number and a Tensor of rank 1 or more do
    not join, as in MindSpore. Returns (a, b, failure): a number and a 0-d Tensor, or an int
    and a float, join here, but MindSpore refuses the value where it is returned, so
    `failure` is the error to raise there (see `mark_mixed`)."""
    if _is_number(a) != _is_number(b) and _never_joins(a, b):
        kinds = ("AbstractTensor", "AbstractScalar")
        raise join_failure(f"Abstract type {kinds[0]} cannot join with {kinds[1]}.",
                           then_branch, else_branch, loc)
    failure = None
    if _is_number(a) != _is_number(b) and not isinstance(a if _is_number(a) else b, bool):
        failure = join_failure("Abstract type AbstractTensor cannot join with "
                               "AbstractScalar.", then_branch, else_branch, loc)
    elif _is_number(a) and _is_number(b) and _number_type(a) != _number_type(b):
        failure = join_failure(f"dtype1 = {_number_type(a)}, dtype2 = {_number_type(b)}.",
                               then_branch, else_branch, loc)
        if dt.bool_ not in (_number_type(a), _number_type(b)):  # an int and a float: float
            a, b = (_as_float(v, branch) for v, branch in ((a, then_branch),
                                                           (b, else_branch)))
    if isinstance(a, numbers.Number) and not isinstance(b, numbers.Number):
        a = _as_array(a, b)
    elif isinstance(b, numbers.Number) and not isinstance(a, numbers.Number):
        b = _as_array(b, a)
    elif isinstance(a, numbers.Number):
        a, b = _as_array(a), _as_array(b, _as_array(a))
    ta, tb = abstract_of(a).strong(), abstract_of(b).strong()
    if ta == tb:
        return a, b, failure
    if ta.dtype != tb.dtype:
        raise join_failure(f"dtype1 = {ta.dtype}, dtype2 = {tb.dtype}.", then_branch,
                           else_branch, loc)
    joined = dynamic_dims.join(ta, tb)
    if joined is None:
        raise _join_error(f"{label} is {ta} in one branch of the Tensor `if` and {tb} in the "
                          f"other", ta, tb, loc)
    with then_branch.builder.active():
        a = dynamic_dims.with_type(a, joined)
    with else_branch.builder.active():
        b = dynamic_dims.with_type(b, joined)
    return a, b, failure


def _as_float(value, branch):
    if isinstance(value, numbers.Number):
        return np.asarray(value, np.float32)
    with branch.builder.active():
        return F.cast(value, dt.float32)


def mark_mixed(value, failure) -> None:
    """Record that the graph value `value` joins a number with a Tensor (or an int with a
    float). MindSpore 2.10 accepts such a join where the value is computed with further
    (`x + y` after the `if`) but raises `failure` where it is returned as it is; function
    returns check with `check_returnable`."""
    value.builder.mixed_joins[id(value.ir_var)] = failure


def check_returnable(value) -> None:
    """Raise the join failure of a value `mark_mixed` recorded, returned from a function."""
    if isinstance(value, Tracer):
        failure = value.builder.mixed_joins.get(id(value.ir_var))
        if failure is not None:
            raise failure
    elif isinstance(value, (tuple, list)):
        for item in value:
            check_returnable(item)


JOIN_FAILED = ("Cannot join the return values of different branches, perhaps you need to make "
               "them equal.")


def _abstract_kind(value) -> str:
    """MindSpore's name for the kind of a value, as its join errors print it."""
    if isinstance(value, Tracer) or is_tensor_like(value):
        return "AbstractTensor"
    if isinstance(value, (numbers.Number, str)):
        return "AbstractScalar"
    if value is None:
        return "AbstractNone"
    return {tuple: "AbstractTuple", list: "AbstractList", dict: "AbstractDictionary"}.get(
        type(value), f"Abstract{type(value).__name__}")


def join_failure(detail: str, then_branch, else_branch, loc) -> DTypeError:
    """MindSpore's TypeError for branches whose values cannot join, naming the statement each
    side ends with (its `return`, or its last statement)."""
    sides = []
    for name, branch in (("true branch", then_branch), ("false branch", else_branch)):
        if branch is not None and branch.where is not None:
            sides.append(f"{name}:\n{branch.where.render()}")
    text = "\n".join([JOIN_FAILED, f"Type Join Failed: {detail}", *sides])
    return DTypeError(text, loc)


def _is_number(value) -> bool:
    """A Python number, or one known only at run time (a variable scalar)."""
    return isinstance(value, (numbers.Number, RuntimeScalar))


def _number_type(value) -> dt.DType:
    """The scalar dtype a number has in a graph (MindSpore's: Bool, Int64, Float32)."""
    return value.aval.dtype if isinstance(value, RuntimeScalar) else number_dtype(value)


def _never_joins(a, b) -> bool:
    """A number against a Tensor of rank 1 or more (MindSpore's AbstractScalar against an
    AbstractTensor), save a bool against a bool Tensor: the flags `break`, `continue` and
    `return` are lowered to (loop_exits.py) join the Tensor conditions that set them. (A
    number against a 0-d Tensor joins, with `mark_mixed`.)"""
    number, other = (a, b) if _is_number(a) else (b, a)
    aval = abstract_of(other)
    if isinstance(number, bool) and aval.dtype.name == "bool_":
        return False
    return aval.shape != ()


def _join_error(what: str, ta, tb, loc):
    if ta.dtype != tb.dtype:  # MindSpore's words first: tests match them
        return DTypeError(f"{JOIN_FAILED}\nType Join Failed: dtype1 = {tb.dtype}, dtype2 = "
                          f"{ta.dtype}.\n{what}; both must have the same dtype", loc)
    return ShapeError(f"{what}; their ranks differ, so the shapes do not join (Join Failed)",
                      loc)


def _close(branch: Branch, leaves: list):
    """The branch's graph, returning `leaves`. A Parameter among them reads its value at the end
    of the branch (a name bound to a Parameter follows its updates, as in MindSpore); the
    branch's updates themselves leave through `leaves` too, so none trail the outputs."""
    with branch.builder.active():
        graph, captured = branch.builder.finish(list(leaves))
    graph.outputs = graph.outputs[:len(graph.outputs) - len(graph.updates)]
    graph.updates = []
    return graph, captured


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


def emit_switch(test, labels, then_branch, then_values, else_branch, else_values, loc):
    """Emit the switch node that merges the branches' values; returns the merged values.
    Parameters a branch assigned are merged too, and assigned their merged value after it."""
    params = _updated_params(then_branch, else_branch)
    n_values = len(labels)
    labels = list(labels) + [_target_label(p) for p in params]
    then_values = list(then_values) + [then_branch.final_value(p) for p in params]
    else_values = list(else_values) + [else_branch.final_value(p) for p in params]
    # two different functions or Cells (`f if x < 5 else k`): the one picked when the graph
    # runs is called then, each in its branch (a Choice, as a tuple indexed by a Tensor)
    callables = {i: [ve, vt] for i, (vt, ve) in enumerate(zip(then_values, else_values))
                 if _distinct_callables(vt, ve)}
    for i in callables:
        then_values[i] = else_values[i] = None
    pairs, trees = _pair_leaves(labels, then_values, else_values, loc,
                                (then_branch, else_branch))
    unified = [_unify_leaf(label, a, b, loc, then_branch, else_branch)
               for label, a, b in pairs]
    scalars = {i for i, (_, a, b) in enumerate(pairs) if _is_number(a) and _is_number(b)
               and not isinstance(a, bool) and not isinstance(b, bool)}
    then_graph, then_caps = _close(then_branch, [a for a, _, _ in unified])
    else_graph, else_caps = _close(else_branch, [b for _, b, _ in unified])
    externals = unify_params([(then_graph, then_caps), (else_graph, else_caps)], 0)
    outs = switch_p(test, *externals, then_graph=then_graph, else_graph=else_graph)
    outs = [variable_scalar(v) if i in scalars else v for i, v in enumerate(outs)]
    for out, (_, _, failure) in zip(outs, unified):
        if failure is not None:
            mark_mixed(out, failure)
    merged = []
    for tree, leaves in trees:
        values = [value if kind == "static" else outs[value] for kind, value in leaves]
        merged.append(unflatten(tree, values))
    for param, value in zip(params, merged[n_values:]):
        current_builder().record_update(param, value)
    if callables:
        picked = F.cast(test, dt.int32)
        for i, items in callables.items():
            merged[i] = make_choice(items, picked, loc)
    return merged[:n_values]


# choice.Choice (choice.py sets it: it builds its switches with this module's emit_switch)
make_choice = None


def _distinct_callables(a, b) -> bool:
    """Two different functions, Cells or other callables that are no graph values."""
    return (a is not b and callable(a) and callable(b) and not is_tensor_like(a)
            and not is_tensor_like(b) and not isinstance(a, type) and not isinstance(b, type))


# ----- if --------------------------------------------------------------------------------------

def tensor_if(interp, node, test, rest) -> bool:
    """`if` on a Tensor. Returns True when the rest of the block was run inside the branches."""
    loc = interp.loc(node)
    assert not has_exit([node]), "loop exits are lowered to flags first (loop_exits.py)"
    name = f"{interp.name.rsplit('.', 1)[-1]}_if{loc.line if loc else ''}"
    if has_return([node]):
        _if_with_return(interp, node, test, list(rest), name, loc)
    then_branch, else_branch = Branch(name + "_then", loc), Branch(name + "_else", loc)
    before = interp.scope.vars
    then_branch.run(interp, lambda: interp.exec_block(node.body))
    else_branch.run(interp, lambda: interp.exec_block(node.orelse))
    for branch, block in ((then_branch, node.body), (else_branch, node.orelse)):
        branch.where = branch.where or interp.loc(block[-1] if block else node)
    names, one_sided = [], {}
    for n in list(then_branch.vars) + list(else_branch.vars):
        vt, ve = then_branch.vars.get(n, _MISSING), else_branch.vars.get(n, _MISSING)
        old = before.get(n, _MISSING)
        if n in names or n in one_sided or (vt is old and ve is old):
            continue
        t_set, e_set = _is_set(vt), _is_set(ve)
        if old is _MISSING and t_set != e_set:
            # a global (or an enclosing function's local) that one branch assigns: the other
            # branch keeps the outer value, as MindSpore's parser reads it
            outer = interp.scope.outer_value(n, _MISSING)
            if _is_set(outer):
                (else_branch if t_set else then_branch).vars[n] = outer
                names.append(n)
                continue
        if not t_set and not e_set:
            one_sided[n] = ve if vt is old else vt  # a mark made inside a branch
        elif (not t_set and not then_branch.raised) or (not e_set and not else_branch.raised):
            if old is not _MISSING:  # unbound on some path before this `if`: that path's mark
                one_sided[n] = old
                continue
            side, block = ("true", node.body) if t_set else ("false", node.orelse)
            where = definedness.assigned_names(block).get(n, node)
            one_sided[n] = definedness.branch_message(n, side, interp.info, where)
        else:
            names.append(n)
    merged = emit_switch(test, [f"variable `{n}`" for n in names], then_branch,
                         _values_after(then_branch, names), else_branch,
                         _values_after(else_branch, names), loc)
    interp.scope.vars.update(zip(names, merged))
    interp.scope.vars.update(one_sided)
    _raise_if_both_raised(then_branch, else_branch)
    return False


def _values_after(branch: Branch, names: list) -> list:
    """The branch's values of `names`; a branch that raised never continues, so what it left
    unset is UNBOUND."""
    return [value if _is_set(value) else UNBOUND
            for value in (branch.vars.get(n, UNBOUND) for n in names)]


def _is_set(value) -> bool:
    return value is not _MISSING and definedness.is_defined(value)


def _if_with_return(interp, node, test, rest, name, loc):
    """Both branches continue with the rest of the function, so both end in a return."""
    then_branch, else_branch = Branch(name + "_then", loc), Branch(name + "_else", loc)
    then_branch.run(interp, lambda: interp.exec_block(list(node.body) + rest))
    else_branch.run(interp, lambda: interp.exec_block(list(node.orelse) + rest))
    for branch, block in ((then_branch, list(node.body) + rest),
                          (else_branch, list(node.orelse) + rest)):
        branch.where = branch.where or interp.loc(block[-1] if block else node)
    values = [(UNBOUND if b.raised else None) if b.returned is _NO_RETURN else b.returned
              for b in (then_branch, else_branch)]
    merged = emit_switch(test, ["the return value"], then_branch, [values[0]],
                         else_branch, [values[1]], loc)
    _raise_if_both_raised(then_branch, else_branch)
    raise ReturnSignal(None if merged[0] is UNBOUND else merged[0], loc)


def _raise_if_both_raised(then_branch: Branch, else_branch: Branch) -> None:
    """Neither side continues: in a branch or loop body, neither does the code around it."""
    if then_branch.raised and else_branch.raised and current_builder().runs_conditionally:
        raise RaiseSignal()


def if_expression(interp, node):
    """`a if cond else b`: folded on a constant, a switch on a Tensor (only one side runs)."""
    test = interp.eval(node.test)
    if not isinstance(test, Tracer):
        return interp.eval(node.body if truth(test) else node.orelse)
    loc = interp.loc(node)
    then_branch, else_branch = Branch("ifexp_then", loc), Branch("ifexp_else", loc)
    vt = then_branch.run(interp, lambda: interp.eval(node.body))
    ve = else_branch.run(interp, lambda: interp.eval(node.orelse))
    then_branch.where, else_branch.where = interp.loc(node.body), interp.loc(node.orelse)
    return emit_switch(test, ["the conditional expression"], then_branch, [vt],
                       else_branch, [ve], loc)[0]


# ----- while -----------------------------------------------------------------------------------

# the list methods that change a list in place: `xs.append(v)` in a loop body carries xs
_LIST_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "reverse", "clear"})


def _assigned_names(stmts) -> list:
    """The names `stmts` bind, counting `x[i] = v` as binding x (Tensors are values), and
    `xs.append(v)` (any method that changes a list in place) as binding xs."""
    names = []
    for node in stmts:
        for sub in gast.walk(node):
            if isinstance(sub, gast.Call) and isinstance(sub.func, gast.Attribute) and \
                    sub.func.attr in _LIST_MUTATORS and isinstance(sub.func.value, gast.Name):
                if sub.func.value.id not in names:
                    names.append(sub.func.value.id)
                continue
            if isinstance(sub, gast.Subscript) and isinstance(sub.ctx, gast.Store):
                while isinstance(sub, gast.Subscript):
                    sub = sub.value
                if isinstance(sub, gast.Name) and sub.id not in names:
                    names.append(sub.id)
            elif isinstance(sub, gast.Name) and isinstance(sub.ctx, gast.Store) and \
                    sub.id not in names:
                names.append(sub.id)
    return names


def tensor_while(interp, node):
    """`while` on a Tensor: a while_loop node over the loop-carried values: the variables the
    body assigns that exist before it, and the Parameters it assigns.

    Which Parameters the body assigns, and the type of a variable that is UNBOUND before the
    loop (a lowered `return` value), are known only once the body has been traced; the body is
    traced again with them carried until nothing new turns up."""
    loc = interp.loc(node)
    assert not has_exit(node.body) and not has_return(node.body), "lowered in loop_exits.py"
    names = [n for n in _assigned_names(node.body)
             if definedness.is_defined(interp.scope.vars.get(n, definedness.ABSENT))]
    init = {n: interp.scope.vars[n] for n in names}
    params: list = []
    failures: dict = {}  # name -> the join failure of a number the body makes a Tensor
    broadcast: set = set()  # names that entered broadcast to the rank the body gave them
    while True:
        loop = _LoopTrace(interp, node, init, params, loc, broadcast)
        new_params = [p for p in loop.updated if all(p is not q for q in params)]
        if not new_params and not loop.resolved:
            break
        params += new_params
        init.update(loop.resolved)
        failures.update(loop.failures)
    outs = loop.emit()
    loop.bind_state(interp.scope.vars, loop.as_numbers(outs[:len(outs) - len(params)]))
    for n, failure in failures.items():
        mark_mixed(interp.scope.vars[n], failure)
    for param, value in zip(params, outs[len(outs) - len(params):]):
        current_builder().record_update(param, value)
    interp.exec_block(node.orelse)


def _number_join(initial, value, body: Branch, loc):
    """The join failure of a number before a loop that the body turns into a Tensor or into a
    number of another type (an int into a float); None when it stays what it is."""
    if not _is_number(initial) or isinstance(initial, bool) or not is_tensor_like(value) \
            and not isinstance(value, numbers.Number) or abstract_of(value).shape != ():
        return None
    if not _is_number(value):
        return join_failure("Abstract type AbstractScalar cannot join with AbstractTensor.",
                            body, None, loc)
    if _number_type(value) != _number_type(initial) and dt.bool_ not in (
            _number_type(value), _number_type(initial)):
        return join_failure(f"dtype1 = {_number_type(value)}, dtype2 = "
                            f"{_number_type(initial)}.", body, None, loc)
    return None


class _LoopTrace:
    """One tracing of a Tensor `while`'s condition and body over the carried values."""

    def __init__(self, interp, node, init: dict, params: list, loc, broadcast: set):
        self.names, self.params, self.loc = list(init), params, loc
        self.trees, init_leaves, self.numbers = [], [], []
        for n in self.names:
            leaves, tree = flatten(init[n], _is_leaf)
            self.trees.append((tree, len(leaves)))
            self.numbers += [_is_number(v) and not isinstance(v, bool) for v in leaves]
            init_leaves += [_as_array(v) if isinstance(v, numbers.Number) else v for v in leaves]
        self.init_leaves = init_leaves + list(params)
        self.avals = [abstract_of(v).strong() for v in self.init_leaves]
        self.hints = _hints(self.names, self.trees) + [
            None if is_tensor_target(p) else p.name or "param" for p in params]
        self.cond = Branch("while_cond", loc)
        self.body = Branch("while_body", loc)
        self.pred = self.cond.run(interp, lambda: self._enter(interp, self.cond) or
                                  interp.eval(node.test))

        def trace_body():
            self._enter(interp, self.body)
            interp.exec_block(node.body)
            return [interp.scope.vars[n] for n in self.names]

        self.new_values = self.body.run(interp, trace_body)
        if self.body.raised:
            self.new_values = [self.body.vars.get(n, UNBOUND) for n in self.names]
        self.updated = _updated_params(self.body)
        self.resolved, self.failures = {}, {}
        for n, value in zip(self.names, self.new_values):
            if init[n] is UNBOUND and value is not UNBOUND:
                self.resolved[n] = zeros_like_value(value)
            elif (failure := _number_join(init[n], value, self.body, loc)) is not None:
                # the number enters as a 0-d Tensor of the type the body gives it
                dtype = dt.float32 if _is_number(value) else abstract_of(value).dtype
                self.resolved[n] = F.cast(init[n], dtype) if isinstance(
                    init[n], Tracer) else np.asarray(init[n], dtype.np)
                self.failures[n] = failure
            elif (retyped := _loop_join(init[n], value, n not in broadcast)) is not None:
                self.resolved[n] = retyped
                if _rank_of(retyped) != _rank_of(init[n]):  # once: a rank that grows on
                    broadcast.add(n)  # every trip does not join (MindSpore's Join Failed)

    def _enter(self, interp, branch: Branch) -> None:
        """Bind the carried values to the branch's parameters."""
        values = [branch.builder.add_param(a, h) for a, h in zip(self.avals, self.hints)]
        values = self.as_numbers(values)
        n_vars = len(values) - len(self.params)
        self.bind_state(interp.scope.vars, values[:n_vars])
        for param, value in zip(self.params, values[n_vars:]):
            branch.builder.record_update(param, value)

    def as_numbers(self, values) -> list:
        """The carried values, those that are numbers as variable scalars."""
        return [variable_scalar(v) if is_number else v
                for v, is_number in zip(values, self.numbers + [False] * len(self.params))]

    def bind_state(self, scope_vars: dict, values) -> None:
        start = 0
        for n, (tree, count) in zip(self.names, self.trees):
            scope_vars[n] = unflatten(tree, values[start:start + count])
            start += count

    def emit(self):
        """The while_loop node; returns its outputs (the variables' leaves, then the params)."""
        new_leaves = _carried_leaves(self.names, self.trees, self.new_values, self.avals,
                                     self.body.builder, self.loc)
        new_leaves += [self.body.final_value(p) for p in self.params]
        cond_graph, cond_caps = _close(self.cond, [self.pred])
        body_graph, body_caps = _close(self.body, new_leaves)
        externals = unify_params([(cond_graph, cond_caps), (body_graph, body_caps)],
                                 len(self.avals))
        return list(while_p(*self.init_leaves, *externals, cond_graph=cond_graph,
                            body_graph=body_graph, n_carried=len(self.avals), **loop_options()))


def _hints(names, trees):
    hints = []
    for n, (_, count) in zip(names, trees):
        hints += [n] if count == 1 else [f"{n}_{i}" for i in range(count)]
    return hints


def _carried_leaves(names, trees, new_values, avals, builder: Builder, loc):
    """The body's new values of the carried leaves, typed as they enter."""
    leaves = []
    for n, (tree, count), value in zip(names, trees, new_values):
        new, new_tree = flatten(value, _is_leaf)
        if not _same_structure(new_tree, tree):
            raise CompileError(f"loop-carried variable `{n}` changes structure inside the "
                               f"`while` loop ({_describe(value)})", loc)
        leaves += new
    out = []
    for n, value, aval in zip(_hints(names, trees), leaves, avals):
        if isinstance(value, numbers.Number):
            value = np.asarray(value, aval.dtype.np)
        got = abstract_of(value).strong()
        if got != aval:
            if dynamic_dims.join(got, aval) != aval:
                raise _join_error(f"loop-carried variable `{n}` changes from {aval} to {got} "
                                  f"across iterations of the `while` loop", aval, got, loc)
            with builder.active():
                value = dynamic_dims.with_type(value, aval)
        out.append(value)
    return out


def _same_structure(a, b) -> bool:
    """Whether two value trees nest alike, a `mutable` tuple, list or dict matching a plain
    one (a loop that rebuilds a mutable tuple with make_tuple carries the same structure), and
    a variable scalar matching a number."""
    a, b = (LEAF if t.kind == "scalar" else t for t in (a, b))
    if a.kind != b.kind or a.static != b.static or len(a.children) != len(b.children):
        return False
    return all(_same_structure(x, y) for x, y in zip(a.children, b.children))


def _broadcasts_up(a, b) -> bool:
    """Whether `a` broadcasts to `b`, a static shape of higher rank, in the same dtype."""
    a, b = a.strong(), b.strong()
    if a.dtype != b.dtype or a.ndim >= b.ndim or None in b.shape or None in a.shape:
        return False
    try:
        return np.broadcast_shapes(a.shape, b.shape) == tuple(b.shape)
    except ValueError:
        return False


def _rank_of(value):
    return abstract_of(value).ndim if is_tensor_like(value) else None


def _loop_join(initial, value, broadcast_up: bool = True):
    """`initial` retyped so that it can also hold `value` (the dims that differ become dynamic;
    with `broadcast_up`, a higher rank the body broadcasts it to), or None when it already can,
    or cannot at all (the loop reports that when it is emitted)."""
    broadened = RuntimeSequence.broadened(initial, value)  # a list the body appends to
    if broadened is not None:
        return broadened
    init_leaves, tree = flatten(initial, _is_leaf)
    new_leaves, new_tree = flatten(value, _is_leaf)
    if not _same_structure(tree, new_tree):
        return None
    out, changed = [], False
    for a, b in zip(init_leaves, new_leaves):
        joined = None
        if is_tensor_like(a) and is_tensor_like(b):
            joined = dynamic_dims.join(abstract_of(a), abstract_of(b))
            if joined is None and broadcast_up and _broadcasts_up(abstract_of(a),
                                                                  abstract_of(b)):
                # a value the body broadcasts to a higher rank (`out = out + w`, out (1,) and
                # w (2, 2, 2)): it enters the loop broadcast, as its first trip would make it
                out.append(A.broadcast_to(a, shape=tuple(abstract_of(b).shape)))
                changed = True
                continue
        if joined is None or joined == abstract_of(a).strong():
            out.append(a)
        else:
            out.append(dynamic_dims.with_type(a, joined))
            changed = True
    return unflatten(tree, out) if changed else None


# ----- print -----------------------------------------------------------------------------------

def graph_print(args, kwargs):
    """`print` inside construct: a node that prints when the graph runs (print_op.py)."""
    if kwargs.get("file") is not None:
        raise CompileError("print(file=...) is not supported in a graph: it prints to "
                           "standard output")
    unknown = set(kwargs) - {"sep", "end", "flush", "file"}
    if unknown:
        raise ArgumentError(f"print() got an unexpected keyword argument "
                            f"{min(unknown)!r}")
    return emit_print(args, kwargs)
