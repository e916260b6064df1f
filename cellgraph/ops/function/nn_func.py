"""MindSpore's `ops.function.nn_func`: activations, convolutions, pooling, resizing and sampling,
attention and losses, as compositions of the core's operations (no kernel and no rule of
their own: their gradients and batching come from the operations they are made of)."""
from __future__ import annotations

import itertools
import math
import numbers

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.derive import export
from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func import (
    _int_operand,
    _tensor,
    apply_along,
    gather_elements,
    masked_fill,
    pad,
    repeat_interleave,
    swapaxes,
)
from cellgraph.ops.function.math_func import logsumexp
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import nn_ops as N
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.conv_ops import conv2d_backprop_input, conv_out_size, same_padding
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError, UnsupportedError
from cellgraph.primitives.nn_functional import (
    argmax,
    avg_pool2d,
    bias_add,
    conv2d,
    dropout,
    max_pool2d,
    one_hot,
    pad_pairs,
)
from cellgraph.primitives.nn_ops import softmax_cross_entropy
from cellgraph.primitives.random_ops import rand
from cellgraph.primitives.sort_ops import take_along_axis

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool3d", "celu", "conv1d", "conv3d", "conv_transpose2d", "conv_transpose3d", "deformable_conv2d", "dense", "elu", "flash_attention_score", "glu", "grid_sample", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "interpolate", "intopk", "l2_loss", "leaky_relu", "logsigmoid", "max_pool3d", "max_pool_with_indices", "mish", "multi_head_attention_forward", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle", "prelu", "relu6", "rms_norm", "selu", "sigmoid_cross_entropy_with_logits", "silu", "softmin", "softshrink", "softsign", "unfold"]


def silu(input):
    return F.mul(input, F.sigmoid(input))


def pixel_shuffle(input, upscale_factor):
    """(..., C*r*r, H, W) -> (..., C, H*r, W*r)."""
    r = int(upscale_factor)
    *lead, c, h, w = abstract_of(input).shape
    if c % (r * r):
        raise ShapeError(f"pixel_shuffle: channels {c} are not divisible by {r}*{r}")
    x = F.reshape(input, (-1, c // (r * r), r, r, h, w))
    x = F.transpose(x, (0, 1, 4, 2, 5, 3))
    return F.reshape(x, (*lead, c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(..., C, H*r, W*r) -> (..., C*r*r, H, W)."""
    r = int(downscale_factor)
    *lead, c, h, w = abstract_of(input).shape
    if h % r or w % r:
        raise ShapeError(f"pixel_unshuffle: height {h} and width {w} must be divisible by {r}")
    x = F.reshape(input, (-1, c, h // r, r, w // r, r))
    x = F.transpose(x, (0, 1, 3, 5, 2, 4))
    return F.reshape(x, (*lead, c * r * r, h // r, w // r))


def relu6(x):
    return NF.clip_by_value(x, 0.0, 6.0)


def leaky_relu(input, alpha=0.2):
    return M.select(input > 0, input, input * alpha)


def elu(input_x, alpha=1.0):
    negative = M.minimum(input_x, 0.0)
    return M.select(input_x > 0, input_x, alpha * (M.exp(negative) - 1))


def celu(x, alpha=1.0):
    if float(alpha) == 0:
        raise ArgumentValueError("celu: `alpha` must not be zero")
    negative = M.minimum(x, 0.0)
    return M.maximum(x, 0.0) + alpha * (M.exp(negative / alpha) - 1)


def selu(input_x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * elu(input_x, alpha)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return NF.clip_by_value(input, float(min_val), float(max_val))


def hardsigmoid(input):
    return relu6(input + 3.0) / 6.0


def hardswish(x):
    return x * relu6(x + 3.0) / 6.0


def logsigmoid(x):
    return -NF.softplus(-x)


def softsign(x):
    return x / (1 + M.abs_(x))


def mish(x):
    return x * M.tanh(NF.softplus(x))


def softmin(x, axis=-1, *, dtype=None):
    if dtype is not None:
        x = F.cast(x, dtype)
    return N.softmax(-x, axis=normalize_axis(axis, abstract_of(x).ndim))


def glu(x, axis=-1):
    a, b = NF.split(x, abstract_of(x).shape[normalize_axis(axis, abstract_of(x).ndim)] // 2,
                    axis)
    return a * N.sigmoid(b)


def prelu(x, weight):
    """max(0, x) + weight * min(0, x), one weight per channel (axis 1) or one for all."""
    w = weight
    ndim = abstract_of(x).ndim
    if abstract_of(weight).size not in (1, None) and ndim > 1:
        w = F.reshape(weight, (-1,) + (1,) * (ndim - 2))
    return M.maximum(x, 0.0) + w * M.minimum(x, 0.0)


def dense(input, weight, bias=None):
    """input @ weight^T + bias: `weight` (out, in) or (in,) (then the last axis is summed away),
    `bias` broadcast over the output's last axis."""
    x, w = _tensor(input, "dense"), _tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2):
        raise ShapeError(f"dense: `weight` must be 1-D or 2-D, got shape {w.shape}")
    if x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ShapeError(f"dense: the last dimension of `input` {x.shape} must equal the input "
                         f"features of `weight` {w.shape}")
    out = F.matmul(input, weight if w.ndim == 1 else A.transpose(weight, perm=(1, 0)))
    return out if bias is None else M.add(out, bias)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    _tensor(input, "softshrink")
    if lambd < 0:
        raise ArgumentValueError(f"softshrink: `lambd` must be non-negative, got {lambd}")
    return M.sub(input, NF.clamp(input, -lambd, lambd))


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    _tensor(input, "hardshrink")
    return M.select(M.greater(M.abs_(input), lambd), input, A.zeros_like(input))


def _average_matrix(size_in: int, size_out: int) -> np.ndarray:
    """(size_out, size_in): row i averages adaptive bin i, [floor(i in / out),
    ceil((i + 1) in / out))."""
    rows = np.zeros((size_out, size_in))
    for i in range(size_out):
        start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
        rows[i, start:stop] = 1.0 / (stop - start)
    return rows


def _adaptive_avg_pool(input, output_size, rank: int, op: str):
    x = _tensor(input, op)
    if x.ndim not in (rank + 1, rank + 2):
        raise ShapeError(f"{op}: expected a {rank + 1}-D or {rank + 2}-D Tensor, got shape "
                         f"{x.shape}")
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (
        output_size,) * rank
    out = input
    for axis, size in zip(range(x.ndim - rank, x.ndim), sizes):
        if size is not None and (isinstance(size, bool) or size <= 0):
            raise ArgumentValueError(f"{op}: output sizes must be positive, got {output_size}")
        out = apply_along(out, _average_matrix(x.shape[axis], size or x.shape[axis]), axis)
    return out


def adaptive_avg_pool1d(input, output_size):
    """Averages of (N, C, L) over `output_size` adaptive bins of L."""
    return _adaptive_avg_pool(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """Averages of ([N,] C, H, W) over an `output_size` grid of adaptive bins (an int for
    both, None to keep a size)."""
    return _adaptive_avg_pool(input, output_size, 2, "adaptive_avg_pool2d")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis."""
    diff = M.add(M.sub(x1, x2), eps)
    return _lp_norm(diff, -1, p, keepdim, 0.0)


def _lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """(sum |x|^p)^(1/p) over `axis`; a zero norm comes out as `epsilon`, as MindSpore's."""
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    x = M.abs_(input)
    if p == 1:
        out = F.reduce_sum(x, axes, keep_dims)
    else:
        out = M.pow_(F.reduce_sum(M.pow_(x, p), axes, keep_dims), 1.0 / p)
    return M.maximum(out, epsilon)


def _nearest(size_in: int, size_out: int, align_corners: bool) -> np.ndarray:
    if align_corners and size_out > 1:
        src = np.round(np.arange(size_out) * (size_in - 1) / (size_out - 1))
    else:
        src = np.floor(np.arange(size_out) * size_in / size_out)
    matrix = np.zeros((size_out, size_in))
    matrix[np.arange(size_out), np.minimum(src.astype(int), size_in - 1)] = 1.0
    return matrix


def _linear(size_in: int, size_out: int, align_corners: bool, half_pixel: bool) -> np.ndarray:
    """Weights of linear interpolation: align_corners maps the end pixels onto each other;
    half_pixel samples at pixel centres (PyTorch's default); otherwise src = i * in / out."""
    i = np.arange(size_out, dtype=np.float64)
    if align_corners:
        src = i * (size_in - 1) / (size_out - 1) if size_out > 1 else np.zeros(size_out)
    elif half_pixel:
        src = np.maximum((i + 0.5) * size_in / size_out - 0.5, 0.0)
    else:
        src = i * size_in / size_out
    low = np.minimum(np.floor(src).astype(int), size_in - 1)
    high = np.minimum(low + 1, size_in - 1)
    frac = src - low
    matrix = np.zeros((size_out, size_in))
    np.add.at(matrix, (np.arange(size_out), low), 1.0 - frac)
    np.add.at(matrix, (np.arange(size_out), high), frac)
    return matrix


def _sizes(shape, size, scale_factor) -> tuple:
    spatial = tuple(shape[2:])
    if (size is None) == (scale_factor is None):
        raise ArgumentValueError("interpolate: give exactly one of `size` and `scale_factor`")
    if size is not None:
        return tuple(size) if isinstance(size, (tuple, list)) else (size,) * len(spatial)
    scale = scale_factor if isinstance(scale_factor, (tuple, list)) else (
        scale_factor,) * len(spatial)
    return tuple(int(np.floor(n * s)) for n, s in zip(spatial, scale))


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial axes (after N, C): "nearest", or "linear"/"bilinear"/"trilinear"
    (pixel-centre sampling unless align_corners)."""
    shape = abstract_of(input).shape
    sizes = _sizes(shape, size, scale_factor)
    for n, m in zip(shape[2:], sizes):
        if n == 0 and m:  # nothing to sample from
            if int(np.prod(shape[:2])):
                raise ShapeError(f"interpolate: cannot resize an empty spatial axis of input "
                                 f"shape {tuple(shape)} to size {m}")
            return F.zeros(tuple(shape[:2]) + tuple(sizes), abstract_of(input).dtype)
    if mode == "nearest":
        if align_corners:
            raise ArgumentValueError("interpolate: align_corners needs a linear mode")
        matrices = [_nearest(n, m, False) for n, m in zip(shape[2:], sizes)]
    elif mode in ("linear", "bilinear", "trilinear"):
        matrices = [_linear(n, m, bool(align_corners), True) for n, m in zip(shape[2:], sizes)]
    else:
        raise ArgumentValueError(f"interpolate: `mode` must be 'nearest', 'linear', 'bilinear' "
                                 f"or 'trilinear', got {mode!r}")
    for axis, matrix in enumerate(matrices, 2):
        input = apply_along(input, matrix, axis)
    return input


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
    kernel = NF._pair(kernel_size, op, "kernel_size")
    stride = kernel if strides is None else NF._pair(strides, op, "strides")
    pad = _pair_nonneg(pads, op)
    dil = NF._pair(dilation, op, "dilation")
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


_MODES = ("bilinear", "nearest")


_PADDING = ("zeros", "border", "reflection")


def _unnormalize(coord, size: int, align_corners: bool):
    """[-1, 1] -> pixel coordinates: the corner pixels' centres, or their outer edges."""
    if align_corners:
        return (coord + 1.0) * (0.5 * (size - 1))
    return ((coord + 1.0) * size - 1.0) * 0.5


def _reflect(coord, low: float, high: float):
    """Fold `coord` back into [low, high] by repeated reflection at its ends."""
    span = high - low
    if span <= 0:
        return coord * 0.0
    dist = M.abs_(coord - low)
    flips = R.floor(dist / span)
    extra = dist - flips * span
    even = M.equal(R.floor_mod(flips, 2.0), 0.0)
    return M.select(even, extra + low, (span - extra) + low)


def _clip(coord, size: int):
    return M.minimum(M.maximum(coord, 0.0), float(size - 1))


def _source_coord(coord, size: int, padding_mode: str, align_corners: bool):
    coord = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        return _clip(coord, size)
    if padding_mode == "reflection":
        if align_corners:
            return _reflect(coord, 0.0, float(size - 1))
        return _clip(_reflect(coord, -0.5, size - 0.5), size)
    return coord


def _gather(flat, index, channels: int):
    """flat (N, C, P), index (N, Q) int -> (N, C, Q)."""
    n, q = abstract_of(index).shape
    index = F.broadcast_to(F.reshape(index, (n, 1, q)), (n, channels, q))
    return take_along_axis(flat, index, axis=2)


def _corner_read(flat, corner, sizes, channels: int, padding_mode: str):
    """Values at integer coordinates `corner` (one float Tensor (N, Q) per spatial axis, in
    input axis order), zero where a coordinate is out of range under 'zeros'."""
    index, valid, stride = None, None, 1
    for coord, size in zip(reversed(corner), reversed(sizes)):
        inside = M.logical_and(M.greater_equal(coord, 0.0), M.less_equal(coord, size - 1.0))
        valid = inside if valid is None else M.logical_and(valid, inside)
        term = F.cast(_clip(coord, size), dt.int64) * stride
        index = term if index is None else index + term
        stride *= size
    values = _gather(flat, index, channels)
    if padding_mode == "zeros":
        values = values * F.expand_dims(F.cast(valid, abstract_of(flat).dtype), 1)
    return values


def _check(input, grid, mode, padding_mode, align_corners) -> int:
    x, g = abstract_of(input), abstract_of(grid)
    d = len(x.shape) - 2
    if d not in (2, 3):
        raise ShapeError(f"grid_sample: expected a 4-D or 5-D input, got shape {x.shape}")
    if len(g.shape) != d + 2 or g.shape[0] != x.shape[0] or g.shape[-1] != d:
        raise ShapeError(f"grid_sample: expected a grid of shape (N, ..., {d}) with N = "
                         f"{x.shape[0]} and rank {d + 2} for input shape {x.shape}, got "
                         f"{g.shape}")
    if not x.dtype.is_float or g.dtype != x.dtype:
        raise DTypeError(f"grid_sample: expected float input and a grid of the same dtype, "
                         f"got {x.dtype} and {g.dtype}")
    if mode not in _MODES:
        raise ArgumentValueError(f"grid_sample: `mode` must be one of {_MODES}, got {mode!r}")
    if padding_mode not in _PADDING:
        raise ArgumentValueError(f"grid_sample: `padding_mode` must be one of {_PADDING}, got "
                                 f"{padding_mode!r}")
    if not isinstance(align_corners, bool):
        raise ArgumentValueError(f"grid_sample: `align_corners` must be a bool, got "
                                 f"{align_corners!r}")
    return d


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """out[n, :, *p] = input[n, :] sampled at grid[n, *p] (x, y[, z] in [-1, 1])."""
    d = _check(input, grid, mode, padding_mode, align_corners)
    shape = abstract_of(input).shape
    n, channels, sizes = shape[0], shape[1], tuple(shape[2:])
    out_sizes = tuple(abstract_of(grid).shape[1:-1])
    q = int(np.prod(out_sizes))
    flat = F.reshape(input, (n, channels, int(np.prod(sizes))))
    points = F.reshape(grid, (n, q, d))
    # grid's last axis is (x, y[, z]): the reverse of the input's spatial axis order
    coords = [_source_coord(F.getitem(points, (slice(None), slice(None), d - 1 - axis)),
                            sizes[axis], padding_mode, align_corners) for axis in range(d)]
    if mode == "nearest":
        out = _corner_read(flat, [R.round_(c) for c in coords], sizes, channels, padding_mode)
    else:
        out = linear_read(flat, coords, sizes, padding_mode)
    return F.reshape(out, (n, channels) + out_sizes)


def linear_read(flat, coords, sizes, padding_mode="zeros"):
    """flat (N, C, P) read at fractional pixel coordinates (one (N, Q) Tensor per spatial
    axis of `sizes`, in axis order), mixing the 2**d surrounding points -> (N, C, Q)."""
    channels = abstract_of(flat).shape[1]
    lows = [A.stop_gradient(R.floor(c)) for c in coords]
    fracs = [c - low for c, low in zip(coords, lows)]
    out = None
    for corner in itertools.product((0, 1), repeat=len(coords)):
        weight = None
        for bit, frac in zip(corner, fracs):
            w = frac if bit else 1.0 - frac
            weight = w if weight is None else weight * w
        term = _corner_read(flat, [low + bit for low, bit in zip(lows, corner)], sizes,
                            channels, padding_mode) * F.expand_dims(weight, 1)
        out = term if out is None else out + term
    return out


def grid_sampler_impl(input, grid, interpolation_mode="bilinear", padding_mode="zeros",
                  align_corners=False):
    return grid_sample(input, grid, interpolation_mode, padding_mode, align_corners)


_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND")


_NO_BAND = 2147483647


def _to_bnsd(x, layout: str, heads: int, name: str):
    """A query/key/value in `layout` as (B, N, S, D)."""
    shape = abstract_of(x).shape
    rank = 4 if layout in ("BNSD", "BSND") else 3
    if len(shape) != rank:
        raise ShapeError(f"flash_attention_score: expected a {rank}-D `{name}` for "
                         f"input_layout {layout!r}, got shape {shape}")
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    if layout == "SBH":
        x = swapaxes(x, 0, 1)
        shape = abstract_of(x).shape
    b, s, h = shape
    if h % heads:
        raise ShapeError(f"flash_attention_score: the hidden size {h} of `{name}` is not a "
                         f"multiple of {heads} heads")
    return F.transpose(F.reshape(x, (b, s, heads, h // heads)), (0, 2, 1, 3))


def _from_bnsd(x, layout: str):
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    b, n, s, d = abstract_of(x).shape
    x = F.reshape(F.transpose(x, (0, 2, 1, 3)), (b, s, n * d))
    return swapaxes(x, 0, 1) if layout == "SBH" else x


def _discarded(s1: int, s2: int, sparse_mode: int, pre_tokens: int, next_tokens: int):
    """The positions a sparse mode masks by itself (True = discarded), or None."""
    rows, cols = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse_mode == 2:  # causal from the top-left corner
        return cols > rows
    if sparse_mode == 3:  # causal from the bottom-right corner
        return cols > rows + (s2 - s1)
    if sparse_mode == 0 and (pre_tokens, next_tokens) != (_NO_BAND, _NO_BAND):
        return (cols - rows > next_tokens) | (rows - cols > pre_tokens)
    return None


def _unpack_bits(mask, s2: int):
    """MindSpore's uint8 drop_mask, eight keep-bits per byte, lowest bit first -> 0/1."""
    shape = abstract_of(mask).shape
    bits = [F.cast(M.not_equal(R.bitwise_and(R.bitwise_right_shift(mask, k), 1), 0),
                   dt.float32)
            for k in range(8)]
    stacked = F.stack(bits, -1)
    return F.getitem(F.reshape(stacked, tuple(shape[:-1]) + (shape[-1] * 8,)),
                     (Ellipsis, slice(0, s2)))


def _attention(query, key, value, head_num, real_shift, drop_mask, attn_mask, keep_prob,
               scalar_value, pre_tokens, next_tokens, input_layout, sparse_mode):
    """(softmax_max, softmax_sum, attention_out): the row maxima and sums of exp(score - max)
    that the fused kernel keeps for its backward pass, and the attention output."""
    op = "flash_attention_score"
    if input_layout not in _LAYOUTS:
        raise UnsupportedError(f"{op}: input_layout must be one of {_LAYOUTS} on this "
                               f"platform, got {input_layout!r}")
    if sparse_mode not in (0, 1, 2, 3):
        raise UnsupportedError(f"{op}: sparse_mode {sparse_mode} (prefix and band "
                               f"compression modes) is not supported; use 0-3")
    if not 0 < keep_prob <= 1:
        raise ArgumentValueError(f"{op}: keep_prob must be in (0, 1], got {keep_prob}")
    dtype = abstract_of(query).dtype
    if not dtype.is_float or abstract_of(key).dtype != dtype or abstract_of(value).dtype != dtype:
        raise DTypeError(f"{op}: expected query, key and value of one float dtype, got "
                         f"{dtype}, {abstract_of(key).dtype}, {abstract_of(value).dtype}")
    q = _to_bnsd(query, input_layout, head_num, "query")
    head_dim = abstract_of(q).shape[-1]
    kv_heads = (abstract_of(key).shape[-1] // head_dim if input_layout in ("BSH", "SBH")
                else abstract_of(key).shape[1 if input_layout == "BNSD" else 2])
    if kv_heads < 1 or head_num % kv_heads:
        raise ShapeError(f"{op}: the key's {kv_heads} heads must divide head_num {head_num}")
    k = _to_bnsd(key, input_layout, kv_heads, "key")
    v = _to_bnsd(value, input_layout, kv_heads, "value")
    if kv_heads != head_num:  # grouped-query attention: each key head serves a group
        k = repeat_interleave(k, head_num // kv_heads, 1)
        v = repeat_interleave(v, head_num // kv_heads, 1)
    scores = F.matmul(q, swapaxes(k, -1, -2)) * scalar_value
    if real_shift is not None:
        scores = scores + F.cast(real_shift, dtype)
    s1, s2 = abstract_of(scores).shape[-2:]
    own = _discarded(s1, s2, sparse_mode, pre_tokens, next_tokens)
    low = float(np.finfo(dtype.np).min)
    if own is not None:
        scores = masked_fill(scores, A.cast(own, dtype=dt.bool_), low)
    elif attn_mask is not None:
        scores = masked_fill(scores, F.cast(attn_mask, dt.bool_), low)
    row_max = F.reduce_max(scores, -1, True)
    exp = M.exp(scores - F.stop_gradient(row_max))
    row_sum = F.reduce_sum(exp, -1, True)
    probs = exp / row_sum
    if keep_prob < 1:
        keep = (_unpack_bits(drop_mask, s2) if drop_mask is not None
                else F.cast(M.less(rand(abstract_of(probs).shape), keep_prob), dt.float32))
        probs = probs * F.cast(keep, dtype) / keep_prob
    out = _from_bnsd(F.matmul(probs, v), input_layout)
    stats = tuple(F.broadcast_to(F.cast(t, dt.float32), abstract_of(t).shape[:-1] + (8,))
                  for t in (row_max, row_sum))
    return stats[0], stats[1], out


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
                          actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0,
                          pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """Dropout(Softmax(Mask(scalar_value * Q K^T + real_shift, attn_mask)), keep_prob) V in
    `input_layout`; attn_mask is True (1) where a position is discarded."""
    if prefix is not None or actual_seq_qlen is not None or actual_seq_kvlen is not None:
        raise UnsupportedError("flash_attention_score: prefix and actual_seq_qlen/kvlen "
                               "belong to the TND layout and sparse_mode 5+, which this "
                               "platform does not provide")
    return _attention(query, key, value, head_num, real_shift, drop_mask, attn_mask,
                      keep_prob, scalar_value, pre_tokens, next_tokens, input_layout,
                      sparse_mode)[2]


def _flash_attention_class(query, key, value, real_shift=None, drop_mask=None,
                           padding_mask=None, attn_mask=None, prefix=None,
                           actual_seq_qlen=None, actual_seq_kvlen=None, *, head_num,
                           keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                           next_tokens=2147483647, inner_precise=0, input_layout="BSH",
                           sparse_mode=0):
    """FlashAttentionScore's (softmax_max, softmax_sum, softmax_out, attention_out); the
    kernel leaves softmax_out empty."""
    row_max, row_sum, out = _attention(query, key, value, head_num, real_shift, drop_mask,
                                       attn_mask, keep_prob, scale_value, pre_tokens,
                                       next_tokens, input_layout, sparse_mode)
    empty = F.reshape(F.cast(row_max, abstract_of(query).dtype), (-1,))[0:0]
    return row_max, row_sum, empty, out


def flash_attention_score_impl(query, key, value, real_shift=None, drop_mask=None,
                               padding_mask=None, attn_mask=None, prefix=None,
                               actual_seq_qlen=None, actual_seq_kvlen=None, head_num=1,
                               keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                               next_tokens=2147483647, inner_precise=0, input_layout="BSH",
                               sparse_mode=0):
    """The generated call function: every argument at call time, in the class's order."""
    return _flash_attention_class(query, key, value, real_shift, drop_mask, padding_mask,
                                  attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen,
                                  head_num=head_num, keep_prob=keep_prob,
                                  scale_value=scale_value, pre_tokens=pre_tokens,
                                  next_tokens=next_tokens, inner_precise=inner_precise,
                                  input_layout=input_layout, sparse_mode=sparse_mode)


def _additive_mask(mask, dtype):
    """A bool mask (True = not attended) as -inf to add; a float mask as it is."""
    if abstract_of(mask).dtype == dt.bool_:
        return masked_fill(F.zeros(abstract_of(mask).shape, dtype), mask, float("-inf"))
    return F.cast(mask, dtype)


def _project(x, weight, bias):
    y = F.matmul(x, swapaxes(weight, 0, 1))
    return y if bias is None else y + bias


def _masks_for_one_more_key(attn_mask, key_padding_mask):
    """The masks with a column for one more key position, never masked."""
    if attn_mask is not None:
        attn_mask = F.concat((attn_mask, F.zeros_like(F.getitem(
            attn_mask, (Ellipsis, slice(0, 1))))), -1)
    if key_padding_mask is not None:
        key_padding_mask = F.concat((key_padding_mask, F.zeros_like(F.getitem(
            key_padding_mask, (slice(None), slice(0, 1))))), -1)
    return attn_mask, key_padding_mask


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False,
                                 k_is_v=False, q_is_k=False, dtype=dt.float32):
    """(attn_output (L, N, E), attn_weights (N, L, S) averaged over heads, or per head) for
    sequences (L, N, E); masks: bool True = not attended, float = added to the scores."""
    op = "multi_head_attention_forward"
    if is_causal:  # MindSpore adds its boolean lower triangle to the scores as numbers
        raise UnsupportedError(f"{op}: is_causal=True is not supported; pass the causal mask "
                               f"as attn_mask")
    if dt.as_dtype(dtype) != dt.float32:
        raise UnsupportedError(f"{op}: dtype={dtype} is not supported (the scores are scaled in "
                               f"the inputs' dtype); use float32")
    length, batch, embed = abstract_of(query).shape
    if embed != embed_dim_to_check or embed % num_heads:
        raise ShapeError(f"{op}: expected embedding size {embed_dim_to_check} divisible by "
                         f"num_heads={num_heads}, got query shape {(length, batch, embed)}")
    if static_k is not None or static_v is not None:
        raise UnsupportedError(f"{op}: static_k/static_v are not supported")
    head = embed // num_heads
    if use_separate_proj_weight:
        weights = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        weights = tuple(F.getitem(in_proj_weight, slice(i * embed, (i + 1) * embed))
                        for i in range(3))
    biases = (None,) * 3 if in_proj_bias is None else tuple(
        F.getitem(in_proj_bias, slice(i * embed, (i + 1) * embed)) for i in range(3))
    q, k, v = (_project(x, w, b) for x, w, b in zip((query, key, value), weights, biases))
    if bias_k is not None and bias_v is not None:  # one more key/value position
        k = F.concat((k, F.broadcast_to(F.reshape(bias_k, (1, 1, embed)), (1, batch, embed))))
        v = F.concat((v, F.broadcast_to(F.reshape(bias_v, (1, 1, embed)), (1, batch, embed))))
        attn_mask, key_padding_mask = _masks_for_one_more_key(attn_mask, key_padding_mask)

    def heads(x):  # (S, N, E) -> (N, H, S, head)
        s = abstract_of(x).shape[0]
        return F.transpose(F.reshape(x, (s, batch, num_heads, head)), (1, 2, 0, 3))

    q, k, v = heads(q) * (1.0 / math.sqrt(head)), heads(k), heads(v)
    if add_zero_attn:
        k, v = (F.concat((t, F.zeros_like(F.getitem(t, (Ellipsis, slice(0, 1), slice(None))))),
                         2) for t in (k, v))
        attn_mask, key_padding_mask = _masks_for_one_more_key(attn_mask, key_padding_mask)
    scores = F.matmul(q, swapaxes(k, -1, -2))  # (N, H, L, S)
    s = abstract_of(scores).shape[-1]
    if attn_mask is not None:
        mask = _additive_mask(attn_mask, abstract_of(scores).dtype)
        if len(abstract_of(mask).shape) == 3:
            mask = F.reshape(mask, (batch, num_heads, length, s))
        scores = scores + mask
    if key_padding_mask is not None:
        padding = _additive_mask(key_padding_mask, abstract_of(scores).dtype)
        scores = scores + F.reshape(padding, (batch, 1, 1, s))
    weights = F.softmax(scores, -1)
    if training and dropout_p > 0:
        weights = dropout(weights, dropout_p)
    out = F.reshape(F.transpose(F.matmul(weights, v), (2, 0, 1, 3)), (length, batch, embed))
    out = _project(out, out_proj_weight, out_proj_bias)
    return out, (F.reduce_mean(weights, 1) if average_attn_weights else weights)


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


def intopk(x1, x2, k):
    """For each row i, whether x1[i, x2[i]] is among the row's k largest values; ties at the
    boundary count as in (fewer than k values are strictly greater), a non-finite target or an
    out-of-range label does not."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise DTypeError(f"intopk: expected an int `k`, got {k!r}")
    t1, t2 = abstract_of(x1), abstract_of(_int_operand(x2, "x2", "intopk"))
    if t1.ndim != 2 or t2.shape != t1.shape[:1]:
        raise ShapeError(f"intopk: expected x1 of shape (N, C) and x2 of shape (N,), got "
                         f"{t1.shape} and {t2.shape}")
    labels = F.cast(x2, dt.int64)
    valid = (labels >= 0) & (labels < t1.shape[1])
    safe = F.select(valid, labels, F.zeros_like(labels))
    target = gather_elements(x1, 1, F.reshape(safe, (-1, 1)))
    greater = F.reduce_sum(F.cast(x1 > target, dt.int32), 1)
    finite = F.reshape(F.isfinite(target), (-1,))
    return (greater < int(k)) & finite & valid


def softmax_cross_entropy_with_logits(logits, labels):
    """(loss, backprop): per row -sum(labels * log_softmax(logits)) and its gradient with
    respect to the logits, softmax(logits) - labels, checked as MindSpore's primitive checks
    them (float16/float32, one (N, C) shape) before the fused `softmax_cross_entropy`."""
    op = "SoftmaxCrossEntropyWithLogits"
    lt, yt = abstract_of(logits), abstract_of(labels)
    for name, t in (("logits", lt), ("labels", yt)):
        if t.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"{op}: expected `{name}` of float16 or float32, got {t.dtype}")
    if lt.ndim != 2 or lt.shape != yt.shape:
        raise ShapeError(f"{op}: expected logits and labels of one shape (N, C), got "
                         f"{lt.shape} and {yt.shape}")
    return softmax_cross_entropy(logits, labels)


def _float_pair(op: str, logits, labels) -> None:
    for value in (logits, labels):
        if not abstract_of(value).dtype.is_float:
            raise DTypeError(f"{op}: expected float logits and labels, got "
                             f"{abstract_of(value).dtype}")
    if abstract_of(logits).shape != abstract_of(labels).shape:
        raise ShapeError(f"{op}: logits of shape {abstract_of(logits).shape} and labels of "
                         f"shape {abstract_of(labels).shape} must have one shape")


def sigmoid_cross_entropy_with_logits(logits, label):
    """Elementwise max(x, 0) - x * z + log(1 + exp(-|x|)), stable for large |x|."""
    _float_pair("SigmoidCrossEntropyWithLogits", logits, label)
    return M.add(M.sub(M.maximum(logits, 0.0), M.mul(logits, label)),
                 NF.softplus(M.neg(M.abs_(logits))))


def l2_loss(input_x):
    """sum(x ** 2) / 2, a scalar of x's dtype."""
    return M.div(F.reduce_sum(M.mul(input_x, input_x)), 2.0)


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
