"""Max pooling that also says where each maximum came from: `MaxPoolWithIndices` (the flat
index into the input's H*W plane, as MaxPoolWithArgmaxV2) and `MaxPoolWithMask` (a 0/1 mask
over each window's kh*kw positions).

Both gather every window of the padded input into a trailing axis of kh*kw values (index tables
NumPy computes when the graph is built, so strides, dilation and ceil_mode are only different
tables), then take the max and argmax over it. The gradient is gather's and reduce_max's.
"""
from __future__ import annotations

import math

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import _pair, argmax, one_hot, pad_pairs

from . import functional as F

__all__ = ["MaxPoolWithIndices", "MaxPoolWithMask", "max_pool_with_indices"]


def _out_size(size: int, kernel: int, stride: int, pad: int, dilation: int, ceil: bool) -> int:
    span = size + 2 * pad - dilation * (kernel - 1) - 1
    out = (math.ceil if ceil else math.floor)(span / stride) + 1
    if ceil and (out - 1) * stride >= size + pad:  # the last window would start in the padding
        out -= 1
    return out


def _window_tables(size_hw, kernel, stride, pads, dilation, ceil):
    """(padded (H, W), padded flat positions (Ho, Wo, K), input flat positions (Ho, Wo, K))."""
    outs = [_out_size(*args, ceil) for args in zip(size_hw, kernel, stride, pads, dilation)]
    padded = [max(s + 2 * p, (o - 1) * st + d * (k - 1) + 1)
              for s, p, o, st, d, k in zip(size_hw, pads, outs, stride, dilation, kernel)]
    rows = (np.arange(outs[0])[:, None] * stride[0] + np.arange(kernel[0])[None] * dilation[0])
    cols = (np.arange(outs[1])[:, None] * stride[1] + np.arange(kernel[1])[None] * dilation[1])
    # (Ho, Wo, kh, kw) -> (Ho, Wo, K), K running over the window row by row.
    r = rows[:, None, :, None]
    c = cols[None, :, None, :]
    shape = (outs[0], outs[1], kernel[0] * kernel[1])
    padded_flat = np.broadcast_to(r * padded[1] + c, shape[:2] + tuple(kernel)).reshape(shape)
    input_flat = np.broadcast_to((r - pads[0]) * size_hw[1] + (c - pads[1]),
                                 shape[:2] + tuple(kernel)).reshape(shape)
    return padded, padded_flat, input_flat


def _lowest(dtype):
    return -np.inf if dtype.is_float else np.iinfo(dtype.np).min


def _windows(op, x, kernel_size, strides, pads, dilation, ceil_mode):
    """(windows (N, C, Ho, Wo, K), input flat positions (Ho, Wo, K))."""
    xt = abstract_of(x)
    if xt.ndim != 4 or None in xt.shape[2:]:
        raise ShapeError(f"{op}: expected x of shape (N, C, H, W) with known H and W, got "
                         f"{xt.shape}")
    kernel = _pair(kernel_size, op, "kernel_size")
    stride = kernel if strides is None else _pair(strides, op, "strides")
    pad = _pair_nonneg(pads, op)
    dil = _pair(dilation, op, "dilation")
    if any(2 * p > k for p, k in zip(pad, kernel)):
        raise ArgumentValueError(f"{op}: `pads` {pad} must be at most half of kernel_size "
                                 f"{kernel}")
    (hp, wp), padded_flat, input_flat = _window_tables(xt.shape[2:], kernel, stride, pad, dil,
                                                       ceil_mode)
    h, w = xt.shape[2:]
    x = pad_pairs(x, ((0, 0), (0, 0), (pad[0], hp - h - pad[0]), (pad[1], wp - w - pad[1])),
                  _lowest(xt.dtype))
    n, c = xt.shape[:2]
    flat = F.reshape(x, (n, c, hp * wp))
    windows = A.gather(flat, padded_flat.reshape(-1).astype(np.int64), axis=2)
    return F.reshape(windows, (n, c) + padded_flat.shape), input_flat


def _pair_nonneg(value, op):
    items = value if isinstance(value, (tuple, list)) else (value, value)
    if len(items) != 2 or any(not isinstance(v, int) or isinstance(v, bool) or v < 0
                              for v in items):
        raise ArgumentValueError(f"{op}: `pads` must be a non-negative int or a pair of them, "
                                 f"got {value!r}")
    return tuple(items)


def max_pool_with_indices(x, kernel_size, strides=None, pads=0, dilation=(1, 1),
                          ceil_mode=False, argmax_type=dt.int64):
    """(max over each window, the flat H*W index of the maximum in the input plane)."""
    argmax_type = dt.as_dtype(argmax_type)
    if argmax_type not in (dt.int32, dt.int64):
        raise DTypeError(f"MaxPoolWithIndices: `argmax_type` must be int32 or int64, got "
                         f"{argmax_type}")
    windows, input_flat = _windows("MaxPoolWithIndices", x, kernel_size, strides, pads,
                                   dilation, ceil_mode)
    position = argmax(windows, -1)
    chosen = one_hot(position, input_flat.shape[-1], 1, 0)
    index = F.reduce_sum(F.mul(chosen, A.cast(input_flat, dtype=dt.int64)), -1)
    return F.reduce_max(windows, -1), F.cast(index, argmax_type)


class _MaxPoolClass:
    OP = ""

    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=dt.int64):
        if not isinstance(ceil_mode, bool):
            raise DTypeError(f"{self.OP}: `ceil_mode` must be a bool, got {ceil_mode!r}")
        self.kernel_size, self.strides, self.pads = kernel_size, strides, pads
        self.dilation, self.ceil_mode, self.argmax_type = dilation, ceil_mode, argmax_type

    def __repr__(self) -> str:
        return (f"{self.OP}(kernel_size={self.kernel_size}, strides={self.strides}, "
                f"pads={self.pads}, dilation={self.dilation}, ceil_mode={self.ceil_mode})")


class MaxPoolWithIndices(_MaxPoolClass):
    """`MaxPoolWithIndices(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
    argmax_type=int64)(x)` -> (output, argmax): argmax is the flat index of each maximum in its
    input plane of H*W values (padding never wins)."""

    OP = "MaxPoolWithIndices"

    def __call__(self, x):
        return max_pool_with_indices(x, self.kernel_size, self.strides, self.pads,
                                     self.dilation, self.ceil_mode, self.argmax_type)


class MaxPoolWithMask(_MaxPoolClass):
    """`MaxPoolWithMask(...)(x)` -> (output, mask): mask of shape (N, C, kh*kw, Ho*Wo), uint8,
    1 at the window position (row by row) that held each output's maximum."""

    OP = "MaxPoolWithMask"

    def __call__(self, x):
        windows, _ = _windows(self.OP, x, self.kernel_size, self.strides, self.pads,
                                       self.dilation, self.ceil_mode)
        n, c, ho, wo, k = abstract_of(windows).shape
        chosen = one_hot(argmax(windows, -1), k, 1, 0)  # (N, C, Ho, Wo, K)
        mask = F.transpose(F.reshape(chosen, (n, c, ho * wo, k)), (0, 1, 3, 2))
        return F.reduce_max(windows, -1), F.cast(mask, dt.uint8)
