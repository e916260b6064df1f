"""Arithmetic rewrites: signs and constant factors into one form (`mul(x, c)`, the number
last), like terms collected, products of broadcast operands kept small, matmuls over an inner
dimension of 1 turned into broadcasts. Each function is one entry of optimize.REWRITES.

They reassociate constant factors (`(x * a) * y` becomes `(x * y) * a`) and sums, which can
change the last bits of a float result, as a compiler's fast-math reassociation would; they
never turn `x - x` or a float `x * 0` into 0 (terms that cancel are left as written), so
infinities and NaNs in the inputs stay where the program put them (optimize's own rule gives
zeros for an integer or bool product by 0 only).
"""
from __future__ import annotations

import itertools

import numpy as np

from .ir import Apply, Constant, Var
from .rewrite import E, RewriteContext, is_float, out_type, same_type


def mul_constant_last(node: Apply, ctx: RewriteContext):
    """mul(c, x) -> mul(x, c); a uniform constant array becomes a number."""
    x, y = node.inputs
    if isinstance(x, Constant) and not isinstance(y, Constant):
        c = ctx.number(node, x)
        return E("mul", y, c if c is not None and same_type(y.aval, out_type(node)) else x)
    if isinstance(y, Constant) and isinstance(y.value, (np.ndarray, np.generic)):
        c = ctx.number(node, y)
        if c is not None and same_type(x.aval, out_type(node)):
            return E("mul", x, c)
    return None


def mul_by_constant(node: Apply, ctx: RewriteContext):
    """mul(x, -1) -> neg(x); mul(mul(x, a), b) -> mul(x, a*b); mul(neg(x), c) -> mul(x, -c)."""
    x, c = node.inputs
    if not isinstance(c, Constant) or type(c.value) not in (int, float) or not is_float(node):
        return None
    inner, a = ctx.scaled(x)
    if a is not None:
        return E("mul", inner, a * c.value)
    negated = ctx.produced_by(x, "neg")
    if negated is not None:
        return E("mul", negated.inputs[0], -c.value)
    if c.value == -1:
        return E("neg", x)
    return None


def mul_pull_out(node: Apply, ctx: RewriteContext):
    """Signs and constant factors move out of products, where they fold together:
    mul(neg(x), neg(y)) -> mul(x, y); mul(neg(x), y) -> neg(mul(x, y));
    mul(mul(x, a), y) -> mul(mul(x, y), a)."""
    x, y = node.inputs
    if isinstance(x, Constant) or isinstance(y, Constant):
        return None
    nx, ny = ctx.produced_by(x, "neg"), ctx.produced_by(y, "neg")
    if nx is not None and ny is not None:
        return E("mul", nx.inputs[0], ny.inputs[0])
    # A sign or factor on an operand smaller than the product (an outer product, a row
    # broadcast) stays there: moved out, it would cost a pass over the larger result.
    if nx is not None and _as_large(x, node):
        return E("neg", E("mul", nx.inputs[0], y))
    if ny is not None and _as_large(y, node):
        return E("neg", E("mul", x, ny.inputs[0]))
    (x0, a), (y0, b) = ctx.scaled(x), ctx.scaled(y)
    if (a is not None and _as_large(x, node)) or (b is not None and _as_large(y, node)):
        return E("mul", E("mul", x0, y0), (1 if a is None else a) * (1 if b is None else b))
    return None


def _as_large(operand, node: Apply) -> bool:
    """Whether `operand` has as many elements as the node's result."""
    size = out_type(node).size
    return size is None or operand.aval.size is None or operand.aval.size >= size


def neg_fold(node: Apply, ctx: RewriteContext):
    """neg(neg(x)) -> x; neg(mul(x, c)) -> mul(x, -c); neg(sub(x, y)) -> sub(y, x)."""
    (x,) = node.inputs
    inner = ctx.producer(x)
    if inner is None:
        return None
    name = inner.callee.name
    if name == "neg":
        return inner.inputs[0]
    if name == "mul":
        base, a = ctx.scaled(x)
        return E("mul", base, -a) if a is not None else None
    if name == "sub" and is_float(node):
        return E("sub", inner.inputs[1], inner.inputs[0])
    return None


def add_collect(node: Apply, ctx: RewriteContext):
    """add(c, x) -> add(x, c); add(x, x) -> mul(x, 2); add(x * a, x * b) -> mul(x, a + b);
    add(x, neg(y)) -> sub(x, y); add(neg(x), y) -> sub(y, x)."""
    x, y = node.inputs
    if isinstance(x, Constant) and not isinstance(y, Constant):
        return E("add", y, x)
    if isinstance(y, Constant) or not is_float(node):
        return None
    (x0, a), (y0, b) = ctx.scaled(x), ctx.scaled(y)
    if x0 is y0 and same_type(x0.aval, out_type(node)):
        total = (1 if a is None else a) + (1 if b is None else b)
        return E("mul", x0, total) if total != 0 else None  # x - x stays: inf - inf is nan
    if a is not None and a == b:
        return E("mul", E("add", x0, y0), a)  # x * a + y * a -> (x + y) * a
    ny, nx = ctx.produced_by(y, "neg"), ctx.produced_by(x, "neg")
    if ny is not None:
        return E("sub", x, ny.inputs[0])
    if nx is not None:
        return E("sub", y, nx.inputs[0])
    return None


LINEAR_TERMS = 12  # a sum is gathered over at most this many nodes


def _gather_linear(ctx: RewriteContext, atom, coeff, terms: dict, out, budget: list):
    """Add coeff * atom to `terms` (id -> [atom, coefficient]) and the constant part to
    terms[None], looking through add, sub, neg and mul-by-a-number nodes read only here."""
    value = ctx.scalar(atom)
    if value is not None and isinstance(atom, Constant) and type(atom.value) in (int, float):
        terms.setdefault(None, [None, 0])[1] += coeff * value
        return
    node = ctx.producer(atom)
    name = node.callee.name if node is not None else None
    if (name in ("add", "sub", "neg", "mul") and budget[0] > 0 and ctx.uses(atom) == 1
            and same_type(atom.aval, out)):
        if name == "mul":
            base, c = ctx.scaled(atom)
            if c is not None:
                budget[0] -= 1
                _gather_linear(ctx, base, coeff * c, terms, out, budget)
                return
        else:
            budget[0] -= 1
            signs = {"add": (1, 1), "sub": (1, -1), "neg": (-1,)}[name]
            for a, sign in zip(node.inputs, signs):
                _gather_linear(ctx, a, coeff * sign, terms, out, budget)
            return
    entry = terms.setdefault(id(atom), [atom, 0])
    entry[1] += coeff


def linear_combination(node: Apply, ctx: RewriteContext):
    """A sum of scaled terms read nowhere else is rebuilt with each term once:
    (2a - b) + (b + 4a) - a -> mul(a, 5.0). Only when it needs fewer nodes, and never when
    terms cancel (x - x stays, for inf and nan)."""
    out = out_type(node)
    if not out.dtype.is_float:
        return None
    terms: dict = {}
    budget = [LINEAR_TERMS]
    signs = {"add": (1, 1), "sub": (1, -1)}[node.callee.name]
    for a, sign in zip(node.inputs, signs):
        _gather_linear(ctx, a, sign, terms, out, budget)
    constant = terms.pop(None, [None, 0])[1]
    items = [(a, c) for a, c in terms.values()]
    if not items or any(c == 0 for _, c in items):
        return None
    expr, cost = _weighted_sum(items, constant)
    if cost >= LINEAR_TERMS - budget[0] + 1:
        return None  # no fewer nodes than the tree it replaces
    return expr


def _weighted_sum(items: list, constant) -> tuple:
    """(Expr for constant + sum of c * term, how many nodes it makes): terms with the same
    coefficient up to sign are added and subtracted first, then multiplied once."""
    groups: dict = {}
    for a, c in items:
        groups.setdefault(abs(c), [[], []])[c < 0].append(a)
    parts, cost = [], 0
    for k, (pos, neg) in groups.items():
        members, sign = (pos, 1) if pos else (neg, -1)
        inner = members[0]
        for a in members[1:]:
            inner = E("add", inner, a)
        for a in (neg if pos else ()):
            inner = E("sub", inner, a)
        cost += len(pos) + len(neg) - 1 + (k != 1)
        parts.append((inner if k == 1 else E("mul", inner, k), sign))
    parts.sort(key=lambda part: part[1] < 0)  # start from a positive part: no leading neg
    acc = constant if constant != 0 else None
    for term, sign in parts:
        if acc is None:
            acc = term if sign > 0 else E("neg", term)
        else:
            acc = E("add" if sign > 0 else "sub", acc, term)
        cost += 1
    return acc, cost - (constant == 0 and parts[0][1] > 0)


POLY_BASES = 3  # over more values a polynomial could have exponentially many monomials
POLY_NODES = 160  # it is gathered over at most this many distinct values
POLY_TERMS = 64  # and has at most this many monomials
_ARITHMETIC = ("mul", "add", "sub", "neg")


class _NoPolynomial(Exception):
    """The expression being gathered is no polynomial over POLY_BASES values."""


class _Polynomial:
    """The polynomial an arithmetic expression computes over its bases: {monomial:
    coefficient}, a monomial being the sorted tuple of its bases' ranks (with repeats). Bases
    are the values that are not add, sub, neg or mul of the output's type, and sums holding a
    constant (1 - t^2 stays whole: expanding it would cancel in floating point).

    A value that is no polynomial becomes a base while there is room for one; once the bases
    are full, such a value makes every expression above it no polynomial either, up to the
    root, so the walk stops there (_NoPolynomial) instead of visiting the rest of its budget:
    the answer is the same, and a long chain of arithmetic (an unrolled loop's gradient) is
    not walked POLY_NODES deep from each of its nodes."""

    def __init__(self, out, ctx: RewriteContext):
        self.ctx = ctx
        self.out, self.bases, self.memo, self.expanded = out, {}, {}, {}

    def of(self, atom) -> dict | None:
        key = id(atom)
        if key not in self.memo:
            self.memo[key] = None  # a budget stop reads as "not a polynomial"
            self.memo[key] = self._of(atom)
        found = self.memo[key]
        if found is None and len(self.bases) >= POLY_BASES:
            raise _NoPolynomial  # no value above this one can become a base now
        return found

    def _of(self, atom) -> dict | None:
        if isinstance(atom, Constant):
            value = self.ctx.scalar(atom)
            fits = atom.aval.shape == () or same_type(atom.aval, self.out)
            return {(): value} if value is not None and fits else None
        node = self.ctx.producer(atom)
        name = node.callee.name if node is not None else None
        if name in _ARITHMETIC and len(self.memo) < POLY_NODES and same_type(
                atom.aval, self.out) and (name == "mul" or not any(
                    isinstance(a, Constant) for a in node.inputs)):
            found = self.apply(name, node.inputs)
            if found is not None:
                self.expanded[id(atom)] = node
                return found
        r = self.ctx.rank(atom)
        if r is None or len(self.bases) >= POLY_BASES and r not in self.bases:
            return None
        self.bases[r] = atom
        return {(r,): 1}

    def apply(self, name: str, inputs) -> dict | None:
        parts = [self.of(a) for a in inputs]
        if any(p is None for p in parts):
            return None
        if name == "neg":
            return {m: -c for m, c in parts[0].items()}
        out: dict = {}
        if name == "mul":
            for m1, c1 in parts[0].items():
                for m2, c2 in parts[1].items():
                    m = tuple(sorted(m1 + m2))
                    out[m] = out.get(m, 0) + c1 * c2
                if len(out) > POLY_TERMS:
                    return None  # monomials never leave a product: it stays too large
        else:
            out = dict(parts[0])
            for m, c in parts[1].items():
                out[m] = out.get(m, 0) + (c if name == "add" else -c)
        return out if len(out) <= POLY_TERMS else None

    def dying(self, inputs) -> int:
        """How many nodes the expression under these inputs has. Those read elsewhere too are
        counted as if they went away: the canonical form is worth recomputing them, CSE then
        shares its monomials instead (this is what keeps derivative sizes polynomial)."""
        seen, todo, count = set(), list(inputs), 0
        while todo:
            atom = todo.pop()
            node = self.expanded.get(id(atom))
            if node is None or id(atom) in seen:
                continue
            seen.add(id(atom))
            count += 1
            todo.extend(node.inputs)
        return count

    def monomial(self, m: tuple) -> tuple:
        """(value or Expr for the product of m's bases, how many nodes it adds): it starts
        from a product of two of them already computed, if there is one."""
        rest, acc, best = list(m), None, None
        for i, j in itertools.combinations(range(len(rest)), 2):
            found = self.ctx.existing_product(self.bases[rest[i]], self.bases[rest[j]])
            if found is not None and (best is None or self.ctx.uses(found) > self.ctx.uses(acc)):
                acc, best = found, (i, j)  # the most read one: it stays in any case
        if acc is None:
            acc = self.bases[rest.pop(0)]
        else:
            del rest[best[1]], rest[best[0]]
        cost = 0
        for r in rest:
            found = None if cost else self.ctx.existing_product(acc, self.bases[r])
            if found is None:
                acc, cost = E("mul", acc, self.bases[r]), cost + 1
            else:
                acc = found
        return acc, cost


def polynomial(node: Apply, ctx: RewriteContext):
    """The arithmetic expression that ends at this node, over at most POLY_BASES values, is
    rebuilt as its polynomial in them when that takes fewer nodes. Reverse mode over reverse
    mode writes the same products of t = tanh(x) and s = 1 - t^2 as ever more sums of
    products (the n-th derivative doubles in size per order); collected, each order's
    derivative is one polynomial in t and s, whose monomials CSE shares, and the size grows
    linearly. Sums holding a constant stay whole, so no new cancellation is introduced; when
    monomials cancel, the expression stays as written (inf and nan stay)."""
    if not is_float(node) or not ctx.is_root(node.outputs[0], _ARITHMETIC):
        return None
    if any(isinstance(a, Constant) for a in node.inputs):
        return None
    poly = _Polynomial(out_type(node), ctx)
    try:
        terms = poly.apply(node.callee.name, node.inputs)
    except _NoPolynomial:
        return None
    if terms is None or any(c == 0 for c in terms.values()):
        return None
    constant = terms.pop((), 0)
    if not terms:
        return None
    common = _common_factor(terms) if constant == 0 and len(terms) > 1 else ()
    if common and common not in terms:  # s*s*a + s*t*b -> s * (s*a + t*b): one product per
        # monomial fewer (a monomial that is the factor itself would leave a sum with a constant)
        terms = {_without(m, common): c for m, c in terms.items()}
    else:
        common = ()
    items, cost = [], 0
    for m in sorted(terms, key=lambda m: (len(m), m)):
        value, new = poly.monomial(m)
        items.append((value, terms[m]))
        cost += new
    expr, sum_cost = _weighted_sum(items, constant)
    if common:
        factor, new = poly.monomial(common)
        expr, cost = E("mul", expr, factor), cost + new + 1
    return expr if cost + sum_cost < poly.dying(node.inputs) + 1 else None


def _common_factor(terms: dict) -> tuple:
    """The bases (with multiplicity) that divide every monomial of `terms`."""
    monomials = iter(terms)
    common = list(next(monomials))
    for m in monomials:
        rest, shared = list(m), []
        for base in common:
            if base in rest:
                rest.remove(base)
                shared.append(base)
        common = shared
    return tuple(common)


def _without(monomial: tuple, factor: tuple) -> tuple:
    rest = list(monomial)
    for b in factor:
        rest.remove(b)
    return tuple(rest)


def sub_fold(node: Apply, ctx: RewriteContext):
    """sub(x, neg(y)) -> add(x, y); sub(neg(x), y) -> neg(add(x, y))."""
    x, y = node.inputs
    if not is_float(node):
        return None
    ny = ctx.produced_by(y, "neg")
    if ny is not None:
        return E("add", x, ny.inputs[0])
    nx = ctx.produced_by(x, "neg")
    if nx is not None and not isinstance(y, Constant):
        return E("neg", E("add", nx.inputs[0], y))
    return None


REUSE_FACTORS = 5  # a product chain is searched for a computed pair among this many factors


def _factors(ctx: RewriteContext, atom, out, found: list, inner: set, depth: int) -> None:
    """The factors of a chain of products read once (no constants), in order; `inner` gets
    the ids of the chain's own products."""
    node = ctx.produced_by(atom, "mul")
    if (node is not None and depth > 0 and ctx.uses(atom) == 1 and same_type(atom.aval, out)
            and not any(isinstance(a, Constant) for a in node.inputs)):
        inner.add(id(atom))
        for a in node.inputs:
            _factors(ctx, a, out, found, inner, depth - 1)
    else:
        found.append(atom)


def mul_reuse(node: Apply, ctx: RewriteContext):
    """A chain of products reuses a product of two of its factors that is already computed:
    ((a * b) * c) * d with b * d in the graph -> ((b * d) * a) * c, one multiplication less.
    Not in a graph about to be differentiated: its reordered chains have larger adjoints."""
    if not is_float(node) or ctx.differentiating() or any(
            isinstance(a, Constant) for a in node.inputs):
        return None
    factors: list = []
    inner = {id(node.outputs[0])}
    for a in node.inputs:
        _factors(ctx, a, out_type(node), factors, inner, REUSE_FACTORS - 2)
    if not 3 <= len(factors) <= REUSE_FACTORS:
        return None
    for i in range(len(factors)):
        for j in range(i + 1, len(factors)):
            pair = ctx.existing_product(factors[i], factors[j])
            if pair is None or id(pair) in inner or not same_type(pair.aval, out_type(node)):
                continue
            acc = pair
            for k, f in enumerate(factors):
                if k not in (i, j):
                    acc = E("mul", acc, f)
            return acc
    return None


def mul_mask(node: Apply, ctx: RewriteContext):
    """mul(x, cast(mask)) -> mul(x, mask) for a bool mask cast to x's own dtype: the product
    reads the mask as 0/1 itself (relu's gradient), without making the float copy."""
    for side in (0, 1):
        cast = ctx.produced_by(node.inputs[side], "cast")
        other = node.inputs[1 - side]
        if (cast is not None and cast.inputs[0].aval.dtype.is_bool
                and other.aval.dtype == out_type(node).dtype and not isinstance(other, Constant)):
            return E("mul", other, cast.inputs[0])
    return None


def mul_broadcast_constant(node: Apply, ctx: RewriteContext):
    """mul(y, c) with c uniform, where c only broadcasts y -> broadcast_to(mul(y, c), shape):
    a view of the smaller product instead of a full-size one (ones(m, 1) @ w gives this)."""
    y, c = node.inputs
    if isinstance(y, Constant) or not isinstance(c, Constant) or same_type(y.aval, out_type(node)):
        return None
    value = ctx.number(node, c)
    if value is None or y.aval.dtype != out_type(node).dtype or None in out_type(node).shape:
        return None  # (broadcast_to needs every size: not one known only at run time)
    return E("broadcast_to", E("mul", y, value), shape=out_type(node).shape)


def unbroadcast(node: Apply, ctx: RewriteContext):
    """op(broadcast_to(r), y) -> op(r, y) when y alone has the output's shape: the operation
    broadcasts r itself, without the view."""
    for side in (0, 1):
        b = ctx.produced_by(node.inputs[side], "broadcast_to")
        other = node.inputs[1 - side]
        if b is not None and same_type(other.aval, out_type(node)):
            inputs = [None, None]
            inputs[side], inputs[1 - side] = b.inputs[0], other
            return E(node.callee.name, *inputs, **node.params)
    return None


def matmul_outer(node: Apply, ctx: RewriteContext):
    """matmul(x, y) over an inner dimension of 1 is an outer product: mul(x as (..., m, 1), y as
    (..., 1, n)), which broadcasts instead of calling BLAS (and folds when one side is ones).
    Batched too: vmap makes per-example outer products of this kind (a per-example weight
    gradient), and a batch of tiny matrix products is far slower than one broadcast."""
    x, y = node.inputs
    if x.aval.ndim < 2 or y.aval.ndim < 2 or not is_float(node):
        return None
    k = x.aval.shape[-2] if node.params.get("transpose_a", False) else x.aval.shape[-1]
    if k != 1 or x.aval.dtype != y.aval.dtype or x.aval.size is None or y.aval.size is None:
        return None
    m, n = out_type(node).shape[-2:]
    # with a dimension of 1, swapping the last two axes is a reshape
    column = E("reshape", x, shape=tuple(x.aval.shape[:-2]) + (m, 1))
    row = E("reshape", y, shape=tuple(y.aval.shape[:-2]) + (1, n))
    return E("mul", column, row)


def mul_into_matmul(node: Apply, ctx: RewriteContext):
    """mul(matmul(x, y), c) -> matmul(mul(x, c), y) when x (or y) is smaller than the product,
    which nothing else reads: the factor scales the smaller operand, as an attention layer's
    1/sqrt(d) scales its queries rather than its scores (matmul_scaled keeps it there)."""
    product, factor = node.inputs
    c = ctx.number(node, factor)
    matmul = ctx.produced_by(product, "matmul")
    if c is None or matmul is None or ctx.uses(product) != 1:
        return None
    out_size = out_type(node).size
    if out_size is None or not same_type(product.aval, out_type(node)):
        return None
    x, y = matmul.inputs
    sizes = [a.aval.size for a in (x, y)]
    if None in sizes or min(sizes) >= out_size:
        return None
    if sizes[0] <= sizes[1]:
        return E("matmul", E("mul", x, c), y, **matmul.params)
    return E("matmul", x, E("mul", y, c), **matmul.params)


def matmul_scaled(node: Apply, ctx: RewriteContext):
    """matmul(mul(x, a), y) -> mul(matmul(x, y), a): constant factors leave the product,
    where they meet (and fold with) the others."""
    x, y = node.inputs
    (x0, a), (y0, b) = ctx.scaled(x), ctx.scaled(y)
    if a is None and b is None:
        return None
    out_size = out_type(node).size
    if out_size is None or out_size > (x.aval.size if a is not None else y.aval.size):
        return None  # scaling the product would cost more than scaling the operand
    scale = (1 if a is None else a) * (1 if b is None else b)
    return E("mul", E("matmul", x0, y0, **node.params), scale)


def reduce_scaled(node: Apply, ctx: RewriteContext):
    """reduce_sum(mul(x, c)) -> mul(reduce_sum(x), c): the factor scales the smaller result."""
    if node.callee.name == "reduce_mean" and not is_float(node):
        return None  # an integer mean rounds: mean(2 * x) is not 2 * mean(x)
    x, c = ctx.scaled(node.inputs[0])
    if c is None or not same_type(x.aval, node.inputs[0].aval):
        return None
    return E("mul", E(node.callee.name, x, **node.params), c)


def reduce_dot(node: Apply, ctx: RewriteContext):
    """reduce_sum(mul(a, r), axis=(1,), keep_dims=True), r a row broadcast over a's rows, is
    the matrix-vector product matmul(a, r, transpose_b=True): one BLAS pass, no temporary."""
    prod = ctx.produced_by(node.inputs[0], "mul")
    if prod is None or node.params.get("axis") != (1,) or not node.params.get("keep_dims"):
        return None
    if not is_float(node) or out_type(node).ndim != 2:
        return None
    m, n = prod.outputs[0].aval.shape
    for a, r in (prod.inputs, prod.inputs[::-1]):
        if (isinstance(a, Var) and isinstance(r, Var) and a.aval.shape == (m, n)
                and r.aval.shape in ((1, n), (n,)) and a.aval.dtype == r.aval.dtype):
            return E("matmul", a, E("reshape", r, shape=(1, n)), transpose_b=True)
    return None


def reduce_unit_axes(node: Apply, ctx: RewriteContext):
    """A reduction over axes of size 1 only changes the shape: reduce_sum(x) {axis=(1,)} of a
    (256, 1, 10) x is x itself (keep_dims) or its reshape to (256, 10)."""
    x = node.inputs[0]
    ndim = x.aval.ndim
    axes = node.params.get("axis", ()) or tuple(range(ndim))
    if x.aval.size is None or any(x.aval.shape[a % ndim] != 1 for a in axes):
        return None
    if x.aval.dtype != out_type(node).dtype:
        return None
    if same_type(x.aval, out_type(node)):
        return x
    return E("reshape", x, shape=out_type(node).shape)


def transpose_as_reshape(node: Apply, ctx: RewriteContext):
    """A transpose that only moves axes of size 1 keeps the elements in order: a reshape
    (transpose(h) {perm=(0, 2, 1)} of a (4, 1, 5) h is h as (4, 5, 1))."""
    x = node.inputs[0]
    shape, perm = x.aval.shape, node.params["perm"]
    if x.aval.size is None or perm == tuple(range(len(perm))):
        return None
    if [a for a in perm if shape[a] != 1] != [a for a in range(len(shape)) if shape[a] != 1]:
        return None
    return E("reshape", x, shape=out_type(node).shape)


def reshape_of_reshape(node: Apply, ctx: RewriteContext):
    """reshape(reshape(x)) -> reshape(x): only the last shape matters (as written: its -1
    stands for a size known only at run time)."""
    inner = ctx.produced_by(node.inputs[0], "reshape")
    if inner is None:
        return None
    return E("reshape", inner.inputs[0], shape=node.params["shape"])  # (its -1 stays)
