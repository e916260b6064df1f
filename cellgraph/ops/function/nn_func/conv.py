"""Convolutions built from conv2d and its input gradient (no kernels of their own, so their
derivatives of every order come from conv2d's): `conv1d`, `conv3d`, `conv_transpose2d`,
`conv_transpose3d`, sliding-window extraction (`unfold`, the image patches behind nn.Unfold) as
a grouped convolution with one-hot kernels, and `deformable_conv2d`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.ops.function.nn_func.image import linear_read
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import not_tensor_error
from cellgraph.primitives.conv_ops import (
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv_out_size,
    same_padding,
)
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import bias_add, bias_add_in, conv2d

__all__ = ["col2im", "conv1d", "conv3d", "conv_transpose2d", "conv_transpose3d",
           "deformable_conv2d", "fold", "unfold"]  # deformable_offsets: the class ops.operations.nn_ops.DeformableOffsets only


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
    if isinstance(padding, str):  # MindSpore's words
        raise DTypeError(f"For 'conv1d', padding must be a tuple, list or int, but got "
                         f"{type(padding)}.")
    pads = _ints(padding, 1, "Conv1d", "padding")
    pad2 = (0, 0, pads[0], pads[0])
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


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv2d, `weight` (in, out/groups, kh, kw); each output side is
    (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1: the full
    ("valid") transposed convolution less `padding` at each side, `output_padding` more (zeros
    plus bias) at the end."""
    pads, extra = _per_axis(padding), _per_axis(output_padding)
    full = conv_transpose2d_mode(input, weight, None, stride, "valid", 0, dilation, groups)
    size = [full.shape[2 + i] - 2 * pads[i] + extra[i] for i in range(2)]
    short = [max(pads[i] + size[i] - full.shape[2 + i], 0) for i in range(2)]
    if any(short):
        full = pad(full, (0, short[1], 0, short[0]))
    out = full[:, :, pads[0]:pads[0] + size[0], pads[1]:pads[1] + size[1]]
    return out if bias is None else out + F.reshape(bias, (-1, 1, 1))


def _per_axis(value):
    return (value, value) if isinstance(value, numbers.Integral) else tuple(value)


def conv_transpose2d_mode(input, weight, bias=None, stride=1, pad_mode="same", padding=0,
                          dilation=1, groups=1, output_padding=0):
    """The adjoint of conv2d (nn.Conv2dTranspose's, by `pad_mode`): (N, C_in, H, W) with a (C_in, C_out/groups, kh, kw) weight gives
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
    extra = _ints(output_padding, 3, "Conv3dTranspose", "output_padding")
    out_depth, start = _transposed_depth(depth, kd, stride[0], dilation[0], pad_mode, pads[:2],
                                         extra[0])
    folded = _fold_depth(input)
    total = None
    for tap in range(kd):
        plane = conv_transpose2d_mode(folded, weight[:, :, tap], None, stride[1:], pad_mode,
                                      pads[2:], dilation[1:], groups, extra[1:])
        place = np.zeros((out_depth, depth))
        for d in range(depth):
            row = d * stride[0] + tap * dilation[0] - start
            if 0 <= row < out_depth:
                place[row, d] = 1.0
        part = apply_along(_unfold_depth(plane, n), place, 2)
        total = part if total is None else total + part
    return total if bias is None else bias_add_in(total, bias, "NCDHW")


def addn_list(items):
    total = items[0]
    for item in items[1:]:
        total = F.add(total, item)
    return total


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


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """`ops.fold`: (N, C * kh * kw, L) columns summed back into an (N, C, H, W) image of
    `output_size` (an int32/int64 Tensor of (H, W), as MindSpore's Col2Im takes it): the
    adjoint of `unfold`, so it is unfold's pullback."""
    from cellgraph.forward import vjp

    if not hasattr(output_size, "aval"):
        raise not_tensor_error("Col2Im", "output_size", output_size)
    try:
        size = tuple(int(v) for v in np.asarray(output_size.asnumpy()).reshape(-1))
    except (TypeError, AttributeError):
        raise ArgumentValueError("fold: `output_size` must be known when the graph is built (a "
                                 "constant Tensor)") from None
    if len(size) != 2 or min(size) < 0:
        raise ArgumentValueError(f"For 'Col2Im', the value of 'output_size' must not be "
                                 f"negative, but got {list(size)}.")
    n, columns = abstract_of(input).shape[:2]
    kernel = _ints(kernel_size, 2, "fold", "kernel_size")
    image = F.zeros((n, columns // (kernel[0] * kernel[1])) + size, abstract_of(input).dtype)
    _, pullback = vjp(lambda x: unfold(x, kernel, dilation, padding, stride), image)
    return pullback(input)[0]


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """MindSpore's Col2Im: `input_x` (N, C, kh * kw, L) columns summed back into an
    (N, C, H, W) image of `output_size` (fold with the kernel positions on their own axis)."""
    n, c, k, length = abstract_of(input_x).shape
    return fold(F.reshape(input_x, (n, c * k, length)), output_size, kernel_size, dilation,
                padding_value, stride)


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


def _conv2d_transpose_class(dout, weight, input_size, *, out_channel, kernel_size,
                            pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                            dilation=1, group=1, data_format="NCHW"):
    """Conv2DBackpropInput: the gradient of Conv2D with respect to its input of shape
    `input_size`, i.e. a transposed convolution of `dout` with the OIHW `weight`."""
    op = "Conv2DTranspose"
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")
    size = tuple(int(s) for s in input_size)
    stride, dilation, pads = _backprop_geometry(op, size, kernel_size, pad_mode, pad, pad_list,
                                                stride, dilation)
    return conv2d_backprop_input(dout, weight, x_shape=size, stride=stride, pad=pads,
                                 dilation=dilation, group=group)


def _backprop_geometry(op, x_size, kernel_size, pad_mode, pad, pad_list, stride, dilation):
    """(stride, dilation, (top, bottom, left, right) pads) of a Conv2D backprop class's
    attributes, for an input of NCHW size `x_size`."""
    kernel = _ints(kernel_size, 2, op, "kernel_size")
    spatial = [v[2:] if isinstance(v, (tuple, list)) and len(v) == 4 else v
               for v in (stride, dilation)]
    stride, dilation = _ints(spatial[0], 2, op, "stride"), _ints(spatial[1], 2, op, "dilation")
    mode_name = pad_mode.lower()
    if mode_name == "pad":
        pads = tuple(pad_list) if pad_list is not None and any(pad_list) else _ints(
            pad, 4, op, "pad")
    elif mode_name == "same":
        pads = (same_padding(x_size[2], kernel[0], stride[0], dilation[0])
                + same_padding(x_size[3], kernel[1], stride[1], dilation[1]))
    elif mode_name == "valid":
        pads = (0, 0, 0, 0)
    else:
        raise ArgumentValueError(f"{op}: `pad_mode` must be 'same', 'valid' or 'pad', got "
                                 f"{pad_mode!r}")
    return stride, dilation, pads


def _conv2d_backprop_filter_class(dout, x, filter_size, *, out_channel, kernel_size,
                                  pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
                                  stride=(1, 1), dilation=(1, 1, 1, 1), group=1,
                                  data_format="NCHW"):
    """Conv2DBackpropFilter: the gradient of Conv2D with respect to its OIHW weight of shape
    `filter_size`, from the output gradient `dout` and the input `x`."""
    op = "Conv2DBackpropFilter"
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")
    # the weight's shape is filter_size's whatever out_channel says, as in MindSpore's kernel
    w_shape = tuple(int(s) for s in filter_size)
    if len(w_shape) != 4:
        raise ShapeError(f"{op}: filter_size must have 4 entries (OIHW), got {w_shape}")
    stride, dilation, pads = _backprop_geometry(op, abstract_of(x).shape, kernel_size, pad_mode,
                                                pad, pad_list, stride, dilation)
    return conv2d_backprop_filter(x, dout, w_shape=w_shape, stride=stride, pad=pads,
                                  dilation=dilation, group=group)


_TRANSPOSE_INIT = {"out_channel": None, "kernel_size": None, "pad_mode": "valid", "pad": 0,
                   "pad_list": None, "mode": 1, "stride": 1, "dilation": 1, "group": 1,
                   "data_format": "NCHW"}


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
    n, c = _checked_rank(x, 4, op)[:2]
    kh, kw = _ints(kernel_size, 2, op, "kernel_size")
    stride, dilation = _ints4(strides, op, "strides")[2:], _ints4(dilations, op, "dilations")[2:]
    top, bottom, left, right = _ints4(padding, op, "padding")
    out_c = abstract_of(weight).shape[0]
    if c % groups or c % deformable_groups or out_c % groups or \
            tuple(abstract_of(weight).shape) != (out_c, c // groups, kh, kw):
        raise ShapeError(f"{op}: weight {abstract_of(weight).shape} does not fit {c} input "
                         f"channels, groups={groups} and kernel_size={(kh, kw)}, or the channels "
                         f"do not split into deformable_groups={deformable_groups}")
    taps = kh * kw
    sampled, out_h, out_w = _deformed_taps(op, x, offsets, (kh, kw), stride, dilation,
                                           (top, bottom, left, right), deformable_groups)
    columns = F.reshape(sampled, (n, groups, (c // groups) * taps, out_h * out_w))
    kernel = F.reshape(weight, (groups, out_c // groups, (c // groups) * taps))
    out = F.reshape(F.matmul(kernel, columns), (n, out_c, out_h, out_w))
    return out if bias is None else out + F.reshape(bias, (1, out_c, 1, 1))


def _deformed_taps(op: str, x, offsets, kernel, stride, dilation, pads, dg: int,
                   positions_from_offsets: bool = False):
    """x (N, C, H, W) read at every kernel tap of every output position, moved by `offsets`
    (N, 3 * dg * kh * kw, H_out, W_out: the x offsets, the y offsets, the masks) bilinearly
    with zeros outside the image and scaled by the mask -> (N, C, kh * kw * H_out * W_out),
    H_out and W_out."""
    n, c, h, w = _checked_rank(x, 4, op)
    (kh, kw), (top, bottom, left, right) = kernel, pads
    if c % dg:
        raise ShapeError(f"{op}: the {c} channels do not split into deformable_groups={dg}")
    out_h = (h + top + bottom - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    out_w = (w + left + right - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    taps = kh * kw
    if positions_from_offsets and len(abstract_of(offsets).shape) == 4:
        # MindSpore's DeformableOffsets reads the output positions the offsets hold
        out_h, out_w = (min(a, b) for a, b in zip(abstract_of(offsets).shape[2:], (out_h, out_w)))
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
    return (F.concat(sampled, 1) if dg > 1 else sampled[0]), out_h, out_w


def deformable_offsets(x, offsets, strides, pads, kernel_size, dilations=(1, 1, 1, 1),
                       data_format="NCHW", deformable_groups=1, modulated=True):
    """MindSpore's DeformableOffsets: the deformed, masked samples of x (N, C, H, W) that
    `deformable_conv2d` contracts with its weight, laid out as (N, C, H_out * kh, W_out * kw)
    with tap (i, j) of output (p, q) at row p * kh + i, column q * kw + j."""
    op = "DeformableOffsets"
    if data_format not in ("NCHW", "NHWC"):
        raise ArgumentValueError(f"For '{op}', the 'data_format' must be 'NCHW' or 'NHWC', but "
                                 f"got {data_format!r}")
    if data_format == "NHWC":  # the same op on channel-first views, strides and dilations too
        to_first, to_last = (0, 3, 1, 2), (0, 2, 3, 1)
        out = deformable_offsets(
            F.transpose(x, to_first), F.transpose(offsets, to_first),
            tuple(_ints4(strides, op, "strides")[i] for i in to_first), pads, kernel_size,
            tuple(_ints4(dilations, op, "dilations")[i] for i in to_first), "NCHW",
            deformable_groups, modulated)
        return F.transpose(out, to_last)
    if not modulated:
        raise ArgumentValueError(f"For '{op}', only modulated=True exists, as in MindSpore")
    if abstract_of(x).dtype.name == "float16":  # sampled in float32, as MindSpore's kernel does
        out = deformable_offsets(F.cast(x, dt.float32), F.cast(offsets, dt.float32), strides, pads,
                                 kernel_size, dilations, data_format, deformable_groups)
        return F.cast(out, dt.float16)
    n, c = _checked_rank(x, 4, op)[:2]
    kh, kw = _ints(kernel_size, 2, op, "kernel_size")
    stride, dilation = _ints4(strides, op, "strides")[2:], _ints4(dilations, op, "dilations")[2:]
    sampled, out_h, out_w = _deformed_taps(op, x, offsets, (kh, kw), stride, dilation,
                                           _ints4(pads, op, "pads"), deformable_groups, True)
    taps = F.reshape(sampled, (n, c, kh, kw, out_h, out_w))
    return F.reshape(F.transpose(taps, (0, 1, 4, 2, 5, 3)), (n, c, out_h * kh, out_w * kw))


def _ints4(value, op: str, name: str) -> tuple:
    return _ints(value, 4, op, name)


def _checked_rank(x, rank: int, op: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) != rank:
        raise ShapeError(f"{op}: expected a {rank}-D (N, C, H, W) input, got shape {shape}")
    return tuple(shape)
