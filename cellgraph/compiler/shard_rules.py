"""How each operator works on slices: the sharding rules of the shard_operators pass
(sharding.py), one per primitive, in one table (RULES), or by the kind of the primitive's
batching rule (elementwise and broadcasting operators share one rule).

A layout says how the ranks along one axis of the device matrix hold a logical tensor (the
pass runs a node's rule once per axis, sharding.py): REPLICATED (None: each rank holds all of
it), an int (the axis split into one slice per rank) or PARTIAL (the tensor is the sum of the
ranks' values). A rule is `rule(layouts, node, given) -> Sharding`: `layouts` are the inputs'
layouts, `given` whether they are the user's strategy (then the rule checks them and raises
Cannot saying why they do not fit) or the layouts the inputs arrive in (then it may ask for
others, which the pass makes with redistribution collectives). The global shapes are the
node's.

    matmul, strategy ((1, 1), (2, 1)) with transpose_b:  x [M,K] whole, w [N,K] split on N
        -> Sharding(inputs=(None, 0), outputs=(1,))      the output split on N; x mirrored
    matmul, strategy ((1, 2), (1, 2)):  K split on both   -> outputs=(PARTIAL,)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cellgraph.primitives.core import PRIMITIVES, TensorType

from .ir import Constant

REPLICATED = None
PARTIAL = "partial"


class Cannot(Exception):
    """The layouts do not fit the operator; the message says why."""


@dataclass(frozen=True)
class Sharding:
    """The layouts a node's inputs must be in, those of its outputs, its static params for
    the slices (a reshape's target shape), and a factor its (partial) output is scaled by."""

    inputs: tuple
    outputs: tuple
    params: dict | None = None
    scale: bool | None = None  # a mean over a split axis: each rank's mean counts 1/ranks
    # the nodes that compute the outputs on the slices, when the node itself does not:
    # emit(emit_node, inputs, node, ranks, group) -> outputs, emit_node(prim, inputs, params)
    emit: Callable | None = None


RULES: dict[str, Callable] = {}


def rule(*names: str):
    def register(fn):
        for name in names:
            RULES[name] = fn
        return fn
    return register


def _shape(atom) -> tuple:
    return atom.aval.shape


def _split(layout) -> bool:
    return isinstance(layout, int) and not isinstance(layout, bool)


def elementwise(layouts, node, given) -> Sharding:
    """Broadcasting operators: inputs aligned from the right; a dimension split in one input
    is split in every input that has it at full size, and in the output."""
    out_shape = _shape(node.outputs[0])
    out_axes = set()
    for layout, atom in zip(layouts, node.inputs):
        if _split(layout):
            offset = len(out_shape) - len(_shape(atom))
            if _shape(atom)[layout] != out_shape[layout + offset]:
                raise Cannot(f"dimension {layout} of an input of shape {_shape(atom)} is "
                             f"broadcast, so it cannot be split")
            out_axes.add(layout + offset)
    if len(out_axes) > 1:
        raise Cannot(f"the inputs split different dimensions of the output ({sorted(out_axes)})")
    out = out_axes.pop() if out_axes else REPLICATED
    wanted = []
    for layout, atom in zip(layouts, node.inputs):
        offset = len(out_shape) - len(_shape(atom))
        axis = None if out is None else out - offset
        full = axis is not None and axis >= 0 and _shape(atom)[axis] == out_shape[out]
        want = axis if full else REPLICATED
        if given and want != layout:
            raise Cannot(f"an input of shape {_shape(atom)} must be split as the others are "
                         f"(on output dimension {out})")
        wanted.append(want)
    return Sharding(tuple(wanted), (out,) * len(node.outputs))


@rule("bias_add")
def bias_add(layouts, node, given) -> Sharding:
    x, b = layouts
    channel = node.params.get("axis", 1)
    if given and (x == channel) != (b == 0):
        raise Cannot(f"the bias is split exactly when the input's channel dimension {channel} "
                     f"is")
    if b == 0 and x is REPLICATED:
        x = channel
    return Sharding((x, 0 if x == channel else REPLICATED), (x,))


def _matmul_roles(node) -> tuple[list, list, int]:
    """Each input axis's role: ('b', output axis) for batch axes, 'm', 'k' or 'n'."""
    a_shape, b_shape = _shape(node.inputs[0]), _shape(node.inputs[1])
    out_ndim = len(_shape(node.outputs[0]))
    ta, tb = node.params.get("transpose_a", False), node.params.get("transpose_b", False)

    def roles(shape, last_two):
        batch = [("b", i + out_ndim - len(shape)) for i in range(len(shape) - 2)]
        return batch + list(last_two)
    return (roles(a_shape, ("k", "m") if ta else ("m", "k")),
            roles(b_shape, ("n", "k") if tb else ("k", "n")), out_ndim)


@rule("matmul")
def matmul(layouts, node, given) -> Sharding:
    """Split M (x's rows) or N (w's columns): the output is split there and the other input
    is read whole (mirrored); split K on both: the output is partial; a batch axis: split
    alike in both (where both have it at full size)."""
    a_roles, b_roles, out_ndim = _matmul_roles(node)
    a, b = layouts
    ra = a_roles[a] if _split(a) else None
    rb = b_roles[b] if _split(b) else None
    if ra == "k" or rb == "k":
        if ra != rb:
            if given or (ra is not None and rb is not None):
                raise Cannot("the contracted dimension must be split alike in both inputs")
            if ra is None:
                a = a_roles.index("k")
            else:
                b = b_roles.index("k")
        return Sharding((a, b), (PARTIAL,))
    if ra is not None and rb is not None and ra != rb:
        raise Cannot("both inputs split dimensions of the output, which needs a device "
                     "matrix of two axes; cellgraph splits one dimension over all ranks")
    role = ra or rb
    if role is None:
        return Sharding((a, b), (REPLICATED,))
    if role == "m":
        return Sharding((a, REPLICATED), (out_ndim - 2,))
    if role == "n":
        return Sharding((REPLICATED, b), (out_ndim - 1,))
    out = role[1]
    wanted = []
    for layout, roles, atom in ((a, a_roles, node.inputs[0]), (b, b_roles, node.inputs[1])):
        axis = roles.index(role) if role in roles else None
        if axis is not None and _shape(atom)[axis] == 1:
            axis = None  # broadcast
        if given and layout != axis:
            raise Cannot("a batch dimension must be split alike in both inputs")
        wanted.append(axis)
    return Sharding(tuple(wanted), (out,))


def _reduced(node, ndim) -> tuple:
    axes = node.params.get("axis", ())
    return tuple(range(ndim)) if axes in ((), None) else tuple(a % ndim for a in axes)


@rule("reduce_sum", "reduce_mean")
def reduction(layouts, node, given) -> Sharding:
    """Over a split axis: each rank reduces its slice, the output is partial (a mean scaled by
    1/ranks); over other axes: the split axis stays split."""
    (x,) = layouts
    if not _split(x):
        return Sharding((x,), (x,))
    ndim = len(_shape(node.inputs[0]))
    axes = _reduced(node, ndim)
    if x in axes:
        return Sharding((x,), (PARTIAL,), scale=node.callee.name == "reduce_mean" or None)
    keep = node.params.get("keep_dims", False)
    return Sharding((x,), (x if keep else x - sum(a < x for a in axes),))


@rule("softmax", "log_softmax")
def softmax(layouts, node, given) -> Sharding:
    (x,) = layouts
    ndim = len(_shape(node.inputs[0]))
    axes = node.params.get("axis", -1)
    axes = {a % ndim for a in (axes if isinstance(axes, tuple) else (axes,))}
    if _split(x) and x in axes:
        raise Cannot(f"the softmax axis {sorted(axes)} cannot be split")
    return Sharding((x,), (x,))


@rule("layer_norm")
def layer_norm(layouts, node, given) -> Sharding:
    """Split along an axis before begin_norm_axis; gamma and beta whole (mirrored)."""
    x, gamma, beta = layouts
    begin = node.params["begin_norm_axis"]
    if _split(x) and x >= begin:
        raise Cannot(f"the normalized axes (from {begin}) cannot be split")
    if given and (gamma is not REPLICATED or beta is not REPLICATED):
        raise Cannot("gamma and beta cannot be split")
    return Sharding((x, REPLICATED, REPLICATED), (x,) * len(node.outputs))


def masked_lookup(emit_node, inputs, node, ranks, group) -> list:
    """A table split along the gathered axis (a vocabulary split): rank r holds entries
    [r * rows, (r + 1) * rows); it looks up the ids in that range and zeroes the others, so
    the ranks' results add up to the lookup (a partial sum).

        %r = shard_rank()  ;  %local = sub(%ids, mul(cast(%r), rows))
        %in = logical_and(greater_equal(%local, 0), less(%local, rows))
        %out = mul(gather(%table, mul(%local, cast(%in))), reshape(cast(%in)))
    """
    table, ids = inputs
    axis = node.params.get("axis", 0)
    rows, itype, ftype = table.aval.shape[axis], ids.aval.dtype, table.aval.dtype

    def number(value, dtype):
        return Constant(value, TensorType((), dtype, weak=True))

    def one(prim, args, **params):
        return emit_node(PRIMITIVES[prim], list(args), params)[0]

    rank = one("shard_rank", [], group=group, rank_size=ranks)
    first = one("mul", [one("cast", [rank], dtype=itype), number(rows, itype)])
    local = one("sub", [ids, first])
    inside = one("logical_and", [one("greater_equal", [local, number(0, itype)]),
                                 one("less", [local, number(rows, itype)])])
    found = one("gather", [table, one("mul", [local, one("cast", [inside], dtype=itype)])],
                **node.params)
    ndim = len(table.aval.shape)
    mask_shape = (1,) * axis + tuple(ids.aval.shape) + (1,) * (ndim - axis - 1)
    mask = one("reshape", [one("cast", [inside], dtype=ftype)], shape=mask_shape)
    return [one("mul", [found, mask])]


@rule("gather")
def gather(layouts, node, given) -> Sharding:
    """Table split on an axis other than the gathered one, or the indices split; a table
    split along the gathered axis looks up masked (masked_lookup), the result partial."""
    table, indices = layouts
    axis = node.params.get("axis", 0)
    if _split(table) and table == axis:
        if _split(indices):
            raise Cannot("the table and the indices cannot both be split")
        return Sharding((table, REPLICATED), (PARTIAL,), emit=masked_lookup)
    if _split(table) and _split(indices):
        raise Cannot("the table and the indices cannot both be split")
    idx_ndim = len(_shape(node.inputs[1]))
    if _split(table):
        return Sharding((table, REPLICATED), (table if table < axis else table - 1 + idx_ndim,))
    if _split(indices):
        return Sharding((REPLICATED, indices), (axis + indices,))
    return Sharding((table, indices), (REPLICATED,))


@rule("transpose")
def transpose(layouts, node, given) -> Sharding:
    (x,) = layouts
    perm = node.params["perm"]
    return Sharding((x,), (perm.index(x) if _split(x) else x,))


def _reshape_axis(old: tuple, new: tuple, axis: int, ranks: int) -> int | None:
    """The axis of `new` whose split matches a split of `old` along `axis`: the dimensions
    before both hold the same number of elements, and one of the two axes is made of the other
    and the dimensions after it, its own size divisible by the number of ranks."""
    before = 1
    for i in range(axis):
        before *= old[i]
    count = 1
    for j, size in enumerate(new):
        if count == before:
            inner_old, inner_new = old[axis], size
            k, rest = j, 1
            while inner_new * rest < inner_old and k + 1 < len(new):  # old axis -> new axes
                k += 1
                rest *= new[k]
            if inner_new * rest == inner_old and size % ranks == 0:
                return j
            m, rest = axis, 1
            while old[axis] * rest < size and m + 1 < len(old):  # old axes -> new axis
                m += 1
                rest *= old[m]
            if old[axis] * rest == size and old[axis] % ranks == 0:
                return j
            return None
        count *= size
    return None


def reshape_rule(ranks: int):
    def reshape(layouts, node, given) -> Sharding:
        (x,) = layouts
        new = _shape(node.outputs[0])
        if not _split(x):
            return Sharding((x,), (x,))
        out = _reshape_axis(_shape(node.inputs[0]), new, x, ranks)
        if out is None:
            raise Cannot(f"a split of dimension {x} does not carry over to shape {new}")
        local = tuple(s // ranks if i == out else s for i, s in enumerate(new))
        return Sharding((x,), (out,), params={**node.params, "shape": local})
    return reshape


ELEMENTWISE_KINDS = ("elementwise", "broadcasting")


def rule_of(node, ranks: int) -> Callable | None:
    """The sharding rule of `node`'s primitive, if it has one."""
    name = node.callee.name
    if name == "reshape":
        return reshape_rule(ranks)
    found = RULES.get(name)
    if found is not None:
        return found
    kind = getattr(node.callee.batch_rule, "kind", None)
    if kind in ELEMENTWISE_KINDS and len(node.outputs) == 1:
        return elementwise
    return None
