"""Convolutions built from conv2d and its input gradient (no kernels of their own, so their
derivatives of every order come from conv2d's):

* `conv1d`: an NCW input is an NC1W image convolved with an O,I,1,K weight;
* `conv3d`: one conv2d per kernel depth tap over depth slices folded into the batch, summed;
* `conv_transpose2d`: conv2d_backprop_input, the adjoint of conv2d, with the output size
  chosen by MindSpore's rules for pad_mode "same", "valid" and "pad".
"""
from __future__ import annotations

import numbers

from . import functional as F
from .conv_ops import conv2d_backprop_input, conv_out_size, same_padding
from .core import abstract_of
from .errors import ArgumentValueError, DTypeError, ShapeError
from .nn_functional import bias_add, conv2d, pad

__all__ = ["conv1d", "conv3d", "conv_transpose2d"]


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
                     dilation=1, groups=1):
    """The adjoint of conv2d: (N, C_in, H, W) with a (C_in, C_out/groups, kh, kw) weight gives
    (N, C_out, H', W'), H' by MindSpore's Conv2dTranspose rules for `pad_mode`."""
    n, _, height, width = _check_rank(input, 4, "Conv2dTranspose", "N, C, H, W")
    _, c_out_per_group, kh, kw = abstract_of(weight).shape
    stride = _ints(stride, 2, "Conv2dTranspose", "stride")
    dilation = _ints(dilation, 2, "Conv2dTranspose", "dilation")
    explicit = _ints(padding, 4, "Conv2dTranspose", "padding") if pad_mode == "pad" \
        else (0, 0, 0, 0)
    out_h = _transposed_size(height, kh, stride[0], dilation[0], pad_mode, *explicit[:2])
    out_w = _transposed_size(width, kw, stride[1], dilation[1], pad_mode, *explicit[2:])
    if pad_mode == "same":
        explicit = same_padding(out_h, kh, stride[0], dilation[0]) + same_padding(
            out_w, kw, stride[1], dilation[1])
    x_shape = (n, c_out_per_group * groups, out_h, out_w)
    out = conv2d_backprop_input(input, weight, x_shape=x_shape, stride=stride, pad=explicit,
                                dilation=dilation, group=groups)
    return out if bias is None else bias_add(out, bias)
