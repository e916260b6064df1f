"""Dynamic dimensions: a dim known only at run time (None in a TensorType, MindSpore's -1).

Where the two branches of a Tensor `if` give a variable shapes that differ in some dims (same
dtype and rank), or a Tensor `while` changes some dims of a loop-carried value, the merged value
has None in those dims. Each side retypes its value with `set_dims`, the identity on arrays:

    then: %3 = concat(%x, %x)  : f32[4]         else: %5 = mul(%x, 2)  : f32[2]
          %4 = set_dims(%3) {shape=(None,)}           %6 = set_dims(%5) {shape=(None,)}
    %7 = switch(%p, %x) {...}  : f32[?]

Dims that agree stay static. Type rules treat a None dim as unknown (broadcasting keeps it
unless the other operand fixes it); the kernels see the real arrays, so a dim that does not fit
fails when the graph runs, and only there.
"""
from __future__ import annotations

from cellgraph.primitives.core import Primitive, TensorType, abstract_of, fmt_shape
from cellgraph.primitives.errors import ShapeError

from . import codegen


def _set_dims_type(x: TensorType, shape: tuple, weak: bool = False) -> TensorType:
    """`weak`: the value is a Python number known only at run time (a variable scalar), which
    takes the other operand's dtype in arithmetic as a Python number does."""
    if len(shape) != x.ndim or any(a is not None and b is not None and a != b
                                   for a, b in zip(x.shape, shape)):
        raise ShapeError(f"SetDims: a value of shape {fmt_shape(x.shape)} cannot be typed as "
                         f"{fmt_shape(shape)}")
    return TensorType(tuple(shape), x.dtype, weak)


set_dims_p = Primitive("set_dims", _set_dims_type, label="SetDims",
                       structural=True)  # generated as an assignment, no kernel
set_dims_p.def_bprop(lambda x, out, dout, shape, weak=False:
                     (set_dims_p(dout, shape=abstract_of(x).shape),))


@set_dims_p.def_batch
def _set_dims_batch(args, dims, shape, weak=False):
    from cellgraph.primitives.batching import to_front

    x = to_front(args[0], dims[0])
    return set_dims_p(x, shape=(abstract_of(x).shape[0],) + tuple(shape)), 0


codegen.CODEGEN_RULES["set_dims"] = lambda ctx, node, args, outs: [f"{outs[0]} = {args[0]}"]


def join(a: TensorType, b: TensorType) -> TensorType | None:
    """The type of a value that is `a` on one path and `b` on another: unknown (None) dims where
    they differ; None when they cannot be joined (different dtypes or ranks)."""
    a, b = a.strong(), b.strong()
    if a.dtype != b.dtype:
        return None
    if {a.shape, b.shape} == {(), (1,)}:  # one element either way (MindSpore joins them):
        return TensorType((1,), a.dtype)  # the vector, which holds the scalar too
    if a.ndim != b.ndim:
        return None
    return TensorType(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)


def with_type(value, aval: TensorType):
    """`value` typed as `aval` (whose dims are the same or unknown; a scalar becomes the
    one-element vector `join` gives for it)."""
    if abstract_of(value).strong() == aval:
        return value
    if abstract_of(value).shape == () and aval.shape == (1,):
        from cellgraph.primitives.array_ops import reshape

        return reshape(value, shape=(1,))
    return set_dims_p(value, shape=aval.shape)
