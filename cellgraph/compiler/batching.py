"""The vmap transform: replay a graph on batched values through per-primitive batching rules.

`batch_graph(graph, inputs)` walks the nodes of `graph` and re-emits them into the current
builder. Each value travels with the axis its batch runs along (None: the same for every
example). A node whose operands are all unbatched is emitted as it is, once; otherwise its
primitive's batching rule (`prim.def_batch`, in ops/) emits the batched computation. A primitive
without a rule (a structural one such as `switch`, or a new one) is unrolled (ops.batching's
loop_rule): one call per example, results stacked, and every node of the unrolled loop carries
a note in its source comment, `[vmap: loop fallback, switch unrolled over 8 examples]`.

    @f(%x: f32[3]) -> f32[]:              vmap(f) on xs: f32[8,3] (batch axis 0)
      %1 = sin(%x)        : f32[3]          %1 = sin(%xs)                      : f32[8,3]
      %2 = reduce_sum(%1) {axis=(0,)}       %2 = reduce_sum(%1) {axis=(1,)}   : f32[8]

`grad` nodes are expanded first (compiler.autodiff.expand_grad), so vmap(grad(f)) batches the
gradient program itself: per-example gradients in one pass.

Jacobians batch the VJP (or JVP) over a standard basis. The basis enters as a `Basis` value, a
symbolic batch whose example i is `scale.flat[i]` times the i-th one-hot tensor; linear
operations keep it symbolic (BASIS_RULES) and everything else gets the dense stack. So the
Jacobian of tanh(A @ x) costs one scaled copy of A, not a product with an identity matrix.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.batching import loop_rule, move_axis
from cellgraph.primitives.core import Primitive, TensorType, abstract_of, broadcast_shapes

from .autodiff import expand_grad
from .builder import current_builder
from .ir import Constant, Graph

# ----- the symbolic standard basis --------------------------------------------------------------

@dataclasses.dataclass
class Basis:
    """A batch of `size(shape)` examples of `shape`: example i is zero except at flat index i,
    where it holds scale.flat[i] (`scale` broadcast to `shape`; a number scales them all
    alike). Made dense, the batch axis is 0."""

    shape: tuple
    scale: object  # a Python number, or a tensor that broadcasts to `shape`
    dtype: object
    _dense: object = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def scale_as(self, shape: tuple):
        """The scale as a tensor of `shape` (same number of elements), or a Python number."""
        if isinstance(self.scale, (int, float)):
            return self.scale
        s = self.scale
        if abstract_of(s).shape != self.shape:
            s = A.broadcast_to(s, shape=self.shape)
        return A.reshape(s, shape=tuple(shape)) if tuple(shape) != self.shape else s

    def dense(self):
        """The batch as one tensor, batch axis first (made once, however many nodes read it)."""
        if self._dense is None:
            eye = np.eye(self.size, dtype=self.dtype.np).reshape((self.size,) + self.shape)
            self._dense = eye if _is_one(self.scale) else M.mul(eye, self.scale)
        return self._dense


def _scaled(basis: Basis, shape, scale) -> Basis:
    dtype = abstract_of(scale).dtype if not isinstance(scale, (int, float)) else basis.dtype
    return Basis(tuple(shape), scale, dtype)


def _unbatched(entry):
    """The value of an entry that is the same for every example, else None."""
    return entry[0] if not isinstance(entry, Basis) and entry[1] is None else None


def _basis_mul(ins, params):
    basis, other = ins if isinstance(ins[0], Basis) else ins[::-1]
    other = _unbatched(other)
    if other is None or broadcast_shapes(basis.shape, abstract_of(other).shape) != basis.shape:
        return None
    scale = other if _is_one(basis.scale) else M.mul(basis.scale, other)
    return _scaled(basis, basis.shape, scale)


def _basis_div(ins, params):
    a, b = ins[0], _unbatched(ins[1])
    if not isinstance(a, Basis) or b is None or broadcast_shapes(
            a.shape, abstract_of(b).shape) != a.shape:
        return None
    return _scaled(a, a.shape, M.div(a.scale, b))


def _basis_add(prim):
    def rule(ins, params):
        a, b = ins
        if not (isinstance(a, Basis) and isinstance(b, Basis) and a.shape == b.shape):
            return None
        return _scaled(a, a.shape, prim(a.scale_as(a.shape), b.scale_as(b.shape)))
    return rule


def _basis_neg(ins, params):
    a, = ins
    return _scaled(a, a.shape, -a.scale if isinstance(a.scale, (int, float)) else M.neg(a.scale))


def _basis_cast(ins, params):
    a, = ins
    scale = a.scale if isinstance(a.scale, (int, float)) else A.cast(a.scale, **params)
    return Basis(a.shape, scale, params["dtype"])


def _basis_reshape(prim):
    """reshape, squeeze, expand_dims: the flat order of the elements stays, so does the basis."""
    def rule(ins, params):
        a, = ins
        shape = prim.abstract_eval([TensorType(a.shape, a.dtype)], params).shape
        return Basis(shape, a.scale_as(shape), a.dtype)
    return rule


def _basis_matmul(ins, params):
    """A shared matrix times one-hot column vectors picks its columns (rows when transposed):
    the batch is the matrix scaled, O(n^2), where the dense product would be O(n^3)."""
    ta, tb = params.get("transpose_a", False), params.get("transpose_b", False)
    x, y = ins
    if isinstance(y, Basis) and _unbatched(x) is not None and not tb and \
            len(y.shape) == 2 and y.shape[1] == 1 and abstract_of(x[0]).ndim == 2:
        x = x[0]
        k = y.shape[0]
        if ta:  # example i is row i of x, scaled: (k, m) with the batch first
            rows = _scale_along(x, y.scale_as((k, 1)), y.scale)
            return A.reshape(rows, shape=abstract_of(rows).shape + (1,)), 0
        cols = _scale_along(x, y.scale_as((1, k)), y.scale)  # column i of x: (m, k), batch 1
        return A.reshape(cols, shape=abstract_of(cols).shape[:1] + (k, 1)), 1
    if isinstance(x, Basis) and _unbatched(y) is not None and not ta and \
            len(x.shape) == 2 and x.shape[0] == 1 and abstract_of(y[0]).ndim == 2:
        y = y[0]
        k = x.shape[1]
        if tb:  # example i is column i of y, as a row: (1, n, k) with the batch last
            cols = _scale_along(y, x.scale_as((1, k)), x.scale)
            return A.reshape(cols, shape=(1,) + abstract_of(cols).shape), 2
        rows = _scale_along(y, x.scale_as((k, 1)), x.scale)  # row i of y: (k, n)
        return A.reshape(rows, shape=(k, 1, abstract_of(rows).shape[1])), 0
    return None


def _scale_along(matrix, scale, raw_scale):
    return matrix if _is_one(raw_scale) else M.mul(matrix, scale)


def _basis_reduce_sum(ins, params):
    a, = ins
    rank = len(a.shape)
    axes = params.get("axis", ())
    if axes != () and tuple(sorted(axes)) != tuple(range(rank)):
        return None
    flat = a.scale_as((a.size,))
    if isinstance(flat, (int, float)):
        flat = A.fill(dtype=a.dtype, shape=(a.size,), value=flat)
    if params.get("keep_dims", False):
        flat = A.reshape(flat, shape=(a.size,) + (1,) * rank)
    return flat, 0


def _is_one(value) -> bool:
    return isinstance(value, (int, float)) and value == 1


BASIS_RULES = {
    "mul": _basis_mul, "div": _basis_div, "add": _basis_add(M.add), "sub": _basis_add(M.sub),
    "neg": _basis_neg, "cast": _basis_cast, "reshape": _basis_reshape(A.reshape),
    "squeeze": _basis_reshape(A.squeeze), "expand_dims": _basis_reshape(A.expand_dims),
    "matmul": _basis_matmul, "reduce_sum": _basis_reduce_sum,
}


def dense(entry):
    """A batched value as (tensor, batch axis)."""
    if isinstance(entry, Basis):
        return entry.dense(), 0
    return entry


# ----- the transform ---------------------------------------------------------------------------

def batch_graph(graph: Graph, inputs: list) -> list:
    """Emit `graph` batched into the current builder. `inputs` holds one entry per parameter:
    (value, batch axis or None) or a Basis. Returns one entry per output."""
    graph = expand_grad(graph)
    env = {id(p): entry for p, entry in zip(graph.params, inputs)}
    builder = current_builder()
    for node in graph.nodes:
        ins = [(a.value, None) if isinstance(a, Constant) else env[id(a)] for a in node.inputs]
        with builder.at(node.loc):
            outs = apply_batched(node.callee, ins, node.params)
        for o, entry in zip(node.outputs, outs):
            env[id(o)] = entry
    return [(o.value, None) if isinstance(o, Constant) else env[id(o)] for o in graph.outputs]


def apply_batched(prim: Primitive, ins: list, params: dict) -> list:
    """One node on batched operands; returns one entry per output."""
    if any(isinstance(e, Basis) for e in ins):
        rule = BASIS_RULES.get(prim.name)
        result = rule(ins, params) if rule is not None else None
        if result is not None:
            return [result]
        ins = [dense(e) for e in ins]
    values = [v for v, _ in ins]
    dims = [d for _, d in ins]
    if all(d is None for d in dims):
        out = prim(*values, **params)
        return [(o, None) for o in out] if prim.multiple_results else [(out, None)]
    rule = prim.batch_rule or loop_rule(prim)
    out, out_dim = rule(values, dims, **params)
    if prim.multiple_results:
        return list(zip(out, out_dim))
    return [(out, out_dim)]


def move_batch(entry, size: int, axis: int):
    """A batched entry as one tensor with its batch along `axis` (broadcast if unbatched)."""
    value, dim = dense(entry)
    if dim is None:
        if isinstance(value, (bool, int, float)):
            value = A.fill(dtype=abstract_of(value).dtype, shape=(), value=value)
        shape = abstract_of(value).shape
        value = A.expand_dims(value, axis=axis)
        return A.broadcast_to(value, shape=shape[:axis] + (size,) + shape[axis:])
    return move_axis(value, dim, axis)


__all__ = [
    "BASIS_RULES",
    "Basis",
    "apply_batched",
    "batch_graph",
    "dense",
    "move_batch",
]
