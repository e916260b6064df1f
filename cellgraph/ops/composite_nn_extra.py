"""More of MindSpore's nn functional ops and primitive classes as compositions of existing
operations: sliding-window extraction (`unfold`, `Im2Col`, the image-patch form behind
nn.Unfold) as a grouped convolution with one-hot kernels, `rms_norm`/`RmsNorm`,
`gumbel_softmax`, the `Conv3D` and `Conv2DTranspose` classes over conv3d and conv2d's input
gradient, and `CTCLossV2` as the forward (alpha) recursion in log space."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.conv_ops import conv2d_backprop_input, same_padding
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import argmax, conv2d, one_hot
from cellgraph.primitives.random_ops import rand

from . import functional as F
from .composite_conv import _ints, conv3d
from .composite_ops import logsumexp
from .composite_sampling import linear_read
from .derive import export, export_class

__all__ = ["deformable_conv2d", "gumbel_softmax", "rms_norm", "unfold"]


def _pair(value, op: str, name: str) -> tuple:
    items = _ints(value, 2 if not isinstance(value, (tuple, list)) or len(value) != 4 else 4,
                  op, name)
    return items if len(items) == 2 else items[1:3]  # (1, h, w, 1) as nn.Unfold spells it


def _patches(x, kernel, stride, dilation, pads, op: str):
    """(N, C, kh*kw, oh, ow): every window of x, one channel group per input channel."""
    shape = abstract_of(x).shape
    if len(shape) != 4:
        raise ShapeError(f"{op}: expected a 4-D (N, C, H, W) input, got shape {shape}")
    n, c = shape[:2]
    kh, kw = kernel
    eye = np.eye(kh * kw).reshape(kh * kw, 1, kh, kw)
    weight = A.cast(np.tile(eye, (c, 1, 1, 1)), dtype=abstract_of(x).dtype)
    out = conv2d(x, weight, None, stride, "pad", pads, dilation, c)
    oh, ow = abstract_of(out).shape[2:]
    return F.reshape(out, (n, c, kh * kw, oh, ow))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C * kh * kw, L): the sliding windows of a 4-D input as columns (PyTorch's
    unfold; channel-major within a column)."""
    op = "unfold"
    kernel, dilation = _ints(kernel_size, 2, op, "kernel_size"), _ints(dilation, 2, op, "dilation")
    pad_h, pad_w = _ints(padding, 2, op, "padding")
    blocks = _patches(input, kernel, _ints(stride, 2, op, "stride"), dilation,
                      (pad_h, pad_h, pad_w, pad_w), op)
    n, c, k, oh, ow = abstract_of(blocks).shape
    return F.reshape(blocks, (n, c * k, oh * ow))


def _im2col(x, ksizes, strides=1, dilations=1, pads=0):
    op = "Im2Col"
    pad = _ints(pads, 2, op, "pads") if not isinstance(pads, (tuple, list)) or len(pads) <= 2 \
        else None
    if pad is None:
        raise ArgumentValueError(f"{op}: `pads` must be 1 or 2 ints, got {pads!r}")
    blocks = _patches(x, _ints(ksizes, 2, op, "ksizes"), _ints(strides, 2, op, "strides"),
                      _ints(dilations, 2, op, "dilations"), (pad[0], pad[0], pad[1], pad[1]), op)
    n, c, k, oh, ow = abstract_of(blocks).shape
    return F.reshape(blocks, (n, c, k, oh * ow))


def extract_patches(x, ksizes, strides, rates, padding="valid"):
    """nn.Unfold's image patches: (N, kh * kw * C, out_rows, out_cols), the channels of one
    window position together (TensorFlow's order); `padding` 'same' or 'valid'."""
    op = "Unfold"
    kernel, stride = _pair(ksizes, op, "ksizes"), _pair(strides, op, "strides")
    rate = _pair(rates, op, "rates")
    mode = padding.lower() if isinstance(padding, str) else padding
    if mode not in ("same", "valid"):
        raise ArgumentValueError(f"{op}: `padding` must be 'same' or 'valid', got {padding!r}")
    h, w = abstract_of(x).shape[2:]
    pads = (same_padding(h, kernel[0], stride[0], rate[0])
            + same_padding(w, kernel[1], stride[1], rate[1])) if mode == "same" else (0,) * 4
    blocks = _patches(x, kernel, stride, rate, pads, op)
    n, c, k, oh, ow = abstract_of(blocks).shape
    return F.reshape(F.transpose(blocks, (0, 2, 1, 3, 4)), (n, k * c, oh, ow))


export_class("Im2Col", _im2col, {"ksizes": None, "strides": 1, "dilations": 1, "pads": 0})


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


def rms_norm(input, weight, epsilon=1e-6):
    """The normalised input of RmsNorm (its first result)."""
    return _rms_norm(input, weight, epsilon)[0]


export_class("RmsNorm", _rms_norm, {"epsilon": 1e-6})


@export
def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """softmax((logits + g) / tau) with g ~ Gumbel(0, 1); with `hard`, the one-hot of the
    argmax forward and the soft sample's gradient backward (straight-through)."""
    dtype = abstract_of(logits).dtype
    if not dtype.is_float:
        raise DTypeError(f"gumbel_softmax: expected float logits, got {dtype}")
    if not tau > 0:
        raise ArgumentValueError(f"gumbel_softmax: `tau` must be > 0, got {tau}")
    draws = F.cast(rand(abstract_of(logits).shape), dtype)
    tiny = float(np.finfo(dtype.np).tiny)
    gumbel = -M.log(-M.log(M.maximum(draws, tiny)) + tiny)
    soft = F.softmax((logits + gumbel) / tau, dim)
    if not hard:
        return soft
    index = argmax(soft, dim, True)
    axis = dim % len(abstract_of(logits).shape)
    positions = A.cast(np.arange(abstract_of(logits).shape[axis]).reshape(
        [-1 if i == axis else 1 for i in range(len(abstract_of(logits).shape))]), dtype=dt.int64)
    one_hot = F.cast(M.equal(positions, F.cast(index, dt.int64)), dtype)
    return one_hot - F.stop_gradient(soft) + soft


def _conv3d_class(x, weight, *, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0,
                  stride=1, dilation=1, group=1, data_format="NCDHW"):
    if data_format != "NCDHW":
        raise ArgumentValueError(f"Conv3D: only data_format='NCDHW' is supported, got "
                                 f"{data_format!r}")
    kernel = _ints(kernel_size, 3, "Conv3D", "kernel_size")
    w_shape = abstract_of(weight).shape
    if len(w_shape) != 5 or w_shape[0] != out_channel or tuple(w_shape[2:]) != kernel:
        raise ShapeError(f"Conv3D: weight of shape {w_shape} does not match out_channel="
                         f"{out_channel} and kernel_size={kernel}")
    spatial = [v[2:] if isinstance(v, (tuple, list)) and len(v) == 5 else v
               for v in (stride, dilation)]
    return conv3d(x, weight, None, spatial[0], pad_mode, pad, spatial[1], group)


export_class("Conv3D", _conv3d_class,
             {"out_channel": None, "kernel_size": None, "mode": 1, "pad_mode": "valid",
              "pad": 0, "stride": 1, "dilation": 1, "group": 1, "data_format": "NCDHW"})


def _conv2d_transpose_class(dout, weight, input_size, *, out_channel, kernel_size,
                            pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                            dilation=1, group=1, data_format="NCHW"):
    """Conv2DBackpropInput: the gradient of Conv2D with respect to its input of shape
    `input_size`, i.e. a transposed convolution of `dout` with the OIHW `weight`."""
    op = "Conv2DTranspose"
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")
    kernel = _ints(kernel_size, 2, op, "kernel_size")
    spatial = [v[2:] if isinstance(v, (tuple, list)) and len(v) == 4 else v
               for v in (stride, dilation)]
    stride, dilation = _ints(spatial[0], 2, op, "stride"), _ints(spatial[1], 2, op, "dilation")
    size = tuple(int(s) for s in input_size)
    mode_name = pad_mode.lower()
    if mode_name == "pad":
        pads = tuple(pad_list) if pad_list is not None else _ints(pad, 4, op, "pad")
    elif mode_name == "same":
        pads = (same_padding(size[2], kernel[0], stride[0], dilation[0])
                + same_padding(size[3], kernel[1], stride[1], dilation[1]))
    elif mode_name == "valid":
        pads = (0, 0, 0, 0)
    else:
        raise ArgumentValueError(f"{op}: `pad_mode` must be 'same', 'valid' or 'pad', got "
                                 f"{pad_mode!r}")
    return conv2d_backprop_input(dout, weight, x_shape=size, stride=stride, pad=pads,
                                 dilation=dilation, group=group)


_TRANSPOSE_INIT = {"out_channel": None, "kernel_size": None, "pad_mode": "valid", "pad": 0,
                   "pad_list": None, "mode": 1, "stride": 1, "dilation": 1, "group": 1,
                   "data_format": "NCHW"}
export_class("Conv2DTranspose", _conv2d_transpose_class, _TRANSPOSE_INIT)
export_class("Conv2DBackpropInput", _conv2d_transpose_class, _TRANSPOSE_INIT)


def _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, *, blank=0,
                 reduction="none", zero_infinity=False):
    """(neg_log_likelihood (N,), log_alpha (N, T, 2S+1)): the CTC forward recursion over the
    blank-extended targets in log space, unrolled over the T time steps; the loss reads alpha
    at each sequence's last step and its last two extended labels."""
    op = "CTCLossV2"
    t_len, batch, classes = abstract_of(log_probs).shape
    s_len = abstract_of(targets).shape[1]
    if reduction not in ("none", "mean", "sum"):
        raise ArgumentValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got "
                                 f"{reduction!r}")
    if not 0 <= blank < classes:
        raise ArgumentValueError(f"{op}: blank must be in [0, {classes}), got {blank}")
    ext = 2 * s_len + 1
    labels = F.cast(targets, dt.int64)
    # a target label outside [0, C) raises when the graph runs (MindSpore's CPU kernel reads
    # past the row instead); padding past a sequence's target length is not read
    counted = M.less(A.cast(np.arange(s_len), dtype=dt.int64),
                     F.expand_dims(F.cast(target_lengths, dt.int64), -1))
    labels = M.select(counted, check_range(M.select(counted, labels, F.zeros_like(labels)),
                                           low=0, high=max(classes, 1), what="target label",
                                           op=op), labels)
    blanks = F.fill(dt.int64, (batch, ext), blank)
    odd = A.cast(np.arange(ext) % 2 == 1, dtype=dt.bool_)
    spread = F.reshape(F.stack((labels, labels), -1), (batch, 2 * s_len))
    extended = M.select(odd, F.concat((spread, F.getitem(labels, (slice(None), slice(0, 1)))),
                                      -1), blanks)
    # a skip from s-2 to s is allowed where s is a label different from the one at s-2
    shifted = F.concat((F.fill(dt.int64, (batch, 2), blank),
                        F.getitem(extended, (slice(None), slice(0, ext - 2)))), -1)
    skip = M.logical_and(odd, M.not_equal(extended, shifted))
    dtype = abstract_of(log_probs).dtype
    neg = float(np.finfo(dtype.np).min) / 4
    start = A.cast(np.arange(ext) < 2, dtype=dt.bool_)
    picks = F.cast(one_hot(extended, classes, 1, 0, -1), dtype)  # (N, ext, C)

    def emit(t):
        return F.reduce_sum(picks * F.expand_dims(F.getitem(log_probs, t), 1), -1)

    def shift(alpha, by):
        return F.concat((F.fill(dtype, (batch, by), neg),
                         F.getitem(alpha, (slice(None), slice(0, ext - by)))), -1)

    alpha = M.select(start, emit(0), F.fill(dtype, (batch, ext), neg))
    alphas = [alpha]
    for t in range(1, t_len):
        two_back = M.select(skip, shift(alpha, 2), F.fill(dtype, (batch, ext), neg))
        alpha = logsumexp(F.stack((alpha, shift(alpha, 1), two_back), 0), 0) + emit(t)
        alphas.append(alpha)
    log_alpha = F.stack(alphas, 1)  # (N, T, ext)
    steps = one_hot(F.cast(input_lengths, dt.int64) - 1, t_len, 1, 0, -1)
    final = F.reduce_sum(log_alpha * F.expand_dims(F.cast(steps, dtype), -1), 1)  # (N, ext)
    last = F.cast(target_lengths, dt.int64) * 2
    ends = M.logical_or(one_hot(last, ext, True, False, -1),
                        one_hot(last - 1, ext, True, False, -1))
    loss = -logsumexp(M.select(ends, final, F.fill(dtype, (batch, ext), neg)), -1)
    # no alignment fits (the input is too short for the targets): the loss is infinite, as in
    # MindSpore, or 0 with zero_infinity
    infeasible = M.greater(loss, -neg / 2)
    loss = M.select(infeasible, F.zeros_like(loss) if zero_infinity
                    else F.fill(dtype, (batch,), float("inf")), loss)
    if reduction == "mean":  # each sequence's loss per target label, then the batch mean
        lengths = M.maximum(F.cast(target_lengths, dtype), 1.0)
        loss = F.reduce_mean(loss / lengths)
    elif reduction == "sum":
        loss = F.reduce_sum(loss)
    return loss, log_alpha


@export
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """(loss, log_alpha) of the CTC loss of log-probabilities (T, N, C) against padded
    targets (N, S)."""
    return _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, blank=blank,
                        reduction=reduction, zero_infinity=zero_infinity)


export_class("CTCLossV2", _ctc_loss_v2, {"blank": 0, "reduction": "none",
                                         "zero_infinity": False})


export_class("ExtractImagePatches", extract_patches,
             {"ksizes": None, "strides": None, "rates": None, "padding": "valid"})


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None,
                      dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    """Modulated deformable convolution (v2): each kernel tap k of output p reads x at
    p * stride - pad + k * dilation + (offset_y, offset_x) bilinearly (zero outside the image),
    scales it by its mask, and the taps are contracted with the weight as in conv2d.
    `offsets` (N, 3 * deformable_groups * kh * kw, H_out, W_out) holds the x offsets, then the
    y offsets, then the masks."""
    op = "deformable_conv2d"
    if not modulated:
        raise ArgumentValueError(f"{op}: only modulated=True (deformable convolution v2) "
                                 f"exists, as in MindSpore")
    n, c, h, w = _checked_rank(x, 4, op)
    kh, kw = _ints(kernel_size, 2, op, "kernel_size")
    stride, dilation = _ints4(strides, op, "strides")[2:], _ints4(dilations, op, "dilations")[2:]
    top, bottom, left, right = _ints4(padding, op, "padding")
    out_c = abstract_of(weight).shape[0]
    if c % groups or c % deformable_groups or out_c % groups or \
            tuple(abstract_of(weight).shape) != (out_c, c // groups, kh, kw):
        raise ShapeError(f"{op}: weight {abstract_of(weight).shape} does not fit {c} input "
                         f"channels, groups={groups} and kernel_size={(kh, kw)}, or the channels "
                         f"do not split into deformable_groups={deformable_groups}")
    out_h = (h + top + bottom - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    out_w = (w + left + right - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    taps, dg = kh * kw, deformable_groups
    if tuple(abstract_of(offsets).shape) != (n, 3 * dg * taps, out_h, out_w):
        raise ShapeError(f"{op}: expected offsets of shape {(n, 3 * dg * taps, out_h, out_w)}, "
                         f"got {abstract_of(offsets).shape}")
    # the undeformed sampling positions of every (tap, output row, output column)
    rows = (np.arange(kh) * dilation[0])[:, None, None, None] \
        + (np.arange(out_h) * stride[0] - top)[None, None, :, None]
    cols = (np.arange(kw) * dilation[1])[None, :, None, None] \
        + (np.arange(out_w) * stride[1] - left)[None, None, None, :]
    dtype = abstract_of(x).dtype
    base_y = A.cast(np.broadcast_to(rows, (kh, kw, out_h, out_w)).reshape(1, 1, -1), dtype=dtype)
    base_x = A.cast(np.broadcast_to(cols, (kh, kw, out_h, out_w)).reshape(1, 1, -1), dtype=dtype)
    parts = F.reshape(offsets, (n, 3, dg, taps * out_h * out_w))
    dx, dy, mask = (F.getitem(parts, (slice(None), i)) for i in range(3))  # (N, dg, Q)
    ys, xs = base_y + dy, base_x + dx
    flat = F.reshape(x, (n, dg, c // dg, h * w))
    sampled = [linear_read(F.getitem(flat, (slice(None), g)),
                           [F.getitem(ys, (slice(None), g)), F.getitem(xs, (slice(None), g))],
                           (h, w)) * F.expand_dims(F.getitem(mask, (slice(None), g)), 1)
               for g in range(dg)]
    columns = F.reshape(F.concat(sampled, 1) if dg > 1 else sampled[0],
                        (n, groups, (c // groups) * taps, out_h * out_w))
    kernel = F.reshape(weight, (groups, out_c // groups, (c // groups) * taps))
    out = F.reshape(F.matmul(kernel, columns), (n, out_c, out_h, out_w))
    return out if bias is None else out + F.reshape(bias, (1, out_c, 1, 1))


def _ints4(value, op: str, name: str) -> tuple:
    return _ints(value, 4, op, name)


def _checked_rank(x, rank: int, op: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) != rank:
        raise ShapeError(f"{op}: expected a {rank}-D (N, C, H, W) input, got shape {shape}")
    return tuple(shape)
