"""Pooling as compositions: 3-D pooling per depth tap over 2-D pooling, adaptive average pooling
as products with averaging matrices, and max pooling that also says where each maximum came
from (`max_pool_with_indices`, behind `MaxPoolWithIndices` and `MaxPoolWithMask`)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _tensor, is_tensor
from cellgraph.ops.function.array_func.indexing import apply_along, gather_elements
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.ops.function.nn_func.conv import (
    _check_rank,
    _fold_depth,
    _ints,
    _pad3d,
    _unfold_depth,
    addn_list,
)
from cellgraph.ops.function.nn_func.image import _average_matrix
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import tensor_dtype_error
from cellgraph.primitives.conv_ops import conv_out_size
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
    ShapeRunError,
)
from cellgraph.primitives.nn_functional import (
    _pair,
    _unsupported,
    argmax,
    max_pool2d,
    one_hot,
    pad_pairs,
)
from cellgraph.primitives.nn_functional import argmax as _argmax
from cellgraph.primitives.random_ops import draw_uniform
from cellgraph.primitives.sort_ops import take_along_axis, tensor_scatter_elements
from cellgraph.runtime.tensor import Tensor

from .window_pool import avg_pool2d

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "avg_pool1d",
    "avg_pool3d",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "lp_pool1d",
    "lp_pool2d",
    "max_pool_with_indices",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]


def _per_axis(value, nd: int, op: str, name: str) -> tuple:
    """An int, or a tuple of 1 or `nd` ints, as `nd` ints."""
    items = (value,) if isinstance(value, numbers.Integral) else tuple(value)
    if len(items) == 1:
        items = items * nd
    if len(items) != nd or any(isinstance(v, bool) or not isinstance(v, numbers.Integral)
                               for v in items):
        raise ArgumentValueError(f"{op}: `{name}` must be an int or a tuple of {nd} ints, got "
                                 f"{value!r}")
    return tuple(int(v) for v in items)


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


def adaptive_avg_pool3d(input, output_size):
    """Averages of ([N,] C, D, H, W) over an `output_size` grid of adaptive bins (an int for
    all three, None to keep a size)."""
    return _adaptive_avg_pool(input, output_size, 3, "adaptive_avg_pool3d")


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


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The maximum over each (kd, kh, kw) window of (N, C, D, H, W); padding counts as -inf."""
    _unsupported("MaxPool3D", dilation=(tuple(_ints(dilation, 3, "MaxPool3D", "dilation")),
                                        (1, 1, 1)),
                 ceil_mode=(ceil_mode, False), return_indices=(return_indices, False))

    def combine(taps):
        out = taps[0]
        for t in taps[1:]:  # a tie keeps the earlier tap, which takes the whole gradient
            out = F.select(F.greater(t, out), t, out)
        return out

    return _pool3d(lambda v, k, s, p: max_pool2d(v, k, s, _pool_pad(p)), "MaxPool3d", x,
                   kernel_size, stride, padding, combine, float("-inf"))


def same_max_pool3d(x, kernel_size, stride):
    """max_pool3d with MindSpore's 'SAME' windows: ceil(size / stride) outputs an axis, x padded
    with -inf by the cells they need, the odd one after."""
    kernel, stride = _last3(kernel_size), _last3(stride)
    pairs = [(0, 0), (0, 0)]
    for size, k, st in zip(abstract_of(x).shape[2:], kernel, stride):
        total = max((-(-size // st) - 1) * st + k - size, 0)
        pairs.append((total // 2, total - total // 2))
    return max_pool3d(pad_pairs(x, tuple(pairs), float("-inf")), kernel, stride)


def _last3(value) -> tuple:
    items = (value,) * 3 if isinstance(value, int) else tuple(value)
    return items[2:] if len(items) == 5 else items  # (1, 1, d, h, w), as MindSpore takes it


def _check_avg_pool1d(kernel_size, stride, padding, ceil_mode, count_include_pad) -> int:
    """The padding as an int, the options checked as MindSpore's avg_pool1d checks them (a
    tuple stride passes its type check, then fails as not an int, as in MindSpore)."""
    op = "avg_pool1d"
    for name, value, kinds in (("kernel_size", kernel_size, (int,)),
                               ("stride", stride, (int, tuple)),
                               ("ceil_mode", ceil_mode, (bool,)),
                               ("count_include_pad", count_include_pad, (bool,))):
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            names = f"one of {[k.__name__ for k in kinds]}" if len(kinds) > 1 else \
                f"'{kinds[0].__name__}'"
            raise DTypeError(f"For '{op}', the type of '{name}' should be {names}, but got "
                             f"type '{type(value).__name__}'.")
    for name, value in (("kernel_size", kernel_size), ("stride", stride)):
        if not isinstance(value, int):
            raise DTypeError(f"For '{op}', the '{name}' must be int, but got "
                             f"'{type(value).__name__}'")
        if value < 1:
            raise ArgumentValueError(f"For '{op}', the '{name}' must be int and must >= 1, but "
                                     f"got '{value}' with type 'int'.")
    if isinstance(padding, tuple):
        if len(padding) != 1:
            raise ArgumentValueError("For avg_pool1d, padding should be int or tuple of "
                                     "length 1.")
        padding = padding[0]
    elif isinstance(padding, bool) or not isinstance(padding, int):
        raise DTypeError("For avg_pool1d, padding should be int or tuple of length 1.")
    if isinstance(padding, bool) or not isinstance(padding, int) or padding < 0:
        raise ArgumentValueError(f"For '{op}', the 'padding' must be int and must >= 0, but "
                                 f"got '{padding}' with type 'int'.")
    return padding


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    """The mean over each window of `kernel_size` along the last axis of (N, C, L), `padding`
    zeros on both ends (counted in the divisor with `count_include_pad`)."""
    _tensor(input_x, "avg_pool1d")
    padding = _check_avg_pool1d(kernel_size, stride, padding, ceil_mode, count_include_pad)
    _check_rank(input_x, 3, "avg_pool1d", "(N, C, L)")
    out = avg_pool2d(F.expand_dims(input_x, 2), (1, kernel_size), (1, stride),
                     (0, 0, padding, padding), ceil_mode, count_include_pad)
    return F.squeeze(out, 2)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """The mean over each (kd, kh, kw) window of (N, C, D, H, W), padded zeros counted; with
    `divisor_override` (non-zero) the window's sum over that instead."""
    _unsupported("AvgPool3D", ceil_mode=(ceil_mode, False),
                 count_include_pad=(bool(count_include_pad), True))

    def combine(taps):
        return F.div(addn_list(taps), float(len(taps)))

    out = _pool3d(lambda v, k, s, p: avg_pool2d(v, k, s, _pool_pad(p)), "AvgPool3d", input_x,
                  kernel_size, stride, padding, combine, 0.0)
    if divisor_override:
        window = math.prod(_ints(kernel_size, 3, "AvgPool3d", "kernel_size"))
        out = F.mul(out, window / float(divisor_override))
    return out


def _pool_pad(pads):
    """(top, bottom, left, right) -> the (ph, pw) the 2-D pooling functions take; MindSpore's
    3-D pooling pads each axis symmetrically."""
    return (pads[0], pads[2])


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


def adaptive_max_pool(x, op: str, output_size: tuple, return_indices: bool, index_dtype=None):
    """The maximum over adaptive bins of the last len(output_size) axes: bin i of an axis of
    length L covers [floor(i L / n), ceil((i + 1) L / n)). Each axis is gathered into
    (bins, widest bin) with the last element of a narrower bin repeated, so the maximum and
    its first position are those of the bin; indices count positions of the unpadded input,
    flattened over the pooled axes."""
    nd = len(output_size)
    lead, spatial = tuple(x.shape[:-nd]), tuple(x.shape[-nd:])
    sizes = tuple(length if n is None else int(n) for n, length in zip(output_size, spatial))
    if any(n < 1 for n in sizes):
        raise ArgumentValueError(f"{op}: `output_size` must be positive, got {output_size!r}")
    tables, widths = [], []
    gathered = x
    for axis, (length, n) in enumerate(zip(spatial, sizes)):
        starts = np.arange(n) * length // n
        stops = -(-(np.arange(n) + 1) * length // n)
        width = int((stops - starts).max())
        table = np.minimum(starts[:, None] + np.arange(width), stops[:, None] - 1)
        tables.append(table)
        widths.append(width)
        gathered = F.gather(gathered, Tensor(table.reshape(-1).astype(np.int32)),
                            len(lead) + axis)
    split = lead + tuple(v for n, w in zip(sizes, widths) for v in (n, w))
    gathered = F.reshape(gathered, split)
    k = len(lead)
    order = tuple(range(k)) + tuple(k + 2 * i for i in range(nd)) + \
        tuple(k + 2 * i + 1 for i in range(nd))
    window = int(np.prod(widths))
    flat = F.reshape(F.transpose(gathered, order), lead + sizes + (window,))
    best = F.reduce_max(flat, -1)
    if not return_indices:
        return best
    where = np.zeros(sizes + tuple(widths), np.int64)
    for axis, table in enumerate(tables):
        shape = [1] * (2 * nd)
        shape[axis], shape[nd + axis] = table.shape
        where = where * spatial[axis] + table.reshape(shape)
    where = F.broadcast_to(Tensor(where.reshape(sizes + (window,))), lead + sizes + (window,))
    first = F.expand_dims(_argmax(flat, -1), -1)
    index = F.squeeze(gather_elements(where, len(flat.shape) - 1, first), -1)
    return best, index if index_dtype is None else F.cast(index, index_dtype)


def adaptive_max_pool1d(input, output_size):
    """The maximum over `output_size` equal bins of the last axis of (N, C, L), as MindSpore's:
    L must be a multiple of `output_size`; float16 or float32."""
    x = _tensor(input, "adaptive_max_pool1d")
    if isinstance(output_size, bool) or not isinstance(output_size, int) or output_size < 1:
        raise DTypeError(f"For adaptive_max_pool1d, the output_size must be a positive int, got "
                         f"{output_size!r}")
    if len(x.shape) != 3:
        raise ShapeError(f"For adaptive_max_pool1d input must have 3 dim, but got "
                         f"{len(x.shape)}.")
    if x.shape[2] < output_size or x.shape[2] % output_size:
        raise ShapeError(f"For adaptive_max_pool1d input's last dimension must be divisible by "
                         f"output size {output_size}, but got {x.shape[2]}.")
    if str(x.dtype) not in ("Float16", "Float32"):
        raise DTypeError(f"For adaptive_max_pool1d, the input dtype must be float16 or float32, "
                         f"but got {x.dtype}.")
    return adaptive_max_pool(input, "adaptive_max_pool1d", (output_size,), False)


_ADAPTIVE_MAX_POOL3D_TYPES = ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "Int8",
                              "UInt16", "UInt32", "UInt64", "UInt8")


def check_adaptive_max_pool3d_input(x):
    """MindSpore's AdaptiveMaxPool3D takes real numbers of any width (not bool, not complex)
    and refuses an input with an empty axis when its kernel is sized (RuntimeError)."""
    aval = _tensor(x, "AdaptiveMaxPool3D", "x")
    if aval.dtype == dt.bool_ or aval.dtype.is_complex:
        raise tensor_dtype_error("AdaptiveMaxPool3D", "x", _ADAPTIVE_MAX_POOL3D_TYPES, aval.dtype)
    if 0 in tuple(aval.shape):
        raise ShapeRunError(f"For AdaptiveMaxPool3D, every axis of the input must be non-empty "
                            f"(resizing the kernel failed), got shape {tuple(aval.shape)}")


def _adaptive_max_pool_nd(input, output_size, return_indices, nd: int):
    """adaptive_max_pool{nd}d: the maximum over an `output_size` grid of adaptive bins of the
    last `nd` axes of an (nd + 1)- or (nd + 2)-D input (None keeps an axis's size)."""
    op = f"adaptive_max_pool{nd}d"
    x = _tensor(input, op)
    if len(x.shape) not in (nd + 1, nd + 2):
        raise ShapeError(f"For {op}, the input must be {nd + 1}-D or {nd + 2}-D, got "
                         f"{len(x.shape)}-D")
    sizes = (output_size,) * nd if output_size is None or isinstance(output_size, int) \
        else tuple(output_size)
    if len(sizes) != nd or any(v is not None and (isinstance(v, bool) or not isinstance(v, int))
                               for v in sizes):
        raise DTypeError(f"For {op}, the output_size must be an int or a tuple of {nd} ints (or "
                         f"None), got {output_size!r}")
    if nd == 3:
        check_adaptive_max_pool3d_input(input)
    return adaptive_max_pool(input, op, sizes, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maximum over an `output_size` grid of adaptive bins of (N, C, H, W) or (C, H, W)
    (None keeps an axis's size); with `return_indices`, also where each came from (int64,
    flattened over H and W)."""
    return _adaptive_max_pool_nd(input, output_size, return_indices, 2)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """The maximum over an `output_size` grid of adaptive bins of (N, C, D, H, W) or
    (C, D, H, W) (None keeps an axis's size); with `return_indices`, also where each came from
    (flattened over D, H and W)."""
    return _adaptive_max_pool_nd(input, output_size, return_indices, 3)


def _fractional_starts(samples, length: int, out: int, kernel: int):
    """The window starts along an axis (PyTorch's and MindSpore's rule): with
    alpha = (length - kernel) / (out - 1), start i = floor((i + u) alpha) - floor(u alpha)
    for i < out - 1 and length - kernel for the last, per sample u: (..., out) int32."""
    if out == 1:
        return F.fill(dt.int32, tuple(abstract_of(samples).shape) + (1,), length - kernel)
    alpha = (length - kernel) / (out - 1)
    u = F.expand_dims(F.cast(samples, dt.float64), -1)
    steps = Tensor(np.arange(out - 1, dtype=np.float64))
    first = F.sub(F.floor(F.mul(F.add(steps, u), alpha)), F.floor(F.mul(u, alpha)))
    last = F.fill(dt.float64, tuple(abstract_of(first).shape[:-1]) + (1,), length - kernel)
    return F.cast(F.concat((first, last), -1), dt.int32)


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                         samples, nd: int):
    """The maximum over pseudo-random windows of the last `nd` axes of (N, C, *spatial)
    ((C, *spatial) too): window i along an axis starts at `_fractional_starts` of that plane's
    random sample (`_random_samples` (N, C, nd), else drawn; for 2-D the first is W's, the
    second H's; for 3-D in (T, H, W) order), as MindSpore's FractionalMaxPool; with
    `return_indices`, each maximum's position in its plane (int64)."""
    op = f"fractional_max_pool{nd}d"
    x = _tensor(input, op)
    batched = len(x.shape) == nd + 2
    if len(x.shape) not in (nd + 1, nd + 2):
        raise ShapeError(f"For {op}, the input must be {nd + 1}-D or {nd + 2}-D, but got "
                         f"{len(x.shape)}-D.")
    data = input if batched else F.expand_dims(input, 0)
    n, c, *spatial = abstract_of(data).shape
    kernel = _ints(kernel_size, nd, op, "kernel_size")
    if output_size is None and output_ratio is None:
        raise ArgumentValueError(f"For {op}, 'output_size' and 'output_ratio' can not be None "
                                 f"at the same time.")
    if output_size is not None:
        sizes = _ints(output_size, nd, op, "output_size")
    else:
        ratios = (output_ratio,) * nd if isinstance(output_ratio, (int, float)) else tuple(
            output_ratio)
        if len(ratios) != nd or not all(0 < r < 1 for r in ratios):
            raise ArgumentValueError(f"For {op}, 'output_ratio' must be in (0, 1), but got "
                                     f"{output_ratio!r}.")
        sizes = tuple(int(length * r) for length, r in zip(spatial, ratios))
    for length, k, size in zip(spatial, kernel, sizes):
        if size + k - 1 > length:
            raise ArgumentValueError(f"For {op}, 'output_size' + 'kernel_size' - 1 must be <= "
                                     f"the input size, but got {sizes}, {kernel} and "
                                     f"{tuple(spatial)}.")
    if samples is None:
        samples = draw_uniform((n, c, nd), abstract_of(data).dtype)
    elif tuple(abstract_of(samples).shape) != (n, c, nd):
        raise ShapeError(f"For {op}, '_random_samples' must have shape {(n, c, nd)}, but got "
                         f"{tuple(abstract_of(samples).shape)}.")
    order = (1, 0) if nd == 2 else (0, 1, 2)  # which sample each axis (H, W / T, H, W) takes
    flat_index = None
    strides = np.cumprod((1,) + tuple(spatial[:0:-1]))[::-1]
    for axis in range(nd):
        starts = _fractional_starts(samples[..., order[axis]], spatial[axis], sizes[axis],
                                    kernel[axis])  # (N, C, out)
        window = F.add(F.expand_dims(starts, -1), Tensor(np.arange(kernel[axis],
                                                                   dtype=np.int32)))
        part = F.reshape(F.mul(window, int(strides[axis])), (n, c) + tuple(
            sizes[axis] if i == axis else 1 for i in range(nd)) + tuple(
            kernel[axis] if i == axis else 1 for i in range(nd)))  # flat offsets
        flat_index = part if flat_index is None else F.add(flat_index, part)
    full = (n, c) + tuple(sizes) + tuple(kernel)
    flat_index = F.reshape(F.broadcast_to(flat_index, full), (n, c, -1))
    plane = F.reshape(data, (n, c, int(np.prod(spatial))))
    values = F.reshape(take_along_axis(plane, flat_index, axis=2),
                       (n, c) + tuple(sizes) + (int(np.prod(kernel)),))
    best = F.reduce_max(values, -1)
    if not batched:
        best = F.squeeze(best, 0)
    if not return_indices:
        return best
    where = F.expand_dims(F.cast(_argmax(values, -1), dt.int32), -1)
    picked = take_along_axis(F.reshape(flat_index, (n, c) + tuple(sizes) + (-1,)), where,
                             axis=-1)
    indices = F.cast(F.squeeze(picked, -1), dt.int64)
    return best, indices if batched else F.squeeze(indices, 0)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling over (N, C, H, W) or (C, H, W) (see _fractional_max_pool)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 2)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Fractional max pooling over (N, C, T, H, W) or (C, T, H, W) (see _fractional_max_pool)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                                _random_samples, 3)


def _lp_norm_type(op: str, norm_type) -> float:
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise DTypeError(f"For {op}, the type of 'norm_type' must be float or int, but got "
                         f"{type(norm_type)}")
    if norm_type == 0:
        raise ArgumentValueError(f"For {op}, the value of 'norm_type' can not be 0.")
    return float(norm_type)


def _lp_axis(length: int, k: int, s: int, ceil_mode: bool):
    """(zeros to pad at the end, elements of the input inside each window)."""
    out = (-(-(length - k) // s) if ceil_mode else (length - k) // s) + 1
    if ceil_mode and (out - 1) * s >= length:
        out -= 1
    counts = np.array([min(i * s + k, length) - i * s for i in range(out)], np.float64)
    return max((out - 1) * s + k - length, 0), counts


def _lp_pool(x4, p: float, kernel: tuple, stride: tuple, ceil_mode: bool):
    """(sum of x^p over each window of the (N, C, H, W) `x4`)^(1/p); with ceil_mode a window
    past the end sums what is inside, scaled by kernel / inside (MindSpore's average pool
    divides by the elements inside), the negative part set to 0 before the root, as
    MindSpore's sign(out) * relu(|out|)."""
    (pad_h, count_h), (pad_w, count_w) = (
        _lp_axis(size, k, st, ceil_mode) for size, k, st in zip(x4.shape[2:], kernel, stride))
    powered = F.pow(x4, p)
    if pad_h or pad_w:
        powered = pad_pairs(powered, ((0, 0), (0, 0), (0, pad_h), (0, pad_w)), 0)
    window = kernel[0] * kernel[1]
    mean = avg_pool2d(powered, kernel, stride)
    counts = np.outer(count_h, count_w)
    if np.all(counts == window):
        sums = F.mul(mean, float(window))
    else:
        scale = window * window / counts
        sums = F.mul(mean, Tensor(scale.astype(np.dtype(x4.dtype.np_name))))
    return F.pow(F.mul(F.sign(sums), F.relu(F.abs(sums))), 1.0 / p)


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x^p)^(1/p) along the last axis of (N, C, L) or (C, L), as
    MindSpore's (its average pool of x^p times the kernel size; no padding)."""
    p = _lp_norm_type("lp_pool1d", norm_type)
    stride = kernel_size if stride is None else stride
    batched = len(x.shape) == 3
    x4 = F.expand_dims(x if batched else F.expand_dims(x, 0), 2)
    out = F.squeeze(_lp_pool(x4, p, (1, kernel_size), (1, stride), ceil_mode), 2)
    return out if batched else F.squeeze(out, 0)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """lp_pool1d over the last two axes of (N, C, H, W): windows of `kernel_size` (an int or
    a pair) moved by `stride` (default: the kernel)."""
    p = _lp_norm_type("lp_pool2d", norm_type)
    kernel = kernel_size if isinstance(kernel_size, tuple) else (kernel_size, kernel_size)
    stride = kernel if stride is None else stride
    stride = stride if isinstance(stride, tuple) else (stride, stride)
    return _lp_pool(x, p, kernel, stride, ceil_mode)


def max_unpool(x, indices, op: str, kernel, stride, padding, output_size):
    """max_pool's inverse: zeros of the unpooled size with each value of `x` written at its
    index (flattened over the last len(kernel) axes), as MindSpore's MaxUnpool."""
    nd = len(kernel)
    for name, value in (("x", x), ("indices", indices)):
        if not is_tensor(value):
            raise DTypeError(f"{op}: `{name}` must be a Tensor, got {type(value).__name__}")
    if str(indices.dtype) not in ("Int32", "Int64"):
        raise DTypeError(f"{op}: `indices` must be int32 or int64, got {indices.dtype}")
    shape = tuple(x.shape)
    if len(shape) not in (nd + 1, nd + 2):
        raise ArgumentValueError(f"{op}: `x` must have rank {nd + 1} or {nd + 2}, got shape "
                                 f"{shape}")
    if tuple(indices.shape) != shape:
        raise ArgumentValueError(f"{op}: `indices` of shape {tuple(indices.shape)} must have the "
                                 f"shape of `x`, {shape}")
    lead, spatial = shape[:-nd], shape[-nd:]
    sizes = tuple((n - 1) * s - 2 * p + k for n, k, s, p in zip(spatial, kernel, stride, padding))
    if output_size:
        if not isinstance(output_size, tuple) or len(output_size) not in (nd, nd + 1, nd + 2):
            raise ArgumentValueError(f"{op}: `output_size` must be a tuple of {nd} to {nd + 2} "
                                     f"ints, got {output_size!r}")
        wanted = tuple(int(v) for v in output_size[-nd:])
        for want, size, s in zip(wanted, sizes, stride):
            if not size - s < want < size + s:
                raise ArgumentValueError(f"{op}: `output_size` {output_size} must lie between "
                                         f"the default size {sizes} minus and plus the stride "
                                         f"{tuple(stride)}, exclusive")
        sizes = wanted
    if any(n < 1 for n in sizes):
        raise ArgumentValueError(f"{op}: the output size {sizes} must be positive")
    batch = int(np.prod(lead))
    flat_x = F.reshape(x, (batch, int(np.prod(spatial))))
    flat_i = F.reshape(indices, (batch, int(np.prod(spatial))))
    zeros = F.zeros((batch, int(np.prod(sizes))), x.dtype)
    out = tensor_scatter_elements(zeros, flat_i, flat_x, axis=1)
    return F.reshape(out, lead + sizes)


def unpool_windows(kernel_size, stride, padding, nd: int, op: str):
    """(kernel, stride, padding) of a max unpooling, `nd` ints each: `stride` None, 0 or (0,)
    means the kernel size."""
    kernel = _per_axis(kernel_size, nd, op, "kernel_size")
    unset = stride is None or stride == 0 or stride == (0,) or stride == (0,) * nd
    strides = kernel if unset else _per_axis(stride, nd, op, "stride")
    pads = _per_axis(padding, nd, op, "padding")
    if any(v < 1 for v in kernel + strides) or any(v < 0 for v in pads):
        raise ArgumentValueError(f"{op}: `kernel_size` and `stride` must be positive and "
                                 f"`padding` non-negative, got {kernel_size!r}, {stride!r}, "
                                 f"{padding!r}")
    return kernel, strides, pads


def _max_unpool_nd(nd: int, x, indices, kernel_size, stride, padding, output_size):
    op = f"max_unpool{nd}d"
    kernel, strides, pads = unpool_windows(kernel_size, stride, padding, nd, op)
    if output_size is not None and not isinstance(output_size, tuple):
        raise ArgumentValueError(f"{op}: `output_size` must be a tuple, got "
                                 f"{type(output_size).__name__}")
    return max_unpool(x, indices, op, kernel, strides, pads, output_size or ())


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool1d's inverse: (N, C, L) or (C, L) values written at their `indices` into zeros
    of length (L - 1) stride - 2 padding + kernel_size (or the last of `output_size`)."""
    return _max_unpool_nd(1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool2d's inverse over (N, C, H, W) or (C, H, W)."""
    return _max_unpool_nd(2, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_pool3d's inverse over (N, C, D, H, W) or (C, D, H, W)."""
    return _max_unpool_nd(3, x, indices, kernel_size, stride, padding, output_size)
