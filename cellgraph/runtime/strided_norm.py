"""BatchNorm's kernels for the NumPy-like modules, joined into their override table by
runtime/strided_kernels.py: the same formulas as the shared kernels (runtime/kernels.py), with
the per-channel factors folded first and the elementwise work done in place, so a pass over x
is a pass over memory and no more temporaries are made than results are returned.

Over x as (N, C, L), channel sums are a matrix-vector product by ones, (N, C, L) @ (L,), and
per-channel dot products a batched matmul, (N, C, 1, L) @ (N, C, L, 1): each reads its operands
once and writes nothing of their size.
"""
from __future__ import annotations

import math
from collections.abc import Callable

TABLE: dict[str, Callable] = {}  # primitive name -> fn(module, *operands, **params)


def _kernel(name: str):
    def register(fn):
        TABLE[name] = fn
        return fn
    return register


def _channels(x):
    """x (N, C, ...) as (N, C, L)."""
    return x.reshape(x.shape[0], x.shape[1], math.prod(x.shape[2:]))  # -1 fails when N is 0


def _channel_dot(xp, a, b):
    """Per channel, the sum over N and L of a * b: (C,)."""
    n, c, length = a.shape
    return xp.matmul(a.reshape(n, c, 1, length), b.reshape(n, c, length, 1)).sum(axis=0)[:, 0, 0]


def _channel_sum(xp, a):
    """Per channel, the sum over N and L: (C,). In float32 and float64 a matrix-vector product
    by ones, (N, C, L) @ (L,), which BLAS does in one pass at memory speed: NumPy's sum over
    the outer and the inner axis at once takes about three times as long."""
    if a.dtype.name not in ("float32", "float64"):
        return a.sum(axis=(0, 2))
    return xp.matmul(a, xp.ones(a.shape[2], dtype=a.dtype)).sum(axis=0)


def _column(v):
    """A (C,) array as (1, C, 1), to broadcast over (N, C, L)."""
    return v.reshape(1, -1, 1)


@_kernel("batch_norm")
def batch_norm(xp, x, scale, bias, mean, variance, is_training, epsilon):
    """y = (x - mean) * (scale * rstd) + bias, two in-place passes over the centred copy."""
    x3 = _channels(x)
    count = float(x3.shape[0] * x3.shape[2])  # a float: NumPy 1 turns float16 / int into float32
    if is_training:
        mean = _channel_sum(xp, x3) / count
    else:  # the statistics outputs are new arrays, not the inputs themselves
        mean, variance = mean.copy(), variance.copy()
    y = x3 - _column(mean)
    if is_training:
        variance = _channel_dot(xp, y, y) / count
    factor = scale / xp.sqrt(variance + epsilon)
    y *= _column(factor)
    y += _column(bias)
    return (y.reshape(x.shape), mean.astype(x.dtype, copy=False),
            variance.astype(x.dtype, copy=False))


@_kernel("batch_norm_grad")
def batch_norm_grad(xp, x, dy, scale, mean, variance, epsilon):
    """With xc = x - mean and k = scale * rstd:
    dx = k * dy - k * rstd^2 * dscale_raw / count * xc - k * dbias / count,
    dscale = rstd * sum(dy * xc), dbias = sum(dy) per channel."""
    x3, dy3 = _channels(x), _channels(dy)
    count = float(x3.shape[0] * x3.shape[2])  # a float: NumPy 1 turns float16 / int into float32
    rstd = 1 / xp.sqrt(variance + epsilon)
    factor = scale * rstd
    centred = x3 - _column(mean)
    dbias = _channel_sum(xp, dy3)
    dscale = _channel_dot(xp, dy3, centred) * rstd
    centred *= _column(-factor * rstd * dscale / count)
    centred -= _column(factor * dbias / count)
    dx = dy3 * _column(factor)
    dx += centred
    return dx.reshape(x.shape), dscale.astype(x.dtype, copy=False), dbias.astype(x.dtype,
                                                                               copy=False)
