"""Normalisations as compositions: `rms_norm`, and the p-norm behind `ops.LpNorm`."""
from __future__ import annotations

import numbers

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import pad_pairs

__all__ = ["lrn", "rms_norm"]


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


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """`ops.lrn`: local response normalisation across channels of an NCHW x,
    x / (bias + alpha * sum of x ** 2 over the channels c - depth_radius .. c + depth_radius)
    ** beta (MindSpore's LRN)."""
    if isinstance(depth_radius, bool) or not isinstance(depth_radius, int) or depth_radius < 0:
        raise ArgumentValueError(f"For 'LRN', the 'depth_radius' must be int and must >= 0, but "
                                 f"got '{depth_radius}' with type '{type(depth_radius).__name__}'.")
    if norm_region != "ACROSS_CHANNELS":
        raise ArgumentValueError(f"For 'LRN', the 'norm_region' must be str and must be in "
                                 f"'['ACROSS_CHANNELS']', but got '{norm_region}'.")
    shape = abstract_of(x).shape
    if len(shape) != 4:
        raise ShapeError(f"For primitive[LRN], the rank of input  must be equal to 4 , but got "
                         f"{len(shape)}.")
    channels = shape[1]
    squares = F.square(x)
    window = None  # the sum of the squares of the channels within depth_radius of each
    for shift in range(-depth_radius, depth_radius + 1):
        lo, hi = max(0, shift), min(channels, channels + shift)
        if lo >= hi:
            continue
        part = F.getitem(squares, (slice(None), slice(lo, hi)))
        part = pad_pairs(part, ((0, 0), (lo - shift, channels + shift - hi), (0, 0), (0, 0)), 0)
        window = part if window is None else F.add(window, part)
    return F.div(x, F.pow(F.add(F.mul(window, alpha), bias), beta))
