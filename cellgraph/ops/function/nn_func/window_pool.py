"""Pooling over any number of trailing axes from strided slices (`window_pool`), and what MindSpore
builds on it: MaxPoolWithArgmaxV2 and MaxPool3DWithArgmax (the maximum and where it came from,
counted in the unpadded input's spatial plane, D*H*W for 3-D), and the functional `max_pool2d`
and `max_pool3d` over them, and `avg_pool2d` with ceil_mode or a divisor."""
from __future__ import annotations

import itertools
import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _tensor
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import avg_pool2d as _plain_avg_pool2d
from cellgraph.primitives.nn_functional import max_pool2d as _plain_max_pool2d
from cellgraph.primitives.slicing import strided_slice
from cellgraph.runtime.tensor import Tensor

__all__ = ["avg_pool2d", "max_pool2d", "max_pool3d"]


_WHOLE_AXIS = 2 ** 31 - 1


def window_pool(x, op: str, kind: str, kernel, stride, pads, dilation=None, ceil_mode=False,
                count_include_pad=True, divisor_override=None, return_indices=False):
    """Max or average pooling over the last len(kernel) axes of `x`, from strided slices of
    the padded input (one per kernel offset), so any dilation, ceil_mode and divisor work and
    the gradient is the slices'. Output sizes follow MindSpore (and PyTorch): with ceil_mode a
    last window that would start in the right padding is dropped. The average divides by
    `divisor_override`, or by the window's size clipped to the padded input
    (count_include_pad), or by the number of input elements it covers. Max's indices count
    positions in the unpadded input, flattened over the pooled axes (int64)."""
    nd = len(kernel)
    dilation = dilation or (1,) * nd
    lead, spatial = tuple(x.shape[:-nd]), tuple(x.shape[-nd:])
    sizes, extra = [], []
    for length, k, s, (lo, hi), d in zip(spatial, kernel, stride, pads, dilation):
        span = d * (k - 1) + 1
        room = length + lo + hi - span
        if room < 0:
            raise ShapeError(f"{op}: the padded input length {length + lo + hi} is shorter than "
                             f"the kernel's extent {span}")
        out = (-(-room // s) if ceil_mode else room // s) + 1
        if ceil_mode and (out - 1) * s >= length + lo:
            out -= 1
        sizes.append(out)
        extra.append(max((out - 1) * s + span - (length + lo + hi), 0))
    flat_pad = []
    for (lo, hi), more in reversed(list(zip(pads, extra))):
        flat_pad += [lo, hi + more]
    padded = x
    if any(flat_pad):
        padded = pad(x, tuple(flat_pad), value=float("-inf") if kind == "max" else 0.0)
    best = index = None
    for offset in itertools.product(*(range(k) for k in kernel)):
        begin = (0,) * len(lead) + tuple(o * d for o, d in zip(offset, dilation))
        # a leading axis of run-time size is taken whole (its end clipped to its size)
        whole = tuple(_WHOLE_AXIS if n is None else n for n in lead)
        end = whole + tuple(b + (n - 1) * s + 1 for b, n, s in
                           zip(begin[len(lead):], sizes, stride))
        window = strided_slice(padded, begin, end, (1,) * len(lead) + tuple(stride))
        if kind == "avg":
            best = window if best is None else F.add(best, window)
            continue
        where = None
        if return_indices:
            coords = [np.arange(n) * s - lo + o * d for n, s, (lo, _), o, d in
                      zip(sizes, stride, pads, offset, dilation)]
            where = np.zeros(sizes, np.int64)
            for axis, c in enumerate(coords):
                shape = [1] * nd
                shape[axis] = len(c)
                where = where * spatial[axis] + c.reshape(shape)
            if None in lead:  # broadcast over run-time leading sizes by adding zeros
                zeros = F.zeros_like(F.cast(window, dt.int64))
                where = F.add(zeros, Tensor(where.reshape((1,) * len(lead) + tuple(sizes))))
            else:
                where = F.broadcast_to(Tensor(where), lead + tuple(sizes))
        if best is None:
            best, index = window, where
            continue
        larger = F.greater(window, best)
        best = F.select(larger, window, best)
        if return_indices:
            index = F.select(larger, where, index)
    if kind == "max":
        return (best, index) if return_indices else best
    if divisor_override:
        return F.div(best, float(divisor_override))
    divisor = np.ones((), np.float64)
    for length, k, s, (lo, hi), n in zip(spatial, kernel, stride, pads, sizes):
        start = np.arange(n) * s - lo
        stop = np.minimum(start + k, length + hi)
        count = stop - start if count_include_pad else \
            np.minimum(stop, length) - np.maximum(start, 0)
        divisor = np.multiply.outer(divisor, count)
    return F.div(best, Tensor(divisor.astype(np.dtype(x.dtype.np_name))))


def window_ints(value, nd: int, op: str, name: str, positive: bool = True) -> tuple:
    """An int, `nd` ints, or MindSpore's (1, 1, *nd) form -> `nd` ints (positive, or
    non-negative where `positive` is False), as MindSpore's pooling attributes check them."""
    items = None
    if isinstance(value, numbers.Integral):
        items = (value,) * nd
    elif isinstance(value, (tuple, list)):
        items = tuple(value)
        items = items * nd if len(items) == 1 else items[2:] if len(items) == nd + 2 else items
    low = 1 if positive else 0
    if items is None or len(items) != nd or any(
            isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low for v in items):
        kind = "positive" if positive else "non-negative"
        raise ArgumentValueError(f"For '{op}', '{name}' must be a {kind} int or a tuple of {nd} "
                                 f"{kind} ints, but got {value!r}.")
    return tuple(int(v) for v in items)


def check_argmax_type(argmax_type, op: str):
    """int32 or int64, as MindSpore's argmax_type check (a TypeError otherwise)."""
    if argmax_type not in (dt.int32, dt.int64):
        raise DTypeError(f"For '{op}', the 'argmax_type' should be one of [mindspore.int32, "
                         f"mindspore.int64], but got '{argmax_type}'.")
    return argmax_type


def check_ceil_mode(ceil_mode, op: str) -> bool:
    if not isinstance(ceil_mode, bool):
        raise DTypeError(f"For '{op}', the type of 'ceil_mode' should be 'bool', but got type "
                         f"'{type(ceil_mode).__name__}'.")
    return ceil_mode


def max_pool_argmax(x, op: str, kernel, stride, pads, dilation, ceil_mode, argmax_type):
    """(the maximum over each window of (N, C, *spatial), len(kernel) spatial axes, padding
    counted as -inf; the flat index of the first position holding it in its unpadded plane,
    as `argmax_type`)."""
    nd = len(kernel)
    shape = _tensor(x, op).shape
    if len(shape) != nd + 2 or None in shape[2:]:
        raise ShapeError(f"For '{op}', the input must be a {nd + 2}-D Tensor of known spatial "
                         f"shape, but got shape {tuple(shape)}.")
    if any(2 * p > k for p, k in zip(pads, kernel)):
        raise ArgumentValueError(f"For '{op}', 'pads' must be no more than half of the "
                                 f"'kernel_size', but got pads {pads} and kernel_size {kernel}.")
    out, index = window_pool(x, op, "max", kernel, stride, tuple((p, p) for p in pads),
                             dilation, ceil_mode, return_indices=True)
    return out, F.cast(index, argmax_type)


def _pool_with_indices(nd, op, x, kernel_size, stride, padding, dilation, ceil_mode):
    check_ceil_mode(ceil_mode, op)
    kernel = window_ints(kernel_size, nd, op, "kernel_size")
    strides = kernel if stride is None else window_ints(stride, nd, op, "strides")
    return max_pool_argmax(x, op, kernel, strides, window_ints(padding, nd, op, "pads", False),
                           window_ints(dilation, nd, op, "dilation"), ceil_mode, dt.int64)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """The maximum over each window of (N, C, H, W), padding counted as -inf; with
    `return_indices`, also each maximum's flat index in its H*W plane (int64), as MindSpore's
    MaxPoolWithArgmaxV2, which its ops.max_pool2d runs."""
    if not return_indices and dilation == 1 and ceil_mode is False:
        return _plain_max_pool2d(x, kernel_size, stride, padding)
    out, index = _pool_with_indices(2, "MaxPoolWithArgmaxV2", x, kernel_size, stride, padding,
                                    dilation, ceil_mode)
    return (out, index) if return_indices else out


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """The maximum over each (kd, kh, kw) window of (N, C, D, H, W), padding counted as -inf;
    with `return_indices`, also each maximum's flat index in its D*H*W volume (int64), as
    MindSpore's MaxPool3DWithArgmax, which its ops.max_pool3d runs."""
    out, index = _pool_with_indices(3, "MaxPool3DWithArgmax", x, kernel_size, stride, padding,
                                    dilation, ceil_mode)
    return (out, index) if return_indices else out


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """The mean over each window of (N, C, H, W); `padding` an int or (top, bottom, left,
    right); `count_include_pad` counts padded zeros in the divisor, `divisor_override` (0 or
    None: none) replaces it; with ceil_mode a last partial window is kept."""
    if ceil_mode is False and not divisor_override:
        return _plain_avg_pool2d(input_x, kernel_size, stride, padding, ceil_mode,
                                 count_include_pad, divisor_override)
    op = "AvgPool"
    check_ceil_mode(ceil_mode, op)
    if divisor_override is not None and (isinstance(divisor_override, bool) or not isinstance(
            divisor_override, numbers.Integral)):
        raise DTypeError(f"For '{op}', 'divisor_override' must be an int, but got "
                         f"{divisor_override!r}.")
    kernel = window_ints(kernel_size, 2, op, "kernel_size")
    strides = kernel if stride is None else window_ints(stride, 2, op, "strides")
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        padding = (padding,) * 4
    pads = window_ints(padding, 4, op, "padding", False)
    return window_pool(input_x, op, "avg", kernel, strides, (pads[:2], pads[2:]),
                       ceil_mode=ceil_mode, count_include_pad=bool(count_include_pad),
                       divisor_override=divisor_override or None)
