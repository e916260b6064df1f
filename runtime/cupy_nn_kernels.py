"""Array-module kernels for convolution, pooling, normalisation and the other nn primitives
(NCHW), in the CuPy backend's table: the NumPy kernels' algorithms over `xp`.

Convolution is im2col + matmul: `as_strided` gives every (kh, kw) window of the padded input as
a view (the module-generic spelling of NumPy's `sliding_window_view`), one copy lays the windows
out as rows, and one (batched over groups) matmul does the rest. The input gradient is col2im:
kh * kw strided slice additions.
"""
from __future__ import annotations

import math

import numpy as np

from .cupy_kernels import TABLE, array, floating, kernel, promote_arrays, scatter_add


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
    x, w = promote_arrays(xp, x, w)
    o, cg, kh, kw = w.shape
    cols, (n, ho, wo) = _im2col(xp, x, kh, kw, stride, pad, dilation, group)
    wmat = w.reshape(group, o // group, cg * kh * kw).transpose(0, 2, 1)
    out = xp.matmul(cols, wmat)  # (group, N*Ho*Wo, O/group)
    return out.transpose(1, 0, 2).reshape(n, ho, wo, o).transpose(0, 3, 1, 2)


@kernel("conv2d_backprop_input")
def _conv2d_backprop_input(xp, dout, w, x_shape, stride, pad, dilation, group):
    dout, w = promote_arrays(xp, dout, w)
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
    x, dout = promote_arrays(xp, x, dout)
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
    x = array(x, xp)
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    win = _windows(xp, _pad_nchw(xp, x, pad, -math.inf), kernel, stride, (1, 1), (ho, wo))
    return win.max(axis=(-2, -1))


@kernel("max_pool2d_grad")
def _max_pool2d_grad(xp, x, g, kernel, stride, pad):
    """Scatter each output gradient to its window's argmax (summing where windows overlap)."""
    x = array(x, xp)
    flat, padded_shape = _argmax_positions(xp, x, kernel, stride, pad)
    dxp = xp.zeros(int(np.prod(padded_shape)), dtype=x.dtype)
    scatter_add(xp, dxp, flat.ravel(), array(g, xp).astype(x.dtype, copy=False).ravel())
    return _crop(dxp.reshape(padded_shape), pad, x.shape[2:])


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(xp, x, g, kernel, stride, pad):
    """Gather an input-shaped array at each window's argmax: the transpose of the above."""
    flat, _ = _argmax_positions(xp, array(x, xp), kernel, stride, pad)
    return _pad_nchw(xp, array(g, xp), pad).ravel()[flat]


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
    x = array(x, xp)
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(xp, _pad_nchw(xp, x, pad), kernel, stride, (1, 1), (ho, wo)).sum(
        axis=(-2, -1))
    counts = _window_counts(xp, x.shape[2:], kernel, stride, pad, count_include_pad, x.dtype)
    return (sums / counts).astype(x.dtype, copy=False)


@kernel("avg_pool2d_grad")
def _avg_pool2d_grad(xp, g, x_shape, kernel, stride, pad, count_include_pad):
    g = array(g, xp)
    share = g / _window_counts(xp, x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype)
    cols = xp.broadcast_to(share[..., None, None], share.shape + tuple(kernel))
    dxp = _col2im(xp, cols, _padded_shape(x_shape, pad), kernel, stride, (1, 1))
    return _crop(dxp, pad, x_shape[2:])


# ----- special functions -----------------------------------------------------------------------

def _erf_function(xp):
    """erf for `xp`: cupyx.scipy.special on CuPy; scipy (or the math module) on NumPy."""
    if xp is not np:
        import cupyx.scipy.special

        return cupyx.scipy.special.erf
    try:
        from scipy.special import erf
    except ImportError:  # scipy is optional
        erf = np.vectorize(math.erf, otypes=[np.float64])
    return erf


def _erf(xp, x):
    x = floating(x, xp)
    return xp.asarray(_erf_function(xp)(x), dtype=x.dtype)


TABLE["erf"] = _erf
TABLE["log1p"] = lambda xp, x: xp.log1p(floating(x, xp))
TABLE["expm1"] = lambda xp, x: xp.expm1(floating(x, xp))


@kernel("gelu")
def _gelu(xp, x):
    x = floating(x, xp)
    return (0.5 * x * (1 + _erf(xp, x * x.dtype.type(math.sqrt(0.5))))).astype(x.dtype,
                                                                            copy=False)


@kernel("softplus")
def _softplus(xp, x):
    x = floating(x, xp)
    return xp.logaddexp(xp.zeros((), x.dtype), x)


@kernel("clip_by_value")
def _clip_by_value(xp, x, lo, hi):
    return TABLE["minimum"](xp, TABLE["maximum"](xp, x, lo), hi)


@kernel("cumsum")
def _cumsum(xp, x, axis, exclusive, reverse):
    x = array(x, xp)
    if reverse:
        x = xp.flip(x, axis)
    out = xp.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        head = (slice(None),) * (axis % out.ndim)
        out = xp.concatenate([xp.zeros_like(out[head + (slice(0, 1),)]),
                              out[head + (slice(0, out.shape[axis] - 1),)]], axis=axis)
    return xp.flip(out, axis) if reverse else out


@kernel("dropout")
def _dropout(xp, x, mask, keep_prob):
    x = array(x, xp)
    return (x * array(mask, xp).astype(x.dtype) * x.dtype.type(1 / keep_prob)).astype(
        x.dtype, copy=False)


# ----- normalisation ---------------------------------------------------------------------------

def _normalise(xp, x, mean, var, epsilon):
    return (x - mean) / xp.sqrt(var + x.dtype.type(epsilon))


@kernel("layer_norm")
def _layer_norm(xp, x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    x, gamma, beta = (array(a, xp) for a in (x, gamma, beta))
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = xp.square(x - mean).mean(axis=axes, keepdims=True)
    return _normalise(xp, x, mean, var, epsilon) * gamma + beta, mean, var


@kernel("batch_norm")
def _batch_norm(xp, x, scale, bias, mean, variance, is_training, epsilon):
    x, scale, bias, mean, variance = (array(a, xp) for a in (x, scale, bias, mean, variance))
    axes = (0,) + tuple(range(2, x.ndim))
    per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if is_training:
        mean = x.mean(axis=axes)
        variance = xp.square(x - mean.reshape(per_channel)).mean(axis=axes)
    y = _normalise(xp, x, mean.reshape(per_channel), variance.reshape(per_channel), epsilon)
    return (y * scale.reshape(per_channel) + bias.reshape(per_channel), mean.copy(),
            variance.copy())


# ----- shape operations ------------------------------------------------------------------------

@kernel("bias_add")
def _bias_add(xp, x, b, axis=1):
    x = array(x, xp)
    return x + array(b, xp).astype(x.dtype, copy=False).reshape(
        (-1,) + (1,) * (x.ndim - 1 - axis % x.ndim))


@kernel("one_hot")
def _one_hot(xp, indices, on_value, off_value, depth, axis=-1):
    indices = array(indices, xp)
    axis = axis % (indices.ndim + 1)
    hot = xp.expand_dims(indices, axis) == xp.arange(depth).reshape(
        (-1,) + (1,) * (indices.ndim - axis))
    return TABLE["select"](xp, hot, on_value, off_value)


@kernel("argmax")
def _argmax(xp, x, axis, keep_dims=False, dtype=None):
    out = xp.argmax(array(x, xp), axis=axis, keepdims=keep_dims)
    return out.astype(np.int32 if dtype is None else dtype.np)


TABLE["tile"] = lambda xp, x, multiples: xp.tile(array(x, xp), multiples)


@kernel("split")
def _split(xp, x, axis, sizes):
    return tuple(xp.split(array(x, xp), [int(s) for s in np.cumsum(sizes)[:-1]], axis=axis))


@kernel("pad")
def _pad(xp, x, paddings, value=0):
    return xp.pad(array(x, xp), paddings, constant_values=value)
