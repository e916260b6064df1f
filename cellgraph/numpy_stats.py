"""`mindspore.numpy`'s correlation, interpolation, search, uniqueness and random integers,
over the functional ops (`cellgraph.numpy` re-exports them)."""
from __future__ import annotations

import numbers

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.ops.errors import ArgumentValueError, ShapeError

from .numpy import _dtype, asarray, int32

__all__ = ["corrcoef", "interp", "randint", "searchsorted", "unique"]


def _float(x):
    x = asarray(x)
    return x if x.dtype.is_float else F.cast(x, P.dtype.float32)


def _covariance(x, y=None, rowvar=True):
    """The (variables, variables) covariance of the rows (or columns) as observations, ddof 1."""
    x = _float(x)
    rows = F.reshape(x, (1, -1)) if x.ndim == 1 else (x if rowvar else x.T)
    if y is not None:
        y = _float(y)
        rows = F.concat([rows, F.reshape(y, (1, -1)) if y.ndim == 1 else (y if rowvar else y.T)],
                        0)
    count = rows.shape[1]
    centred = rows - F.reduce_mean(rows, 1, True)
    return F.matmul(centred, centred.T) / (count - 1)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Pearson correlation coefficients of the variables (rows, or columns with rowvar=False),
    clipped to [-1, 1]; a single variable gives a 0-d result, as NumPy."""
    cov = _covariance(x, y, rowvar)
    if dtype is not None:
        cov = F.cast(cov, _dtype(dtype, "corrcoef"))
    scale = F.sqrt(P.diagonal(cov, 0, 0, 1))
    out = cov / F.expand_dims(scale, 1) / F.expand_dims(scale, 0)
    out = P.clip_by_value(out, -1.0, 1.0)
    return F.reshape(out, ()) if out.shape == (1, 1) else out


def interp(x, xp, fp, left=None, right=None):
    """The piecewise-linear interpolant through (xp, fp) at x (xp increasing); `left`/`right`
    (default fp[0], fp[-1]) outside [xp[0], xp[-1]]."""
    x, xp, fp = _float(x), _float(xp), _float(fp)
    if xp.ndim != 1 or fp.shape != xp.shape or xp.shape[0] < 1:
        raise ShapeError(f"interp: expected 1-D xp and fp of one non-zero length, got "
                         f"{xp.shape} and {fp.shape}")
    n = xp.shape[0]
    if n == 1:
        base = F.zeros_like(x) + fp[0]
        low, high = base, base
    else:
        start = P.searchsorted(xp, x, right=True) - 1
        start = F.minimum(F.maximum(start, 0), n - 2)
        x0, x1 = P.gather(xp, start, 0), P.gather(xp, start + 1, 0)
        y0, y1 = P.gather(fp, start, 0), P.gather(fp, start + 1, 0)
        base = y0 + (x - x0) * (y1 - y0) / (x1 - x0)
        low, high = F.zeros_like(x) + fp[0], F.zeros_like(x) + fp[-1]
    low = low if left is None else F.zeros_like(x) + left
    high = high if right is None else F.zeros_like(x) + right
    return F.select(x < xp[0], low, F.select(x > xp[-1], high, base))


def randint(minval, maxval=None, shape=None, dtype=int32):
    """Random ints in [minval, maxval) ([0, minval) with one bound) of `shape`."""
    if maxval is None:
        minval, maxval = 0, minval
    for name, value in (("minval", minval), ("maxval", maxval)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise ArgumentValueError(f"randint: `{name}` must be an int, got {value!r}")
    shape = () if shape is None else ((shape,) if isinstance(shape, int) else tuple(shape))
    return P.randint(minval, maxval, shape, dtype=_dtype(dtype, "randint"))


def searchsorted(a, v, side="left", sorter=None):
    """Where v's elements would go in the sorted 1-D `a` to keep it sorted (int32)."""
    if side not in ("left", "right"):
        raise ArgumentValueError(f"searchsorted: `side` must be 'left' or 'right', got {side!r}")
    a = asarray(a)
    if a.ndim != 1:
        raise ShapeError(f"searchsorted: expected a 1-D array, got shape {a.shape}")
    if sorter is not None:
        a = P.gather(a, asarray(sorter), 0)
    return P.searchsorted(a, asarray(v), out_int32=True, right=side == "right")


def unique(x, return_inverse=False):
    """The sorted distinct elements of the flattened x; with return_inverse, where each element
    of x is among them (x's shape)."""
    values, inverse = P.unique(asarray(x))
    return (values, inverse) if return_inverse else values
