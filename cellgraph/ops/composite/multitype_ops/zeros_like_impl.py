"""MindSpore's `zeros_like` over any value, as its graphs give it: a Tensor of zeros for a
Tensor, 0 for an int, a bool or a string, 0.0 for a float, and the same structure of zeros for a
tuple or list."""
from __future__ import annotations

from cellgraph.primitives.functional import zeros_like as _tensor_zeros_like

__all__ = ["zeros_like"]


def zeros_like(x):
    if isinstance(x, (tuple, list)):
        return type(x)(zeros_like(v) for v in x)
    if isinstance(x, float):
        return 0.0
    if isinstance(x, (int, str)):  # a bool is an int to MindSpore's overloads
        return 0
    return _tensor_zeros_like(x)
