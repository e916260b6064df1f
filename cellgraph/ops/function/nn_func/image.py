"""Resizing and sampling: `interpolate` (one matmul per spatial axis with a constant
interpolation matrix), `grid_sample` (the 2**d neighbours of each normalised grid position,
gathered and mixed), `pixel_shuffle` and `pixel_unshuffle`."""
from __future__ import annotations

import itertools

import numpy as np

from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import dynamic_ops as D
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.sort_ops import take_along_axis
from cellgraph.runtime.tensor import Tensor

__all__ = ["affine_grid", "grid_sample", "pixel_shuffle", "pixel_unshuffle"]


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


def _nearest(size_in: int, size_out: int, align_corners: bool, ratio=None) -> np.ndarray:
    """Output i takes input floor(i * ratio) (in / out unless given: MindSpore's Upsample ops
    take 1 / scale when given scales)."""
    if size_out == 0:  # an empty output takes nothing
        return np.zeros((0, size_in))
    ratio = size_in / size_out if ratio is None else ratio
    if align_corners and size_out > 1:
        src = np.round(np.arange(size_out) * (size_in - 1) / (size_out - 1))
    else:
        src = np.floor(np.arange(size_out) * ratio)
    matrix = np.zeros((size_out, size_in))
    matrix[np.arange(size_out), np.minimum(src.astype(int), size_in - 1)] = 1.0
    return matrix


def nearest_v2_matrix(size_in: int, size_out: int, align_corners: bool, half_pixel: bool):
    """One-hot (size_out, size_in) rows: MindSpore's CPU kernel's source pixel for each output
    pixel, its scale and position in float32, rounded half away from zero (align_corners) or
    floored, clamped to the input."""
    scale = np.float32((size_in - 1) / np.float32(size_out - 1)) if align_corners and \
        size_out > 1 else np.float32(np.float32(size_in) / np.float32(size_out))
    pos = np.arange(size_out, dtype=np.float32)
    pos = ((pos + np.float32(0.5)) * scale if half_pixel else pos * scale).astype(np.float64)
    src = np.sign(pos) * np.floor(np.abs(pos) + 0.5) if align_corners else np.floor(pos)
    src = np.minimum(src.astype(np.int64), size_in - 1)
    if half_pixel:
        src = np.maximum(src, 0)
    matrix = np.zeros((size_out, size_in))
    matrix[np.arange(size_out), src] = 1.0
    return matrix


def _linear(size_in: int, size_out: int, align_corners: bool, half_pixel: bool,
            ratio=None) -> np.ndarray:
    """Weights of linear interpolation: align_corners maps the end pixels onto each other;
    half_pixel samples at pixel centres (PyTorch's default); otherwise src = i * ratio (in / out
    unless given)."""
    if size_out == 0:  # an empty output takes nothing
        return np.zeros((0, size_in))
    ratio = size_in / size_out if ratio is None else ratio
    i = np.arange(size_out, dtype=np.float64)
    if align_corners:
        src = i * (size_in - 1) / (size_out - 1) if size_out > 1 else np.zeros(size_out)
    elif half_pixel:
        src = np.maximum((i + 0.5) * ratio - 0.5, 0.0)
    else:
        src = i * ratio
    low = np.minimum(np.floor(src).astype(int), size_in - 1)
    high = np.minimum(low + 1, size_in - 1)
    frac = src - low
    matrix = np.zeros((size_out, size_in))
    np.add.at(matrix, (np.arange(size_out), low), 1.0 - frac)
    np.add.at(matrix, (np.arange(size_out), high), frac)
    return matrix


def linear_along(x, axis: int, size_out, align_corners: bool, half_pixel: bool):
    """Axis `axis` of x resized to `size_out` by linear interpolation, as `_linear`'s matrix
    does, where that axis's size (or `size_out`, then a 0-d integer Tensor) is known only at
    run time (after Unique and a gather): the source positions computed from the run-time
    sizes, the two neighbours gathered and mixed."""
    dtype = abstract_of(x).dtype
    size_in = F.cast(D.shape_of(x)[axis], dt.float64)
    trailing = (1,) * (abstract_of(x).ndim - axis - 1)
    if hasattr(size_out, "aval"):  # the positions i < size_out made when the graph runs
        count = F.reshape(F.cast(size_out, dt.int64), ())
        i = F.cast(D.sequence_range(np.int64(0), count, np.int64(1)), dt.float64)
        out = F.cast(count, dt.float64)
        rows = (-1,)
    else:
        i, out, rows = np.arange(size_out, dtype=np.float64), float(size_out), (size_out,)
    if align_corners:
        src = (size_in - 1.0) * (i / F.maximum(out - 1.0, 1.0) if hasattr(size_out, "aval")
                                 else i / (size_out - 1) if size_out > 1 else
                                 np.zeros(size_out))
    elif half_pixel:
        src = F.maximum((i + 0.5) * (size_in / out) - 0.5, 0.0)
    else:
        src = i * (size_in / out)
    low = F.minimum(F.floor(src), size_in - 1.0)
    high = F.minimum(low + 1.0, size_in - 1.0)
    frac = F.cast(F.reshape(src - low, rows + trailing), dtype)
    below = F.gather(x, F.cast(low, dt.int64), axis)
    above = F.gather(x, F.cast(high, dt.int64), axis)
    return below * (1.0 - frac) + above * frac


def check_size_or_scale(size, scale_factor) -> None:
    """MindSpore's interpolate takes exactly one of `size` and `scale_factor`."""
    if size is not None and scale_factor is not None:
        raise ArgumentValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set "
                                 "simultaneously")
    if size is None and scale_factor is None:
        raise ArgumentValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both "
                                 "empty")


def _sizes(shape, size, scale_factor) -> tuple:
    spatial = tuple(shape[2:])
    check_size_or_scale(size, scale_factor)
    if size is not None:
        return tuple(size) if isinstance(size, (tuple, list)) else (size,) * len(spatial)
    scale = scale_factor if isinstance(scale_factor, (tuple, list)) else (
        scale_factor,) * len(spatial)
    return tuple(int(np.floor(n * s)) for n, s in zip(spatial, scale))


def _average_matrix(size_in: int, size_out: int) -> np.ndarray:
    """(size_out, size_in): row i averages adaptive bin i, [floor(i in / out),
    ceil((i + 1) in / out))."""
    rows = np.zeros((size_out, size_in))
    for i in range(size_out):
        start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
        rows[i, start:stop] = 1.0 / (stop - start)
    return rows


def _area_matrices(shape, sizes, align_corners) -> list:
    """"area" is adaptive average pooling to the output size, as MindSpore's: each output
    element the mean of its bin [floor(i in / out), ceil((i + 1) in / out)) on every axis; on
    one spatial axis (a 3-D input), the size must divide the input's, as MindSpore's CPU
    adaptive_avg_pool1d requires."""
    rank = len(shape)
    if rank not in (3, 4, 5):
        raise ArgumentValueError(f"For 'interpolate', area only support '[3, 4, 5]'D, but got "
                                 f"{rank}D")
    if align_corners is not None:
        raise ArgumentValueError(f"For 'interpolate', 'align_corners' option cannot currently be "
                                 f"set with the mode = area, and dim = {rank}D")
    if rank == 3 and shape[-1] % sizes[0]:
        raise ArgumentValueError(f"For adaptive_avg_pool1d input's last dimension must be "
                                 f"divisible by output size {sizes[0]}, but got {shape[-1]}.")
    return [_average_matrix(n, m) for n, m in zip(shape[2:], sizes)]


def resize_spatial(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                   recompute_scale_factor=None):
    """mint's interpolate (and the Upsample primitives' resize): resize the spatial axes (after N, C): "nearest", "linear"/"bilinear"/"trilinear"
    (pixel-centre sampling unless align_corners) or "area" (adaptive average pooling). Given
    a scale_factor, each output size is floor(in * scale) and the samples lie 1 / scale apart,
    unless recompute_scale_factor asks for in / out (as torch and MindSpore's Upsample
    kernels)."""
    shape = abstract_of(input).shape
    sizes = _sizes(shape, size, scale_factor)
    if recompute_scale_factor and size is not None:
        raise ArgumentValueError("For 'interpolate', it is incorrect to set "
                                 "'recompute_scale_factor' to True after specifying an explicit "
                                 "'size'.")
    ratios = [None] * len(sizes)
    if scale_factor is not None and not recompute_scale_factor:
        scales = scale_factor if isinstance(scale_factor, (tuple, list)) else (
            scale_factor,) * len(sizes)
        ratios = [1.0 / float(s) for s in scales]
    for n, m in zip(shape[2:], sizes):
        if n == 0 and m:  # nothing to sample from
            if int(np.prod(shape[:2])):
                raise ShapeError(f"interpolate: cannot resize an empty spatial axis of input "
                                 f"shape {tuple(shape)} to size {m}")
            return F.zeros(tuple(shape[:2]) + tuple(sizes), abstract_of(input).dtype)
    if mode == "nearest":
        if align_corners:
            raise ArgumentValueError("interpolate: align_corners needs a linear mode")
        matrices = [_nearest(n, m, False, r) for n, m, r in zip(shape[2:], sizes, ratios)]
    elif mode in ("linear", "bilinear", "trilinear"):
        matrices = [_linear(n, m, bool(align_corners), True, r)
                    for n, m, r in zip(shape[2:], sizes, ratios)]
    elif mode == "area":
        matrices = _area_matrices(shape, sizes, align_corners)
    else:
        raise ArgumentValueError(f"interpolate: `mode` must be 'nearest', 'linear', 'bilinear', "
                                 f"'trilinear' or 'area', got {mode!r}")
    for axis, matrix in enumerate(matrices, 2):
        input = apply_along(input, matrix, axis)
    return input


def upsample3d(x, op: str, output_size, scales, linear: bool, align_corners: bool = False):
    """MindSpore's UpsampleNearest3D and UpsampleTrilinear3D: (N, C, D, H, W) resized to
    `output_size`, or by `scales` (each output size floor(in * scale), sampled at 1 / scale
    apart, as MindSpore's kernels)."""
    shape = abstract_of(x).shape
    if len(shape) != 5:
        raise ShapeError(f"For '{op}', the dimension of 'x' should be 5, but got {len(shape)}.")
    if (output_size is None) == (scales is None):
        raise ArgumentValueError(f"For '{op}', only one of 'output_size' or 'scales' should be "
                                 f"defined, but got output_size={output_size}, scales={scales}.")
    if output_size is not None:
        sizes = tuple(int(v) for v in output_size)
        ratios = [n / m if m else 0.0 for n, m in zip(shape[2:], sizes)]
    else:
        sizes = tuple(int(np.floor(n * float(s))) for n, s in zip(shape[2:], scales))
        ratios = [1.0 / float(s) for s in scales]
    if len(sizes) != 3 or min(sizes) < 1:
        raise ArgumentValueError(f"For '{op}', the output size must be 3 positive ints, but got "
                                 f"{sizes}.")
    for axis, (n, m, ratio) in enumerate(zip(shape[2:], sizes, ratios), 2):
        matrix = _linear(n, m, align_corners, True, ratio) if linear else \
            _nearest(n, m, False, ratio)
        x = apply_along(x, matrix, axis)
    return x


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
    if g.dtype != x.dtype:  # MindSpore's messages, GridSampler2D's and GridSampler3D's
        if d == 3:
            raise DTypeError(f"For primitive[GridSampler3D], the input type must be same, but "
                             f"got input_x {x.dtype} and grid {g.dtype}.")
        raise DTypeError(f"Input grid must have the same data type with input x! input[x] data "
                         f"type = Tensor[{x.dtype}] but input[grid] data type = "
                         f"Tensor[{g.dtype}]")
    if not x.dtype.is_float:
        raise DTypeError(f"grid_sample: expected a float input and grid, got {x.dtype}")
    if mode not in _MODES:
        raise ArgumentValueError(f"grid_sample: `mode` must be one of {_MODES}, got {mode!r}")
    if padding_mode not in _PADDING:
        raise ArgumentValueError(f"grid_sample: `padding_mode` must be one of {_PADDING}, got "
                                 f"{padding_mode!r}")
    if not isinstance(align_corners, bool):
        raise ArgumentValueError(f"grid_sample: `align_corners` must be a bool, got "
                                 f"{align_corners!r}")
    return d


def affine_grid(theta, size, align_corners=False):
    """The sampling grid of the affine maps `theta` ((N, 2, 3) or (N, 3, 4)) over an output of
    `size` ((N, C, H, W) or (N, C, D, H, W)): (N, H, W, 2) or (N, D, H, W, 3) normalised
    (x, y[, z]) coordinates, for grid_sample. With `align_corners` the corner pixels' centres
    are -1 and 1, else their outer edges."""
    size = tuple(int(v) for v in size)
    rank = len(size) - 2
    shape = tuple(abstract_of(theta).shape)
    if rank not in (2, 3) or shape != (size[0], rank, rank + 1):
        raise ShapeError(f"For 'affine_grid', 'theta' must have shape (N, {rank}, {rank + 1}) "
                         f"for an output size {size}, but got {shape}.")

    def axis(n):
        if n <= 1:
            return np.zeros(max(n, 1))
        steps = np.linspace(-1.0, 1.0, n)
        return steps if align_corners else steps * (n - 1) / n

    spatial = size[2:][::-1]  # x runs along W, y along H, z along D
    coords = np.meshgrid(*[axis(n) for n in spatial], indexing="ij")  # (W, H[, D]) order
    points = np.stack([c.transpose(tuple(range(rank))[::-1]) for c in coords]
                      + [np.ones(size[2:])], -1).astype(abstract_of(theta).dtype.np)
    base = F.reshape(Tensor(points), (1, -1, rank + 1))  # (1, D*H*W, rank + 1)
    grid = F.matmul(F.broadcast_to(base, (size[0],) + tuple(abstract_of(base).shape[1:])),
                    F.transpose(theta, (0, 2, 1)))
    return F.reshape(grid, (size[0],) + size[2:] + (rank,))


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """out[n, :, *p] = input[n, :] sampled at grid[n, *p] (x, y[, z] in [-1, 1]);
    `align_corners` None is False."""
    align_corners = bool(align_corners)
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


# ----- ROIAlign --------------------------------------------------------------------------------

_ROI_EPS = 0.00007  # MindSpore's kernel's epsilon for the batch index and the low corner


def _roi_axis(start, bin_size, pooled: int, grid: int, length: int, counts=None):
    """Along one axis, for each roi (R,) and each bin and sample point: the low and high
    neighbours (int32, (R, pooled * grid)), their weights and whether the point is inside
    [-1, length] (MindSpore's bilinear_interpolate). With `counts` (R,), each roi's own number
    of sample points per bin (at most `grid`): the points past its count weigh nothing."""
    dtype = abstract_of(start).dtype
    if counts is None:
        steps = Tensor(np.array([p + (i + 0.5) / grid for p in range(pooled)
                                 for i in range(grid)], dtype.np))
    else:  # bin p's point i of n at p + (i + 0.5) / n
        bins = np.repeat(np.arange(pooled), grid).astype(dtype.np)
        points = np.tile(np.arange(grid) + 0.5, pooled).astype(dtype.np)
        per_roi = F.expand_dims(F.maximum(counts, 1.0), 1)
        steps = F.add(Tensor(bins), F.div(Tensor(points), per_roi))
    point = F.add(F.expand_dims(start, 1), F.mul(F.expand_dims(bin_size, 1), steps))
    inside = F.logical_and(F.greater_equal(point, -1.0), F.less_equal(point, float(length)))
    if counts is not None:
        taken = Tensor(np.tile(np.arange(grid), pooled).astype(dtype.np))
        inside = F.logical_and(inside, F.less(taken, F.expand_dims(counts, 1)))
    point = F.maximum(point, 0.0)
    low = F.select(F.less_equal(point, _ROI_EPS), F.zeros_like(point), F.floor(point))
    at_edge = F.greater_equal(low, float(length - 1))
    low = F.minimum(low, float(length - 1))
    point = F.select(at_edge, low, point)
    high = F.select(at_edge, low, F.add(low, 1.0))
    frac = F.sub(point, low)
    weight_in = F.cast(inside, abstract_of(frac).dtype)
    return (F.cast(low, dt.int32), F.cast(high, dt.int32),
            F.mul(F.sub(1.0, frac), weight_in), F.mul(frac, weight_in))


def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """MindSpore's ROIAlign: each roi (batch index, x1, y1, x2, y2) of `rois` (R, 5) scaled by
    `spatial_scale`, split into pooled_height x pooled_width bins, each the mean of
    sample_num x sample_num bilinear samples of its image's channels (0 outside [-1, size]);
    x2, y2 are exclusive with `roi_end_mode` 1, and a roi smaller than a pixel is widened to
    one with mode 0; a roi whose x1 and x2 are both 0 gives zeros. A `sample_num` of 0 or less
    takes, per roi and axis, floor(roi size / pooled size) points (none: the bin is 0/0, NaN,
    as MindSpore's kernel gives). (R, C, pooled_height, pooled_width), as its CPU kernel
    computes it."""
    op = "ROIAlign"
    _, c, height, width = abstract_of(features).shape
    r, cols = abstract_of(rois).shape
    if cols not in (4, 5):
        raise ShapeError(f"For '{op}', 'rois' must have shape (R, 5) or (R, 4), but got "
                         f"{(r, cols)}.")
    if isinstance(sample_num, bool) or not isinstance(sample_num, int):
        raise DTypeError(f"For '{op}', 'sample_num' must be an int, but got "
                         f"{type(sample_num).__name__}.")
    dtype = abstract_of(features).dtype
    boxes = F.cast(rois, dtype)
    if cols == 5:
        batch = F.cast(F.floor(F.add(boxes[:, 0], 0.5 + _ROI_EPS)), dt.int32)
        boxes = boxes[:, 1:]
    else:
        batch = F.zeros((r,), dt.int32)
    start_w, start_h = F.mul(boxes[:, 0], spatial_scale), F.mul(boxes[:, 1], spatial_scale)
    size_w = F.sub(F.mul(F.add(boxes[:, 2], float(roi_end_mode)), spatial_scale), start_w)
    size_h = F.sub(F.mul(F.add(boxes[:, 3], float(roi_end_mode)), spatial_scale), start_h)
    if roi_end_mode == 0:
        size_w, size_h = F.maximum(size_w, 1.0), F.maximum(size_h, 1.0)
    bin_h, bin_w = F.div(size_h, float(pooled_height)), F.div(size_w, float(pooled_width))
    counts_h = counts_w = None
    grid_h = grid_w = sample_num
    if sample_num <= 0:  # adaptive: the number of points follows each roi's size
        counts_h, counts_w = F.floor(bin_h), F.floor(bin_w)
        grid_h, grid_w = _most_points(op, rois, spatial_scale, roi_end_mode, pooled_height,
                                      pooled_width, dtype)
    y_low, y_high, wy_low, wy_high = _roi_axis(start_h, bin_h, pooled_height, grid_h, height,
                                               counts_h)
    x_low, x_high, wx_low, wx_high = _roi_axis(start_w, bin_w, pooled_width, grid_w, width,
                                               counts_w)
    images = F.gather(features, batch, 0)  # (R, C, H, W)
    rows_shape = (r, c, pooled_height * grid_h, width)
    cols_shape = (r, c, pooled_height * grid_h, pooled_width * grid_w)

    def rows(index):
        return take_along_axis(images, F.broadcast_to(
            F.reshape(index, (r, 1, -1, 1)), rows_shape), axis=2)

    def cols(block, index):
        return take_along_axis(block, F.broadcast_to(
            F.reshape(index, (r, 1, 1, -1)), cols_shape), axis=3)

    total = None
    for y_index, y_weight in ((y_low, wy_low), (y_high, wy_high)):
        block = rows(y_index)
        for x_index, x_weight in ((x_low, wx_low), (x_high, wx_high)):
            weight = F.mul(F.reshape(y_weight, (r, 1, -1, 1)), F.reshape(x_weight, (r, 1, 1, -1)))
            term = F.mul(cols(block, x_index), weight)
            total = term if total is None else F.add(total, term)
    bins = F.reshape(total, (r, c, pooled_height, grid_h, pooled_width, grid_w))
    if counts_h is None:
        count = float(grid_h * grid_w)
    else:  # with no point in a bin, 0 / 0
        count = F.reshape(F.mul(counts_h, counts_w), (r, 1, 1, 1))
    out = F.div(F.reduce_sum(bins, (3, 5)), count)
    empty = F.logical_and(F.less(F.abs(boxes[:, 0]), 0.001), F.less(F.abs(boxes[:, 2]), 0.001))
    return F.select(F.broadcast_to(F.reshape(empty, (r, 1, 1, 1)), tuple(abstract_of(out).shape)),
                    F.zeros_like(out), out)


def _most_points(op: str, rois, spatial_scale, roi_end_mode, pooled_height: int,
                 pooled_width: int, dtype) -> tuple:
    """The most sample points per bin any roi takes along each axis with an adaptive
    sample_num (at least 1): they size the sampling grid, so the values of `rois` must be
    known when the graph is built (eager, a constant, or a graph input it is specialised
    on)."""
    boxes = np.asarray(value_input(rois, op, "rois"), dtype.np)
    boxes = boxes[:, 1:] if boxes.shape[1] == 5 else boxes
    scale, end = dtype.np.type(spatial_scale), dtype.np.type(roi_end_mode)
    with np.errstate(all="ignore"):  # the kernel's arithmetic, in the features' dtype
        size_w = (boxes[:, 2] + end) * scale - boxes[:, 0] * scale
        size_h = (boxes[:, 3] + end) * scale - boxes[:, 1] * scale
        if roi_end_mode == 0:
            size_w, size_h = np.maximum(size_w, 1), np.maximum(size_h, 1)
        grid_h = np.floor(size_h / dtype.np.type(pooled_height))
        grid_w = np.floor(size_w / dtype.np.type(pooled_width))
    most = [int(np.nanmax(g, initial=1)) if np.isfinite(g).all() else None
            for g in (grid_h, grid_w)]
    if None in most:
        raise ArgumentValueError(f"For '{op}', with an adaptive 'sample_num' every roi must "
                                 f"have a finite size, but 'rois' holds inf or NaN.")
    return max(most[0], 1), max(most[1], 1)


def roi_align_grad(dy, rois, xdiff_shape, pooled_height, pooled_width, spatial_scale,
                   sample_num=2, roi_end_mode=1):
    """ROIAlign's gradient with respect to features of shape `xdiff_shape`, for the output
    gradient `dy` (the pullback of roi_align: each sample's share of dy added to its four
    neighbours)."""
    from cellgraph.forward import vjp

    shape = tuple(int(v) for v in xdiff_shape)
    zeros = F.zeros(shape, abstract_of(dy).dtype)
    _, pullback = vjp(lambda x: roi_align(x, rois, pooled_height, pooled_width, spatial_scale,
                                          sample_num, roi_end_mode), zeros)
    return pullback(dy)[0]
