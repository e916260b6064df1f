"""Kernels that write into arrays, for the NumPy-like modules (NumPy, and CuPy on the GPU):
the override table of the `numpy` and `cupy` backends, over the module itself (`numpy` or
`cupy`, which both have `lib.stride_tricks`, in-place slice assignment and `add.at`).

Convolution is im2col + matmul over a channels-last copy of the padded input: `as_strided` gives
every (kh, kw) window as a view whose innermost axis is the contiguous channels, one copy lays
the windows out as rows, and one (batched over groups) matmul does the rest. The input gradient
of a stride-1 convolution is another convolution (flipped filter); otherwise col2im, kh * kw
strided slice additions. Pooling gradients scatter
to (and gather from) each window's first maximum, so ties resolve alike on every backend.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable

from cellgraph.ops.core import to_numpy_index

from .kernels import registrar

TABLE: dict[str, Callable] = {}  # primitive name -> fn(module, *operands, **params)
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


# ----- convolution -----------------------------------------------------------------------------

def _pad_nchw(xp, x, pad, value=0.0):
    top, bottom, left, right = pad
    if not any(pad):
        return x
    return xp.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _out_hw(hw, kernel_hw, stride, pad, dilation=(1, 1)) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel_hw[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


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


def _padded_nhwc(xp, x, pad):
    """x (N, C, H, W) as a contiguous zero-padded (N, Hp, Wp, C) array, in one copy: windows
    over it read runs of C contiguous values instead of single strided elements."""
    n, c, h, w = x.shape
    top, bottom, left, right = pad
    out = xp.zeros((n, h + top + bottom, w + left + right, c), dtype=x.dtype)
    out[:, top:top + h, left:left + w, :] = x.transpose(0, 2, 3, 1)
    return out


def _im2col(xp, x, kernel_hw, stride, pad, dilation, out_hw, group):
    """Rows of window values (group, N*Ho*Wo, kh*kw*C/group), in (kh, kw, c) order."""
    xh = _padded_nhwc(xp, x, pad)
    n, _, _, c = xh.shape
    s = xh.strides
    win = xp.lib.stride_tricks.as_strided(
        xh, (n, out_hw[0], out_hw[1], kernel_hw[0], kernel_hw[1], c),
        (s[0], s[1] * stride[0], s[2] * stride[1], s[1] * dilation[0], s[2] * dilation[1], s[3]))
    rows, taps = n * out_hw[0] * out_hw[1], kernel_hw[0] * kernel_hw[1]
    cols = win.reshape(rows, taps * c)
    if group == 1:
        return cols[None]
    cg = c // group
    return cols.reshape(rows, taps, group, cg).transpose(2, 0, 1, 3).reshape(group, rows,
                                                                             taps * cg)


def _filter_matrix(w, group):
    """(O, C/group, kh, kw) as (group, kh*kw*C/group, O/group), rows in `_im2col`'s order."""
    o, cg, kh, kw = w.shape
    return w.reshape(group, o // group, cg, kh, kw).transpose(0, 3, 4, 2, 1).reshape(
        group, kh * kw * cg, o // group)


def _rows_to_nchw(xp, out, n, ho, wo):
    """(group, N*Ho*Wo, O/group) products as a contiguous (N, O, Ho, Wo) array."""
    out = out.transpose(1, 0, 2).reshape(n, ho, wo, -1)
    return xp.ascontiguousarray(out.transpose(0, 3, 1, 2))


def _dout_rows(dout, group):
    """(N, O, Ho, Wo) as (group, N*Ho*Wo, O/group)."""
    n, o, ho, wo = dout.shape
    return dout.transpose(0, 2, 3, 1).reshape(n * ho * wo, group, o // group).transpose(1, 0, 2)


@kernel("conv2d")
def _conv2d(xp, x, w, stride, pad, dilation, group):
    ho, wo = _out_hw(x.shape[2:], w.shape[2:], stride, pad, dilation)
    cols = _im2col(xp, x, w.shape[2:], stride, pad, dilation, (ho, wo), group)
    return _rows_to_nchw(xp, xp.matmul(cols, _filter_matrix(w, group)), x.shape[0], ho, wo)


@kernel("conv2d_backprop_input")
def _conv2d_backprop_input(xp, dout, w, x_shape, stride, pad, dilation, group):
    """A stride-1 convolution's input gradient is the convolution of the output gradient with
    the flipped, transposed filter: im2col and one matmul, the forward pass's cost. Where that
    would need more columns than the filter has input channels, or strides, dilation or groups
    rule it out, the output gradient's rows are multiplied out and summed back (col2im)."""
    o, cg, kh, kw = w.shape
    top, bottom, left, right = pad
    full = (kh - 1 - top, kh - 1 - bottom, kw - 1 - left, kw - 1 - right)
    if (tuple(stride) == (1, 1) and tuple(dilation) == (1, 1) and group == 1 and min(full) >= 0
            and o <= cg):
        flipped = w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3)
        return _conv2d(xp, dout, flipped, (1, 1), full, (1, 1), 1)
    n, _, ho, wo = dout.shape
    dcols = xp.matmul(_dout_rows(dout, group), _filter_matrix(w, group).transpose(0, 2, 1))
    dcols = dcols.reshape(group, n, ho, wo, kh, kw, cg).transpose(1, 2, 3, 4, 5, 0, 6)
    dxp = xp.zeros((n, x_shape[2] + top + bottom, x_shape[3] + left + right, group * cg),
                   dtype=dout.dtype)
    for i in range(kh):
        r0 = i * dilation[0]
        rows = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
        for j in range(kw):
            c0 = j * dilation[1]
            dxp[:, rows, c0:c0 + stride[1] * (wo - 1) + 1:stride[1], :] += dcols[
                :, :, :, i, j].reshape(n, ho, wo, group * cg)
    dx = dxp[:, top:top + x_shape[2], left:left + x_shape[3], :]
    return xp.ascontiguousarray(dx.transpose(0, 3, 1, 2))


@kernel("conv2d_backprop_filter")
def _conv2d_backprop_filter(xp, x, dout, w_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w_shape
    cols = _im2col(xp, x, (kh, kw), stride, pad, dilation, dout.shape[2:], group)
    dw = xp.matmul(_dout_rows(dout, group).transpose(0, 2, 1), cols)  # (group, O/g, kh*kw*cg)
    return xp.ascontiguousarray(dw.reshape(o, kh, kw, cg).transpose(0, 3, 1, 2))


# ----- max pooling -----------------------------------------------------------------------------

def _first_max(xp, x, kernel_hw, stride, pad):
    """Which window position (0 .. kh*kw-1, row-major) holds each window's first maximum,
    over the -inf-padded input: (N, C, Ho, Wo)."""
    n, c = x.shape[:2]
    ho, wo = _out_hw(x.shape[2:], kernel_hw, stride, pad)
    win = _windows(xp, _pad_nchw(xp, x, pad, -math.inf), kernel_hw, stride, (1, 1), (ho, wo))
    return xp.argmax(win.reshape(n, c, ho, wo, -1), axis=-1)


def _argmax_positions(xp, x, kernel_hw, stride, pad):
    """Flat indices into the -inf-padded input of each window's (first) maximum."""
    n, c, h, w = x.shape
    hp, wp = h + pad[0] + pad[1], w + pad[2] + pad[3]
    arg = _first_max(xp, x, kernel_hw, stride, pad)
    ho, wo = arg.shape[2:]
    rows = xp.arange(ho)[:, None] * stride[0] + arg // kernel_hw[1]
    cols = xp.arange(wo)[None, :] * stride[1] + arg % kernel_hw[1]
    planes = xp.arange(n * c).reshape(n, c, 1, 1) * (hp * wp)
    return planes + rows * wp + cols, (n, c, hp, wp)


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


@kernel("max_pool2d_grad")
def _max_pool2d_grad(xp, x, g, kernel, stride, pad):
    """Each output gradient added at its window's first maximum: for each window position
    (i, j), one strided slice addition of the gradients whose maximum sits there (kh * kw
    passes over the output, instead of a scatter with repeated indices)."""
    arg = _first_max(xp, x, kernel, stride, pad)
    dxp = xp.zeros(_padded_shape(x.shape, pad), dtype=x.dtype)
    zero = xp.zeros((), dtype=x.dtype)
    for k, (rows, cols) in enumerate(_window_slices(kernel, stride, arg.shape[2:])):
        dxp[:, :, rows, cols] += xp.where(arg == k, g, zero)
    return _crop(dxp, pad, x.shape[2:])


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(xp, x, g, kernel, stride, pad):
    """Gather an input-shaped array at each window's argmax: the transpose of the above."""
    flat, _ = _argmax_positions(xp, x, kernel, stride, pad)
    return _pad_nchw(xp, g, pad).ravel()[flat]


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
    """A scatter that combines each slice with its updates by `ufunc.at` (repeats compose)."""
    def scatter(xp, x, indices, updates):
        out = xp.array(x, copy=True)
        getattr(xp, ufunc).at(out, _coordinates(xp, indices), updates)
        return out
    return scatter


for _name, _ufunc in {"tensor_scatter_max": "maximum", "tensor_scatter_min": "minimum",
                      "tensor_scatter_mul": "multiply", "tensor_scatter_div": "divide"}.items():
    TABLE[_name] = _scatter_with(_ufunc)


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
