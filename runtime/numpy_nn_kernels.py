"""NumPy kernels for convolution and pooling (NCHW), registered in the reference backend.

Convolution is im2col + matmul: `sliding_window_view` gives every (kh, kw) window of the padded
input as a view, one copy lays the windows out as rows, and one (batched over groups) matmul
does the rest. The input gradient is the reverse, col2im: kh * kw strided slice additions.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .numpy_backend import numpy_backend

register = numpy_backend.register


def _pad_nchw(x: np.ndarray, pad, value=0.0) -> np.ndarray:
    top, bottom, left, right = pad
    if not any(pad):
        return x
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _out_hw(hw, kernel, stride, pad, dilation=(1, 1)) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _windows(xp: np.ndarray, kernel, stride, dilation, out_hw) -> np.ndarray:
    """A (N, C, Ho, Wo, kh, kw) view of the windows of padded `xp` (no copy)."""
    span = tuple(dilation[i] * (kernel[i] - 1) + 1 for i in range(2))
    win = sliding_window_view(xp, span, axis=(2, 3))
    win = win[:, :, ::stride[0], ::stride[1], ::dilation[0], ::dilation[1]]
    return win[:, :, :out_hw[0], :out_hw[1]]


def _col2im(cols: np.ndarray, padded_shape, kernel, stride, dilation) -> np.ndarray:
    """Sum (N, C, Ho, Wo, kh, kw) window values back into a zero (N, C, Hp, Wp) array."""
    out = np.zeros(padded_shape, dtype=cols.dtype)
    ho, wo = cols.shape[2:4]
    for i in range(kernel[0]):
        r0 = i * dilation[0]
        rows = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
        for j in range(kernel[1]):
            c0 = j * dilation[1]
            out[:, :, rows, c0:c0 + stride[1] * (wo - 1) + 1:stride[1]] += cols[..., i, j]
    return out


def _crop(xp: np.ndarray, pad, hw) -> np.ndarray:
    return xp[:, :, pad[0]:pad[0] + hw[0], pad[2]:pad[2] + hw[1]]


def _im2col(x, kh, kw, stride, pad, dilation, group):
    """Rows of window values: (group, N*Ho*Wo, C/group*kh*kw), plus (N, Ho, Wo)."""
    n, c = x.shape[:2]
    ho, wo = _out_hw(x.shape[2:], (kh, kw), stride, pad, dilation)
    win = _windows(_pad_nchw(x, pad), (kh, kw), stride, dilation, (ho, wo))
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, group, (c // group) * kh * kw)
    return cols.transpose(1, 0, 2), (n, ho, wo)


@register("conv2d")
def _conv2d(x, w, stride, pad, dilation, group):
    o, cg, kh, kw = w.shape
    cols, (n, ho, wo) = _im2col(x, kh, kw, stride, pad, dilation, group)
    wmat = w.reshape(group, o // group, cg * kh * kw).transpose(0, 2, 1)
    out = np.matmul(cols, wmat)  # (group, N*Ho*Wo, O/group)
    return out.transpose(1, 0, 2).reshape(n, ho, wo, o).transpose(0, 3, 1, 2)


@register("conv2d_backprop_input")
def _conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w.shape
    n, _, ho, wo = dout.shape
    dmat = dout.transpose(0, 2, 3, 1).reshape(n * ho * wo, group, o // group).transpose(1, 0, 2)
    dcols = np.matmul(dmat, w.reshape(group, o // group, cg * kh * kw))
    dcols = dcols.transpose(1, 0, 2).reshape(n, ho, wo, group * cg, kh, kw)
    hp, wp = x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3]
    dxp = _col2im(dcols.transpose(0, 3, 1, 2, 4, 5), (n, x_shape[1], hp, wp), (kh, kw), stride,
                  dilation)
    return _crop(dxp, pad, x_shape[2:])


@register("conv2d_backprop_filter")
def _conv2d_backprop_filter(x, dout, w_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w_shape
    cols, (n, ho, wo) = _im2col(x, kh, kw, stride, pad, dilation, group)
    dmat = dout.transpose(1, 0, 2, 3).reshape(group, o // group, n * ho * wo)
    return np.matmul(dmat, cols).reshape(o, cg, kh, kw)


# ----- max pooling -----------------------------------------------------------------------------

def _argmax_positions(x, kernel, stride, pad):
    """Flat indices into the -inf-padded input of each window's (first) maximum."""
    n, c, h, w = x.shape
    ho, wo = _out_hw((h, w), kernel, stride, pad)
    xp = _pad_nchw(x, pad, -np.inf)
    hp, wp = xp.shape[2:]
    win = _windows(xp, kernel, stride, (1, 1), (ho, wo)).reshape(n, c, ho, wo, -1)
    arg = np.argmax(win, axis=-1)
    rows = np.arange(ho)[:, None] * stride[0] + arg // kernel[1]
    cols = np.arange(wo)[None, :] * stride[1] + arg % kernel[1]
    planes = np.arange(n * c).reshape(n, c, 1, 1) * (hp * wp)
    return planes + rows * wp + cols, (n, c, hp, wp)


@register("max_pool2d")
def _max_pool2d(x, kernel, stride, pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    win = _windows(_pad_nchw(x, pad, -np.inf), kernel, stride, (1, 1), (ho, wo))
    return win.max(axis=(-2, -1))


@register("max_pool2d_grad")
def _max_pool2d_grad(x, g, kernel, stride, pad):
    """Scatter each output gradient to its window's argmax (summing where windows overlap)."""
    flat, padded_shape = _argmax_positions(x, kernel, stride, pad)
    dxp = np.bincount(flat.ravel(), weights=np.asarray(g).ravel(),
                      minlength=int(np.prod(padded_shape)))
    return _crop(dxp.reshape(padded_shape).astype(x.dtype, copy=False), pad, x.shape[2:])


@register("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(x, g, kernel, stride, pad):
    """Gather an input-shaped tensor at each window's argmax: the transpose of the above."""
    flat, _ = _argmax_positions(x, kernel, stride, pad)
    return _pad_nchw(np.asarray(g), pad).ravel()[flat]


# ----- average pooling -------------------------------------------------------------------------

def _window_counts(hw, kernel, stride, pad, count_include_pad, dtype) -> np.ndarray:
    """How many elements each window divides by: (Ho, Wo)."""
    ho, wo = _out_hw(hw, kernel, stride, pad)
    if count_include_pad:
        return np.full((ho, wo), kernel[0] * kernel[1], dtype=dtype)
    ones = _pad_nchw(np.ones((1, 1) + tuple(hw), dtype=dtype), pad)
    return _windows(ones, kernel, stride, (1, 1), (ho, wo)).sum(axis=(-2, -1))[0, 0]


@register("avg_pool2d")
def _avg_pool2d(x, kernel, stride, pad, count_include_pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(_pad_nchw(x, pad), kernel, stride, (1, 1), (ho, wo)).sum(axis=(-2, -1))
    return (sums / _window_counts(x.shape[2:], kernel, stride, pad, count_include_pad,
                                  x.dtype)).astype(x.dtype, copy=False)


@register("avg_pool2d_grad")
def _avg_pool2d_grad(g, x_shape, kernel, stride, pad, count_include_pad):
    g = np.asarray(g)
    share = g / _window_counts(x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype)
    cols = np.broadcast_to(share[..., None, None], share.shape + tuple(kernel))
    padded = tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])
    return _crop(_col2im(cols, padded, kernel, stride, (1, 1)), pad, x_shape[2:])


# ----- special functions -----------------------------------------------------------------------

def _as_float(x) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float32)


try:
    from scipy.special import erf as _erf_f64
except ImportError:  # scipy is optional: fall back to the math module, element by element
    import math

    _erf_elementwise = np.frompyfunc(math.erf, 1, 1)

    def _erf_f64(x):
        return _erf_elementwise(x).astype(np.float64)


def _erf(x):
    x = _as_float(x)
    return np.asarray(_erf_f64(x), dtype=x.dtype)


@register("erf")
def _erf_kernel(x):
    return _erf(x)


@register("gelu")
def _gelu(x):
    x = _as_float(x)
    return (0.5 * x * (1 + _erf(x * np.sqrt(0.5).astype(x.dtype)))).astype(x.dtype, copy=False)


register("log1p")(lambda x: np.log1p(_as_float(x)))
register("expm1")(lambda x: np.expm1(_as_float(x)))
register("softplus")(lambda x: np.logaddexp(np.zeros((), _as_float(x).dtype), _as_float(x)))


@register("clip_by_value")
def _clip_by_value(x, lo, hi):
    return np.minimum(np.maximum(x, lo), hi)


@register("cumsum")
def _cumsum(x, axis, exclusive, reverse):
    x = np.asarray(x)
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.zeros_like(np.take(out, [0], axis=axis)),
                              np.take(out, np.arange(out.shape[axis] - 1), axis=axis)],
                             axis=axis)
    return np.flip(out, axis) if reverse else out


@register("reduce_prod")
def _reduce_prod(x, axis=(), keep_dims=False):
    x = np.asarray(x)
    return np.prod(x, axis=None if axis == () else axis, keepdims=keep_dims, dtype=x.dtype)


@register("dropout")
def _dropout(x, mask, keep_prob):
    x = np.asarray(x)
    return (x * np.asarray(mask, dtype=x.dtype) * x.dtype.type(1 / keep_prob)).astype(
        x.dtype, copy=False)


# ----- normalisation ---------------------------------------------------------------------------

def _normalise(x, mean, var, epsilon):
    return (x - mean) / np.sqrt(var + x.dtype.type(epsilon))


@register("layer_norm")
def _layer_norm(x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = np.square(x - mean).mean(axis=axes, keepdims=True)
    return _normalise(x, mean, var, epsilon) * gamma + beta, mean, var


@register("batch_norm")
def _batch_norm(x, scale, bias, mean, variance, is_training, epsilon):
    axes = (0,) + tuple(range(2, x.ndim))
    per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if is_training:
        mean = x.mean(axis=axes)
        variance = np.square(x - mean.reshape(per_channel)).mean(axis=axes)
    y = _normalise(x, mean.reshape(per_channel), variance.reshape(per_channel), epsilon)
    return (y * scale.reshape(per_channel) + bias.reshape(per_channel), np.array(mean),
            np.array(variance))


# ----- shape operations ------------------------------------------------------------------------

@register("bias_add")
def _bias_add(x, b, axis=1):
    x = np.asarray(x)
    return x + np.asarray(b, x.dtype).reshape((-1,) + (1,) * (x.ndim - 1 - axis % x.ndim))


@register("one_hot")
def _one_hot(indices, on_value, off_value, depth, axis=-1):
    indices = np.asarray(indices)
    axis = axis % (indices.ndim + 1)
    hot = np.expand_dims(indices, axis) == np.arange(depth).reshape(
        (-1,) + (1,) * (indices.ndim - axis))
    return np.where(hot, on_value, off_value)


@register("argmax")
def _argmax(x, axis, keep_dims=False, dtype=None):
    out = np.argmax(x, axis=axis, keepdims=keep_dims)
    return out.astype(dtype.np if dtype is not None else np.int32)


register("tile")(lambda x, multiples: np.tile(x, multiples))


@register("split")
def _split(x, axis, sizes):
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


register("pad")(lambda x, paddings, value=0: np.pad(x, paddings, constant_values=value))
