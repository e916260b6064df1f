"""MindSpore's `ops.function.image_func`: image operations as compositions of existing ones."""
from __future__ import annotations

from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func.creation import arange
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, prims
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError, UnsupportedError
from cellgraph.primitives.exports import export
from cellgraph.primitives.nn_functional import clip_by_value

__all__ = []


_METHODS = ("bilinear", "nearest")


def _check(image, boxes, box_indices, crop_size, method):
    if method == "bilinear_v2":
        raise UnsupportedError("CropAndResize: method 'bilinear_v2' is not supported; use "
                               "'bilinear'")
    if method not in _METHODS:
        raise ArgumentValueError(f"CropAndResize: expected method in {_METHODS}, got "
                                 f"{method!r}")
    if (not isinstance(crop_size, tuple) or len(crop_size) != 2
            or not all(isinstance(s, int) and s > 0 for s in crop_size)):
        raise DTypeError(f"CropAndResize: expected crop_size as a tuple of two positive ints, "
                         f"got {crop_size!r}")
    x, b, i = (abstract_of(v) for v in (image, boxes, box_indices))
    if x.ndim != 4 or b.shape[1:] != (4,) or b.ndim != 2 or i.shape != b.shape[:1]:
        raise ShapeError(f"CropAndResize: expected image (batch, height, width, depth), boxes "
                         f"(num_boxes, 4) and box_index (num_boxes,), got shapes {x.shape}, "
                         f"{b.shape} and {i.shape}")
    if not b.dtype.is_float or not i.dtype.is_int:
        raise DTypeError(f"CropAndResize: expected float boxes and int32 box_index, got "
                         f"{b.dtype} and {i.dtype}")


def _source(start, end, size: int, count: int):
    """(num_boxes, count) source coordinates along an axis of `size` pixels, and whether each
    lies inside the image."""
    scale = size - 1
    if count > 1:
        steps = F.cast(arange(0, count, 1), dt.float32)
        coords = F.add(F.mul(start, scale), F.mul(F.reshape(steps, (1, count)),
                                                  F.mul(F.sub(end, start), scale / (count - 1))))
    else:
        coords = F.mul(F.add(start, end), 0.5 * scale)
    inside = F.logical_and(F.greater_equal(coords, 0), F.less_equal(coords, scale))
    return clip_by_value(coords, 0.0, float(scale)), inside


def _read(image, box_indices, rows, cols):
    """image[box_indices[n], rows[n, i], cols[n, j]]: (num_boxes, crop_h, crop_w, depth)."""
    n, crop_h = abstract_of(rows).shape
    crop_w = abstract_of(cols).shape[1]
    shape = (n, crop_h, crop_w)
    index = F.stack([F.broadcast_to(F.reshape(F.cast(box_indices, dt.int32), (n, 1, 1)), shape),
                     F.broadcast_to(F.reshape(F.cast(rows, dt.int32), (n, crop_h, 1)), shape),
                     F.broadcast_to(F.reshape(F.cast(cols, dt.int32), (n, 1, crop_w)), shape)],
                    -1)
    return prims.gather_nd(image, index)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Crops of `image` (batch, H, W, depth) at `boxes`, resized to `crop_size`: float32
    (num_boxes, crop_h, crop_w, depth)."""
    crop_size = tuple(crop_size) if isinstance(crop_size, list) else crop_size
    _check(image, boxes, box_indices, crop_size, method)
    _, height, width, _ = abstract_of(image).shape
    image, boxes = F.cast(image, dt.float32), F.cast(boxes, dt.float32)
    corner = [F.reshape(boxes[:, k], (-1, 1)) for k in range(4)]
    ys, y_inside = _source(corner[0], corner[2], height, crop_size[0])
    xs, x_inside = _source(corner[1], corner[3], width, crop_size[1])
    if method == "nearest":
        # half away from zero (the coordinates are >= 0 here), as MindSpore's kernel rounds
        ys, xs = (F.stop_gradient(F.floor(F.add(c, 0.5))) for c in (ys, xs))
        out = F.stop_gradient(_read(image, box_indices, ys, xs))
    else:
        top, left = F.floor(ys), F.floor(xs)
        bottom, right = F.ceil(ys), F.ceil(xs)
        dy = F.expand_dims(F.expand_dims(F.sub(ys, top), 2), 3)   # (n, crop_h, 1, 1)
        dx = F.expand_dims(F.expand_dims(F.sub(xs, left), 1), 3)  # (n, 1, crop_w, 1)
        upper = _mix(_read(image, box_indices, top, left),
                     _read(image, box_indices, top, right), dx)
        lower = _mix(_read(image, box_indices, bottom, left),
                     _read(image, box_indices, bottom, right), dx)
        out = _mix(upper, lower, dy)
    inside = F.logical_and(F.expand_dims(F.expand_dims(y_inside, 2), 3),
                           F.expand_dims(F.expand_dims(x_inside, 1), 3))
    return F.select(F.broadcast_to(inside, abstract_of(out).shape), out,
                    F.fill(dt.float32, abstract_of(out).shape, float(extrapolation_value)))


def _mix(a, b, weight):
    return F.add(a, F.mul(F.sub(b, a), weight))


export(crop_and_resize)


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
