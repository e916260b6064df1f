"""Kernels that write into arrays, for the NumPy-like modules (NumPy, and CuPy on the GPU):
the override table of the `numpy` and `cupy` backends, over the module itself (`numpy` or
`cupy`, which both have `lib.stride_tricks`, in-place slice assignment and `add.at`).

Convolution (runtime/strided_conv.py) and BatchNorm (runtime/strided_norm.py) kernels join this
table from their own modules. Max pooling finds each window's first maximum by strided slice
comparisons, and its gradients scatter to (and gather from) those positions, so ties resolve
alike on every backend.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable

from cellgraph.primitives.core import to_numpy_index

from . import strided_conv, strided_norm
from .kernels import registrar
from .strided_conv import out_hw as _out_hw

# primitive name -> fn(module, *operands, **params)
TABLE: dict[str, Callable] = {**strided_conv.TABLE, **strided_norm.TABLE}
kernel = registrar(TABLE)


def bind_overrides(module) -> dict[str, Callable]:
    """This table's kernels on `module` (`numpy` or `cupy`)."""
    return {name: functools.partial(fn, module) for name, fn in TABLE.items()}


def scatter_add(xp, target, index, values) -> None:
    """`target[index] += values`, repeated indices accumulating: `ufunc.at` (CuPy has it since
    v13), else `cupyx.scatter_add`."""
    try:
        xp.add.at(target, index, values)
    except (AttributeError, NotImplementedError):
        import cupyx

        cupyx.scatter_add(target, index, values)


@kernel("complex")
def _complex(xp, re, im):
    """Parts written into a complex array (re + im * 1j would turn an infinite part into nan)."""
    re, im = xp.broadcast_arrays(xp.asarray(re), xp.asarray(im))
    out = xp.empty(re.shape, xp.result_type(re.dtype, xp.complex64))
    out.real, out.imag = re, im
    return out


def masked(xp, values, mask):
    """`values` where `mask`, else 0, as a select gives it (an infinite or NaN value outside
    the mask gives 0): the values' bits ANDed with the mask widened to all ones. NumPy's
    `where` branches per element and costs some fifteen times more on an irregular mask."""
    bits = xp.dtype(f"uint{8 * values.dtype.itemsize}")
    if mask.shape == values.shape and mask.ndim:  # in place in the one array it must make
        selected = mask.astype(bits)
        xp.negative(selected, out=selected)  # 1 -> all ones, two's complement
        return xp.bitwise_and(selected, values.view(bits), out=selected).view(values.dtype)
    all_ones = mask.astype(bits) * xp.iinfo(bits).max
    # as an array of `bits`: NumPy 1 gives 0-d operands the smallest type holding their values
    return xp.asarray(values.view(bits) & all_ones, dtype=bits).view(values.dtype)


@kernel("relu_grad")
def _relu_grad(xp, x, dy):
    return masked(xp, dy, x > 0)


@kernel("getitem_grad")
def _getitem_grad(xp, g, index, shape):
    out = xp.zeros(shape, dtype=g.dtype)
    out[to_numpy_index(index)] = g
    return out


@kernel("gather_grad")
def _gather_grad(xp, g, indices, axis, shape):
    indices = xp.asarray(indices)
    out = xp.zeros(shape, dtype=g.dtype)
    rows = xp.moveaxis(g, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim)))
    moved = xp.moveaxis(out, axis, 0)  # a view: adding into it adds into `out`
    scatter_add(xp, moved, indices.reshape(-1), rows.reshape((indices.size,) + moved.shape[1:]))
    return out


# ----- windows (pooling) ---------------------------------------------------------------------

def _pad_nchw(xp, x, pad, value=0.0):
    top, bottom, left, right = pad
    if not any(pad):
        return x
    return xp.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)



def _windows(xp, x, kernel_hw, stride, dilation, out_hw):
    """A (N, C, Ho, Wo, kh, kw) view of the windows of padded `x` (no copy)."""
    s = x.strides
    shape = tuple(x.shape[:2]) + tuple(out_hw) + tuple(kernel_hw)
    strides = (s[0], s[1], s[2] * stride[0], s[3] * stride[1], s[2] * dilation[0],
               s[3] * dilation[1])
    return xp.lib.stride_tricks.as_strided(x, shape, strides)


def _col2im(xp, cols, padded_shape, kernel_hw, stride, dilation):
    """Sum (N, C, Ho, Wo, kh, kw) window values back into a zero (N, C, Hp, Wp) array."""
    out = xp.zeros(padded_shape, dtype=cols.dtype)
    ho, wo = cols.shape[2:4]
    for i in range(kernel_hw[0]):
        r0 = i * dilation[0]
        rows = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
        for j in range(kernel_hw[1]):
            c0 = j * dilation[1]
            out[:, :, rows, c0:c0 + stride[1] * (wo - 1) + 1:stride[1]] += cols[..., i, j]
    return out


def _crop(x, pad, hw):
    return x[:, :, pad[0]:pad[0] + hw[0], pad[2]:pad[2] + hw[1]]


def _padded_shape(x_shape, pad) -> tuple:
    return tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])


# ----- max pooling -----------------------------------------------------------------------------

def _window_slices(kernel_hw, stride, out_hw):
    """For each window position (i, j), row-major, the strided (rows, cols) slices of the padded
    input it reads for every output."""
    return [(slice(i, i + stride[0] * (out_hw[0] - 1) + 1, stride[0]),
             slice(j, j + stride[1] * (out_hw[1] - 1) + 1, stride[1]))
            for i in range(kernel_hw[0]) for j in range(kernel_hw[1])]


@kernel("max_pool2d")
def _max_pool2d(xp, x, kernel, stride, pad):
    """The maximum of kh * kw strided slices, one vectorised pass each (a reduction over the
    small trailing window axes of a strided view is several times slower)."""
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    padded = _pad_nchw(xp, x, pad, -math.inf)
    (rows, cols), *rest = _window_slices(kernel, stride, (ho, wo))
    out = padded[:, :, rows, cols].copy()
    for rows, cols in rest:
        xp.maximum(out, padded[:, :, rows, cols], out=out)
    return out


def _plane_offsets(kernel_hw, padded_width) -> list[int]:
    """For each window position (i, j), row-major, its offset in the padded H*W plane from the
    window's first element."""
    return [i * padded_width + j for i in range(kernel_hw[0]) for j in range(kernel_hw[1])]


def _window_origins(xp, out_size, stride, padded_width):
    """(Ho, Wo): each window's first element as an index into the padded H*W plane."""
    rows = xp.arange(out_size[0], dtype=xp.int32) * (stride[0] * padded_width)
    return rows[:, None] + xp.arange(out_size[1], dtype=xp.int32)[None, :] * stride[1]


@kernel("max_pool2d_argmax")
def _max_pool2d_argmax(xp, x, kernel, stride, pad):
    """The maximum over kh * kw strided slices, and where the first maximum sits: a window
    position replaces the one found so far only when strictly greater. The replacement is
    arithmetic (offset += (new - offset) * greater): NumPy's masked writes (`copyto(where=)`,
    `where` with a scalar) branch per element and cost some fifty times more."""
    size = _out_hw(x.shape[2:], kernel, stride, pad)
    padded = _pad_nchw(xp, x, pad, -math.inf)
    offsets = _plane_offsets(kernel, padded.shape[3])
    (rows, cols), *rest = _window_slices(kernel, stride, size)
    best = padded[:, :, rows, cols].copy()
    offset = xp.zeros(best.shape, dtype=xp.int32)
    for k, (rows, cols) in enumerate(rest, 1):
        candidate = padded[:, :, rows, cols]
        change = offsets[k] - offset
        change *= candidate > best
        offset += change
        xp.maximum(best, candidate, out=best)
    return best, offset + _window_origins(xp, size, stride, padded.shape[3])


def _window_position_masks(xp, argmax, kernel, stride, padded_width):
    """For each window position, row-major: where the argmax sits at it."""
    offset = argmax - _window_origins(xp, argmax.shape[2:], stride, padded_width)
    return [offset == k for k in _plane_offsets(kernel, padded_width)]


@kernel("max_pool2d_scatter")
def _max_pool2d_scatter(xp, argmax, g, x_shape, kernel, stride, pad):
    """Each output gradient added at its window's recorded argmax: one strided slice addition
    per window position (no scatter with repeated indices)."""
    if _tiling(x_shape, kernel, stride, pad, g.shape) and bool(xp.isfinite(g).all()):
        return _tiled_scatter(xp, argmax, g, x_shape, kernel)
    dxp = xp.zeros(_padded_shape(x_shape, pad), dtype=g.dtype)
    masks = _window_position_masks(xp, argmax, kernel, stride, dxp.shape[3])
    for mask, (rows, cols) in zip(masks, _window_slices(kernel, stride, g.shape[2:])):
        dxp[:, :, rows, cols] += masked(xp, g, mask)
    return _crop(dxp, pad, x_shape[2:])


def _tiling(x_shape, kernel, stride, pad, out_shape) -> bool:
    """Whether the windows tile the input: as large as their stride, unpadded, covering it."""
    return (tuple(kernel) == tuple(stride) and not any(pad)
            and tuple(x_shape[2:]) == (out_shape[2] * kernel[0], out_shape[3] * kernel[1]))


def _tiled_scatter(xp, argmax, g, x_shape, kernel):
    """The scatter where windows tile the input: each input element is in one window, so each
    window position's share is written once, as the output gradient times its mask (a finite
    gradient: a product with 0 is 0), into the input viewed as (N, C, Ho, kh, Wo, kw)."""
    n, c, ho, wo = g.shape
    kh, kw = kernel
    offset = argmax - _window_origins(xp, (ho, wo), kernel, x_shape[3])
    dx = xp.empty((n, c, ho, kh, wo, kw), dtype=g.dtype)
    for i in range(kh):
        for j in range(kw):
            xp.multiply(g, offset == i * x_shape[3] + j, out=dx[:, :, :, i, :, j])
    return dx.reshape(tuple(x_shape))


@kernel("max_pool2d_gather")
def _max_pool2d_gather(xp, argmax, h, kernel, stride, pad):
    """An input-shaped array read at each window's recorded argmax: the transpose of the
    above."""
    n, c = argmax.shape[:2]
    planes = _pad_nchw(xp, h, pad).reshape(n, c, -1)
    picked = xp.take_along_axis(planes, argmax.reshape(n, c, -1).astype(xp.int64), axis=2)
    return picked.reshape(argmax.shape)


@kernel("max_pool2d_grad")
def _max_pool2d_grad(xp, x, g, kernel, stride, pad):
    _, argmax = _max_pool2d_argmax(xp, x, kernel, stride, pad)
    return _max_pool2d_scatter(xp, argmax, g, x.shape, kernel, stride, pad)


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(xp, x, g, kernel, stride, pad):
    _, argmax = _max_pool2d_argmax(xp, x, kernel, stride, pad)
    return _max_pool2d_gather(xp, argmax, g, kernel, stride, pad)


# ----- average pooling -------------------------------------------------------------------------

def _window_counts(xp, hw, kernel_hw, stride, pad, count_include_pad, dtype):
    """How many elements each window divides by: (Ho, Wo)."""
    ho, wo = _out_hw(hw, kernel_hw, stride, pad)
    if count_include_pad:
        return xp.full((ho, wo), kernel_hw[0] * kernel_hw[1], dtype=dtype)
    ones = _pad_nchw(xp, xp.ones((1, 1) + tuple(hw), dtype=dtype), pad)
    return _windows(xp, ones, kernel_hw, stride, (1, 1), (ho, wo)).sum(axis=(-2, -1))[0, 0]


@kernel("avg_pool2d")
def _avg_pool2d(xp, x, kernel, stride, pad, count_include_pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(xp, _pad_nchw(xp, x, pad), kernel, stride, (1, 1), (ho, wo)).sum(
        axis=(-2, -1))
    counts = _window_counts(xp, x.shape[2:], kernel, stride, pad, count_include_pad, x.dtype)
    return (sums / counts).astype(x.dtype, copy=False)


@kernel("avg_pool2d_grad")
def _avg_pool2d_grad(xp, g, x_shape, kernel, stride, pad, count_include_pad):
    share = g / _window_counts(xp, x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype)
    cols = xp.broadcast_to(share[..., None, None], share.shape + tuple(kernel))
    dxp = _col2im(xp, cols, _padded_shape(x_shape, pad), kernel, stride, (1, 1))
    return _crop(dxp, pad, x_shape[2:])


# ----- scatters ---------------------------------------------------------------------------------

def _coordinates(xp, indices) -> tuple:
    """gather_nd-style indices (..., K) as a tuple of K integer arrays."""
    return tuple(indices[..., k] for k in range(indices.shape[-1]))


@kernel("tensor_scatter_update")
def _tensor_scatter_update(xp, x, indices, updates):
    out = xp.array(x, copy=True)
    out[_coordinates(xp, indices)] = updates
    return out


@kernel("tensor_scatter_add")
def _tensor_scatter_add(xp, x, indices, updates):
    out = xp.array(x, copy=True)
    scatter_add(xp, out, _coordinates(xp, indices), updates)
    return out


@kernel("tensor_scatter_sub")
def _tensor_scatter_sub(xp, x, indices, updates):
    out = xp.array(x, copy=True)
    scatter_add(xp, out, _coordinates(xp, indices), -updates)
    return out


def _scatter_with(ufunc: str):
    """A scatter that combines each slice with its updates by `ufunc`, an index given several
    times taking its updates in their order, as `ufunc.at` would: in rounds that each touch a
    slice at most once, exact in every dtype (CuPy's `ufunc.at` computes float64 maxima,
    minima, products and quotients in float32)."""
    def scatter(xp, x, indices, updates):
        out = xp.array(x, copy=True)
        coords = [c.reshape(-1) for c in _coordinates(xp, indices)]
        updates = updates.reshape((-1,) + tuple(updates.shape[indices.ndim - 1:]))
        combine = getattr(xp, ufunc)
        for chosen in _rounds(xp, coords, x.shape):
            where = tuple(c[chosen] for c in coords)
            out[where] = combine(out[where], updates[chosen])
        return out
    return scatter


def _rounds(xp, coords: list, shape: tuple) -> list:
    """Positions in the list of updates, by round: round r holds each slice's r-th update."""
    count = int(coords[0].shape[0])
    if count == 0:
        return []
    flat = xp.zeros(count, dtype=xp.int64)
    for c, n in zip(coords, shape):
        flat = flat * n + xp.remainder(c.astype(xp.int64), n)
    # order by slice, then by position in the list (unique keys: no stable sort needed)
    order = xp.argsort(flat * count + xp.arange(count, dtype=xp.int64))
    ordered = flat[order]
    rank = xp.empty(count, dtype=xp.int64)
    rank[order] = xp.arange(count, dtype=xp.int64) - xp.searchsorted(ordered, ordered)
    return [xp.nonzero(rank == r)[0] for r in range(int(rank.max()) + 1)]


for _name, _ufunc in {"tensor_scatter_max": "maximum", "tensor_scatter_min": "minimum",
                      "tensor_scatter_mul": "multiply", "tensor_scatter_div": "divide"}.items():
    TABLE[_name] = _scatter_with(_ufunc)


@kernel("nextafter")
def _nextafter(xp, x, y):
    """The next float after `x` towards `y`, by stepping its bits in integer arithmetic: exact
    for subnormals too (CUDA's float32 nextafter flushes them to zero, and so does its float
    arithmetic: no float operation touches the values here)."""
    x, y = xp.broadcast_arrays(xp.asarray(x), xp.asarray(y))
    ints = {2: xp.int16, 4: xp.int32, 8: xp.int64}[x.dtype.itemsize]
    sign = xp.asarray(xp.iinfo(ints).min, dtype=ints)

    def ordered(v):  # sign-magnitude bits as integers in the floats' order (-0 and +0 alike)
        bits = v.copy().view(ints)  # a C-contiguous copy: broadcasting gives views
        return xp.where(bits < 0, -(bits & ~sign), bits)

    ox, oy = ordered(x), ordered(y)
    step = ox + xp.where(oy > ox, 1, -1).astype(ints)
    bits = xp.where(step < 0, (-step) | sign, step)
    bits = xp.where((step == 0) & (ox < 0), sign, bits)  # from a negative subnormal: -0
    out = bits.view(x.dtype)
    out = xp.where(ox == oy, y, out)
    return xp.where(xp.isnan(x) | xp.isnan(y), xp.asarray(float("nan"), dtype=x.dtype), out)


@kernel("tensor_scatter_elements")
def _tensor_scatter_elements(xp, x, indices, updates, axis=0, reduction="none"):
    """Element (i, j, ...) of `updates` goes to `x` at the same position but for `indices`'s
    value along `axis`."""
    axis %= x.ndim
    grid = list(xp.ogrid[tuple(slice(0, n) for n in indices.shape)])
    grid[axis] = indices
    out = xp.array(x, copy=True)
    if reduction == "add":
        scatter_add(xp, out, tuple(grid), updates)
    else:
        out[tuple(grid)] = updates
    return out
