"""Layers over one math op: MatMul and ReduceLogSumExp."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives.errors import DTypeError

from ..cell import Cell

__all__ = ["MatMul", "ReduceLogSumExp"]


class MatMul(Cell):
    """x1 @ x2 with NumPy's broadcasting of the leading axes; `transpose_x1`/`transpose_x2`
    swap the last two axes of an operand of rank >= 2 first (a 1-D operand is a vector)."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise DTypeError(f"MatMul: `{name}` must be a bool, got {value!r}")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return P.matmul(x1, x2)


class ReduceLogSumExp(Cell):
    """log(sum(exp(x))) over `axis`, computed as max + log(sum(exp(x - max)))."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        top = P.stop_gradient(P.reduce_max(x, self.axis, True))
        out = P.add(P.log(P.reduce_sum(P.exp(P.sub(x, top)), self.axis, True)), top)
        return out if self.keep_dims else P.squeeze(out, self._axes(len(x.shape)))

    def _axes(self, ndim: int) -> tuple:
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        return tuple(a % ndim for a in axes) if axes else tuple(range(ndim))
