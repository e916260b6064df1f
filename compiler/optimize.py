"""The optimiser: local rewrites as data, constant folding, CSE and DCE, run to a fixpoint.

A rewrite is one entry in REWRITES: the primitive it applies to and a function from the node
(inputs already substituted) to a replacement, or None to leave it. A replacement is an existing
value, a constant, or an `Expr` built from existing values (`E("mul", x, 2.0)`), whose new nodes
go through the same rewrites, folding and CSE before they are kept. A replacement must have the
node's shape and dtype, or it is not taken. Rules look at the nodes that made their inputs with
`producer(atom)` and read uniform constants as numbers with `scalar(atom)`.

    Before:  %1 = ones_like(%x); %2 = mul(%1, %y); %3 = reshape(%2) {shape=(2, 3)}
    After:   (%2 is %y, %3 is %y when %y already has shape (2, 3))

    Before:  %2 = neg(%1); %3 = add(%2, %2); %4 = mul(%3, %t)
    After:   %5 = mul(%1, %t); %6 = mul(%5, -2.0)

The arithmetic rules bring products and negations into one form, `mul(x, c)` with the constant
last and signs folded into it, so that the n-th derivative of a function (where each order
multiplies the last by -1, 2 and the like) stays polynomial in size. They reassociate constant
factors (`(x * a) * y` becomes `(x * y) * a`), which can change the last bit of a float result,
as any compiler's fast-math reassociation would; they never turn `x - x` into 0 or `x * 0` into
anything but zeros of x's type, so infinities and NaNs in the inputs stay where the program
put them except through `mul` by an exact zero.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cellgraph.ops.core import PRIMITIVES, abstract_of

from .ir import Apply, Constant, Graph, Var

FOLD_LIMIT = 1 << 16  # fold constant expressions up to this many elements
# Primitives that are the identity on values but not on derivatives: kept (not rewritten) in a
# graph that is optimised before it is differentiated again.
GRADIENT_BARRIERS = frozenset({"stop_gradient"})
MAX_DEPTH = 16  # how deep the replacement of a replacement may nest within one sweep


@dataclass(eq=False)
class Expr:
    """A replacement to build: `prim(*inputs, **params)`; inputs are atoms or other Exprs."""

    prim: str
    inputs: tuple
    params: dict = field(default_factory=dict)


def E(prim: str, *inputs, **params) -> Expr:
    return Expr(prim, inputs, params)


# ----- what rules may ask ----------------------------------------------------------------------

_sweeps: list = []  # the sweep running now (rules read its producers and constants)


def producer(atom) -> Apply | None:
    """The node (kept in this sweep) whose output `atom` is, or None for params and constants."""
    return _sweeps[-1].producers.get(id(atom)) if isinstance(atom, Var) and _sweeps else None


def produced_by(atom, prim: str) -> Apply | None:
    """producer(atom) when it is a `prim` node, else None."""
    node = producer(atom)
    return node if node is not None and node.callee.name == prim else None


def scalar(atom):
    """The number a constant holds in every element (a Python int or float), else None."""
    if not isinstance(atom, Constant):
        return None
    v = atom.value
    if type(v) in (int, float):
        return v
    if not isinstance(v, (np.ndarray, np.generic)) or v.dtype.kind not in "iuf" or v.size == 0:
        return None
    cache = _sweeps[-1].scalars if _sweeps else {}
    hit = cache.get(id(v))
    if hit is None:
        first = v.flat[0] if isinstance(v, np.ndarray) else v
        hit = cache[id(v)] = (v, first.item() if bool(np.all(v == first)) else None)
    return hit[1]  # the entry holds v, so its id is not reused while the sweep runs


def _is_all(atom, number) -> bool:
    if not isinstance(atom, Constant):
        return False
    v = atom.value
    if isinstance(v, (bool, int, float)):
        return v == number
    arr = np.asarray(v)
    return arr.size > 0 and bool(np.all(arr == number))


def _out(node: Apply):
    return node.outputs[0].aval


def _same_type(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def _passes_through(node: Apply, atom):
    """`atom` if the node's output is exactly it (same type), else None."""
    return atom if _same_type(atom.aval, _out(node)) else None


def _zeros(node: Apply):
    out = _out(node)
    return Constant(np.zeros(out.shape, out.dtype.np), out)


def _is_float(node: Apply) -> bool:
    return _out(node).dtype.is_float


# ----- rules -----------------------------------------------------------------------------------

def _binary_identity(unit: float, sides: tuple[int, ...]):
    def rule(node: Apply):
        for side in sides:
            if _is_all(node.inputs[side], unit):
                return _passes_through(node, node.inputs[1 - side])
        return None
    return rule


def _mul_zero(node: Apply):
    if any(_is_all(a, 0) for a in node.inputs):
        return _zeros(node)
    return _binary_identity(1, (0, 1))(node)


def _same_shape(node: Apply):
    return _passes_through(node, node.inputs[0])


def _filled(number):
    def rule(node: Apply):
        out = _out(node)
        if out.size is None or out.size > FOLD_LIMIT:
            return None
        return Constant(np.full(out.shape, number, out.dtype.np), out)
    return rule


def _number(node: Apply, atom):
    """`atom` as a Python number when it is a uniform constant and the node's result is a
    float (the constant then only scales), else None."""
    value = scalar(atom)
    return value if value is not None and _is_float(node) else None


def _scaled(atom):
    """(x, c) when `atom` is mul(x, c) with a constant number c, else (atom, None)."""
    node = produced_by(atom, "mul")
    if node is not None and isinstance(node.inputs[1], Constant):
        c = _number(node, node.inputs[1])
        if c is not None and _same_type(node.inputs[0].aval, _out(node)):
            return node.inputs[0], c
    return atom, None


def _mul_constant_last(node: Apply):
    """mul(c, x) -> mul(x, c); a uniform constant array becomes a number."""
    x, y = node.inputs
    if isinstance(x, Constant) and not isinstance(y, Constant):
        c = _number(node, x)
        return E("mul", y, c if c is not None and _same_type(y.aval, _out(node)) else x)
    if isinstance(y, Constant) and isinstance(y.value, (np.ndarray, np.generic)):
        c = _number(node, y)
        if c is not None and _same_type(x.aval, _out(node)):
            return E("mul", x, c)
    return None


def _mul_by_constant(node: Apply):
    """mul(x, -1) -> neg(x); mul(mul(x, a), b) -> mul(x, a*b); mul(neg(x), c) -> mul(x, -c)."""
    x, c = node.inputs
    if not isinstance(c, Constant) or type(c.value) not in (int, float) or not _is_float(node):
        return None
    inner, a = _scaled(x)
    if a is not None:
        return E("mul", inner, a * c.value)
    negated = produced_by(x, "neg")
    if negated is not None:
        return E("mul", negated.inputs[0], -c.value)
    if c.value == -1:
        return E("neg", x)
    return None


def _mul_pull_out(node: Apply):
    """Signs and constant factors move out of products, where they fold together:
    mul(neg(x), neg(y)) -> mul(x, y); mul(neg(x), y) -> neg(mul(x, y));
    mul(mul(x, a), y) -> mul(mul(x, y), a)."""
    x, y = node.inputs
    if isinstance(x, Constant) or isinstance(y, Constant):
        return None
    nx, ny = produced_by(x, "neg"), produced_by(y, "neg")
    if nx is not None and ny is not None:
        return E("mul", nx.inputs[0], ny.inputs[0])
    if nx is not None:
        return E("neg", E("mul", nx.inputs[0], y))
    if ny is not None:
        return E("neg", E("mul", x, ny.inputs[0]))
    (x0, a), (y0, b) = _scaled(x), _scaled(y)
    if a is not None or b is not None:
        return E("mul", E("mul", x0, y0), (1 if a is None else a) * (1 if b is None else b))
    return None


def _neg_fold(node: Apply):
    """neg(neg(x)) -> x; neg(mul(x, c)) -> mul(x, -c); neg(sub(x, y)) -> sub(y, x)."""
    (x,) = node.inputs
    inner = producer(x)
    if inner is None:
        return None
    name = inner.callee.name
    if name == "neg":
        return inner.inputs[0]
    if name == "mul":
        base, a = _scaled(x)
        return E("mul", base, -a) if a is not None else None
    if name == "sub" and _is_float(node):
        return E("sub", inner.inputs[1], inner.inputs[0])
    return None


def _add_collect(node: Apply):
    """add(c, x) -> add(x, c); add(x, x) -> mul(x, 2); add(x * a, x * b) -> mul(x, a + b);
    add(x, neg(y)) -> sub(x, y); add(neg(x), y) -> sub(y, x)."""
    x, y = node.inputs
    if isinstance(x, Constant) and not isinstance(y, Constant):
        return E("add", y, x)
    if isinstance(y, Constant) or not _is_float(node):
        return None
    (x0, a), (y0, b) = _scaled(x), _scaled(y)
    if x0 is y0 and _same_type(x0.aval, _out(node)):
        total = (1 if a is None else a) + (1 if b is None else b)
        return E("mul", x0, total) if total != 0 else None  # x - x stays: inf - inf is nan
    if a is not None and a == b:
        return E("mul", E("add", x0, y0), a)  # x * a + y * a -> (x + y) * a
    ny, nx = produced_by(y, "neg"), produced_by(x, "neg")
    if ny is not None:
        return E("sub", x, ny.inputs[0])
    if nx is not None:
        return E("sub", y, nx.inputs[0])
    return None


def _sub_fold(node: Apply):
    """sub(x, neg(y)) -> add(x, y); sub(neg(x), y) -> neg(add(x, y))."""
    x, y = node.inputs
    if not _is_float(node):
        return None
    ny = produced_by(y, "neg")
    if ny is not None:
        return E("add", x, ny.inputs[0])
    nx = produced_by(x, "neg")
    if nx is not None and not isinstance(y, Constant):
        return E("neg", E("add", nx.inputs[0], y))
    return None


def _mul_mask(node: Apply):
    """mul(x, cast(mask)) -> mul(x, mask) for a bool mask cast to x's own dtype: the product
    reads the mask as 0/1 itself (relu's gradient), without making the float copy."""
    for side in (0, 1):
        cast = produced_by(node.inputs[side], "cast")
        other = node.inputs[1 - side]
        if (cast is not None and cast.inputs[0].aval.dtype.is_bool
                and other.aval.dtype == _out(node).dtype and not isinstance(other, Constant)):
            return E("mul", other, cast.inputs[0])
    return None


def _mul_broadcast_constant(node: Apply):
    """mul(y, c) with c uniform, where c only broadcasts y -> broadcast_to(mul(y, c), shape):
    a view of the smaller product instead of a full-size one (ones(m, 1) @ w gives this)."""
    y, c = node.inputs
    if isinstance(y, Constant) or not isinstance(c, Constant) or _same_type(y.aval, _out(node)):
        return None
    value = _number(node, c)
    if value is None or y.aval.dtype != _out(node).dtype:
        return None
    return E("broadcast_to", E("mul", y, value), shape=_out(node).shape)


def _unbroadcast(node: Apply):
    """op(broadcast_to(r), y) -> op(r, y) when y alone has the output's shape: the operation
    broadcasts r itself, without the view."""
    for side in (0, 1):
        b = produced_by(node.inputs[side], "broadcast_to")
        other = node.inputs[1 - side]
        if b is not None and _same_type(other.aval, _out(node)):
            inputs = [None, None]
            inputs[side], inputs[1 - side] = b.inputs[0], other
            return E(node.callee.name, *inputs, **node.params)
    return None


def _matmul_outer(node: Apply):
    """matmul(x, y) over an inner dimension of 1 is an outer product: mul(x as (m, 1), y as
    (1, n)), which broadcasts instead of calling BLAS (and folds when one side is ones)."""
    x, y = node.inputs
    if x.aval.ndim != 2 or y.aval.ndim != 2 or not _is_float(node):
        return None
    k = x.aval.shape[0] if node.params.get("transpose_a", False) else x.aval.shape[1]
    if k != 1:
        return None
    m, n = _out(node).shape
    return E("mul", E("reshape", x, shape=(m, 1)), E("reshape", y, shape=(1, n)))


def _matmul_scaled(node: Apply):
    """matmul(mul(x, a), y) -> mul(matmul(x, y), a): constant factors leave the product,
    where they meet (and fold with) the others."""
    x, y = node.inputs
    (x0, a), (y0, b) = _scaled(x), _scaled(y)
    if a is None and b is None:
        return None
    out_size = _out(node).size
    if out_size is None or out_size > (x.aval.size if a is not None else y.aval.size):
        return None  # scaling the product would cost more than scaling the operand
    scale = (1 if a is None else a) * (1 if b is None else b)
    return E("mul", E("matmul", x0, y0, **node.params), scale)


def _reduce_scaled(node: Apply):
    """reduce_sum(mul(x, c)) -> mul(reduce_sum(x), c): the factor scales the smaller result."""
    x, c = _scaled(node.inputs[0])
    if c is None or not _same_type(x.aval, node.inputs[0].aval):
        return None
    return E("mul", E(node.callee.name, x, **node.params), c)


def _reduce_dot(node: Apply):
    """reduce_sum(mul(a, r), axis=(1,), keep_dims=True), r a row broadcast over a's rows, is
    the matrix-vector product matmul(a, r, transpose_b=True): one BLAS pass, no temporary."""
    prod = produced_by(node.inputs[0], "mul")
    if prod is None or node.params.get("axis") != (1,) or not node.params.get("keep_dims"):
        return None
    if not _is_float(node) or _out(node).ndim != 2:
        return None
    m, n = prod.outputs[0].aval.shape
    for a, r in (prod.inputs, prod.inputs[::-1]):
        if (isinstance(a, Var) and isinstance(r, Var) and a.aval.shape == (m, n)
                and r.aval.shape in ((1, n), (n,)) and a.aval.dtype == r.aval.dtype):
            return E("matmul", a, E("reshape", r, shape=(1, n)), transpose_b=True)
    return None


REWRITES: dict[str, list[Callable]] = {
    "ones_like": [_filled(1)],
    "zeros_like": [_filled(0)],
    "add": [_binary_identity(0, (0, 1)), _add_collect, _unbroadcast],
    "sub": [_binary_identity(0, (1,)), _sub_fold, _unbroadcast],
    "mul": [_mul_zero, _mul_constant_last, _mul_by_constant, _mul_pull_out,
            _mul_broadcast_constant, _mul_mask, _unbroadcast],
    "neg": [_neg_fold],
    "div": [_binary_identity(1, (1,)), _unbroadcast],
    "matmul": [_matmul_outer, _matmul_scaled],
    "reduce_sum": [_reduce_scaled, _reduce_dot],
    "reduce_mean": [_reduce_scaled],
    "reshape": [_same_shape],
    "broadcast_to": [_same_shape],
    "cast": [_same_shape],
    "stop_gradient": [lambda n: n.inputs[0]],
    "transpose": [lambda n: n.inputs[0] if n.params["perm"] == tuple(range(len(
        n.params["perm"]))) else None],
    "squeeze": [_same_shape],
    "expand_dims": [_same_shape],
    "select": [lambda n: n.inputs[1] if _is_all(n.inputs[0], True) and _passes_through(
        n, n.inputs[1]) is not None else None],
}


# ----- the driver ------------------------------------------------------------------------------

def _foldable(node: Apply) -> bool:
    if node.subgraphs() or node.callee.multiple_results or getattr(node.callee, "effectful",
                                                                      False):
        return False  # effects (printing, random draws) happen when the graph runs
    out = _out(node)
    return out.size is not None and out.size <= FOLD_LIMIT and all(
        isinstance(a, Constant) for a in node.inputs)


def _fold(node: Apply):
    from cellgraph.ops.core import _trace_stack

    result = _trace_stack[0].process(node.callee, [a.value for a in node.inputs], node.params)
    value = result.asnumpy()
    return Constant(value, _out(node))


def _param_key(value):
    if isinstance(value, Graph):
        return ("graph", id(value))
    if isinstance(value, (list, tuple)):
        return tuple(_param_key(v) for v in value)
    try:
        hash(value)
        return value
    except TypeError:
        return ("id", id(value))


def _atom_key(atom):
    if isinstance(atom, Constant):
        v = atom.value
        if isinstance(v, (bool, int, float)):
            return ("c", type(v), v)
        return ("a", id(v))
    return id(atom)


def _expr_type(expr):
    """The abstract value `expr` would have, or None when a type rule rejects it."""
    if not isinstance(expr, Expr):
        return _as_atom(expr).aval
    avals = [_expr_type(a) for a in expr.inputs]
    if any(a is None for a in avals):
        return None
    prim = PRIMITIVES[expr.prim]
    try:
        return prim.abstract_eval(avals, expr.params)
    except Exception:  # noqa: BLE001 - a rule proposed something ill-typed: not taken
        return None


def _as_atom(value):
    """Rules may write numbers where they mean constants: E("mul", x, 2.0)."""
    if isinstance(value, (Var, Constant, Expr)):
        return value
    return Constant(value, abstract_of(value))


class _Sweep:
    """One pass over a graph's nodes: substitute, fold, rewrite, CSE; new nodes are visited
    as they are made, so a rewrite's result is simplified in the same sweep."""

    def __init__(self, differentiable: bool = False):
        self.differentiable = differentiable
        self.subst: dict[int, object] = {}
        self.seen: dict[tuple, Apply] = {}
        self.kept: list[Apply] = []
        self.producers: dict[int, Apply] = {}
        self.scalars: dict[int, tuple] = {}
        self.made: list[Apply] = []  # every node built here stays alive: the maps key on ids
        self.changed = False

    def visit(self, node: Apply, depth: int = 0):
        """Simplify `node` and keep it (or what replaces it); returns its output's value."""
        inputs = [self.subst.get(id(a), a) for a in node.inputs]
        if any(n is not o for n, o in zip(inputs, node.inputs)):
            node.inputs = inputs
        replacement = self.replacement(node, depth)
        if replacement is not None:
            self.subst[id(node.outputs[0])] = replacement
            self.changed = True
            return replacement
        if getattr(node.callee, "effectful", False) or not node.outputs:
            self.kept.append(node)  # effects (printing) are never merged or dropped
            return node.outputs[0] if node.outputs else None
        key = (node.callee.name, tuple(_atom_key(a) for a in node.inputs),
               tuple(sorted((k, _param_key(v)) for k, v in node.params.items())))
        twin = self.seen.get(key)
        if twin is not None:
            for o, t in zip(node.outputs, twin.outputs):
                self.subst[id(o)] = t
            self.changed = True
            return twin.outputs[0]
        self.seen[key] = node
        self.kept.append(node)
        for o in node.outputs:
            self.producers[id(o)] = node
        return node.outputs[0]

    def replacement(self, node: Apply, depth: int):
        if _foldable(node):
            return _fold(node)
        if depth > MAX_DEPTH or self.differentiable and node.callee.name in GRADIENT_BARRIERS:
            return None
        for rule in REWRITES.get(node.callee.name, ()):
            found = rule(node)
            if found is None:
                continue
            if isinstance(found, Expr):
                aval = _expr_type(found)
                if aval is None or not _same_type(aval, _out(node)):
                    continue
                return self.build(found, node, depth + 1)
            return found
        return None

    def build(self, expr, origin: Apply, depth: int):
        """Make the nodes of `expr` (stamped with the origin's location) and visit them."""
        if not isinstance(expr, Expr):
            return expr
        inputs = [self.build(_as_atom(a), origin, depth) for a in expr.inputs]
        prim = PRIMITIVES[expr.prim]
        aval = prim.abstract_eval([a.aval for a in inputs], expr.params)
        node = Apply(prim, inputs, dict(expr.params), [Var(aval)], origin.loc)
        self.made.append(node)
        return self.visit(node, depth)


def simplify(graph: Graph, differentiable: bool = False) -> bool:
    """One sweep of rewrites, folding and CSE; returns True when anything changed.
    `differentiable`: the graph will be differentiated again (GRADIENT_BARRIERS stay)."""
    sweep = _Sweep(differentiable)
    _sweeps.append(sweep)
    try:
        for node in list(graph.nodes):
            sweep.visit(node)
    finally:
        _sweeps.pop()
    graph.nodes = sweep.kept
    graph.outputs = [sweep.subst.get(id(o), o) for o in graph.outputs]
    return sweep.changed


def dce(graph: Graph) -> bool:
    """Drop nodes whose outputs nothing uses (all primitives here are pure)."""
    live = {id(o) for o in graph.outputs if isinstance(o, Var)}
    kept = []
    for node in reversed(graph.nodes):
        if any(id(o) in live for o in node.outputs) or getattr(node.callee, "effectful", False):
            kept.append(node)
            live.update(id(a) for a in node.inputs if isinstance(a, Var))
    changed = len(kept) != len(graph.nodes)
    graph.nodes = kept[::-1]
    return changed


def optimize(graph: Graph, max_rounds: int = 50, differentiable: bool = False) -> Graph:
    """Rewrites, folding, CSE and DCE to a fixpoint, in this graph and every nested graph.
    `differentiable`: the graph will be differentiated again, so stop_gradient and the like stay.
    """
    from .ir import all_graphs

    for g in all_graphs(graph):
        for _ in range(max_rounds):
            if not (simplify(g, differentiable) | dce(g)):
                break
    return graph


def node_count(graph: Graph) -> int:
    from .ir import all_graphs

    return sum(len(g.nodes) for g in all_graphs(graph))
