"""MindSpore functional ops and classes over existing operations (no kernel, no rule of their
own): `batch_dot`, `matrix_diag` (MatrixDiagV3's bands and alignments), and the classes
`ops.Cross(dim)` and `ops.Rank()` over the functional `cross` and `rank`.

Placing values on diagonals is a product with a constant 0/1 table (`_place`): the table depends
only on shapes, so the result differentiates and batches through matmul alone."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

from . import functional as F
from .composite_named import cross, rank
from .composite_ops import _const

__all__ = ["Cross", "Rank", "batch_dot", "matrix_diag"]


def _shape(x) -> tuple:
    return abstract_of(x).shape


def known(value, what: str, op: str):
    """The value of a Python number, sequence or a Tensor whose value is known now (an eager
    Tensor), as a NumPy array; a value computed inside a graph cannot size a result."""
    if hasattr(value, "_data"):
        return value.asnumpy()
    if hasattr(value, "aval"):
        raise ArgumentValueError(f"{op}: `{what}` sets the shape of the result, so it must be a "
                                 f"constant, got a Tensor computed in the graph")
    return np.asarray(value)


# ----- products ----------------------------------------------------------------------------------

def _batch_dot_axes(axes, n1: int, n2: int) -> tuple:
    """MindSpore's rule: None contracts the last axis of x1 with the last axis of a matrix x2 or
    the second-to-last of a higher-rank one; an int n contracts axis n of both."""
    if axes is None:
        return n1 - 1, n2 - 1 if n2 == 2 else n2 - 2
    if isinstance(axes, numbers.Integral):
        if axes == 0:
            raise ArgumentValueError("batch_dot: `axes` must not be 0 (the batch axis)")
        axes = (axes, axes)
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ArgumentValueError(f"batch_dot: `axes` must be None, an int or a pair of ints, "
                                 f"got {axes!r}")
    a1, a2 = (normalize_axis(a, n) for a, n in zip(axes, (n1, n2)))
    if a1 == 0 or a2 == 0:
        raise ArgumentValueError(f"batch_dot: `axes` {tuple(axes)} must not name the batch axis")
    return a1, a2


def batch_dot(x1, x2, axes=None):
    """Per example b, x1[b] and x2[b] contracted over one axis each: with x1 (B, d1, K, d2) and
    x2 (B, d3, K, d4) the result is (B, d1, d2, d3, d4), and (B, 1) when nothing is left."""
    t1, t2 = abstract_of(x1), abstract_of(x2)
    if t1.dtype != t2.dtype or not t1.dtype.is_float:
        raise DTypeError(f"batch_dot: expected two float Tensors of one dtype, got {t1.dtype} "
                         f"and {t2.dtype}")
    if t1.ndim < 2 or t2.ndim < 2:
        raise ShapeError(f"batch_dot: expected Tensors of rank >= 2, got shapes {t1.shape} and "
                         f"{t2.shape}")
    if t1.shape[0] != t2.shape[0]:
        raise ShapeError(f"batch_dot: the batch sizes differ: {t1.shape} and {t2.shape}")
    a1, a2 = _batch_dot_axes(axes, t1.ndim, t2.ndim)
    if t1.shape[a1] != t2.shape[a2]:
        raise ShapeError(f"batch_dot: axis {a1} of {t1.shape} and axis {a2} of {t2.shape} "
                         f"must have one size")
    free1 = [d for d in range(1, t1.ndim) if d != a1]
    free2 = [d for d in range(1, t2.ndim) if d != a2]
    batch, k = t1.shape[0], t1.shape[a1]
    left = F.reshape(F.transpose(x1, (0, *free1, a1)), (batch, -1, k))
    right = F.reshape(F.transpose(x2, (0, a2, *free2)), (batch, k, -1))
    out_shape = (batch, *(t1.shape[d] for d in free1), *(t2.shape[d] for d in free2))
    return F.reshape(F.matmul(left, right), out_shape if len(out_shape) > 1 else (batch, 1))


# ----- diagonals and blocks ----------------------------------------------------------------------

def _place(values, table: np.ndarray, out_shape: tuple):
    """values (..., L) onto out_shape through the 0/1 table (L, prod(out_shape)): each output
    cell takes the value its table column selects, zero where the column is empty."""
    lead = _shape(values)[:-1]
    dtype = abstract_of(values).dtype
    compute = dtype if dtype.is_inexact else dt.float64
    flat = F.matmul(F.cast(values, compute), _const(table, compute))
    return F.cast(F.reshape(flat, lead + tuple(out_shape)), dtype)


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diag_table(k: tuple, rows: int, cols: int, width: int, align: str) -> np.ndarray:
    """Where each cell of a (rows, cols) matrix reads from the (diagonals, width) input: the
    flat source index, or -1 for padding. Diagonal d is input row k[1] - d; a diagonal shorter
    than `width` sits at its row's right end when its side of `align` says RIGHT."""
    table = np.full((rows, cols), -1)
    for d in range(k[0], k[1] + 1):
        length = min(rows + min(0, d), cols - max(0, d))
        right = (d >= 0 and align.startswith("RIGHT")) or (d <= 0 and align.endswith("RIGHT"))
        shift = width - length if right else 0
        for i in range(max(length, 0)):
            m, n = i - min(d, 0), i + max(d, 0)
            table[m, n] = (k[1] - d) * width + i + shift
    return table


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices whose diagonals k[0]..k[1] hold x's rows (one diagonal: x's last axis), the rest
    `padding_value` (MindSpore's MatrixDiagV3)."""
    op = "matrix_diag"
    if align not in _ALIGNS:
        raise ArgumentValueError(f"{op}: `align` must be one of {_ALIGNS}, got {align!r}")
    ks = known(k, "k", op).reshape(-1).astype(int).tolist()
    if len(ks) not in (1, 2) or ks[0] > ks[-1]:
        raise ArgumentValueError(f"{op}: `k` must be an int or a pair (low, high) with low <= "
                                 f"high, got {ks}")
    low, high = ks[0], ks[-1]
    shape = _shape(x)
    width = shape[-1]
    if low != high and (len(shape) < 2 or shape[-2] != high - low + 1):
        raise ShapeError(f"{op}: for diagonals {low}..{high} x must have {high - low + 1} rows "
                         f"in its second-to-last axis, got shape {shape}")
    min_rows, min_cols = width - min(high, 0), width + max(low, 0)
    rows = int(known(num_rows, "num_rows", op))
    cols = int(known(num_cols, "num_cols", op))
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows, cols = (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)
    if rows < min_rows or cols < min_cols or (rows != min_rows and cols != min_cols):
        raise ShapeError(f"{op}: ({rows}, {cols}) matrices cannot hold diagonals {low}..{high} "
                         f"of length {width}: one side must be exactly ({min_rows}, "
                         f"{min_cols})'s")
    table = _diag_table((low, high), rows, cols, width, align)
    lead = shape[:-1] if low == high else shape[:-2]
    flat = F.reshape(x, lead + (-1,))
    source = np.zeros((abstract_of(flat).shape[-1], rows * cols))
    cells = np.flatnonzero(table.reshape(-1) >= 0)
    source[table.reshape(-1)[cells], cells] = 1
    placed = _place(flat, source, (rows, cols))
    pad = F.cast(padding_value, abstract_of(x).dtype) if hasattr(padding_value, "aval") \
        else padding_value
    return F.select(_const(table >= 0, dt.bool_), placed, F.zeros_like(placed) + pad)


# ----- primitive classes -------------------------------------------------------------------------

class _Class:
    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


class Cross(_Class):
    """`ops.Cross(dim)(x1, x2)`: the cross product along `dim` (the default: the first axis of
    size 3)."""

    def __init__(self, dim=-65530):
        self.dim = dim

    def __call__(self, x1, x2):
        return cross(x1, x2, None if self.dim == -65530 else self.dim)


class Rank(_Class):
    """`ops.Rank()(x)`: the number of axes, a Python int."""

    def __call__(self, input_x):
        return rank(input_x)
