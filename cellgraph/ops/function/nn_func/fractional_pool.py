"""Fractional pooling (MindSpore's FractionalMaxPool, FractionalAvgPool and their gradients) on
NHWC input: each spatial axis of length n pooled into floor(n / ratio) windows whose bounds, the
pooling sequence [0 = b_0 < b_1 < ... < b_out = n], come from the ratio: equal windows where n
divides evenly, otherwise windows of k and k + 1 cells (k = n // out) in a random order, or with
`pseudo_random` bounds ceil(alpha * (i + u)) - 1 for one uniform draw u, as TensorFlow and
MindSpore draw them. A window covers b_i <= j < b_{i+1}, and b_{i+1} too with `overlapping`.

The sequences are Tensors drawn when the graph runs, so the windows are membership matrices
(out, n) built from them: the averages are two matrix products, the maxima a masked reduction,
and the gradients follow."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.indexing import gather_elements
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import argmax, cumsum, one_hot
from cellgraph.primitives.random_ops import draw_uniform, op_seeds
from cellgraph.runtime.rng import MinstdEngine, generator
from cellgraph.runtime.std_shuffle import shuffle

__all__: list[str] = []  # the classes of ops.operations call these


def _ratios(op: str, pooling_ratio) -> tuple:
    ratio = tuple(float(r) for r in pooling_ratio)
    if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0 or min(ratio) < 1.0:
        raise ArgumentValueError(f"For '{op}', the 'pooling_ratio' must be 4 numbers >= 1.0, "
                                 f"the first and last 1.0, but got {pooling_ratio}")
    return ratio


def pooling_sequence(op: str, length: int, ratio: float, pseudo_random: bool, key):
    """The int64 bounds (out + 1,) of the windows of an axis of `length` cells; `key` the
    stream they are drawn from, or an int seed for windows fixed when the graph is built
    (`deterministic`: MindSpore's kernel's, `kernel_sequence`)."""
    out = int(length / ratio)
    if out < 1:
        raise ShapeError(f"For '{op}', the pooling ratio {ratio} leaves no window of an axis "
                         f"of {length}")
    if length % out == 0:
        return F.cast(np.arange(out + 1, dtype=np.int64) * (length // out), dt.int64)
    alpha, k = length / out, length // out
    if isinstance(key, int):
        return F.cast(kernel_sequence(length, out, pseudo_random, key), dt.int64)
    key_draw = draw_uniform((out,), dt.float64, key)
    if pseudo_random:
        max_u = min((k + 2) / alpha - 1, (length + 1 - k) / alpha - (out - 1))
        u = F.mul(key_draw[0], max_u)
        inner = F.sub(F.ceil(F.mul(F.add(np.arange(1, out, dtype=np.float64), u), alpha)), 1.0)
        return F.concat((F.cast(np.array([0], np.int64), dt.int64), F.cast(inner, dt.int64),
                         F.cast(np.array([length], np.int64), dt.int64)), 0)
    # windows of k + 1 cells for the remainder, k for the rest, in a random order
    sizes = np.full(out, k, np.int64)
    sizes[:length % out] += 1
    order = F.argsort(key_draw)
    shuffled = F.gather(F.cast(sizes, dt.int64), order, 0)
    return F.concat((F.cast(np.array([0], np.int64), dt.int64), cumsum(shuffled, 0)), 0)


def kernel_sequence(length: int, out: int, pseudo_random: bool, seed: int) -> np.ndarray:
    """The bounds MindSpore's CPU kernel draws for an axis from a `std::default_random_engine`
    made afresh from `seed`: window sizes k + 1 (the remainder's) then k, put in order by
    libstdc++'s std::shuffle; or, pseudo-random, bounds ceil(alpha * (i + u)) - 1 with u one
    canonical double times the largest u keeping every size k or k + 1."""
    engine = MinstdEngine(seed)
    alpha, k = length / out, length // out
    if pseudo_random:
        max_u = min((k + 2) / alpha - 1, (length + 1 - k) / alpha - (out - 1))
        u = engine.canonical() * max_u
        inner = [int(np.ceil(alpha * (i + u))) - 1 for i in range(1, out)]
        return np.array([0, *inner, length], np.int64)
    sizes = [k + 1] * (length % out) + [k] * (out - length % out)
    shuffle(sizes, engine)
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _membership(bounds, length: int, overlapping: bool, dtype):
    """(out, length): 1 where cell j lies in window i."""
    cells = F.cast(np.arange(length, dtype=np.int64)[None, :], dt.int64)
    starts = F.expand_dims(bounds[:-1], 1)
    ends = F.expand_dims(bounds[1:], 1)
    inside = F.logical_and(F.greater_equal(cells, starts),
                           F.less_equal(cells, ends) if overlapping else F.less(cells, ends))
    return F.cast(inside, dtype)


def _sequences(op, x, pooling_ratio, pseudo_random, deterministic, seed, seed2):
    """The row and column bounds: drawn at each run from the (seed, seed2) stream, or the
    global generator when both are 0; with `deterministic`, MindSpore's kernel's, fixed when
    the graph is built: from `seed` (`seed2` where seed is 0; where both are, one drawn from
    the global generator), each axis from an engine of its own."""
    shape = _check_shape(op, abstract_of(x).shape)
    ratio = _ratios(op, pooling_ratio)
    if deterministic:
        key = int(seed or seed2 or generator().integers(1, 2**31 - 1))
    else:
        key = op_seeds(seed, seed2, op)
    rows = pooling_sequence(op, shape[1], ratio[1], pseudo_random, key)
    cols = pooling_sequence(op, shape[2], ratio[2], pseudo_random, key)
    return rows, cols


def _average(x, rows, cols, overlapping: bool):
    """The window means of NHWC x (float64 for integer x, truncated back as MindSpore's)."""
    dtype = abstract_of(x).dtype
    wide = dtype if dtype.is_float else dt.float64
    _, h, w, _ = abstract_of(x).shape
    m_rows = _membership(rows, h, overlapping, wide)
    m_cols = _membership(cols, w, overlapping, wide)
    planes = F.transpose(F.cast(x, wide), (0, 3, 1, 2))  # (N, C, H, W)
    sums = F.matmul(F.matmul(m_rows, planes), F.transpose(m_cols, (1, 0)))
    counts = F.mul(F.expand_dims(F.reduce_sum(m_rows, 1), 1), F.reduce_sum(m_cols, 1))
    return F.cast(F.transpose(F.div(sums, counts), (0, 2, 3, 1)), dtype)


def _maximum(x, rows, cols, overlapping: bool):
    """The window maxima of NHWC x."""
    return F.reduce_max(_masked(x, rows, cols, overlapping), (2, 4))


def _masked(x, rows, cols, overlapping: bool):
    """x spread over (N, out_r, H, out_c, W, C), the cells outside each window at the dtype's
    lowest."""
    dtype = abstract_of(x).dtype
    n, h, w, c = abstract_of(x).shape
    m_rows = F.cast(_membership(rows, h, overlapping, dt.int32), dt.bool_)
    m_cols = F.cast(_membership(cols, w, overlapping, dt.int32), dt.bool_)
    out_r, out_c = abstract_of(m_rows).shape[0], abstract_of(m_cols).shape[0]
    full = (n, out_r, h, out_c, w, c)
    inside = F.broadcast_to(F.logical_and(F.reshape(m_rows, (1, out_r, h, 1, 1, 1)),
                                          F.reshape(m_cols, (1, 1, 1, out_c, w, 1))), full)
    lowest = float("-inf") if dtype.is_float else int(np.iinfo(dtype.np).min)
    spread = F.broadcast_to(F.reshape(x, (n, 1, h, 1, w, c)), full)
    floor = F.broadcast_to(F.cast(np.array(lowest), dtype), full)
    return F.select(inside, spread, floor)


def _check_shape(op: str, shape) -> tuple:
    if len(shape) != 4:
        raise ShapeError(f"For '{op}', the input must be 4-D (N, H, W, C), but got rank "
                         f"{len(shape)}")
    return tuple(shape)


def fractional_avg_pool(x, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0):
    """(y, row_pooling_sequence, col_pooling_sequence) of FractionalAvgPool."""
    rows, cols = _sequences("FractionalAvgPool", x, pooling_ratio, pseudo_random,
                            deterministic, seed, seed2)
    return _average(x, rows, cols, overlapping), rows, cols


def fractional_max_pool(x, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0):
    """(y, row_pooling_sequence, col_pooling_sequence) of FractionalMaxPool."""
    rows, cols = _sequences("FractionalMaxPool", x, pooling_ratio, pseudo_random,
                            deterministic, seed, seed2)
    return _maximum(x, rows, cols, overlapping), rows, cols


def fractional_avg_pool_grad(orig_input_tensor_shape, out_backprop, row_pooling_sequence,
                             col_pooling_sequence, overlapping=False):
    """The gradient of FractionalAvgPool: each output's gradient shared evenly over its
    window, in an input of shape `orig_input_tensor_shape` (values known when the graph is
    built)."""
    shape = tuple(int(v) for v in np.asarray(value_input(
        orig_input_tensor_shape, "FractionalAvgPoolGrad", "orig_input_tensor_shape")).reshape(-1))
    _, h, w, _ = _check_shape("FractionalAvgPoolGrad", shape)
    dtype = abstract_of(out_backprop).dtype
    wide = dtype if dtype.is_float else dt.float64
    m_rows = _membership(row_pooling_sequence, h, overlapping, wide)
    m_cols = _membership(col_pooling_sequence, w, overlapping, wide)
    counts = F.mul(F.expand_dims(F.reduce_sum(m_rows, 1), 1), F.reduce_sum(m_cols, 1))
    share = F.div(F.transpose(F.cast(out_backprop, wide), (0, 3, 1, 2)), counts)
    spread = F.matmul(F.matmul(F.transpose(m_rows, (1, 0)), share), m_cols)
    return F.cast(F.transpose(spread, (0, 2, 3, 1)), dtype)


def fractional_max_pool_grad(orig_input, orig_output, out_backprop, row_pooling_sequence,
                             col_pooling_sequence, overlapping=False):
    """The gradient of FractionalMaxPool: each output's gradient at its window's maximum in
    `orig_input`, the first in row-major order where several cells hold it (as MindSpore)."""
    n, h, w, c = abstract_of(orig_input).shape
    spread = _masked(orig_input, row_pooling_sequence, col_pooling_sequence, overlapping)
    out_r, out_c = abstract_of(spread).shape[1], abstract_of(spread).shape[3]
    cells = F.reshape(F.transpose(spread, (0, 1, 3, 5, 2, 4)), (n, out_r, out_c, c, h * w))
    first = argmax(cells, -1)  # (N, out_r, out_c, C)
    hot = one_hot(first, h * w, 1.0, 0.0)
    grads = F.mul(F.cast(hot, abstract_of(orig_input).dtype), F.expand_dims(F.cast(
        out_backprop, abstract_of(orig_input).dtype), -1))
    summed = F.reshape(F.reduce_sum(grads, (1, 2)), (n, c, h, w))
    return F.transpose(summed, (0, 2, 3, 1))


def _pair(op: str, name: str, value) -> tuple:
    values = (value,) if isinstance(value, int) else tuple(value)
    if len(values) not in (1, 2):
        raise ArgumentValueError(f"For '{op}', the size of attr {name} must be equal to 1 or 2, "
                                 f"but got {len(values)}.")
    return (values[0], values[-1])


def _fixed_starts(samples, size: int, out: int, k: int, dtype):
    """(N, C, out) window starts along an axis of `size`, as MindSpore's kernel draws them:
    alpha = (size - k) / (out - 1), start i = int((i + u) * alpha) - int(u * alpha) in the
    samples' dtype (truncated toward zero), the last start size - k."""
    shape = abstract_of(samples).shape
    if out == 1:
        return F.broadcast_to(F.cast(np.array(size - k), dt.int32), shape + (1,))
    alpha = F.div(F.cast(np.array(size - k, dtype.np), dtype),
                  F.cast(np.array(out - 1, dtype.np), dtype))
    u = F.expand_dims(samples, -1)
    steps = F.cast(np.arange(out - 1, dtype=dtype.np), dtype)
    starts = F.sub(F.cast(F.mul(F.add(steps, u), alpha), dt.int32),
                   F.cast(F.mul(u, alpha), dt.int32))
    last = F.broadcast_to(F.cast(np.array(size - k), dt.int32), shape + (1,))
    return F.concat((starts, last), -1)


def fractional_max_pool_with_fixed_ksize(input_x, random_samples, ksize, output_shape,
                                         data_format="NCHW"):
    """(y, argmax) of FractionalMaxPoolWithFixedKsize: on NCHW input_x, windows of `ksize`
    starting where the (N, C, 2) random_samples (the width's, then the height's) put them,
    `output_shape` of them per axis; argmax the int64 index of each maximum within its plane
    (the first in row-major order). As MindSpore's CPU kernel, an integer input's maxima start
    from 0 (its -infinity), so a window of values <= 0 gives 0 at the window's first cell."""
    op = "FractionalMaxPoolWithFixedKsize"
    if data_format != "NCHW":
        raise ArgumentValueError(f"For '{op}', the attr data_format must be NCHW.")
    kh, kw = _pair(op, "kszie", ksize)
    oh, ow = _pair(op, "output_shape", output_shape)
    if min(oh, ow) <= 0:
        raise ArgumentValueError(f"For '{op}', the output_shape should all be positive numbers, "
                                 f"but there are negative numbers.")
    x_aval, s_aval = abstract_of(input_x), abstract_of(random_samples)
    if x_aval.dtype not in (dt.float16, dt.float32, dt.float64, dt.int32, dt.int64):
        raise DTypeError(f"For '{op}', the data type of input not support.")
    if s_aval.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"For '{op}', random_samples_type {s_aval.dtype} not support, must be "
                         f"in [{{DT_FLOAT16, DT_FLOAT, DT_DOUBLE}}].")
    if x_aval.ndim != 4:
        raise ShapeError(f"For '{op}', the dimension of 'input_x' must be 4, but got "
                         f"{x_aval.ndim}.")
    n, c, h, w = x_aval.shape
    if oh + kh - 1 > h:
        raise ArgumentValueError(f"For '{op}', ksize height [{kh}] + output_shape_h [{oh}] too "
                                 f"large relative to input height [{h}], conflict with the rule: "
                                 f"ksize_h + output_shape_h - 1 <= input_h")
    if ow + kw - 1 > w:
        raise ArgumentValueError(f"For '{op}', ksize width [{kw}] + output_shape_w [{ow}] too "
                                 f"large relative to input width [{w}], conflict with the rule: "
                                 f"ksize_w + output_shape_w - 1 <= input_w")
    if tuple(s_aval.shape) != (n, c, 2):
        raise ShapeError(f"For '{op}', random_samples must have shape ({n}, {c}, 2) (x's N and "
                         f"C, then 2), but got {tuple(s_aval.shape)}.")
    rows = F.add(F.expand_dims(_fixed_starts(F.getitem(random_samples, (..., 1)), h, oh, kh,
                                             s_aval.dtype), -1),
                 F.cast(np.arange(kh, dtype=np.int32), dt.int32))            # (N, C, oh, kh)
    cols = F.add(F.expand_dims(_fixed_starts(F.getitem(random_samples, (..., 0)), w, ow, kw,
                                             s_aval.dtype), -1),
                 F.cast(np.arange(kw, dtype=np.int32), dt.int32))            # (N, C, ow, kw)
    flat = F.add(F.mul(F.reshape(rows, (n, c, oh, 1, kh, 1)), w),
                 F.reshape(cols, (n, c, 1, ow, 1, kw)))                      # (N, C, oh, ow, kh, kw)
    flat = F.reshape(F.broadcast_to(flat, (n, c, oh, ow, kh, kw)), (n, c, oh * ow * kh * kw))
    cells = gather_elements(F.reshape(input_x, (n, c, h * w)), 2, F.cast(flat, dt.int64))
    cells = F.reshape(cells, (n, c, oh, ow, kh * kw))
    first = argmax(cells, -1, keepdim=True)                                  # (N, C, oh, ow, 1)
    y = F.squeeze(gather_elements(cells, 4, first), -1)
    index = F.squeeze(gather_elements(F.reshape(F.cast(flat, dt.int64), (n, c, oh, ow, kh * kw)),
                                      4, first), -1)
    if not x_aval.dtype.is_float:
        positive = F.greater(y, F.zeros_like(y))
        y = F.select(positive, y, F.zeros_like(y))
        index = F.select(positive, index,
                         F.reshape(F.getitem(F.reshape(F.cast(flat, dt.int64),
                                                       (n, c, oh, ow, kh * kw)), (..., 0)),
                                   (n, c, oh, ow)))
    return y, index


def fractional_max_pool3d_with_fixed_ksize(x, random_samples, ksize, output_shape,
                                           data_format="NCDHW"):
    """(y, argmax) of FractionalMaxPool3DWithFixedKsize: on (N, C, D, H, W) x ((C, D, H, W)
    too; NDHWC moved to NCDHW and back), windows of `ksize` starting where each plane's three
    random samples (depth's, height's, width's; `random_samples` (N, C, 3), or (C, 1, 3) for a
    4-D x) put them, `output_shape` of them per axis; argmax the int64 index of each maximum
    within its D*H*W volume, the first in row-major order, as MindSpore's CPU kernel."""
    op = "FractionalMaxPool3DWithFixedKsize"
    x_aval, s_aval = abstract_of(x), abstract_of(random_samples)
    if x_aval.ndim not in (4, 5):
        raise DTypeError(f"For '{op}', the dimension of 'x' must be equal to 4 or 5, but got "
                         f"{x_aval.ndim}.")
    if s_aval.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"For '{op}', the type of 'random_samples' must be float16, float32 or "
                         f"float64, but got {s_aval.dtype}.")
    if x_aval.ndim == 4:
        if s_aval.ndim != 3 or s_aval.shape[0] != x_aval.shape[0] or s_aval.shape[2] != 3:
            raise ArgumentValueError(f"For '{op}', if 'x' is 4 dimensional, 'random_samples' "
                                     f"must have shape ({x_aval.shape[0]}, 1, 3), but got "
                                     f"{tuple(s_aval.shape)}.")
        y, index = fractional_max_pool3d_with_fixed_ksize(
            F.expand_dims(x, 0), F.reshape(random_samples, (1, x_aval.shape[0], 3)), ksize,
            output_shape, data_format)
        return F.squeeze(y, 0), F.squeeze(index, 0)
    if data_format == "NDHWC":
        y, index = fractional_max_pool3d_with_fixed_ksize(
            F.transpose(x, (0, 4, 1, 2, 3)), random_samples, ksize, output_shape)
        return F.transpose(y, (0, 2, 3, 4, 1)), F.transpose(index, (0, 2, 3, 4, 1))
    n, c, *size = x_aval.shape
    kernel = _triple(op, "ksize", ksize)
    outs = _triple(op, "output_shape", output_shape)
    for axis, k, o, length in zip(("depth", "height", "width"), kernel, outs, size):
        if o + k - 1 >= length:
            raise ArgumentValueError(f"For '{op}', out(): pool {axis} ,{k}too large relative to "
                                     f"input {axis}{length}.")
    if tuple(s_aval.shape) != (n, c, 3):
        raise ArgumentValueError(f"For '{op}', 'random_samples' must have shape ({n}, {c}, 3) "
                                 f"(x's N and C, then 3), but got {tuple(s_aval.shape)}.")
    flat = None
    for axis in range(3):
        starts = _fixed_starts(F.getitem(random_samples, (..., axis)), size[axis], outs[axis],
                               kernel[axis], s_aval.dtype)                        # (N, C, o)
        taps = F.add(F.expand_dims(starts, -1), F.cast(np.arange(kernel[axis], dtype=np.int32),
                                                      dt.int32))                  # (N, C, o, k)
        shape = [n, c, 1, 1, 1, 1, 1, 1]
        shape[2 + axis], shape[5 + axis] = outs[axis], kernel[axis]
        term = F.mul(F.reshape(F.cast(taps, dt.int64), tuple(shape)),
                     int(np.prod(size[axis + 1:])))
        flat = term if flat is None else F.add(flat, term)
    windows = int(np.prod(outs))
    cells_k = int(np.prod(kernel))
    flat = F.reshape(F.broadcast_to(flat, (n, c) + outs + kernel), (n, c, windows * cells_k))
    cells = gather_elements(F.reshape(x, (n, c, int(np.prod(size)))), 2, flat)
    cells = F.reshape(cells, (n, c, windows, cells_k))
    first = argmax(cells, -1, keepdim=True)
    y = F.reshape(gather_elements(cells, 3, first), (n, c) + outs)
    index = F.reshape(gather_elements(F.reshape(flat, (n, c, windows, cells_k)), 3, first),
                      (n, c) + outs)
    return y, index


def _triple(op: str, name: str, value) -> tuple:
    values = (value,) if isinstance(value, int) else tuple(value)
    if len(values) not in (1, 3) or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                                        for v in values):
        raise ArgumentValueError(f"For '{op}', '{name}' must be a positive int or a tuple of "
                                 f"three positive ints, but got {value!r}.")
    return values * 3 if len(values) == 1 else values
