"""Kernels that write into arrays, for the NumPy-like modules (NumPy, and CuPy on the GPU):
the override table of the `numpy` and `cupy` backends, over the module itself (`numpy` or
`cupy`, which both have `lib.stride_tricks`, in-place slice assignment and `add.at`).

Convolution is im2col + matmul: `as_strided` gives every (kh, kw) window of the padded input as
a view, one copy lays the windows out as rows, and one (batched over groups) matmul does the
rest. The input gradient is col2im: kh * kw strided slice additions. Pooling gradients scatter
to (and gather from) each window's first maximum, so ties resolve alike on every backend.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from cellgraph.ops.core import to_numpy_index

from .kernels import registrar

TABLE: dict[str, Callable] = {}  # primitive name -> fn(module, *operands, **params)
kernel = registrar(TABLE)


def bind_overrides(module) -> dict[str, Callable]:
    """This table's kernels on `module` (`numpy` or `cupy`)."""
    return {name: functools.partial(fn, module) for name, fn in TABLE.items()}


def scatter_add(xp, target, index, values) -> None:
    """`target[index] += values`, repeated indices accumulating: `ufunc.at` (CuPy has it since
    v13), else `cupyx.scatter_add`."""
    try:
        xp.add.at(target, index, values)
    except (AttributeError, NotImplementedError):
        import cupyx

        cupyx.scatter_add(target, index, values)


@kernel("getitem_grad")
def _getitem_grad(xp, g, index, shape):
    out = xp.zeros(shape, dtype=g.dtype)
    out[to_numpy_index(index)] = g
    return out


@kernel("gather_grad")
def _gather_grad(xp, g, indices, axis, shape):
    indices = xp.asarray(indices)
    out = xp.zeros(shape, dtype=g.dtype)
    rows = xp.moveaxis(g, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim)))
    moved = xp.moveaxis(out, axis, 0)  # a view: adding into it adds into `out`
    scatter_add(xp, moved, indices.reshape(-1), rows.reshape((indices.size,) + moved.shape[1:]))
    return out


# ----- convolution -----------------------------------------------------------------------------

def _pad_nchw(xp, x, pad, value=0.0):
    top, bottom, left, right = pad
    if not any(pad):
        return x
    return xp.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _out_hw(hw, kernel_hw, stride, pad, dilation=(1, 1)) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel_hw[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _windows(xp, x, kernel_hw, stride, dilation, out_hw):
    """A (N, C, Ho, Wo, kh, kw) view of the windows of padded `x` (no copy)."""
    s = x.strides
    shape = tuple(x.shape[:2]) + tuple(out_hw) + tuple(kernel_hw)
    strides = (s[0], s[1], s[2] * stride[0], s[3] * stride[1], s[2] * dilation[0],
               s[3] * dilation[1])
    return xp.lib.stride_tricks.as_strided(x, shape, strides)


def _col2im(xp, cols, padded_shape, kernel_hw, stride, dilation):
    """Sum (N, C, Ho, Wo, kh, kw) window values back into a zero (N, C, Hp, Wp) array."""
    out = xp.zeros(padded_shape, dtype=cols.dtype)
    ho, wo = cols.shape[2:4]
    for i in range(kernel_hw[0]):
        r0 = i * dilation[0]
        rows = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
        for j in range(kernel_hw[1]):
            c0 = j * dilation[1]
            out[:, :, rows, c0:c0 + stride[1] * (wo - 1) + 1:stride[1]] += cols[..., i, j]
    return out


def _crop(x, pad, hw):
    return x[:, :, pad[0]:pad[0] + hw[0], pad[2]:pad[2] + hw[1]]


def _padded_shape(x_shape, pad) -> tuple:
    return tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])


def _im2col(xp, x, kh, kw, stride, pad, dilation, group):
    """Rows of window values: (group, N*Ho*Wo, C/group*kh*kw), plus (N, Ho, Wo)."""
    n, c = x.shape[:2]
    ho, wo = _out_hw(x.shape[2:], (kh, kw), stride, pad, dilation)
    win = _windows(xp, _pad_nchw(xp, x, pad), (kh, kw), stride, dilation, (ho, wo))
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, group, (c // group) * kh * kw)
    return cols.transpose(1, 0, 2), (n, ho, wo)


@kernel("conv2d")
def _conv2d(xp, x, w, stride, pad, dilation, group):
    o, cg, kh, kw = w.shape
    cols, (n, ho, wo) = _im2col(xp, x, kh, kw, stride, pad, dilation, group)
    wmat = w.reshape(group, o // group, cg * kh * kw).transpose(0, 2, 1)
    out = xp.matmul(cols, wmat)  # (group, N*Ho*Wo, O/group)
    return out.transpose(1, 0, 2).reshape(n, ho, wo, o).transpose(0, 3, 1, 2)


@kernel("conv2d_backprop_input")
def _conv2d_backprop_input(xp, dout, w, x_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w.shape
    n, _, ho, wo = dout.shape
    dmat = dout.transpose(0, 2, 3, 1).reshape(n * ho * wo, group, o // group).transpose(1, 0, 2)
    dcols = xp.matmul(dmat, w.reshape(group, o // group, cg * kh * kw))
    dcols = dcols.transpose(1, 0, 2).reshape(n, ho, wo, group * cg, kh, kw)
    dxp = _col2im(xp, dcols.transpose(0, 3, 1, 2, 4, 5), _padded_shape(x_shape, pad), (kh, kw),
                  stride, dilation)
    return _crop(dxp, pad, x_shape[2:])


@kernel("conv2d_backprop_filter")
def _conv2d_backprop_filter(xp, x, dout, w_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w_shape
    cols, (n, ho, wo) = _im2col(xp, x, kh, kw, stride, pad, dilation, group)
    dmat = dout.transpose(1, 0, 2, 3).reshape(group, o // group, n * ho * wo)
    return xp.matmul(dmat, cols).reshape(o, cg, kh, kw)


# ----- max pooling -----------------------------------------------------------------------------

def _argmax_positions(xp, x, kernel_hw, stride, pad):
    """Flat indices into the -inf-padded input of each window's (first) maximum."""
    n, c, h, w = x.shape
    ho, wo = _out_hw((h, w), kernel_hw, stride, pad)
    xpad = _pad_nchw(xp, x, pad, -math.inf)
    hp, wp = xpad.shape[2:]
    win = _windows(xp, xpad, kernel_hw, stride, (1, 1), (ho, wo)).reshape(n, c, ho, wo, -1)
    arg = xp.argmax(win, axis=-1)
    rows = xp.arange(ho)[:, None] * stride[0] + arg // kernel_hw[1]
    cols = xp.arange(wo)[None, :] * stride[1] + arg % kernel_hw[1]
    planes = xp.arange(n * c).reshape(n, c, 1, 1) * (hp * wp)
    return planes + rows * wp + cols, (n, c, hp, wp)


@kernel("max_pool2d")
def _max_pool2d(xp, x, kernel, stride, pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    win = _windows(xp, _pad_nchw(xp, x, pad, -math.inf), kernel, stride, (1, 1), (ho, wo))
    return win.max(axis=(-2, -1))


@kernel("max_pool2d_grad")
def _max_pool2d_grad(xp, x, g, kernel, stride, pad):
    """Scatter each output gradient to its window's argmax (summing where windows overlap)."""
    flat, padded_shape = _argmax_positions(xp, x, kernel, stride, pad)
    dxp = xp.zeros(int(np.prod(padded_shape)), dtype=x.dtype)
    scatter_add(xp, dxp, flat.ravel(), g.ravel())
    return _crop(dxp.reshape(padded_shape), pad, x.shape[2:])


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(xp, x, g, kernel, stride, pad):
    """Gather an input-shaped array at each window's argmax: the transpose of the above."""
    flat, _ = _argmax_positions(xp, x, kernel, stride, pad)
    return _pad_nchw(xp, g, pad).ravel()[flat]


# ----- average pooling -------------------------------------------------------------------------

def _window_counts(xp, hw, kernel_hw, stride, pad, count_include_pad, dtype):
    """How many elements each window divides by: (Ho, Wo)."""
    ho, wo = _out_hw(hw, kernel_hw, stride, pad)
    if count_include_pad:
        return xp.full((ho, wo), kernel_hw[0] * kernel_hw[1], dtype=dtype)
    ones = _pad_nchw(xp, xp.ones((1, 1) + tuple(hw), dtype=dtype), pad)
    return _windows(xp, ones, kernel_hw, stride, (1, 1), (ho, wo)).sum(axis=(-2, -1))[0, 0]


@kernel("avg_pool2d")
def _avg_pool2d(xp, x, kernel, stride, pad, count_include_pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(xp, _pad_nchw(xp, x, pad), kernel, stride, (1, 1), (ho, wo)).sum(
        axis=(-2, -1))
    counts = _window_counts(xp, x.shape[2:], kernel, stride, pad, count_include_pad, x.dtype)
    return (sums / counts).astype(x.dtype, copy=False)


@kernel("avg_pool2d_grad")
def _avg_pool2d_grad(xp, g, x_shape, kernel, stride, pad, count_include_pad):
    share = g / _window_counts(xp, x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype)
    cols = xp.broadcast_to(share[..., None, None], share.shape + tuple(kernel))
    dxp = _col2im(xp, cols, _padded_shape(x_shape, pad), kernel, stride, (1, 1))
    return _crop(dxp, pad, x_shape[2:])
