"""Convolutions built from conv2d and its input gradient (no kernels of their own, so their
derivatives of every order come from conv2d's):

* `conv1d`: an NCW input is an NC1W image convolved with an O,I,1,K weight;
* `conv3d`: one conv2d per kernel depth tap over depth slices folded into the batch, summed;
* `conv_transpose2d`: conv2d_backprop_input, the adjoint of conv2d, with the output size
  chosen by MindSpore's rules for pad_mode "same", "valid" and "pad";
* `conv_transpose3d`, `max_pool3d`, `avg_pool3d`: the 2-D operation per depth tap over depth
  slices folded into the batch, combined across taps (placed by a 0/1 matrix, max, mean).
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives.conv_ops import conv2d_backprop_input, conv_out_size, same_padding
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import avg_pool2d, bias_add, conv2d, max_pool2d

from . import functional as F
from .composite_pad import pad
from .composite_resize import apply_along

__all__ = ["avg_pool3d", "conv1d", "conv3d", "conv_transpose2d", "conv_transpose3d",
           "max_pool3d"]


def _ints(value, n: int, op: str, name: str) -> tuple:
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(items) != n or any(isinstance(v, bool) or not isinstance(v, numbers.Integral)
                              for v in items):
        raise DTypeError(f"{op}: `{name}` must be an int or {n} ints, got {value!r}")
    return tuple(int(v) for v in items)


def _check_rank(x, rank: int, op: str, layout: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) != rank:
        raise ShapeError(f"{op}: expected an input of rank {rank} ({layout}), got shape "
                         f"{tuple(shape)}")
    return shape


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """1-D convolution of an (N, C, W) input with an (O, C/groups, K) or (O, C/groups, 1, K)
    weight."""
    _check_rank(input, 3, "Conv1d", "N, C, W")
    w = weight if abstract_of(weight).ndim == 4 else F.expand_dims(weight, 2)
    pads = _ints(padding, 1, "Conv1d", "padding") if not isinstance(padding, str) else padding
    pad2 = pads if isinstance(pads, str) else (0, 0, pads[0], pads[0])
    out = conv2d(F.expand_dims(input, 2), w, None, (1, _ints(stride, 1, "Conv1d", "stride")[0]),
                 pad_mode, pad2, (1, _ints(dilation, 1, "Conv1d", "dilation")[0]), groups)
    out = F.squeeze(out, 2)
    return out if bias is None else bias_add(out, bias)


def _pad3d(padding, op: str) -> tuple:
    """(front, back, top, bottom, left, right) from an int or 3 or 6 ints."""
    if isinstance(padding, numbers.Integral):
        return (int(padding),) * 6
    items = _ints(padding, len(padding) if isinstance(padding, (tuple, list)) else 6, op,
                  "padding")
    if len(items) == 3:
        return tuple(p for p in items for _ in range(2))
    if len(items) != 6:
        raise ArgumentValueError(f"{op}: `padding` must be an int or 3 or 6 ints, got {padding!r}")
    return items


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """3-D convolution of an (N, C, D, H, W) input with an (O, C/groups, kd, kh, kw) weight."""
    n, _, depth, height, width = _check_rank(input, 5, "Conv3d", "N, C, D, H, W")
    kd, kh, kw = abstract_of(weight).shape[2:]
    stride = _ints(stride, 3, "Conv3d", "stride")
    dilation = _ints(dilation, 3, "Conv3d", "dilation")
    mode = pad_mode.lower()
    if mode == "pad":
        pads = _pad3d(padding, "Conv3d")
    elif mode in ("same", "valid"):
        if padding not in (0, (0,) * 6, (0,) * 3):
            raise ArgumentValueError(f"Conv3d: padding {padding!r} needs pad_mode='pad', got "
                                     f"pad_mode={pad_mode!r}")
        sizes, kernel = (depth, height, width), (kd, kh, kw)
        pads = sum((same_padding(sizes[i], kernel[i], stride[i], dilation[i])
                    if mode == "same" else (0, 0) for i in range(3)), ())
    else:
        raise ArgumentValueError(f"Conv3d: `pad_mode` must be 'same', 'valid' or 'pad', got "
                                 f"{pad_mode!r}")
    out_depth = conv_out_size(depth, kd, stride[0], dilation[0], pads[0], pads[1])
    if out_depth < 1:
        raise ShapeError(f"Conv3d: kernel depth {kd} does not fit the input depth {depth}")
    x = pad(input, (0, 0, 0, 0, pads[0], pads[1])) if pads[0] or pads[1] else input
    total = None
    for tap in range(kd):
        start = tap * dilation[0]
        slab = x[:, :, start:start + stride[0] * (out_depth - 1) + 1:stride[0]]
        slab = F.reshape(F.transpose(slab, (0, 2, 1, 3, 4)), (-1,) + tuple(slab.shape[1:2])
                         + (height, width))
        part = conv2d(slab, weight[:, :, tap], None, stride[1:], "pad", pads[2:],
                      dilation[1:], groups)
        total = part if total is None else total + part
    out = F.transpose(F.reshape(total, (n, out_depth) + tuple(total.shape[1:])), (0, 2, 1, 3, 4))
    return out if bias is None else bias_add(out, bias)


def _transposed_size(size, kernel, stride, dilation, pad_mode, before, after) -> int:
    span = dilation * (kernel - 1) + 1
    if pad_mode == "same":
        return size * stride
    extra = max(span - stride, 0)
    if pad_mode == "valid":
        return size * stride + extra
    return size * stride - before - after + extra


def conv_transpose2d(input, weight, bias=None, stride=1, pad_mode="same", padding=0,
                     dilation=1, groups=1, output_padding=0):
    """The adjoint of conv2d: (N, C_in, H, W) with a (C_in, C_out/groups, kh, kw) weight gives
    (N, C_out, H', W'), H' by MindSpore's Conv2dTranspose rules for `pad_mode`, plus
    `output_padding` rows and columns at the bottom and right ("pad" mode: the sizes a strided
    conv2d maps onto the same input, each less than the stride or the dilation)."""
    n, _, height, width = _check_rank(input, 4, "Conv2dTranspose", "N, C, H, W")
    _, c_out_per_group, kh, kw = abstract_of(weight).shape
    stride = _ints(stride, 2, "Conv2dTranspose", "stride")
    dilation = _ints(dilation, 2, "Conv2dTranspose", "dilation")
    extra = _ints(output_padding, 2, "Conv2dTranspose", "output_padding")
    if any(extra) and (pad_mode != "pad" or any(
            e >= max(s, d) for e, s, d in zip(extra, stride, dilation))):
        raise ArgumentValueError(f"Conv2dTranspose: output_padding={output_padding} needs "
                                 f"pad_mode='pad' and each value below the stride or the "
                                 f"dilation (stride {stride}, dilation {dilation})")
    explicit = _ints(padding, 4, "Conv2dTranspose", "padding") if pad_mode == "pad" \
        else (0, 0, 0, 0)
    out_h = _transposed_size(height, kh, stride[0], dilation[0], pad_mode,
                             *explicit[:2]) + extra[0]
    out_w = _transposed_size(width, kw, stride[1], dilation[1], pad_mode,
                             *explicit[2:]) + extra[1]
    if pad_mode == "same":
        explicit = same_padding(out_h, kh, stride[0], dilation[0]) + same_padding(
            out_w, kw, stride[1], dilation[1])
    x_shape = (n, c_out_per_group * groups, out_h, out_w)
    out = conv2d_backprop_input(input, weight, x_shape=x_shape, stride=stride, pad=explicit,
                                dilation=dilation, group=groups)
    return out if bias is None else bias_add(out, bias)


def _fold_depth(x):
    """(N, C, D, H, W) -> (N * D, C, H, W)."""
    n, c, d, h, w = abstract_of(x).shape
    return F.reshape(F.transpose(x, (0, 2, 1, 3, 4)), (n * d, c, h, w))


def _unfold_depth(y, n: int):
    """(N * D, C, H, W) -> (N, C, D, H, W)."""
    nd, c, h, w = abstract_of(y).shape
    return F.transpose(F.reshape(y, (n, nd // n, c, h, w)), (0, 2, 1, 3, 4))


def _transposed_depth(size, kernel, stride, dilation, pad_mode, pads, output_padding):
    """(output length, first kept index of the full transposed depth axis)."""
    if pad_mode == "same":
        out = size * stride
        return out, same_padding(out, kernel, stride, dilation)[0]
    if pad_mode == "valid":
        return _transposed_size(size, kernel, stride, dilation, "valid", 0, 0), 0
    span = dilation * (kernel - 1) + 1
    return (size - 1) * stride - pads[0] - pads[1] + span + output_padding, pads[0]


def conv_transpose3d(input, weight, bias=None, stride=1, pad_mode="same", padding=0,
                     dilation=1, groups=1, output_padding=0):
    """The adjoint of conv3d: (N, C_in, D, H, W) with a (C_in, C_out/groups, kd, kh, kw)
    weight. Each depth tap is a conv_transpose2d over depth slices folded into the batch,
    placed along the output depth by a constant 0/1 matrix."""
    n, _, depth, _, _ = _check_rank(input, 5, "Conv3dTranspose", "N, C, D, H, W")
    kd = abstract_of(weight).shape[2]
    stride = _ints(stride, 3, "Conv3dTranspose", "stride")
    dilation = _ints(dilation, 3, "Conv3dTranspose", "dilation")
    pads = _pad3d(padding, "Conv3dTranspose") if pad_mode == "pad" else (0,) * 6
    out_depth, start = _transposed_depth(depth, kd, stride[0], dilation[0], pad_mode, pads[:2],
                                         output_padding)
    folded = _fold_depth(input)
    total = None
    for tap in range(kd):
        plane = conv_transpose2d(folded, weight[:, :, tap], None, stride[1:], pad_mode,
                                 pads[2:], dilation[1:], groups)
        place = np.zeros((out_depth, depth))
        for d in range(depth):
            row = d * stride[0] + tap * dilation[0] - start
            if 0 <= row < out_depth:
                place[row, d] = 1.0
        part = apply_along(_unfold_depth(plane, n), place, 2)
        total = part if total is None else total + part
    return total if bias is None else bias_add(total, bias, "NCDHW")


def _pool3d(pool2d, op, x, kernel_size, stride, padding, combine, depth_fill):
    n, _, depth, _, _ = _check_rank(x, 5, op, "N, C, D, H, W")
    kernel = _ints(kernel_size, 3, op, "kernel_size")
    stride = kernel if stride is None else _ints(stride, 3, op, "stride")
    pads = _pad3d(padding, op)
    if pads[0] or pads[1]:
        x = pad(x, (0, 0, 0, 0, pads[0], pads[1]), value=depth_fill)
    out_depth = conv_out_size(depth, kernel[0], stride[0], 1, pads[0], pads[1])
    if out_depth < 1:
        raise ShapeError(f"{op}: kernel depth {kernel[0]} does not fit the input depth {depth}")
    taps = []
    for tap in range(kernel[0]):
        slab = x[:, :, tap:tap + stride[0] * (out_depth - 1) + 1:stride[0]]
        taps.append(pool2d(_fold_depth(slab), kernel[1:], stride[1:],
                           (pads[2], pads[3], pads[4], pads[5])))
    return _unfold_depth(combine(taps), n)


def max_pool3d(x, kernel_size, stride=None, padding=0):
    """The maximum over each (kd, kh, kw) window of (N, C, D, H, W); padding counts as -inf."""
    def combine(taps):
        out = taps[0]
        for t in taps[1:]:
            out = F.maximum(out, t)
        return out

    return _pool3d(lambda v, k, s, p: max_pool2d(v, k, s, _pool_pad(p)), "MaxPool3d", x,
                   kernel_size, stride, padding, combine, float("-inf"))


def avg_pool3d(x, kernel_size, stride=None, padding=0):
    """The mean over each (kd, kh, kw) window of (N, C, D, H, W), padded zeros counted."""
    def combine(taps):
        return F.div(addn_list(taps), float(len(taps)))

    return _pool3d(lambda v, k, s, p: avg_pool2d(v, k, s, _pool_pad(p)), "AvgPool3d", x,
                   kernel_size, stride, padding, combine, 0.0)


def _pool_pad(pads):
    """(top, bottom, left, right) -> the (ph, pw) the 2-D pooling functions take; MindSpore's
    3-D pooling pads each axis symmetrically."""
    return (pads[0], pads[2])


def addn_list(items):
    total = items[0]
    for item in items[1:]:
        total = F.add(total, item)
    return total
