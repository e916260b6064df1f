"""Triangles, bands and diagonals: `tril`, `triu`, `matrix_band_part`, `diag`, `diagonal`,
`matrix_diag` (MatrixDiagV3's bands and alignments). Placing values on diagonals is a product
with a constant 0/1 table that depends only on shapes, so the result differentiates and
batches through matmul alone."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _shape, known
from cellgraph.ops.function.array_func.shape import movedim
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of, normalize_axis, running_eagerly
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.runtime.tensor import Tensor, diagonal_view

__all__ = ["diag", "diagonal", "matrix_band_part", "matrix_diag", "matrix_diag_part",
           "matrix_set_diag", "tril", "triu"]


def _band(x, keep: np.ndarray):
    """x where the static 2-D pattern `keep` (over the last two axes) holds, else zero."""
    return M.select(keep, x, A.zeros_like(x))


def _matrix_shape(x, op: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) < 2:
        raise ShapeError(f"{op}: expected a Tensor of rank >= 2, got shape {shape}")
    return shape[-2:]


def tril(input, diagonal=0):
    rows, cols = _matrix_shape(input, "tril")
    if hasattr(diagonal, "aval"):  # a diagonal known when the graph runs (a mutable number)
        return _band_from(input, -_offsets(rows, cols), M.neg(diagonal))
    return _band(input, np.tril(np.ones((rows, cols), bool), int(diagonal)))


def triu(input, diagonal=0):
    rows, cols = _matrix_shape(input, "triu")
    if hasattr(diagonal, "aval"):
        return _band_from(input, _offsets(rows, cols), diagonal)
    return _band(input, np.triu(np.ones((rows, cols), bool), int(diagonal)))


def _offsets(rows: int, cols: int) -> np.ndarray:
    """Each element's diagonal, column - row, over a (rows, cols) matrix."""
    i, j = np.indices((rows, cols))
    return (j - i).astype(np.int64)


def _band_from(x, offsets: np.ndarray, start):
    """x where `offsets` (rows, cols) >= `start`, a graph value, else zero."""
    keep = M.greater_equal(_const(offsets, dt.int64), F.cast(start, dt.int64))
    return M.select(F.broadcast_to(keep, abstract_of(x).shape), x, A.zeros_like(x))


def matrix_band_part(x, lower, upper):
    """Keep the band of `lower` sub- and `upper` super-diagonals (negative: all of them)."""
    rows, cols = _matrix_shape(x, "matrix_band_part")
    i, j = np.indices((rows, cols))
    if not (hasattr(lower, "aval") or hasattr(upper, "aval")):
        keep = ((int(lower) < 0) | (i - j <= int(lower))) & (
            (int(upper) < 0) | (j - i <= int(upper)))
        return _band(x, keep)
    # Tensor bounds: the band computed in the graph, so the bounds may be graph values
    keep = M.logical_and(_within(lower, i - j, "lower"), _within(upper, j - i, "upper"))
    keep = F.broadcast_to(keep, abstract_of(x).shape)
    return M.select(keep, x, A.zeros_like(x))


def _within(bound, offsets: np.ndarray, name: str):
    """Where `offsets` (rows, cols) are within `bound` (negative: everywhere); a Tensor
    `bound` is 0-d (vmap batches it)."""
    if not hasattr(bound, "aval"):
        return _const(((int(bound) < 0) | (offsets <= int(bound))), dt.bool_)
    if abstract_of(bound).ndim:
        raise ShapeError(f"For primitive[MatrixBandPart], the rank of '{name}' must be equal "
                         f"to 0, but got {abstract_of(bound).ndim}.")
    bound = F.cast(bound, dt.int64)
    table = _const(offsets.astype(np.int64), dt.int64)
    return M.logical_or(M.less(bound, 0), M.less_equal(table, bound))


def diag(input):
    """A 1-D Tensor as the diagonal of a square matrix (rank r -> rank 2r, as MindSpore)."""
    shape = abstract_of(input).shape
    eye = np.eye(int(np.prod(shape)), dtype=bool).reshape(shape + shape)
    expanded = F.reshape(input, shape + (1,) * len(shape))
    return M.select(eye, expanded, A.zeros_like(expanded))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal over axes dim1, dim2, moved to the last axis."""
    ndim = abstract_of(input).ndim
    dim1, dim2 = normalize_axis(dim1, ndim), normalize_axis(dim2, ndim)
    if dim1 == dim2:
        raise ArgumentValueError(f"diagonal: dim1 and dim2 must differ, got {dim1} and {dim2}")
    moved = movedim(input, (dim1, dim2), (-2, -1))
    rows, cols = abstract_of(moved).shape[-2:]
    start_row, start_col = max(-int(offset), 0), max(int(offset), 0)
    length = max(min(rows - start_row, cols - start_col), 0)
    steps = np.arange(length)
    out = moved[..., steps + start_row, steps + start_col]
    if running_eagerly() and isinstance(input, Tensor):  # MindSpore's view, outside graphs
        return diagonal_view(input, out, int(offset), dim1, dim2)
    return out


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


def _diag_range(k, op: str) -> tuple:
    ks = known(k, "k", op).reshape(-1).astype(int).tolist()
    if len(ks) not in (1, 2) or ks[0] > ks[-1]:
        raise ArgumentValueError(f"{op}: `k` must be an int or a pair (low, high) with low <= "
                                 f"high, got {ks}")
    return ks[0], ks[-1]


def _check_align(align, op: str) -> None:
    if align not in _ALIGNS:
        raise ArgumentValueError(f"{op}: `align` must be one of {_ALIGNS}, got {align!r}")


def _band_table(x, k, align, op: str):
    """The (rows, cols) table of `_diag_table` for x's matrices and diagonals k, with the
    diagonals' width (the longest one's length) and their range."""
    rows, cols = _matrix_shape(x, op)
    low, high = _diag_range(k, op)
    if not (-rows < low <= high < cols) and not (rows == 0 or cols == 0):
        raise ArgumentValueError(f"{op}: diagonals {low}..{high} are outside ({rows}, {cols}) "
                                 f"matrices")
    width = max(min(rows + min(0, d), cols - max(0, d)) for d in range(low, high + 1))
    return _diag_table((low, high), rows, cols, width, align), width, (low, high)


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """Diagonals k[0]..k[1] of x's matrices, from the highest down, each padded to the longest
    one's length with `padding_value` on the side `align` gives it (MatrixDiagPartV3)."""
    op = "matrix_diag_part"
    _check_align(align, op)
    table, width, (low, high) = _band_table(x, k, align, op)
    n_diags = high - low + 1
    source = np.zeros(n_diags * width, np.int64)
    filled = np.zeros(n_diags * width, bool)
    cells = np.flatnonzero(table.reshape(-1) >= 0)
    source[table.reshape(-1)[cells]] = cells
    filled[table.reshape(-1)[cells]] = True
    shape = _shape(x)
    flat = F.reshape(x, shape[:-2] + (-1,))
    read = F.gather(flat, _const(source, dt.int64), -1)
    pad = F.cast(padding_value, abstract_of(x).dtype) if hasattr(padding_value, "aval") \
        else padding_value
    out = F.select(_const(filled, dt.bool_), read, F.zeros_like(read) + pad)
    return F.reshape(out, shape[:-2] + ((width,) if low == high else (n_diags, width)))


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """x with its diagonals k[0]..k[1] replaced by `diagonal`'s rows (laid out as
    matrix_diag_part gives them) (MatrixSetDiagV3)."""
    op = "matrix_set_diag"
    _check_align(align, op)
    table, width, (low, high) = _band_table(x, k, align, op)
    rows, cols = _matrix_shape(x, op)
    shape, dshape = _shape(x), _shape(diagonal)
    want = shape[:-2] + ((width,) if low == high else (high - low + 1, width))
    if dshape != want:
        raise ShapeError(f"{op}: for diagonals {low}..{high} of {shape} matrices `diagonal` "
                         f"must have shape {want}, got {dshape}")
    flat = F.reshape(diagonal, shape[:-2] + (-1,))
    source = np.zeros((abstract_of(flat).shape[-1], rows * cols))
    cells = np.flatnonzero(table.reshape(-1) >= 0)
    source[table.reshape(-1)[cells], cells] = 1
    placed = _place(flat, source, (rows, cols))
    return F.select(_const(table >= 0, dt.bool_), placed, x)


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices whose diagonals k[0]..k[1] hold x's rows (one diagonal: x's last axis), the rest
    `padding_value` (MindSpore's MatrixDiagV3)."""
    op = "matrix_diag"
    _check_align(align, op)
    low, high = _diag_range(k, op)
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
