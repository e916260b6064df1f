"""Convolution kernels for the NumPy-like modules (NumPy, and CuPy on the GPU), joined into
their override table by runtime/strided_kernels.py.

Convolution is im2col + matmul over a channels-last copy of the padded input: `as_strided`
gives every (kh, kw) window as a view whose innermost axis is the contiguous channels, a copy
lays the windows out as rows, and a matmul (batched over images and groups) does the rest. On
NumPy the window rows are copied a few images at a time into one buffer that stays in the CPU's
cache, and each block's matmul reads them from there: the whole im2col matrix (kh * kw times
the input) is never written to memory and read back. With stride 1 along H (and one group) only
the windows along W are copied, and each kernel row's columns are the same buffer shifted by
whole output rows: kh matmuls over a third of the copying (for 3x3). Per image, the products
come out channel by plane, which is NCHW: no transpose after.

With few output channels (times kernel rows: 16 channels 3x3 in bench W17's ResNet) those
matmuls are thin (16 rows by the image's pixels). There the windows along W are laid out by
pixel instead (`_pixel_rows`): one row per (channel, kernel column), a run over the padded
height's rows of output columns, copied straight from the NCHW input (no channels-last
transpose, and the padding's zeros written once). One GEMM per image multiplies every kernel
row's filter by that buffer, (kh*O, C*kw) @ (C*kw, Hp*Wo), and kernel row i's products, shifted
by i output rows, are added as contiguous runs into the NCHW output; the filter gradient reads
each kernel row's columns of the same buffer, shifted, as a transposed matrix.

The two backward passes of a stride-1 convolution share one im2col, of the output gradient
padded to "full": with D its window rows,

    dx = D @ flip(w)                    (the input gradient: a convolution with the flipped,
                                         transposed filter)
    dw[o, c, i, j] = (x_rows^T @ D)[c, (kh-1-i, kw-1-j, o)]

so `conv2d_grad` copies windows once for both. Strides, dilation and groups rule that out (or
a filter with more output than input channels, whose full-padded im2col would be the wider);
then the input gradient multiplies the output gradient out into each window's share and adds
the shares back (col2im), and the filter gradient reads the input's windows.

With few input channels (LeNet's first layer has one) those window rows are a few values
wide (kw * C), and BLAS multiplies such thin matrices several times more slowly than wide ones.
There the columns are laid out the other way (`_pixel_columns`): one row per (channel, kernel
position), each a run over the block's images and output pixels read from the NCHW input, and
each block is one GEMM with the filter as its left operand. The input gradient of one group is
likewise one GEMM per block (the filter's transpose times the output gradient), then col2im.

Half-precision operands (float16, bfloat16) are convolved in float32 and the result rounded
once, as GPU convolutions accumulate: the kernels add kh partial products (and a batch's
blocks) together, and adding those in float16 loses a digit or more on every output.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable

TABLE: dict[str, Callable] = {}  # primitive name -> fn(module, *operands, **params)

# Bytes of window rows per block: about what one core's L2 cache holds. Other modules (CuPy)
# copy the whole batch at once: a GPU gains nothing from small blocks.
CACHE_BLOCK_BYTES = {"numpy": 1 << 20}
# col2im adds kh * kw share planes per block, each a NumPy call: below a few MiB per block the
# calls cost more than the cache saves (LeNet's 6-channel layer: 1.5 ms at 1 MiB, 1.0 at 4)
COL2IM_BLOCK_SCALE = 4


HALF_PRECISION = ("float16", "bfloat16")


def _kernel(name: str):
    """Registers `fn` in the table computing half-precision operands in float32; the module's
    own calls between kernels go to `fn` unwrapped."""
    def register(fn):
        @functools.wraps(fn)
        def in_float32(xp, *args, **params):
            half = next((a.dtype for a in args if getattr(a, "dtype", None) is not None
                         and a.dtype.name in HALF_PRECISION), None)
            if half is None:
                return fn(xp, *args, **params)
            wide = [a.astype(xp.float32) if getattr(a, "dtype", None) == half else a
                    for a in args]
            out = fn(xp, *wide, **params)
            return (tuple(o.astype(half) for o in out) if isinstance(out, tuple)
                    else out.astype(half))
        TABLE[name] = in_float32
        return fn
    return register


def out_hw(hw, kernel_hw, stride, pad, dilation=(1, 1)) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel_hw[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _padded_nhwc(xp, x, pad):
    """x (N, C, H, W) as a contiguous zero-padded (N, Hp, Wp, C) array, in one copy: windows
    over it read runs of C contiguous values instead of single strided elements."""
    n, c, h, w = x.shape
    top, bottom, left, right = pad
    out = xp.zeros((n, h + top + bottom, w + left + right, c), dtype=x.dtype)
    out[:, top:top + h, left:left + w, :] = x.transpose(0, 2, 3, 1)
    return out


def _windows(xp, xh, kernel_hw, stride, dilation, out_size, group):
    """(N, group, Ho, Wo, kh, kw, C/group) view of the windows of padded NHWC `xh`."""
    n, _, _, c = xh.shape
    s = xh.strides
    shape = (n, group) + tuple(out_size) + tuple(kernel_hw) + (c // group,)
    strides = (s[0], s[3] * (c // group), s[1] * stride[0], s[2] * stride[1],
               s[1] * dilation[0], s[2] * dilation[1], s[3])
    return xp.lib.stride_tricks.as_strided(xh, shape, strides)


def _column_blocks(xp, x, kernel_hw, stride, pad, dilation, out_size, group):
    """im2col, a block of images at a time: yields (images, taps), `images` a slice of the
    batch and `taps` consecutive column ranges of their window rows, each (images, group,
    Ho*Wo, columns), the columns of all ranges in (kh, kw, c) order. With stride 1 along H and
    one group, windows are copied along W only (kw times the input instead of kh * kw) and
    kernel row i's range is the same rows i * dh * Wo further on: one range per kernel row.
    Otherwise one range, the whole matrix. The buffer is reused by the next block: read each
    block before asking for the next."""
    xh = _padded_nhwc(xp, x, pad)
    by_row = stride[0] == 1 and group == 1
    if by_row:
        win = _row_windows(xp, xh, kernel_hw[1], stride[1], dilation[1], out_size[1])
    else:
        win = _windows(xp, xh, kernel_hw, stride, dilation, out_size, group)
    blocks = _image_blocks(xp, x.shape[0], math.prod(win.shape[1:]) * x.dtype.itemsize)
    if not blocks:  # an empty batch
        return
    buffer = xp.empty((blocks[0].stop,) + win.shape[1:], dtype=x.dtype)
    rows = out_size[0] * out_size[1]
    for images in blocks:
        count = images.stop - images.start
        block = buffer[:count]
        xp.copyto(block, win[images])
        if not by_row:
            yield images, [block.reshape(count, group, rows, -1)]
            continue
        flat = block.reshape(count, 1, -1, block.shape[-2] * block.shape[-1])
        step = dilation[0] * out_size[1]
        yield images, [flat[:, :, i * step:i * step + rows] for i in range(kernel_hw[0])]


def _row_windows(xp, xh, kw, stride_w, dilation_w, out_w):
    """(N, Hp, Wo, kw, C) view of padded NHWC `xh`: every row's windows along W."""
    n, hp, _, c = xh.shape
    s = xh.strides
    return xp.lib.stride_tricks.as_strided(
        xh, (n, hp, out_w, kw, c), (s[0], s[1], s[2] * stride_w, s[2] * dilation_w, s[3]))


def _split_columns(filters, parts: int) -> list:
    """(..., K) as `parts` consecutive (..., K / parts) ranges, matching `_column_blocks`."""
    width = filters.shape[-1] // parts
    return [filters[..., p * width:(p + 1) * width] for p in range(parts)]


# Up to this many output channels times kernel rows (and with stride 1 along H, one group, more
# than one kernel row), convolutions and their filter gradients take the pixel-row layout
# (`_pixel_rows`): measured on one core, 16 channels 3x3 at 32x32 (bench W17's ResNet) forward
# 2.2x faster than the channels-last row buffer with one GEMM per kernel row, 64 channels
# 1.2-1.5x; from 128 channels faster at 32x32 but 1.1x slower at 8x8.
STACKED_OUTPUTS = 192


def _by_pixel_rows(outputs: int, kernel_rows: int, stride, group: int) -> bool:
    return (stride[0] == 1 and group == 1 and 1 < kernel_rows
            and outputs * kernel_rows <= STACKED_OUTPUTS)


def _product(xp, filters, taps, out=None):
    """The sum over column ranges of filter range @ tap range^T: (images, group, O/g, Ho*Wo).
    BLAS is faster with the many window rows as the output's wide axis than as its tall one,
    and the product is channel-major: NCHW."""
    parts = _split_columns(filters, len(taps))
    out = xp.matmul(parts[0], taps[0].transpose(0, 1, 3, 2), out=out)
    for part, tap in zip(parts[1:], taps[1:]):
        out += xp.matmul(part, tap.transpose(0, 1, 3, 2))
    return out


def _pixel_rows(xp, x, kw, stride_w, pad, dilation_w, out_w):
    """Window rows along W laid out by pixel, a block of images at a time (stride 1 along H,
    one group): yields (images, flat), `flat` (images, C*kw, Hp*Wo) with

        flat[n, c*kw + j, hp*Wo + q] = padded x[n, c, hp, q*stride_w + j*dilation_w],

    each of its rows a run over the padded height's rows of output columns. Kernel row i's
    columns of output pixel r (in Ho*Wo order) are then column r + i*dilation_h*Wo: every
    kernel row reads the same buffer, shifted. Copied straight from NCHW `x`: each (c, j)
    plane is one strided copy of x's rows, with no channels-last transpose; the padding's
    zeros are the same positions in every block, written once. The buffer is reused by the
    next block."""
    n, c, h, w = x.shape
    top, bottom, left, _ = pad
    hp = h + top + bottom
    length = hp * out_w
    blocks = _image_blocks(xp, n, c * kw * length * x.dtype.itemsize)
    if not blocks:  # an empty batch
        return
    spans = []  # (j, first and end output column reading inside x, x's first column)
    for j in range(kw):
        offset = j * dilation_w - left  # x's column read by output column 0
        first = max(0, -(offset // stride_w))  # the first q with q * stride_w + offset >= 0
        end = min(out_w, (w - 1 - offset) // stride_w + 1) if w - 1 - offset >= 0 else 0
        if first < end:
            spans.append((j, first, end, first * stride_w + offset))
    buffer = xp.zeros((blocks[0].stop, c, kw, hp, out_w), dtype=x.dtype)
    for images in blocks:
        count = images.stop - images.start
        block = buffer[:count]
        for j, first, end, column in spans:
            block[:, :, j, top:top + h, first:end] = x[
                images, :, :, column:column + stride_w * (end - first - 1) + 1:stride_w]
        yield images, block.reshape(count, c * kw, length)


def _pixel_row_filters(w):
    """(O, C, kh, kw) as (kh*O, C*kw): every kernel row's filter, stacked, columns in
    `_pixel_rows`' (c, j) order."""
    o, c, kh, kw = w.shape
    return w.transpose(2, 0, 1, 3).reshape(kh * o, c * kw)


def _pixel_row_product(xp, stacked, flat, kernel_rows, step, rows, out):
    """out (images, O, rows) = the sum over kernel rows i of filter row i @ the buffer's
    columns `step` * i on: one GEMM (kh*O, C*kw) @ (C*kw, Hp*Wo) per image, its products
    channel-major, then kernel row i's rows of products, shifted, added in order (i = 0, 1,
    ...) as contiguous runs straight into `out`, which is NCHW."""
    count, _, length = flat.shape
    o = stacked.shape[0] // kernel_rows
    products = xp.matmul(stacked, flat).reshape(count, kernel_rows, o, length)
    xp.add(products[:, 0, :, 0:rows], products[:, 1, :, step:step + rows], out=out)
    for i in range(2, kernel_rows):
        out += products[:, i, :, i * step:i * step + rows]
    return out


def _pixel_row_taps(xp, flat, kernel_rows, step, rows):
    """Every kernel row's columns of `flat`, transposed: (images, kh, rows, C*kw), a view."""
    count, width, _ = flat.shape
    s = flat.strides
    return xp.lib.stride_tricks.as_strided(flat, (count, kernel_rows, rows, width),
                                           (s[0], s[2] * step, s[2], s[1]))


def _pixel_row_filter_grad(xp, rows_of, flat, kernel_rows, step, rows):
    """(kh, M, C*kw): per kernel row, `rows_of` (images, M, rows) times that row's columns of
    `flat`, summed over the images."""
    taps = _pixel_row_taps(xp, flat, kernel_rows, step, rows)
    return xp.matmul(rows_of[:, None], taps).sum(axis=0)


def _pixel_conv2d(xp, x, w, stride, pad, dilation, size):
    n, o = x.shape[0], w.shape[0]
    kh, kw = w.shape[2:]
    rows = size[0] * size[1]
    stacked = _pixel_row_filters(w)
    out = xp.empty((n, o, rows), dtype=x.dtype)
    for images, flat in _pixel_rows(xp, x, kw, stride[1], pad, dilation[1], size[1]):
        _pixel_row_product(xp, stacked, flat, kh, dilation[0] * size[1], rows, out[images])
    return out.reshape((n, o) + tuple(size))


def _pixel_filter_grad(xp, x, dout, w_shape, stride, pad, dilation):
    o, c, kh, kw = w_shape
    n, _, ho, wo = dout.shape
    per_image = dout.reshape(n, o, ho * wo)
    acc = None
    for images, flat in _pixel_rows(xp, x, kw, stride[1], pad, dilation[1], wo):
        block = _pixel_row_filter_grad(xp, per_image[images], flat, kh, dilation[0] * wo,
                                       ho * wo)  # (kh, O, C*kw)
        acc = block if acc is None else acc + block
    if acc is None:  # an empty batch
        return xp.zeros(tuple(w_shape), dtype=x.dtype)
    return xp.ascontiguousarray(acc.reshape(kh, o, c, kw).transpose(1, 2, 0, 3))


def _filter_product(xp, rows, taps):
    """rows (images, group, M, Ho*Wo) against every tap range, summed over the images and
    joined along the columns: (group, M, K)."""
    return xp.concatenate([xp.matmul(rows, tap).sum(axis=0) for tap in taps], axis=-1)


def _image_blocks(xp, n: int, image_bytes: int) -> list[slice]:
    """The batch as slices of images whose per-image work of `image_bytes` fits the cache
    budget (one slice where there is none)."""
    budget = CACHE_BLOCK_BYTES.get(xp.__name__)
    step = n if budget is None else max(1, min(n, budget // max(image_bytes, 1)))
    return [slice(start, min(n, start + step)) for start in range(0, n, step)]


# Below this many window-row values per kernel row (kw * C), `_pixel_columns` lays the columns
# out: measured on one core, LeNet's 1-channel 5x5 layer (5 values) runs twice as fast that
# way; its 6-channel layer (30 values) and 16-channel 3x3 layers (48) a fifth faster the other.
NARROW_COLUMNS = 16


def _narrow(channels_per_group: int, kw: int, group: int) -> bool:
    return group == 1 and channels_per_group * kw < NARROW_COLUMNS


def _padded_nchw(xp, x, pad):
    top, bottom, left, right = pad
    if not any(pad):
        return x
    n, c, h, w = x.shape
    out = xp.zeros((n, c, h + top + bottom, w + left + right), dtype=x.dtype)
    out[:, :, top:top + h, left:left + w] = x
    return out


def _pixel_columns(xp, x, kernel_hw, stride, pad, dilation, out_size):
    """im2col laid out by pixel, a block of images at a time (one group): yields (images,
    columns), `columns` (C*kh*kw, images*Ho*Wo) contiguous, its rows in the filter's (c, i, j)
    order and its columns in (image, row, col) order. The buffer is reused by the next block."""
    padded = _padded_nchw(xp, x, pad)
    n, c = x.shape[:2]
    (kh, kw), (ho, wo) = kernel_hw, out_size
    s = padded.strides
    windows = xp.lib.stride_tricks.as_strided(
        padded, (c, kh, kw, n, ho, wo),
        (s[1], s[2] * dilation[0], s[3] * dilation[1], s[0], s[2] * stride[0], s[3] * stride[1]))
    rows, pixels = c * kh * kw, ho * wo
    blocks = _image_blocks(xp, n, rows * pixels * x.dtype.itemsize)
    if not blocks:  # an empty batch
        return
    buffer = xp.empty(rows * blocks[0].stop * pixels, dtype=x.dtype)
    for images in blocks:
        count = images.stop - images.start
        block = buffer[:rows * count * pixels].reshape(c, kh, kw, count, ho, wo)
        xp.copyto(block, windows[:, :, :, images])
        yield images, block.reshape(rows, count * pixels)


def _pixel_major(xp, dout):
    """(images, O, Ho, Wo) as a contiguous (O, images*Ho*Wo)."""
    count, o = dout.shape[:2]
    return xp.ascontiguousarray(dout.reshape(count, o, -1).transpose(1, 0, 2)).reshape(o, -1)


def _narrow_conv2d(xp, x, w, stride, pad, dilation, size):
    n, o = x.shape[0], w.shape[0]
    filters = w.reshape(o, -1)
    out = xp.empty((n, o, size[0] * size[1]), dtype=x.dtype)
    for images, columns in _pixel_columns(xp, x, w.shape[2:], stride, pad, dilation, size):
        out[images] = xp.matmul(filters, columns).reshape(o, -1, size[0] * size[1]).transpose(
            1, 0, 2)
    return out.reshape((n, o) + tuple(size))


def _narrow_filter_grad(xp, x, dout, w_shape, stride, pad, dilation):
    dw = None
    for images, columns in _pixel_columns(xp, x, w_shape[2:], stride, pad, dilation,
                                          dout.shape[2:]):
        block = xp.matmul(_pixel_major(xp, dout[images]), columns.T)  # (O, C*kh*kw)
        dw = block if dw is None else dw + block
    if dw is None:  # an empty batch
        return xp.zeros(tuple(w_shape), dtype=x.dtype)
    return dw.reshape(tuple(w_shape))


def _filter_rows(w, group):
    """(O, C/group, kh, kw) as (group, O/group, kh*kw*C/group), columns in im2col's order."""
    o, cg, kh, kw = w.shape
    return w.reshape(group, o // group, cg, kh, kw).transpose(0, 1, 3, 4, 2).reshape(
        group, o // group, kh * kw * cg)


@_kernel("conv2d")
def conv2d(xp, x, w, stride, pad, dilation, group):
    n, o = x.shape[0], w.shape[0]
    size = out_hw(x.shape[2:], w.shape[2:], stride, pad, dilation)
    if _narrow(x.shape[1] // group, w.shape[3], group):
        return _narrow_conv2d(xp, x, w, stride, pad, dilation, size)
    if _by_pixel_rows(o, w.shape[2], stride, group):
        return _pixel_conv2d(xp, x, w, stride, pad, dilation, size)
    filters = _filter_rows(w, group)
    out = xp.empty((n, group, o // group, size[0] * size[1]), dtype=x.dtype)
    for images, taps in _column_blocks(xp, x, w.shape[2:], stride, pad, dilation, size, group):
        _product(xp, filters, taps, out=out[images])
    return out.reshape((n, o) + tuple(size))


def _full_padding(w_shape, stride, pad, dilation, group):
    """The padding under which the input gradient is a stride-1 convolution of the output
    gradient with the flipped filter, or None where that does not apply or costs more."""
    o, cg, kh, kw = w_shape
    top, bottom, left, right = pad
    full = (kh - 1 - top, kh - 1 - bottom, kw - 1 - left, kw - 1 - right)
    if (tuple(stride) == (1, 1) and tuple(dilation) == (1, 1) and group == 1 and min(full) >= 0
            and o <= cg):
        return full
    return None


def _flipped(w):
    """The filter of the input gradient's convolution: (C, O, kh, kw), spatially flipped."""
    return w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3)


def _col2im_input_grad(xp, dout, w, x_shape, stride, pad, dilation, group):
    """The filter's transpose times the output gradient gives, per image, every window's
    share (C, kh, kw, Ho, Wo); each of the kh * kw planes of shares is added back where its
    window position read (col2im), a block of images at a time so the shares stay in cache."""
    if group == 1:
        return _one_group_col2im(xp, dout, w, x_shape, stride, pad, dilation)
    o, cg, kh, kw = w.shape
    n, _, ho, wo = dout.shape
    shares_of = w.reshape(group, o // group, cg * kh * kw).transpose(0, 2, 1)
    per_group = dout.reshape(n, group, o // group, ho * wo)
    dxp = xp.zeros(_padded_shape(x_shape, pad), dtype=dout.dtype)
    window_bytes = group * cg * kh * kw * ho * wo * dout.dtype.itemsize
    for images in _image_blocks(xp, n, window_bytes):
        shares = xp.matmul(shares_of, per_group[images]).reshape(
            (-1, group * cg, kh, kw, ho, wo))
        target = dxp[images]
        for i in range(kh):
            r0 = i * dilation[0]
            row_slice = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
            for j in range(kw):
                c0 = j * dilation[1]
                target[:, :, row_slice, c0:c0 + stride[1] * (wo - 1) + 1:stride[1]] += shares[
                    :, :, i, j]
    return dxp[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]


def _one_group_col2im(xp, dout, w, x_shape, stride, pad, dilation):
    """As above for one group, with each block's shares one GEMM (C*kh*kw, images*Ho*Wo) and
    the gradient gathered channel-major, (C, N, Hp, Wp), where each share plane is one run."""
    o, c, kh, kw = w.shape
    n, _, ho, wo = dout.shape
    shares_of = xp.ascontiguousarray(w.reshape(o, c * kh * kw).T)
    padded = _padded_shape(x_shape, pad)
    if tuple(stride) == (1, 1) and bool(xp.isfinite(w).all()):
        return _run_col2im(xp, dout, shares_of, w.shape, x_shape, pad, dilation)
    dxp = xp.zeros((c, n) + padded[2:], dtype=dout.dtype)
    share_bytes = c * kh * kw * ho * wo * dout.dtype.itemsize
    for images in _image_blocks(xp, n, share_bytes // COL2IM_BLOCK_SCALE):
        shares = xp.matmul(shares_of, _pixel_major(xp, dout[images])).reshape(
            c, kh, kw, -1, ho, wo)
        target = dxp[:, images]
        for i in range(kh):
            r0 = i * dilation[0]
            row_slice = slice(r0, r0 + stride[0] * (ho - 1) + 1, stride[0])
            for j in range(kw):
                c0 = j * dilation[1]
                target[:, :, row_slice, c0:c0 + stride[1] * (wo - 1) + 1:stride[1]] += shares[
                    :, i, j]
    cropped = dxp[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]
    return xp.ascontiguousarray(cropped.transpose(1, 0, 2, 3))


def _run_col2im(xp, dout, shares_of, w_shape, x_shape, pad, dilation):
    """col2im at stride 1 in runs: the output gradient is widened to the padded width with
    zero columns, so each share plane, (Ho, Wp) with zeros past Wo, is added to the padded
    gradient as one contiguous run per (channel, image), its zero columns landing on the next
    row's start (adding zeros, exact; the caller checked the filter is finite, so each zero
    column's products are zeros): Ho * Wp values per add instead of Ho rows of Wo."""
    o, c, kh, kw = w_shape
    n, _, ho, wo = dout.shape
    hp, wp = _padded_shape(x_shape, pad)[2:]
    dxp = xp.zeros((c, n, hp * wp), dtype=dout.dtype)
    length = (ho - 1) * wp + wo  # the last row's zero columns would run past the plane
    share_bytes = c * kh * kw * ho * wp * dout.dtype.itemsize
    for images in _image_blocks(xp, n, share_bytes // COL2IM_BLOCK_SCALE):
        count = images.stop - images.start
        widened = xp.zeros((o, count, ho, wp), dtype=dout.dtype)
        widened[..., :wo] = dout[images].transpose(1, 0, 2, 3)
        shares = xp.matmul(shares_of, widened.reshape(o, -1)).reshape(c, kh, kw, count,
                                                                        ho * wp)
        target = dxp[:, images]
        for i in range(kh):
            for j in range(kw):
                start = i * dilation[0] * wp + j * dilation[1]
                target[:, :, start:start + length] += shares[:, i, j, :, :length]
    dxp = dxp.reshape(c, n, hp, wp)[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]
    return xp.ascontiguousarray(dxp.transpose(1, 0, 2, 3))


def _padded_shape(x_shape, pad) -> tuple:
    return tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])


@_kernel("conv2d_backprop_input")
def conv2d_backprop_input(xp, dout, w, x_shape, stride, pad, dilation, group):
    full = _full_padding(w.shape, stride, pad, dilation, group)
    if full is not None:
        return conv2d(xp, dout, _flipped(w), (1, 1), full, (1, 1), 1)
    return _col2im_input_grad(xp, dout, w, x_shape, stride, pad, dilation, group)


@_kernel("conv2d_backprop_filter")
def conv2d_backprop_filter(xp, x, dout, w_shape, stride, pad, dilation, group):
    o, cg, kh, kw = w_shape
    if _narrow(cg, kw, group):
        return _narrow_filter_grad(xp, x, dout, w_shape, stride, pad, dilation)
    if _by_pixel_rows(o, kh, stride, group):
        return _pixel_filter_grad(xp, x, dout, w_shape, stride, pad, dilation)
    n, _, ho, wo = dout.shape
    per_group = dout.reshape(n, group, o // group, ho * wo)
    dw = None
    for images, taps in _column_blocks(xp, x, (kh, kw), stride, pad, dilation, (ho, wo), group):
        block = _filter_product(xp, per_group[images], taps)  # (group, O/group, kh*kw*cg)
        dw = block if dw is None else dw + block
    if dw is None:  # an empty batch
        return xp.zeros(tuple(w_shape), dtype=x.dtype)
    return xp.ascontiguousarray(dw.reshape(o, kh, kw, cg).transpose(0, 3, 1, 2))


@_kernel("conv2d_grad")
def conv2d_grad(xp, x, w, dout, stride, pad, dilation, group):
    """(dx, dw) from one im2col of the output gradient where the module docstring's identity
    holds and that im2col is channels-last; otherwise the two kernels above."""
    full = _full_padding(w.shape, stride, pad, dilation, group)
    # an output gradient of few channels is convolved by pixel (`_narrow`): the two kernels
    # then, so that the input gradient is the one conv2d_backprop_input gives, to the bit
    if full is None or _narrow(w.shape[0], w.shape[3], 1):
        return (conv2d_backprop_input(xp, dout, w, x.shape, stride, pad, dilation, group),
                conv2d_backprop_filter(xp, x, dout, w.shape, stride, pad, dilation, group))
    o, c, kh, kw = w.shape
    n, _, h, wd = x.shape
    if _by_pixel_rows(c, kh, (1, 1), 1):
        return _pixel_conv2d_grad(xp, x, w, dout, full)
    flipped = _filter_rows(_flipped(w), 1)  # (1, C, kh*kw*O)
    x_rows = x.reshape(n, 1, c, h * wd)
    dx = xp.empty((n, 1, c, h * wd), dtype=x.dtype)
    acc = None
    for images, taps in _column_blocks(xp, dout, (kh, kw), (1, 1), full, (1, 1), (h, wd), 1):
        _product(xp, flipped, taps, out=dx[images])
        block = _filter_product(xp, x_rows[images], taps)  # (1, C, kh*kw*O)
        acc = block if acc is None else acc + block
    if acc is None:  # an empty batch
        return dx.reshape(x.shape), xp.zeros(w.shape, dtype=x.dtype)
    dw = acc.reshape(c, kh, kw, o)[:, ::-1, ::-1, :].transpose(3, 0, 1, 2)
    return dx.reshape(x.shape), xp.ascontiguousarray(dw)


def _pixel_conv2d_grad(xp, x, w, dout, full):
    """`conv2d_grad`'s shared im2col in the pixel-row layout: the output gradient's windows,
    padded to "full", give the input gradient (convolved with the flipped filter) and the
    filter gradient: kernel row i' of the windows times x's rows is the filter's row
    kh-1-i', its columns (o, j') the filter's column kw-1-j'."""
    o, c, kh, kw = w.shape
    n, _, h, wd = x.shape
    rows = h * wd
    stacked = _pixel_row_filters(_flipped(w))  # (kh*C, O*kw)
    x_rows = x.reshape(n, c, rows)
    dx = xp.empty((n, c, rows), dtype=x.dtype)
    acc = None
    for images, flat in _pixel_rows(xp, dout, kw, 1, full, 1, wd):
        _pixel_row_product(xp, stacked, flat, kh, wd, rows, dx[images])
        block = _pixel_row_filter_grad(xp, x_rows[images], flat, kh, wd, rows)  # (kh, C, O*kw)
        acc = block if acc is None else acc + block
    if acc is None:  # an empty batch
        return dx.reshape(x.shape), xp.zeros(w.shape, dtype=x.dtype)
    dw = acc.reshape(kh, c, o, kw)[::-1, :, :, ::-1].transpose(2, 1, 0, 3)
    return dx.reshape(x.shape), xp.ascontiguousarray(dw)
