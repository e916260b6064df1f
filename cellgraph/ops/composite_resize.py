"""Resizing and element picking as linear maps: every spatial axis is resized by one matmul
with a constant (out, in) interpolation matrix built with NumPy when the graph is compiled, and
`gather_elements` is a one-hot contraction, so their gradients (and batching) are those of
matmul, mul and sum.

    interpolate(x (N, C, H, W), size=(H', W'), mode="bilinear")
        = A_H @ x @ A_W^T          A_H: (H', H) rows of interpolation weights
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives.core import abstract_of, normalize_axis, tensor_axis
from cellgraph.primitives.errors import ArgumentValueError, ShapeError, UnsupportedError
from cellgraph.primitives.nn_functional import one_hot

from . import functional as F

__all__ = ["ResizeBilinearV2", "ResizeNearestNeighbor", "apply_along", "gather_d",
           "gather_elements", "interpolate"]


def apply_along(x, matrix: np.ndarray, axis: int):
    """Apply the constant `matrix` (out, in) to axis `axis` of x."""
    ndim = abstract_of(x).ndim
    axis = normalize_axis(axis, ndim)
    last = ndim - 1
    weights = A.cast(np.ascontiguousarray(matrix.T), dtype=abstract_of(x).dtype)
    if axis == last:
        return F.matmul(x, weights)
    perm = list(range(ndim))
    perm[axis], perm[last] = last, axis
    return F.transpose(F.matmul(F.transpose(x, tuple(perm)), weights), tuple(perm))


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


class ResizeBilinearV2:
    """`ops.ResizeBilinearV2(align_corners, half_pixel_centers)(x, size)` over (N, C, H, W)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        shape = abstract_of(x).shape
        for axis, out in zip((2, 3), tuple(size)):
            x = apply_along(x, _linear(shape[axis], int(out), self.align_corners,
                                       self.half_pixel_centers), axis)
        return x


class ResizeNearestNeighbor:
    """`ops.ResizeNearestNeighbor(size, align_corners)(x)` over (N, C, H, W)."""

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        if half_pixel_centers:
            raise UnsupportedError("ResizeNearestNeighbor: half_pixel_centers=True is not "
                                   "supported (only the corner-aligned or floor sampling)")
        self.size, self.align_corners = tuple(size), align_corners

    def __call__(self, x):
        shape = abstract_of(x).shape
        for axis, out in zip((2, 3), self.size):
            x = apply_along(x, _nearest(shape[axis], int(out), self.align_corners), axis)
        return x


def gather_elements(input, dim, index):
    """out[..., i, ...] = input[..., index[..., i, ...], ...] along `dim` (PyTorch's gather);
    `index` may be smaller than `input` on the other axes."""
    x_shape, i_shape = abstract_of(input).shape, abstract_of(index).shape
    dim = tensor_axis(dim, len(x_shape), "gather_elements")
    if len(i_shape) != len(x_shape):  # MindSpore: ValueError too
        raise ShapeError(f"gather_elements: index of shape {i_shape} must have the rank of "
                         f"input, shape {x_shape}")
    crop = tuple(slice(None) if d == dim else slice(0, i_shape[d]) for d in range(len(x_shape)))
    x = F.getitem(input, crop)
    # x with its `dim` axis moved last and a 1 left in its place, against index's one-hot rows
    moved = F.expand_dims(F.transpose(x, tuple(d for d in range(len(x_shape)) if d != dim)
                                      + (dim,)), dim)
    picks = F.cast(one_hot(index, x_shape[dim], 1, 0, -1), abstract_of(input).dtype)
    return F.reduce_sum(F.mul(picks, moved), -1)


def gather_d(x, dim, index):
    """MindSpore's name for gather_elements."""
    return gather_elements(x, dim, index)
