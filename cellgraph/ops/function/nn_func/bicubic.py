"""Bicubic resizing as MindSpore's ResizeBicubic computes it (TensorFlow's kernel): per axis, four
taps around each source position with Keys' cubic weights (a = -0.75, or -0.5 with
half-pixel centres, where taps outside the image drop out and the rest are renormalised),
the weights read from a 1024-step table as the kernel reads them; one constant matrix an
axis, so gradients and batching are those of the products."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

_TABLE_SIZE = 1024


def _cubic_weights(delta: np.ndarray, a: float) -> np.ndarray:
    """(..., 4) weights of the taps at -1, 0, 1, 2 from the source position, as the kernel's
    table holds them (float32, the fraction rounded to 1/1024)."""
    offset = np.rint(delta * _TABLE_SIZE).astype(np.int64)
    near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1            # |x| <= 1
    far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a        # 1 < |x| < 2
    x = (offset / _TABLE_SIZE).astype(np.float32)
    y = ((_TABLE_SIZE - offset) / _TABLE_SIZE).astype(np.float32)
    return np.stack([far(x + 1), near(x), near(y), far(y + 1)], -1).astype(np.float32)


def bicubic_matrix(size_in: int, size_out: int, align_corners: bool,
                   half_pixel_centers: bool) -> np.ndarray:
    """(size_out, size_in): row i the bicubic weights of output i over the input axis."""
    scale = (size_in - 1) / (size_out - 1) if align_corners and size_out > 1 else \
        size_in / size_out
    scale = np.float32(scale)
    out = np.arange(size_out, dtype=np.float32)
    src = (out + 0.5) * scale - 0.5 if half_pixel_centers else out * scale
    base = np.floor(src).astype(np.int64)
    weights = _cubic_weights(src - base, -0.5 if half_pixel_centers else -0.75)
    taps = base[:, None] + np.arange(-1, 3)[None]
    bounded = np.clip(taps, 0, size_in - 1)
    if half_pixel_centers:  # taps outside drop out, the others renormalised
        weights = np.where(bounded == taps, weights, 0.0).astype(np.float32)
        total = weights.sum(-1, keepdims=True)
        weights = np.where(np.abs(total) >= 1000 * np.finfo(np.float32).tiny,
                           weights / total, weights)
    matrix = np.zeros((size_out, size_in), np.float64)
    np.add.at(matrix, (np.repeat(np.arange(size_out), 4), bounded.ravel()), weights.ravel())
    return matrix


def resize_bicubic(images, size, align_corners: bool = False, half_pixel_centers: bool = False):
    """(N, C, H, W) `images` resized to `size` (out_height, out_width) bicubically."""
    op = "ResizeBicubic"
    shape = abstract_of(images).shape
    if len(shape) != 4:
        raise ArgumentValueError(f"For primitive[{op}], the image rank must be equal to 4, but "
                                 f"got {len(shape)}.")
    size_type = getattr(size, "dtype", None)
    if size_type is not None and not size_type.is_int:
        raise DTypeError(f"For {op}, the 1'th input is a Tensor whose shape is "
                         f"{list(abstract_of(size).shape)} and dtype is [{size_type}], which can "
                         f"not be converted to tuple of int.")
    sizes = tuple(int(v) for v in np.asarray(value_input(size, op, "size")).reshape(-1))
    if len(sizes) != 2:
        raise ArgumentValueError(f"For primitive[{op}], the number of size must be equal to 2, "
                                 f"but got {len(sizes)}.")
    if min(sizes) < 1 or None in shape[2:]:
        raise ShapeError(f"For primitive[{op}], the size must be positive and the image's height "
                         f"and width known, but got size {sizes} for images {tuple(shape)}.")
    out = images
    for axis, (n, m) in enumerate(zip(shape[2:], sizes), 2):
        out = apply_along(out, bicubic_matrix(n, m, align_corners, half_pixel_centers), axis)
    return out
