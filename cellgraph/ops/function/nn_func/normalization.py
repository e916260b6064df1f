"""Normalisations as compositions: `rms_norm`, and the p-norm behind `ops.LpNorm`."""
from __future__ import annotations

import numbers

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError, ShapeError

__all__ = ["rms_norm"]


def _lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """(sum |x|^p)^(1/p) over `axis`; a zero norm comes out as `epsilon`, as MindSpore's."""
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    x = M.abs_(input)
    if p == 1:
        out = F.reduce_sum(x, axes, keep_dims)
    else:
        out = M.pow_(F.reduce_sum(M.pow_(x, p), axes, keep_dims), 1.0 / p)
    return M.maximum(out, epsilon)


def _rms_norm(x, gamma, epsilon=1e-6):
    """(y, rstd): x / sqrt(mean(x^2) + epsilon) * gamma over gamma's trailing axes, and the
    reciprocal root kept for the backward pass (those axes kept as 1)."""
    x_shape, g_shape = abstract_of(x).shape, abstract_of(gamma).shape
    rank = len(g_shape)
    if rank == 0 or rank > len(x_shape) or tuple(x_shape[-rank:]) != tuple(g_shape):
        raise ShapeError(f"RmsNorm: gamma of shape {g_shape} must match the trailing axes of "
                         f"x of shape {x_shape}")
    if not abstract_of(x).dtype.is_float:
        raise DTypeError(f"RmsNorm: expected a float x, got {abstract_of(x).dtype}")
    axes = tuple(range(len(x_shape) - rank, len(x_shape)))
    wide = dt.float64 if abstract_of(x).dtype == dt.float64 else dt.float32  # low precision
    xw = F.cast(x, wide)                                                     # accumulates wide
    rstd = M.rsqrt(F.reduce_mean(xw * xw, axes, True) + epsilon)
    y = F.cast(xw * rstd, abstract_of(x).dtype) * gamma
    return y, rstd


def rms_norm(x, gamma, epsilon=1e-6):
    """The normalised x of RmsNorm (its first result)."""
    return _rms_norm(x, gamma, epsilon)[0]
