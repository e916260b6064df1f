"""The addition gradients are summed with (MindSpore's `_add_backward`, which `ops.hyper_add`
maps over nested tuples): two Tensors of one shape (MindSpore's AddN, its ValueError for two
shapes), two numbers, two CSRTensors of one pattern (values added), or whatever else Python's +
takes."""
from __future__ import annotations

from cellgraph.compiler.builder import is_tensor_like
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import ShapeError

__all__ = ["add_backward"]


def _shape_text(x) -> str:
    return f"({', '.join(str(size) for size in x.shape)})"  # MindSpore's: (2) for one axis


def add_backward(x, y):
    if is_tensor_like(x) and is_tensor_like(y):
        if tuple(x.shape) != tuple(y.shape):
            raise ShapeError(f"For 'AddN', input shape must be same, but got shape of input[1]: "
                             f"{_shape_text(y)}, shape of input[0]: {_shape_text(x)}.")
        return F.add(x, y)
    if getattr(x, "_sparse_kind", None) == "csrtensor" and getattr(
            y, "_sparse_kind", None) == "csrtensor":
        return type(x)(x.indptr, x.indices, F.add(x.values, y.values), x.shape)
    return x + y
