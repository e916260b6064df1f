"""Kernel test cases for the nn primitives: convolution and pooling (with their gradient
primitives), normalisation, shape ops, special functions. The references are direct loops over
output positions in float64, written from the definitions, not from the kernels' im2col."""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from cellgraph import ops
from cellgraph.primitives import dtype as dt

from .kernel_cases import Case, arr, each, f16, f32, f64, f64_of, i32, i64, seeded

BOOL = dt.bool_
MASK = np.random.default_rng(7).random(4) > 0.5
# float32 sums over a window of products: rounding grows with the window (any summation order)
SUM_TOL = {"rtol": 1e-5, "atol": 1e-5}

# ----- convolution ----------------------------------------------------------------------------


def _pad4(x, pad, value=0.0):
    top, bottom, left, right = pad
    return np.pad(f64_of(x), ((0, 0), (0, 0), (top, bottom), (left, right)),
                  constant_values=value)


def _out_hw(hw, kernel, stride, pad, dilation=(1, 1)):
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _window(xp, i, j, kernel, stride, dilation):
    """xp[..., rows, cols] of output position (i, j): shape (..., kh, kw)."""
    rows = i * stride[0] + dilation[0] * np.arange(kernel[0])
    cols = j * stride[1] + dilation[1] * np.arange(kernel[1])
    return xp[..., rows[:, None], cols[None, :]]


def conv2d_ref(x, w, stride, pad, dilation, group):
    xp, w = _pad4(x, pad), f64_of(w)
    n, o, cg = x.shape[0], w.shape[0], w.shape[1]
    ho, wo = _out_hw(x.shape[2:], w.shape[2:], stride, pad, dilation)
    out = np.zeros((n, o, ho, wo))
    per_group = o // group
    for i in range(ho):
        for j in range(wo):
            win = _window(xp, i, j, w.shape[2:], stride, dilation)  # (N, C, kh, kw)
            for oc in range(o):
                g = oc // per_group
                out[:, oc, i, j] = np.einsum("ncab,cab->n", win[:, g * cg:(g + 1) * cg], w[oc])
    return out


def conv2d_backprop_input_ref(dout, w, x_shape, stride, pad, dilation, group):
    dout, w = f64_of(dout), f64_of(w)
    n, c, h, wd = x_shape
    o, cg, kh, kw = w.shape
    dxp = np.zeros((n, c, h + pad[0] + pad[1], wd + pad[2] + pad[3]))
    per_group = o // group
    for i in range(dout.shape[2]):
        for j in range(dout.shape[3]):
            rows = i * stride[0] + dilation[0] * np.arange(kh)
            cols = j * stride[1] + dilation[1] * np.arange(kw)
            for oc in range(o):
                g = oc // per_group
                contribution = dout[:, oc, i, j][:, None, None, None] * w[oc][None]
                dxp[:, g * cg:(g + 1) * cg, rows[:, None], cols[None, :]] += contribution
    return dxp[:, :, pad[0]:pad[0] + h, pad[2]:pad[2] + wd]


def conv2d_backprop_filter_ref(x, dout, w_shape, stride, pad, dilation, group):
    xp, dout = _pad4(x, pad), f64_of(dout)
    o, cg, kh, kw = w_shape
    dw = np.zeros(w_shape)
    per_group = o // group
    for i in range(dout.shape[2]):
        for j in range(dout.shape[3]):
            win = _window(xp, i, j, (kh, kw), stride, dilation)
            for oc in range(o):
                g = oc // per_group
                dw[oc] += np.einsum("n,ncab->cab", dout[:, oc, i, j], win[:, g * cg:(g + 1) * cg])
    return dw


def conv2d_grad_ref(x, w, dout, stride, pad, dilation, group):
    conv = {"stride": stride, "pad": pad, "dilation": dilation, "group": group}
    return (conv2d_backprop_input_ref(dout, w, x.shape, **conv),
            conv2d_backprop_filter_ref(x, dout, w.shape, **conv))


CONV_SETTINGS = [  # x shape, w shape, stride, pad, dilation, group
    ((2, 3, 5, 5), (4, 3, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ((1, 4, 6, 5), (6, 2, 2, 3), (2, 1), (1, 0, 2, 1), (1, 1), 2),
    ((2, 2, 7, 7), (3, 2, 3, 2), (2, 3), (1, 1, 1, 1), (2, 1), 1),
    # stride 1, no more output than input channels: the backward passes share one im2col
    ((2, 4, 5, 6), (3, 4, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    ((3, 3, 6, 4), (2, 3, 3, 2), (1, 1), (2, 0, 0, 1), (1, 1), 1),
    # stride 1 along H: windows copied along W only, one column range per kernel row
    ((2, 3, 8, 7), (2, 3, 2, 3), (1, 2), (0, 1, 1, 0), (2, 1), 1),
    # kw * C of 16 and more: the window rows NHWC (the cases above, narrower, are laid out by
    # pixel); stride 1 sharing one im2col, and strided with more outputs than inputs (col2im)
    ((2, 8, 6, 5), (3, 8, 3, 2), (1, 1), (1, 1, 0, 1), (1, 1), 1),
    ((2, 6, 7, 7), (8, 6, 3, 3), (2, 1), (1, 0, 1, 1), (1, 2), 1),
    # one input channel (LeNet's first layer), more output channels: col2im of one group
    ((3, 1, 6, 6), (4, 1, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    # stride 1, dilated, more outputs than inputs: col2im in runs over the padded width
    ((2, 2, 7, 8), (5, 2, 2, 3), (1, 1), (0, 1, 2, 0), (2, 2), 1),
    # kw * C of 16 and more, stride 1 along H, few outputs: the window rows laid out by pixel
    # and read shifted by kernel row; strided and dilated along W, padding wider than the
    # kernel reaches (columns that read only zeros), and an input two columns wide
    ((2, 6, 7, 9), (4, 6, 3, 3), (1, 2), (1, 2, 0, 1), (2, 1), 1),
    ((2, 8, 5, 7), (5, 8, 2, 3), (1, 1), (0, 1, 2, 1), (1, 3), 1),
    ((2, 8, 4, 2), (3, 8, 2, 2), (1, 1), (2, 0, 3, 3), (1, 1), 1),
]


def _conv_cases():
    conv, back_in, back_w, both = [], [], [], []
    for k, (xs, ws, stride, pad, dilation, group) in enumerate(CONV_SETTINGS):
        dtype = f64 if k in (1, 4, 11) else f32
        params = {"stride": stride, "pad": pad, "dilation": dilation, "group": group}
        tol = SUM_TOL if dtype is f32 else None
        x, w = arr(xs, dtype), arr(ws, dtype)
        ys = (xs[0], ws[0]) + _out_hw(xs[2:], ws[2:], stride, pad, dilation)
        dout = arr(ys, dtype)
        conv.append(Case((x, w), conv2d_ref, dtype, params, tol=tol))
        back_in.append(Case((dout, w), conv2d_backprop_input_ref, dtype,
                            dict(params, x_shape=xs), tol=tol))
        back_w.append(Case((x, dout), conv2d_backprop_filter_ref, dtype,
                           dict(params, w_shape=ws), tol=tol))
        both.append(Case((x, w, dout), conv2d_grad_ref, (dtype, dtype), params, tol=tol))
    conv.append(Case((arr((1, 2, 4, 4), f32), arr((2, 2, 3, 3), f32)), conv2d_ref, f32,
                     {"stride": (1, 1), "pad": (1, 1, 1, 1), "dilation": (1, 1), "group": 1},
                     call=functools.partial(ops.conv2d, pad_mode="same"), tol=SUM_TOL))
    return {"conv2d": conv, "conv2d_backprop_input": back_in,
            "conv2d_backprop_filter": back_w, "conv2d_grad": both}


# ----- pooling --------------------------------------------------------------------------------

def _argmax_positions(x, kernel, stride, pad):
    """{(n, c, i, j): (row, col) in the padded input of the window's first maximum}."""
    xp = _pad4(x, pad, -np.inf)
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    where = {}
    for n, c, i, j in np.ndindex(x.shape[0], x.shape[1], ho, wo):
        win = _window(xp[n, c], i, j, kernel, stride, (1, 1))
        a, bb = np.unravel_index(np.argmax(win), win.shape)
        where[n, c, i, j] = (i * stride[0] + a, j * stride[1] + bb)
    return where, xp.shape


def max_pool_ref(x, kernel, stride, pad):
    xp = _pad4(x, pad, -np.inf)
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    out = np.empty(x.shape[:2] + (ho, wo))
    for i, j in np.ndindex(ho, wo):
        out[:, :, i, j] = _window(xp, i, j, kernel, stride, (1, 1)).max(axis=(-2, -1))
    return out


def max_pool_grad_ref(x, g, kernel, stride, pad):
    where, padded = _argmax_positions(x, kernel, stride, pad)
    dxp = np.zeros(padded)
    for (n, c, i, j), (r, q) in where.items():
        dxp[n, c, r, q] += g[n, c, i, j]
    return dxp[:, :, pad[0]:pad[0] + x.shape[2], pad[2]:pad[2] + x.shape[3]]


def max_pool_grad_grad_ref(x, g, kernel, stride, pad):
    where, _ = _argmax_positions(x, kernel, stride, pad)
    gp = _pad4(g, pad)
    out = np.empty(x.shape[:2] + _out_hw(x.shape[2:], kernel, stride, pad))
    for (n, c, i, j), (r, q) in where.items():
        out[n, c, i, j] = gp[n, c, r, q]
    return out


def _counts(hw, kernel, stride, pad, count_include_pad):
    inside = _pad4(np.ones((1, 1) + tuple(hw)), pad)
    ho, wo = _out_hw(hw, kernel, stride, pad)
    counts = np.empty((ho, wo))
    for i, j in np.ndindex(ho, wo):
        counts[i, j] = kernel[0] * kernel[1] if count_include_pad else _window(
            inside[0, 0], i, j, kernel, stride, (1, 1)).sum()
    return counts


def avg_pool_ref(x, kernel, stride, pad, count_include_pad):
    xp = _pad4(x, pad)
    counts = _counts(x.shape[2:], kernel, stride, pad, count_include_pad)
    out = np.empty(x.shape[:2] + counts.shape)
    for i, j in np.ndindex(*counts.shape):
        out[:, :, i, j] = _window(xp, i, j, kernel, stride, (1, 1)).sum(axis=(-2, -1)) / counts[
            i, j]
    return out


def avg_pool_grad_ref(g, x_shape, kernel, stride, pad, count_include_pad):
    counts = _counts(x_shape[2:], kernel, stride, pad, count_include_pad)
    dxp = np.zeros(tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1],
                                         x_shape[3] + pad[2] + pad[3]))
    for i, j in np.ndindex(*counts.shape):
        rows = i * stride[0] + np.arange(kernel[0])
        cols = j * stride[1] + np.arange(kernel[1])
        dxp[:, :, rows[:, None], cols[None, :]] += (f64_of(g)[:, :, i, j] / counts[i, j])[
            :, :, None, None]
    return dxp[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]


def max_pool_argmax_ref(x, kernel, stride, pad):
    """The pooled values and each window's first maximum as an index into the padded plane."""
    where, padded = _argmax_positions(x, kernel, stride, pad)
    argmax = np.empty(x.shape[:2] + _out_hw(x.shape[2:], kernel, stride, pad), np.int32)
    for (n, c, i, j), (r, q) in where.items():
        argmax[n, c, i, j] = r * padded[3] + q
    return max_pool_ref(x, kernel, stride, pad), argmax


def max_pool_scatter_ref(argmax, g, x_shape, kernel, stride, pad):
    width = x_shape[3] + pad[2] + pad[3]
    dxp = np.zeros(tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], width))
    for n, c, i, j in np.ndindex(argmax.shape):
        dxp[(n, c) + divmod(int(argmax[n, c, i, j]), width)] += f64_of(g)[n, c, i, j]
    return dxp[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]


def max_pool_gather_ref(argmax, h, kernel, stride, pad):
    hp = _pad4(h, pad)
    out = np.empty(argmax.shape)
    for n, c, i, j in np.ndindex(argmax.shape):
        out[n, c, i, j] = hp[(n, c) + divmod(int(argmax[n, c, i, j]), hp.shape[3])]
    return out


POOL_SETTINGS = [  # x shape, kernel, stride, pad
    ((2, 3, 4, 4), (2, 2), (2, 2), (0, 0, 0, 0)),
    ((1, 2, 5, 6), (3, 2), (1, 2), (1, 1, 0, 1)),
    ((1, 1, 5, 5), (3, 3), (2, 2), (1, 1, 1, 1)),
    # windows tiling the input, not square: the scatter writes each window position once
    ((2, 2, 4, 9), (2, 3), (2, 3), (0, 0, 0, 0)),
]


def _pool_cases():
    table = {name: [] for name in ("max_pool2d", "max_pool2d_grad", "max_pool2d_grad_grad",
                                   "max_pool2d_argmax", "max_pool2d_scatter",
                                   "max_pool2d_gather", "avg_pool2d", "avg_pool2d_grad")}
    for k, (xs, kernel, stride, pad) in enumerate(POOL_SETTINGS):
        dtype = f64 if k == 1 else f32
        x = arr(xs, dtype)
        pool = {"kernel": kernel, "stride": stride, "pad": pad}
        ys = xs[:2] + _out_hw(xs[2:], kernel, stride, pad)
        table["max_pool2d"].append(Case((x,), max_pool_ref, dtype, pool))
        table["max_pool2d_grad"].append(Case((x, arr(ys, dtype)), max_pool_grad_ref, dtype, pool))
        table["max_pool2d_grad_grad"].append(Case((x, arr(xs, dtype)), max_pool_grad_grad_ref,
                                                  dtype, pool))
        table["max_pool2d_argmax"].append(Case((x,), max_pool_argmax_ref, (dtype, i32), pool))
        argmax = max_pool_argmax_ref(x, **pool)[1]
        table["max_pool2d_scatter"].append(Case((argmax, arr(ys, dtype)), max_pool_scatter_ref,
                                                dtype, dict(pool, x_shape=xs)))
        table["max_pool2d_gather"].append(Case((argmax, arr(xs, dtype)), max_pool_gather_ref,
                                               dtype, pool))
        for include in (True, False):
            avg = dict(pool, count_include_pad=include)
            table["avg_pool2d"].append(Case((x,), avg_pool_ref, dtype, avg))
            table["avg_pool2d_grad"].append(Case((arr(ys, dtype),), avg_pool_grad_ref, dtype,
                                                 dict(avg, x_shape=xs)))
    table["max_pool2d"].append(Case((arr((1, 2, 4, 4), f32),), max_pool_ref, f32,
                                    {"kernel": (2, 2), "stride": (2, 2), "pad": (0, 0, 0, 0)},
                                    call=functools.partial(ops.max_pool2d, kernel_size=2,
                                                           stride=2)))
    return table


# ----- normalisation --------------------------------------------------------------------------

def layer_norm_ref(x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    x = f64_of(x)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon) * gamma + beta, mean, var


def batch_norm_ref(x, scale, bias, mean, variance, is_training, epsilon):
    x = f64_of(x)
    axes = (0,) + tuple(range(2, x.ndim))
    if is_training:
        mean, variance = x.mean(axis=axes), x.var(axis=axes)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = (x - np.reshape(mean, shape)) / np.sqrt(np.reshape(variance, shape) + epsilon)
    return y * np.reshape(scale, shape) + np.reshape(bias, shape), mean, variance


def layer_norm_grad_ref(x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis, epsilon):
    """LayerNorm's backward pass from the textbook form, per normalised group of m elements:
    dx = 1 / (m * sigma) * (m * g - sum(g) - xhat * sum(g * xhat)), g = dy * gamma."""
    x, dy = f64_of(x), f64_of(dy)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    leading = tuple(range(begin_params_axis % x.ndim))
    m = int(np.prod([x.shape[a] for a in axes]))
    sigma = np.sqrt(f64_of(var) + epsilon)
    xhat = (x - f64_of(mean)) / sigma
    g = dy * f64_of(gamma)
    dx = (m * g - g.sum(axis=axes, keepdims=True)
          - xhat * (g * xhat).sum(axis=axes, keepdims=True)) / (m * sigma)
    return dx, (dy * xhat).sum(axis=leading), dy.sum(axis=leading)


def batch_norm_grad_ref(x, dy, scale, mean, variance, epsilon):
    """Training-mode BatchNorm's backward pass from the textbook form
    dx = scale / (m * sigma) * (m * dy - sum(dy) - xhat * sum(dy * xhat))."""
    x, dy = f64_of(x), f64_of(dy)
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    m = x.size // x.shape[1]
    sigma = np.sqrt(np.reshape(variance, shape) + epsilon)
    xhat = (x - np.reshape(mean, shape)) / sigma
    sum_dy = dy.sum(axis=axes, keepdims=True)
    sum_dy_xhat = (dy * xhat).sum(axis=axes, keepdims=True)
    dx = np.reshape(scale, shape) / (m * sigma) * (m * dy - sum_dy - xhat * sum_dy_xhat)
    return dx, sum_dy_xhat.reshape(-1), sum_dy.reshape(-1)


def _norm_cases():
    layer = []
    for xs, norm_axis, params_axis, dtype in [((2, 3, 4), 1, 1, f32), ((4, 5), -1, -1, f64),
                                              ((2, 3, 4), 2, 1, f32)]:
        pshape = xs[params_axis % len(xs):]
        layer.append(Case((arr(xs, dtype), arr(pshape, dtype, 0.5, 1.5), arr(pshape, dtype)),
                          layer_norm_ref, (dtype, dtype, dtype),
                          {"begin_norm_axis": norm_axis, "begin_params_axis": params_axis,
                               "epsilon": 1e-5}))
    batch = []
    for xs, training, dtype in [((4, 3), True, f32), ((2, 3, 4, 4), True, f64),
                                ((2, 3, 2, 2), False, f32)]:
        c = xs[1]
        batch.append(Case((arr(xs, dtype), arr((c,), dtype, 0.5, 1.5), arr((c,), dtype),
                           arr((c,), dtype), arr((c,), dtype, 0.5, 2.0)),
                          batch_norm_ref, (dtype, dtype, dtype),
                          {"is_training": training, "epsilon": 1e-3}))
    layer_grad = []
    for xs, norm_axis, params_axis, dtype in [((2, 3, 4), 1, 1, f32), ((4, 5), -1, -1, f64),
                                              ((2, 3, 4), 2, 1, f32)]:
        pshape, sshape = xs[params_axis % len(xs):], xs[:norm_axis % len(xs)]
        sshape = sshape + (1,) * (len(xs) - len(sshape))
        layer_grad.append(Case((arr(xs, dtype), arr(xs, dtype), arr(pshape, dtype, 0.5, 1.5),
                                arr(sshape, dtype), arr(sshape, dtype, 0.5, 2.0)),
                               layer_norm_grad_ref, (dtype, dtype, dtype),
                               {"begin_norm_axis": norm_axis, "begin_params_axis": params_axis,
                                "epsilon": 1e-5}))
    batch_grad = []
    for xs, dtype in [((4, 3), f32), ((2, 3, 4, 4), f64)]:
        c = xs[1]
        batch_grad.append(Case((arr(xs, dtype), arr(xs, dtype), arr((c,), dtype, 0.5, 1.5),
                                arr((c,), dtype), arr((c,), dtype, 0.5, 2.0)),
                               batch_norm_grad_ref, (dtype, dtype, dtype), {"epsilon": 1e-3}))
    return {"layer_norm": layer, "batch_norm": batch, "batch_norm_grad": batch_grad,
            "layer_norm_grad": layer_grad}


# ----- shape ops and special functions --------------------------------------------------------

def _one_hot_ref(indices, on_value, off_value, depth, axis):
    hot = np.moveaxis(np.eye(depth)[indices], -1, axis % (indices.ndim + 1))
    return np.where(hot == 1, on_value, off_value)


def _split_ref(x, axis, sizes):
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    return tuple(np.take(x, np.arange(lo, hi), axis=axis) for lo, hi in itertools.pairwise(bounds))


def _halving_sum_ref(x, kept):
    return f64_of(x).reshape(x.shape[:kept] + (-1,)).sum(axis=-1)


def _cumsum_ref(x, axis, exclusive, reverse):
    x = np.moveaxis(f64_of(x), axis, 0)
    n = x.shape[0]
    out = np.zeros_like(x)
    for k in range(n):
        if reverse:
            span = range(k + 1 if exclusive else k, n)
        else:
            span = range(k if exclusive else k + 1)
        for m in span:
            out[k] += x[m]
    return np.moveaxis(out, 0, axis)


_erf = np.vectorize(math.erf, otypes=[float])


def _float_unary_cases(fn, low=-2.0, high=2.0):
    return ([Case((arr(s, d, low, high),), lambda x: fn(f64_of(x)), d)
             for s, d in [((), f32), ((2, 3), f32), ((4,), f64)]]
            + [Case((arr((3,), i32, max(low, 0), high + 1),), lambda x: fn(f64_of(x)), f32),
               Case((arr((3,), f16, low, high),), lambda x: fn(f64_of(x)), f16)])


def _gelu_grad_ref(x, dy):
    """d/dx x * Phi(x) = Phi(x) + x * phi(x), times dy."""
    x = f64_of(x)
    return f64_of(dy) * (0.5 * (1 + _erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2)
                         / np.sqrt(2 * np.pi))


def _gelu_and_slope_ref(x):
    """(x * Phi(x), Phi(x) + x * phi(x))."""
    x = f64_of(x)
    cdf = 0.5 * (1 + _erf(x / np.sqrt(2)))
    return x * cdf, cdf + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi)


def _gelu_tanh_ref(x):
    x = f64_of(x)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def _gelu_tanh_grad_ref(x, dy):
    """The derivative of 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), times dy."""
    x = f64_of(x)
    t = np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))
    slope = np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x ** 2)
    return f64_of(dy) * 0.5 * (1 + t + x * (1 - t * t) * slope)


def _clip_functional(x, lo, hi):
    return ops.clip_by_value(x, clip_value_min=lo, clip_value_max=hi)


def _shape_cases():
    idx = np.array([[0, 2], [1, 3]], np.int64)
    x234 = arr((2, 3, 4), f32)
    return {
        "bias_add": [Case((arr((2, 3), f32), arr((3,), f32)), lambda x, b, axis: x + b, f32,
                          {"axis": 1}),
                     Case((arr((2, 3, 2, 2), f64), arr((3,), f64)),
                          lambda x, b, axis: x + b[:, None, None], f64, {"axis": 1},
                          call=ops.bias_add),
                     Case((arr((2, 4), i32, -5, 5), arr((2,), i32, -5, 5)),
                          lambda x, b, axis: x + b[:, None], i32, {"axis": 0})],
        "one_hot": [Case((idx, np.array(1.0, np.float32), np.array(0.0, np.float32)),
                         _one_hot_ref, f32, {"depth": 4, "axis": -1}),
                    Case((np.array([2, 0, 1], np.int32), np.array(5, np.int64),
                          np.array(-1, np.int64)), _one_hot_ref, i64, {"depth": 3, "axis": 0}),
                    Case((idx, np.array(1.0, np.float64), np.array(0.0, np.float64)),
                         _one_hot_ref, f64, {"depth": 5, "axis": 1})],
        "argmax": [Case((x234,), lambda x, axis, keep_dims, dtype: np.argmax(
                       x, axis=axis, keepdims=keep_dims), d,
                        {"axis": a, "keep_dims": k, "dtype": d})
                   for a, k, d in [(0, False, i32), (2, True, i64), (1, False, i64)]]
        + [Case((arr((5,), i32, -9, 9),), lambda x, axis, keep_dims, dtype: np.argmax(x), i32,
                {"axis": 0, "keep_dims": False, "dtype": i32})],
        "tile": [Case((arr((2, 3), f32),), lambda x, multiples: np.block(
                     [[x] * multiples[1]] * multiples[0]), f32, {"multiples": (2, 3)},
                      call=functools.partial(ops.tile, dims=(2, 3))),
                 Case((arr((3,), i64, -5, 5),), lambda x, multiples: np.concatenate(
                     [x] * multiples[1])[None].repeat(multiples[0], 0), i64,
                      {"multiples": (2, 2)}),
                 Case((np.array(1.5, np.float64),), lambda x, multiples: np.full(multiples, x),
                      f64, {"multiples": (2,)})],
        "halving_sum": [Case((arr(shape, d),), _halving_sum_ref, d, {"kept": kept})
                        for shape, d, kept in [((5,), f32, 0), ((2, 3, 4), f64, 1),
                                               ((2, 7), f16, 1), ((4, 3, 2), f32, 2)]],
        "split": [Case((x234,), _split_ref, (f32, f32), {"axis": 1, "sizes": (1, 2)}),
                  Case((arr((6,), i32, -5, 5),), _split_ref, (i32, i32, i32),
                       {"axis": 0, "sizes": (2, 2, 2)}),
                  Case((x234,), _split_ref, (f32, f32, f32), {"axis": 2, "sizes": (1, 0, 3)})],
        "pad": [Case((arr((2, 3), f32),), lambda x, paddings, value: np.pad(
                    x, paddings, constant_values=value), f32,
                     {"paddings": ((1, 0), (2, 1)), "value": 0}),
                Case((arr((3,), i32, -5, 5),), lambda x, paddings, value: np.concatenate(
                    [[value] * 2, x, [value]]), i32, {"paddings": ((2, 1),), "value": 7}),
                Case((x234,), lambda x, paddings, value: np.pad(
                    x, paddings, constant_values=value), f32,
                     {"paddings": ((0, 0), (1, 1), (0, 2)), "value": -1.5})],
        "clip_by_value": [
            Case((arr((2, 3), f32), np.array(-0.5, np.float32), np.array(0.5, np.float32)),
                 lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), f32),
            Case((arr((2, 3), f64), arr((3,), f64, -2, 0), arr((2, 1), f64, 0, 2)),
                 lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), f64),
            Case((arr((4,), i32, -5, 5), -2, 3), lambda x, lo, hi: np.clip(x, lo, hi), i32),
            Case((arr((4,), f32), -1.0, 1.0), lambda x, lo, hi: np.clip(x, lo, hi), f32,
                 call=_clip_functional)],
        "cumsum": [Case((arr(s, d, -3, 4),), _cumsum_ref, d,
                        {"axis": a, "exclusive": e, "reverse": r})
                   for s, d, a, e, r in [((5,), f32, 0, False, False),
                                         ((2, 4), i32, 1, True, False),
                                         ((3, 2), f64, 0, False, True),
                                         ((2, 3, 2), f32, 1, True, True)]],
        "reduce_prod": [Case((arr(s, d, lo, hi),), lambda x, axis, keep_dims: np.prod(
                            f64_of(x), axis=axis or None, keepdims=keep_dims), d,
                             {"axis": a, "keep_dims": k})
                        for s, d, a, k, lo, hi in [((2, 3), f32, (), False, 0.5, 1.5),
                                                   ((2, 3, 2), f64, (1,), True, -2, 2),
                                                   ((3, 2), i32, (0,), False, -3, 4),
                                                   ((), f32, (), False, -2, 2)]],
        "dropout": [Case((arr((2, 3), f32), arr((2, 3), BOOL)),
                         lambda x, mask, keep_prob: x * mask / keep_prob, f32,
                         {"keep_prob": 0.8}),
                    Case((arr((4,), f64), MASK.astype(np.float64)),
                         lambda x, mask, keep_prob: x * mask / keep_prob, f64,
                         {"keep_prob": 0.5}),
                    Case((arr((2, 3), f32), arr((3,), BOOL)),
                         lambda x, mask, keep_prob: x * mask / keep_prob, f32,
                         {"keep_prob": 1.0})],
        "erf": _float_unary_cases(_erf),
        "gelu": _float_unary_cases(lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
        "gelu_grad": [Case((arr(xs, d, -3.0, 3.0), arr(ys, d)), _gelu_grad_ref, d)
                      for xs, ys, d in [((2, 3), (2, 3), f32), ((4,), (4,), f64),
                                        ((2, 3), (3,), f32), ((), (), f16)]],
        "normal_cdf": _float_unary_cases(lambda x: 0.5 * (1 + _erf(x / np.sqrt(2))), -3.0, 3.0),
        "gelu_and_slope": [Case((arr(s, d, -3.0, 3.0),), _gelu_and_slope_ref, (d, d))
                           for s, d in [((2, 3), f32), ((4,), f64), ((), f16)]],
        "gelu_tanh": _float_unary_cases(_gelu_tanh_ref, -3.0, 3.0),
        "gelu_tanh_grad": [Case((arr(xs, d, -3.0, 3.0), arr(ys, d)), _gelu_tanh_grad_ref, d)
                           for xs, ys, d in [((2, 3), (2, 3), f32), ((4,), (4,), f64),
                                             ((2, 3), (3,), f32), ((), (), f16)]],
        "log1p": _float_unary_cases(np.log1p, -0.5, 3.0),
        "expm1": _float_unary_cases(np.expm1),
        "softplus": _float_unary_cases(lambda x: np.log(1 + np.exp(x)), -3.0, 3.0),
    }

NN_CASES = seeded({
    **each(_conv_cases, ("conv2d", "conv2d_backprop_input", "conv2d_backprop_filter",
                         "conv2d_grad")),
    **each(_pool_cases, ("max_pool2d", "max_pool2d_grad", "max_pool2d_grad_grad",
                         "max_pool2d_argmax", "max_pool2d_scatter", "max_pool2d_gather",
                         "avg_pool2d", "avg_pool2d_grad")),
    **each(_norm_cases, ("layer_norm", "batch_norm", "batch_norm_grad", "layer_norm_grad")),
    **each(_shape_cases, ("bias_add", "one_hot", "argmax", "tile", "split", "pad",
                          "clip_by_value", "cumsum", "halving_sum", "reduce_prod", "dropout", "erf", "gelu",
                          "gelu_grad", "gelu_tanh", "gelu_tanh_grad", "normal_cdf",
                          "gelu_and_slope", "log1p", "expm1", "softplus")),
})
