"""Helpers for batching rules (vmap), shared by the declarations in the `*_ops.py` modules.

A batching rule is `rule(args, dims, **params) -> (out, out_dim)`: `dims[i]` is the axis of
`args[i]` that the batch runs along (None: the operand is the same for every example), and the
result holds the per-example results stacked along `out_dim`. A primitive with several results
returns a tuple of outputs and a tuple of dims. Rules are written with ops, so the batched
program is made of ordinary primitives: it runs inside graphs, differentiates and batches again.

    per example:   y = reduce_sum(x) {axis=(0,)}           x: f32[3]
    batched:       y = reduce_sum(xs) {axis=(1,)}          xs: f32[8,3] (dim 0) -> y: f32[8] (dim 0)

`loop_rule(prim)` is the fallback for a primitive without a rule: it unrolls the batch into one
call per example and stacks the results, and every node it emits says so in its source comment
(`[vmap: loop fallback, conv2d_backprop_filter unrolled over 8 examples]`). A primitive may
declare it explicitly, alone or for the cases its own rule does not cover (`merge_rule`, for
NCHW ops, folds the batch into the sample axis unless a filter is batched).
"""
from __future__ import annotations

import contextlib
import dataclasses

from .core import (
    Primitive,
    Slice,
    TensorType,
    abstract_of,
    current_trace,
    normalize_axes,
    normalize_axis,
    prims,
)
from .errors import SourceLoc


def ndim(x) -> int:
    return abstract_of(x).ndim


def example_shape(x, dim) -> tuple:
    """The shape of one example of `x` (batched along `dim`, or not batched at all)."""
    shape = abstract_of(x).shape
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


def batch_size(args, dims) -> int:
    for x, d in zip(args, dims):
        if d is not None:
            return abstract_of(x).shape[d]
    raise AssertionError("a batching rule was called with no batched operand")


def move_axis(x, src: int, dst: int):
    """`x` with axis `src` moved to position `dst` (the others keep their order)."""
    if src == dst:
        return x
    perm = list(range(ndim(x)))
    perm.insert(dst, perm.pop(src))
    return prims.transpose(x, perm=tuple(perm))


def to_front(x, dim):
    """A batched `x` with its batch axis first."""
    return x if dim is None or dim == 0 else move_axis(x, dim, 0)


def batched_front(x, dim, size: int):
    """`x` batched along axis 0, broadcasting it first when it is not batched."""
    if dim is not None:
        return to_front(x, dim)
    xt = abstract_of(x)
    return prims.broadcast_to(x, shape=(size,) + xt.shape)


def insert_ones(x, pos: int, count: int = 1):
    """`x` reshaped with `count` size-1 axes inserted before axis `pos`."""
    if count == 0:
        return x
    shape = abstract_of(x).shape
    return prims.reshape(x, shape=shape[:pos] + (1,) * count + shape[pos:])


def same_shape_rule(prim: Primitive):
    """Elementwise on one operand (exp, cast, relu, ...): the batch axis stays where it is."""
    def rule(args, dims, **params):
        return prim(*args, **params), dims[0]
    rule.kind = "elementwise"  # how the primitive treats its axes (compiler/separable.py)
    return rule


def broadcasting_rule(prim: Primitive):
    """Elementwise with NumPy broadcasting (add, select, ...).

    Operands batched along one axis, all of the full rank, keep that axis; an unbatched operand
    that reaches across it gets a size-1 axis there. Otherwise every batched operand moves its
    batch axis to the front and is padded to the common rank with size-1 axes after it.
    """
    def rule(args, dims, **params):
        ranks = [ndim(x) - (d is not None) for x, d in zip(args, dims)]
        rank = max(ranks)
        batched = [i for i, d in enumerate(dims) if d is not None]
        first = dims[batched[0]]
        if all(dims[i] == first and ranks[i] == rank for i in batched):
            operands = []
            for x, d, r in zip(args, dims, ranks):
                pos = r - (rank - first)  # where the batch axis falls among x's own axes
                operands.append(insert_ones(x, pos) if d is None and pos > 0 else x)
            return prim(*operands, **params), first
        operands = []
        for x, d, r in zip(args, dims, ranks):
            if d is not None:
                x = insert_ones(to_front(x, d), 1, rank - r)
            operands.append(x)
        return prim(*operands, **params), 0
    rule.kind = "broadcasting"
    return rule


def reduction_rule(prim: Primitive):
    """reduce_sum and friends: the reduced axes shift past the batch axis."""
    def rule(args, dims, axis=(), keep_dims=False):
        (x,), (d,) = args, dims
        rank = ndim(x) - 1
        axes = tuple(a for a in normalize_axes(axis, rank) if a < rank)
        if not axes:  # nothing to reduce in one example: the value, in the result's dtype
            example = TensorType(example_shape(x, d), abstract_of(x).dtype)
            out_dtype = prim.abstract_eval([example], {"axis": axis, "keep_dims": keep_dims}).dtype
            return (x if out_dtype == example.dtype else prims.cast(x, dtype=out_dtype)), d
        moved = tuple(a if a < d else a + 1 for a in axes)
        out_dim = d if keep_dims else d - sum(a < d for a in axes)
        return prim(x, axis=moved, keep_dims=keep_dims), out_dim
    rule.kind = "reduction"
    return rule


def axis_rule(prim: Primitive):
    """An op along one axis of one operand (softmax): the axis shifts past the batch axis."""
    def rule(args, dims, axis=-1, **params):
        (x,), (d,) = args, dims
        a = normalize_axis(axis, ndim(x) - 1)
        return prim(x, axis=a if a < d else a + 1, **params), d
    rule.kind = "along_axis"
    return rule


def paired_axis_rule(prim: Primitive):
    """An op along one axis of operands of one shape (softmax_grad): every operand batched
    along axis 0 (broadcast there if it is not batched), the axis shifted past it."""
    def rule(args, dims, axis=-1, **params):
        size = batch_size(args, dims)
        rank = next(ndim(x) - 1 for x, d in zip(args, dims) if d is not None)
        operands = [batched_front(x, d, size) for x, d in zip(args, dims)]
        return prim(*operands, axis=normalize_axis(axis, rank) + 1, **params), 0
    return rule


def loop_rule(prim: Primitive):
    """The fallback: one call per example, results stacked along axis 0. Inside a graph, every
    node it emits carries a note in its source comment, so the IR shows the loop."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        full = Slice(None, None, None)
        results = []
        with _noted(f"[vmap: loop fallback, {prim.name} unrolled over {size} examples]"):
            for i in range(size):
                example = [x if d is None else prims.getitem(x, index=(full,) * d + (i,))
                           for x, d in zip(args, dims)]
                results.append(prim(*example, **params))
            return _stacked(prim, results)

    rule.unrolled = True
    return rule


def _stacked(prim: Primitive, results: list):
    if not prim.multiple_results:
        return prims.stack(*results, axis=0), 0
    outs = tuple(prims.stack(*[r[k] for r in results], axis=0) for k in range(len(results[0])))
    return outs, (0,) * len(outs)


def _noted(note: str):
    """Stamp the nodes a graph builder emits in this block with `note` after the source line."""
    trace = current_trace()
    if not hasattr(trace, "at"):
        return contextlib.nullcontext()
    loc = trace.loc
    if loc is None:
        return trace.at(SourceLoc("<vmap>", 0, 0, note))
    return trace.at(dataclasses.replace(loc, text=f"{loc.text.rstrip()}  {note}"))


def _split_front(out, size: int):
    """(size * n, ...) as (size, n, ...)."""
    shape = abstract_of(out).shape
    return prims.reshape(out, shape=(size, shape[0] // size) + shape[1:])


def merge_rule(prim: Primitive, per_sample: tuple[int, ...], shape_params: tuple[str, ...] = ()):
    """For ops that treat axis 0 of the operands at `per_sample` as independent samples (NCHW
    convolution and pooling): fold the batch into that axis, run once, split it out again.
    `shape_params` name params that hold such a shape (their axis 0 grows by the batch). If an
    operand outside `per_sample` (a filter) is batched, it falls back to the loop."""
    fallback = loop_rule(prim)

    def rule(args, dims, **params):
        if any(d is not None for i, d in enumerate(dims) if i not in per_sample):
            return fallback(args, dims, **params)
        size = batch_size(args, dims)
        operands = list(args)
        for i in per_sample:
            x = batched_front(args[i], dims[i], size)
            shape = abstract_of(x).shape
            operands[i] = prims.reshape(x, shape=(size * shape[1],) + shape[2:])
        for name in shape_params:
            shape = tuple(params[name])
            params = {**params, name: (size * shape[0],) + shape[1:]}
        out = prim(*operands, **params)
        if prim.multiple_results:
            return tuple(_split_front(o, size) for o in out), (0,) * len(out)
        return _split_front(out, size), 0

    return rule
