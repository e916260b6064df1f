"""MindSpore's `ops.interpolate` (`ops.upsample` too, by that name): its checks of `size`,
`scale_factor`, `mode`, the input's rank and `align_corners`, then the resize its mode stands
for. Which options each mode and rank take is MindSpore's table (`_SUPPORTED`): a scale
factor is taken as it is only by 5-D "nearest", "trilinear" and "area"; elsewhere
`recompute_scale_factor=True` turns it into the output size floor(in * scale) first.

    "nearest"        3-D, 4-D: ResizeNearestNeighborV2 (source floor(i * in / out), float32)
                     5-D: UpsampleNearest3D
    "nearest-exact"  3-D, 4-D: ResizeNearestNeighborV2 with half-pixel centres
    "linear"         3-D: ResizeLinear1D ("half_pixel", or "align_corners")
    "bilinear"       4-D: ResizeBilinearV2 (half-pixel centres unless align_corners)
    "bicubic"        4-D: ResizeBicubic (half-pixel centres unless align_corners)
    "trilinear"      5-D: UpsampleTrilinear3D
    "area"           3-D to 5-D: adaptive average pooling to the output size
"""
from __future__ import annotations

import math

from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.ops.function.nn_func.bicubic import resize_bicubic
from cellgraph.ops.function.nn_func.image import (
    check_size_or_scale,
    nearest_v2_matrix,
    resize_spatial,
    upsample3d,
)
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["interpolate"]

# mode -> {rank: the options it takes}
_SUPPORTED = {
    "nearest": {3: (), 4: (), 5: ("scale_factor",)},
    "linear": {3: ("align_corners",)},
    "bilinear": {4: ("align_corners",)},
    "bicubic": {4: ("align_corners",)},
    "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
    "nearest-exact": {3: (), 4: ()},
    "trilinear": {5: ("align_corners", "scale_factor")},
}


def _positive(value, what: str, kind: type):
    """`value` a `kind` (not a bool) above 0, as MindSpore's check_positive_int/float."""
    if isinstance(value, bool) or not isinstance(value, kind):
        raise DTypeError(f"For 'interpolate', the '{what}' must be {kind.__name__}, but got "
                         f"'{type(value).__name__}'")
    if not value > 0:
        raise ArgumentValueError(f"For 'interpolate', the '{what}' must be {kind.__name__} and "
                                 f"must > 0, but got '{value}' with type "
                                 f"'{type(value).__name__}'.")


def _check_bool(value, what: str):
    if not isinstance(value, bool):
        raise DTypeError(f"For 'interpolate', the '{what}' must be a bool, but got "
                         f"{type(value).__name__}.")


def _spatial(value, rank: int, what: str, kind: type) -> tuple:
    """`size` or `scale_factor` as one entry per spatial axis, each a positive `kind`."""
    if isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            _positive(item, f"{what}[{index}]", kind)
        if len(value) != rank - 2:
            raise ArgumentValueError(f"For 'interpolate', 'input' and '{what}' must have the same "
                                     f"spatial dimensions, but got 'input' is {rank - 2}D, "
                                     f"'{what}' is {len(value)}D")
        return tuple(value)
    _positive(value, what, kind)
    return (value,) * (rank - 2)


def _check_mode(mode, rank: int) -> dict:
    if not isinstance(mode, str) or mode not in _SUPPORTED:
        raise ArgumentValueError(f"For 'interpolate', 'mode' must be in '{list(_SUPPORTED)}', "
                                 f"but got {mode}")
    if rank not in _SUPPORTED[mode]:
        raise ArgumentValueError(f"For 'interpolate', {mode} only support "
                                 f"'{list(_SUPPORTED[mode])}'D, but got {rank}D")
    return _SUPPORTED[mode][rank]


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """The spatial axes (after N, C) of `input` resized to `size`, or by `scale_factor`, by
    the resize `mode` names, with MindSpore's checks of which options a mode takes."""
    if not hasattr(input, "aval"):  # a Tensor, or a graph value standing for one
        raise DTypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    rank = abstract_of(input).ndim
    check_size_or_scale(size, scale_factor)
    if size is not None:
        size = _spatial(size, rank, "size", int)
    else:
        scale_factor = _spatial(scale_factor, rank, "scale_factor", float)
    options = _check_mode(mode, rank)
    if mode == "area" and size is None:  # area always resizes to a size
        recompute_scale_factor = True
    if recompute_scale_factor:
        _check_bool(recompute_scale_factor, "recompute_scale_factor")
        if size is not None:
            raise ArgumentValueError("For 'interpolate', it is incorrect to set "
                                     "'recompute_scale_factor' to True after specifying an "
                                     "explicit 'size'.")
        shape = abstract_of(input).shape[2:]
        size = tuple(math.floor(n * s) for n, s in zip(shape, scale_factor))
        scale_factor = None
    elif scale_factor is not None and "scale_factor" not in options:
        raise ArgumentValueError(f"For 'interpolate', 'scale_factor' option cannot currently be "
                                 f"set with the mode = {mode} and dim = {rank}D.")
    if align_corners is not None:
        _check_bool(align_corners, "align_corners")
        if "align_corners" not in options:
            raise ArgumentValueError(f"For 'interpolate', 'align_corners' option cannot "
                                     f"currently be set with the mode = {mode}, and dim = "
                                     f"{rank}D")
    return _resize(input, size, scale_factor, mode, bool(align_corners))


def _check_dtype(input, mode: str) -> None:
    """The dtypes the resize op takes: floats, and uint8 too for ResizeNearestNeighborV2."""
    dtype = abstract_of(input).dtype
    nearest_v2 = mode in ("nearest", "nearest-exact") and abstract_of(input).ndim < 5
    if not (dtype.is_float or (nearest_v2 and dtype == dt.uint8)):
        kinds = "uint8, float16, float32 or float64" if nearest_v2 else \
            "float16, float32 or float64"
        raise DTypeError(f"For 'interpolate', the dtype of 'input' must be {kinds} for the mode "
                         f"'{mode}' and dim {abstract_of(input).ndim}D, but got {dtype}.")


def _resize(input, size, scale_factor, mode: str, align_corners: bool):
    """The resize op `mode` names, on checked arguments (size or scale_factor a tuple)."""
    _check_dtype(input, mode)
    shape = abstract_of(input).shape
    if mode in ("nearest", "nearest-exact") and len(shape) < 5:
        if 0 in shape[2:]:  # nothing to sample from: resize_spatial's errors and empty results
            return resize_spatial(input, size, None, "nearest")
        for axis, size_out in enumerate(size, 2):
            input = apply_along(input, nearest_v2_matrix(shape[axis], size_out, False,
                                                         mode == "nearest-exact"), axis)
        return input
    if mode in ("nearest", "trilinear"):
        op = "UpsampleNearest3D" if mode == "nearest" else "UpsampleTrilinear3D"
        return upsample3d(input, op, size, scale_factor, mode == "trilinear", align_corners)
    if mode == "bicubic":
        return resize_bicubic(input, size, align_corners, not align_corners)
    return resize_spatial(input, size, None, mode, align_corners if mode != "area" else None)
