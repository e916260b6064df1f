"""`mindspore.ops.operations._inner_ops`: the internal primitives of MindSpore's that programs
and MindSpore's tests use and that have a counterpart here."""
from __future__ import annotations

from cellgraph.ops.derive import PrimitiveClass
from cellgraph.primitives.errors import ArgumentError, DTypeError, ShapeError

from .. import functional as F
from ..function.array_func import is_tensor
from . import ExtractImagePatches

__all__ = ["DynamicBroadcastTo", "ExtractImagePatches", "SameTypeShape"]


class SameTypeShape(PrimitiveClass):
    """`SameTypeShape()(input_x, input_y)`: `input_x`, after checking that `input_y` is a
    Tensor of the same dtype (else TypeError) and shape (else ValueError)."""

    def __call__(self, input_x, input_y):
        for name, value in (("x", input_x), ("y", input_y)):
            if not is_tensor(value):
                raise ArgumentError(f"For 'SameTypeShape', the type of '{name}' should be "
                                    f"'Tensor', but got type '{type(value).__name__}'.")
        if input_x.dtype != input_y.dtype:
            raise DTypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: "
                             f"{input_y.dtype}, but got {input_x.dtype}.")
        if tuple(input_x.shape) != tuple(input_y.shape):
            raise ShapeError(f"For 'SameTypeShape', the x shape should be = y shape: "
                             f"{tuple(input_y.shape)}, but got {tuple(input_x.shape)}.")
        return input_x

    def __repr__(self) -> str:
        return "Prim[SameTypeShape]"


class DynamicBroadcastTo(PrimitiveClass):
    """`DynamicBroadcastTo()(x, shape)`: `x` broadcast to `shape`, given as a tuple of ints or
    as a 1-D Tensor of them (whose values must be known when the graph is compiled)."""

    def __call__(self, x, shape):
        from cellgraph.runtime.tensor import Tensor

        if isinstance(shape, Tensor):
            shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
        return F.broadcast_to(x, shape)

    def __repr__(self) -> str:
        return "Prim[DynamicBroadcastTo]"
