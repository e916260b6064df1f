"""MindSpore's `ops.function.image_func`: image operations as compositions of existing ones."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func.creation import arange
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_types_same
from cellgraph.primitives.core import abstract_of, prims
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
)
from cellgraph.primitives.exports import export
from cellgraph.primitives.nn_functional import clip_by_value

__all__ = []


_METHODS = ("bilinear", "nearest", "bilinear_v2")


def _check(image, boxes, box_indices, crop_size, method):
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


def _v2_axis(start, end, size: int, count: int) -> tuple:
    """bilinear_v2 along one axis: the box's first pixel int(start * size) and its extent,
    then for each of `count` outputs the half-pixel source point, its two neighbours inside
    the extent, as offsets from the first pixel (never below 0), and the weight of the far
    one; float32 as MindSpore's kernel computes them."""
    first = F.cast(F.mul(start, float(size)), dt.int32)            # (n, 1), toward zero
    extent = F.maximum(F.add(F.sub(F.cast(F.mul(end, float(size)), dt.int32), first), 1), 1)
    steps = F.reshape(F.cast(arange(0, count, 1), dt.float32), (1, count))
    point = F.sub(F.mul(F.add(steps, 0.5), F.div(F.cast(extent, dt.float32), float(count))),
                  0.5)
    last = F.sub(extent, 1)
    near = F.minimum(F.maximum(F.cast(F.floor(point), dt.int32), 0), last)
    far = F.minimum(F.maximum(F.cast(F.ceil(point), dt.int32), 0), last)
    weight = F.sub(point, F.cast(near, dt.float32))
    return (F.minimum(F.maximum(F.add(first, near), 0), size - 1),
            F.minimum(F.maximum(F.add(first, far), 0), size - 1), weight)


def _crop_v2(image, boxes, box_indices, crop_size):
    """MindSpore's bilinear_v2: each box cut at whole pixels, then sampled at half-pixel
    centres. Pixels are read at their flat offsets in the image, as the kernel reads them (a
    column past the width is the next row's)."""
    batch, height, width, depth = abstract_of(image).shape
    corner = [F.reshape(boxes[:, k], (-1, 1)) for k in range(4)]
    top, bottom, dy = _v2_axis(corner[0], corner[2], height, crop_size[0])
    left, right, dx = _v2_axis(corner[1], corner[3], width, crop_size[1])
    flat = F.reshape(F.cast(image, dt.float32), (-1,))
    size = batch * height * width * depth
    base = F.reshape(F.mul(F.cast(box_indices, dt.int32), height), (-1, 1, 1, 1))
    channels = F.reshape(F.cast(arange(0, depth, 1), dt.int32), (1, 1, 1, depth))

    def read(rows, cols):
        rows = F.reshape(rows, (-1, crop_size[0], 1, 1))
        cols = F.reshape(cols, (-1, 1, crop_size[1], 1))
        offset = F.add(F.mul(F.add(F.mul(F.add(base, rows), width), cols), depth), channels)
        return prims.gather(flat, F.minimum(offset, size - 1), axis=0)

    dy = F.reshape(dy, (-1, crop_size[0], 1, 1))
    dx = F.reshape(dx, (-1, 1, crop_size[1], 1))
    up, left_w = F.sub(1.0, dy), F.sub(1.0, dx)
    terms = (F.mul(F.mul(read(top, left), up), left_w), F.mul(F.mul(read(bottom, right), dy), dx),
             F.mul(F.mul(read(top, right), up), dx), F.mul(F.mul(read(bottom, left), dy), left_w))
    return F.add(F.add(F.add(terms[0], terms[1]), terms[2]), terms[3])


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Crops of `image` (batch, H, W, depth) at `boxes`, resized to `crop_size`: float32
    (num_boxes, crop_h, crop_w, depth)."""
    crop_size = tuple(crop_size) if isinstance(crop_size, list) else crop_size
    _check(image, boxes, box_indices, crop_size, method)
    if method == "bilinear_v2":  # no extrapolation: every output reads the image
        return _crop_v2(image, F.cast(boxes, dt.float32), box_indices, crop_size)
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


# ----- bounding boxes: (x1, y1, x2, y2) rows against (dx, dy, dw, dh) deltas --------------------

def check_box_options(op: str, means, stds) -> None:
    """`means` and `stds`: tuples of four floats (MindSpore's TypeError and ValueError)."""
    for name, value in (("means", means), ("stds", stds)):
        if not isinstance(value, tuple):
            raise DTypeError(f"For '{op}', the type of '{name}' should be 'tuple', but got type "
                             f"'{type(value).__name__}'.")
        for i, item in enumerate(value):
            if not isinstance(item, float):
                raise DTypeError(f"For '{op}', the type of '{name}[{i}]' should be 'float', but "
                                 f"got type '{type(item).__name__}'.")
    for name, value in (("means", means), ("stds", stds)):
        if len(value) != 4:
            raise ArgumentValueError(f"For '{op}', the '{name} len' must be int and must = 4, "
                                     f"but got '{len(value)}' with type 'int'.")


def check_decode_options(max_shape, means, stds, wh_ratio_clip) -> None:
    """BoundingBoxDecode's options, checked as MindSpore checks them."""
    check_box_options("BoundingBoxDecode", means, stds)
    if not isinstance(wh_ratio_clip, float):
        raise DTypeError(f"For 'BoundingBoxDecode', the type of 'wh_ratio_clip' should be "
                         f"'float', but got type '{type(wh_ratio_clip).__name__}'.")
    if max_shape is not None:
        if not isinstance(max_shape, tuple):
            raise DTypeError(f"For 'BoundingBoxDecode', the type of 'max_shape' should be "
                             f"'tuple', but got type '{type(max_shape).__name__}'.")
        if len(max_shape) != 2:
            raise ArgumentValueError(f"For 'BoundingBoxDecode', the 'max_shape len' must be int "
                                     f"and must = 2, but got '{len(max_shape)}' with type "
                                     f"'int'.")


def _box_columns(op: str, boxes, other, names) -> tuple:
    """The four (n, 1) columns of `boxes` and of `other`, both (n, 4) float16 or float32."""
    a, b = abstract_of(boxes), abstract_of(other)
    for name, aval in zip(names, (a, b)):
        if aval.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"For '{op}', the type of '{name}' should be float16 or float32, "
                             f"but got {aval.dtype}")
        if aval.ndim != 2:
            raise ArgumentValueError(f"For '{op}', the '{name} rank' must be equal to 2, but "
                                     f"got {aval.ndim}.")
        if aval.shape[1] is not None and aval.shape[1] != 4:
            raise ArgumentValueError(f"For '{op}', '{name}' last dimension must be 4, but got: "
                                     f"{aval.shape[1]}.")
    if a.dtype != b.dtype:
        raise DTypeError(f"For '{op}', '{names[1]}' must have the dtype of '{names[0]}' "
                         f"({a.dtype}), but got {b.dtype}")
    if None not in (a.shape[0], b.shape[0]) and a.shape[0] != b.shape[0]:
        raise ArgumentValueError(f"For '{op}', '{names[0]}' and '{names[1]}' must have the same "
                                 f"first dimension. But got {names[0]}_shape[0]: {a.shape[0]}, "
                                 f"{names[1]}_shape[0]: {b.shape[0]}.")
    return (prims.split(boxes, axis=1, sizes=(1, 1, 1, 1)),
            prims.split(other, axis=1, sizes=(1, 1, 1, 1)))


def _centre_and_size(x1, y1, x2, y2) -> tuple:
    """Centre and size of a box whose corners are pixels (width x2 - x1 + 1)."""
    return (F.mul(F.add(x1, x2), 0.5), F.mul(F.add(y1, y2), 0.5),
            F.add(F.sub(x2, x1), 1.0), F.add(F.sub(y2, y1), 1.0))


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """The boxes that `deltas` (dx, dy, dw, dh, normalised by `means` and `stds`) make of the
    anchors, with dw and dh clipped to |log(wh_ratio_clip)| and the corners to `max_shape`
    (height, width); in MindSpore's CPU kernel's order of operations."""
    check_decode_options(max_shape, means, stds, wh_ratio_clip)
    if max_shape is None:  # the class takes None; MindSpore's kernel then cannot run
        raise RunError("For 'BoundingBoxDecode', 'max_shape' must be a tuple (height, width) "
                       "when it runs, but got None")
    anchors, moves = _box_columns("BoundingBoxDecode", anchor_box, deltas,
                                  ("anchor_box", "deltas"))
    dtype = abstract_of(anchor_box).dtype.np
    dx, dy, dw, dh = (F.add(F.mul(d, float(s)), float(m))
                      for d, s, m in zip(moves, stds, means))
    max_ratio = float(dtype.type(abs(np.log(np.float32(wh_ratio_clip)))))
    dw, dh = (clip_by_value(d, -max_ratio, max_ratio) for d in (dw, dh))
    px, py, pw, ph = _centre_and_size(*anchors)
    gx, gy = F.add(px, F.mul(pw, dx)), F.add(py, F.mul(ph, dy))
    gw, gh = F.mul(pw, F.exp(dw)), F.mul(ph, F.exp(dh))
    x1 = F.add(F.sub(gx, F.mul(gw, 0.5)), 0.5)
    y1 = F.add(F.sub(gy, F.mul(gh, 0.5)), 0.5)
    x2 = F.sub(F.add(gx, F.mul(gw, 0.5)), 0.5)
    y2 = F.sub(F.add(gy, F.mul(gh, 0.5)), 0.5)
    height, width = float(max_shape[0]), float(max_shape[1])
    x1, x2 = (F.minimum(F.maximum(x, 0.0), width) for x in (x1, x2))
    y1, y2 = (F.minimum(F.maximum(y, 0.0), height) for y in (y1, y2))
    return F.concat([x1, y1, x2, y2], 1)


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """The deltas (dx, dy, dw, dh) that move each anchor onto its ground-truth box, normalised
    by `means` and `stds`; in MindSpore's CPU kernel's order of operations."""
    check_box_options("BoundingBoxEncode", means, stds)
    anchors, truths = _box_columns("BoundingBoxEncode", anchor_box, groundtruth_box,
                                   ("anchor_box", "groundtruth_box"))
    px, py, pw, ph = _centre_and_size(*anchors)
    gx, gy, gw, gh = _centre_and_size(*truths)
    deltas = (F.div(F.sub(gx, px), pw), F.div(F.sub(gy, py), ph),
              F.log(F.div(gw, pw)), F.log(F.div(gh, ph)))
    return F.concat([F.div(F.sub(d, float(m)), float(s))
                     for d, m, s in zip(deltas, means, stds)], 1)


_CHECK_VALID_TYPES = (dt.int16, dt.uint8, dt.float16, dt.float32)


def check_valid(bboxes, img_metas):
    """Whether each box (x1, y1, x2, y2) of `bboxes` (n, 4) lies in the image that `img_metas`
    (height, width, ratio) describes: x1, y1 >= 0 and x2, y2 at most width * ratio - 1 and
    height * ratio - 1 (compared in float64, as MindSpore's kernel does); bool (n,)."""
    boxes, metas = abstract_of(bboxes), abstract_of(img_metas)
    for name, aval in (("bboxes", boxes), ("metas", metas)):
        if aval.dtype not in _CHECK_VALID_TYPES:
            raise DTypeError(f"For 'CheckValid', the type of '{name}' should be one of int16, "
                             f"uint8, float16, float32, but got {aval.dtype}")
    if boxes.ndim != 2:
        raise ArgumentValueError(f"For 'CheckValid', the 'bboxes rank' must be equal to 2, but "
                                 f"got {boxes.ndim}.")
    if boxes.shape[1] is not None and boxes.shape[1] != 4:
        raise ArgumentValueError(f"For 'CheckValid', the last dimension of 'bboxes' must equal "
                                 f"to 4, but got: {boxes.shape[1]}.")
    if metas.ndim != 1:
        raise ArgumentValueError(f"For 'CheckValid', the 'img_metas rank' must be equal to 1, "
                                 f"but got {metas.ndim}.")
    if metas.shape[0] is not None and metas.shape[0] != 3:
        raise ArgumentValueError(f"For 'CheckValid', the first dimension of 'img_metas' must "
                                 f"equal to 3, but got: {metas.shape[0]}.")
    x1, y1, x2, y2 = prims.split(bboxes, axis=1, sizes=(1, 1, 1, 1))
    height, width, ratio = prims.split(F.cast(img_metas, dt.float64), axis=0, sizes=(1, 1, 1))
    right = F.sub(F.mul(width, ratio), 1.0)
    bottom = F.sub(F.mul(height, ratio), 1.0)
    zero = F.cast(0, boxes.dtype)
    invalid = F.logical_or(F.logical_or(F.less(x1, zero), F.less(y1, zero)),
                           F.logical_or(F.less(right, F.cast(x2, dt.float64)),
                                        F.less(bottom, F.cast(y2, dt.float64))))
    return F.reshape(F.logical_not(invalid), (-1,))


IOU_MODES = ("iou", "iof")
_IOU_TYPES = (dt.float16, dt.float32, dt.float64)


def check_iou_mode(mode) -> None:
    if mode not in IOU_MODES:
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """The (M, N) overlaps of the M boxes `gt_boxes` with the N boxes `anchor_boxes`, each
    (x0, y0, x1, y1) with inclusive pixel corners (a side is x1 - x0 + 1): the intersection over
    the union ("iou") or over the gt box ("iof"), plus 1e-10 in the denominator (0 in float16);
    in MindSpore's CPU kernel's order of operations, in the boxes' dtype."""
    check_iou_mode(mode)
    a, g = abstract_of(anchor_boxes), abstract_of(gt_boxes)
    check_tensor_types_same("IOU", {"x": a.dtype, "y": g.dtype}, _IOU_TYPES)
    for name, aval in (("anchor_boxes", a), ("gt_boxes", g)):
        if aval.ndim != 2:
            raise ArgumentValueError(f"For primitive[IOU], the dimension of '{name}' must be "
                                     f"equal to 2, but got {aval.ndim}.")
        if aval.shape[1] != 4:
            raise ArgumentValueError(f"For primitive[IOU], the {name}.shape[1] must be equal to "
                                     f"4, but got {aval.shape[1]}.")
    one, eps = F.cast(1, a.dtype), F.cast(1e-10, a.dtype)
    zero = F.cast(0, a.dtype)
    ax0, ay0, ax1, ay1 = (F.reshape(c, (1, -1)) for c in
                          prims.split(anchor_boxes, axis=1, sizes=(1, 1, 1, 1)))
    gx0, gy0, gx1, gy1 = prims.split(gt_boxes, axis=1, sizes=(1, 1, 1, 1))  # (M, 1) each
    width = F.maximum(zero, F.add(F.sub(F.minimum(ax1, gx1), F.maximum(ax0, gx0)), one))
    height = F.maximum(zero, F.add(F.sub(F.minimum(ay1, gy1), F.maximum(ay0, gy0)), one))
    overlaps = F.mul(width, height)
    area1 = F.mul(F.add(F.sub(ax1, ax0), one), F.add(F.sub(ay1, ay0), one))
    area2 = F.mul(F.add(F.sub(gx1, gx0), one), F.add(F.sub(gy1, gy0), one))
    if mode == "iou":
        return F.div(overlaps, F.add(F.sub(F.add(area1, area2), overlaps), eps))
    return F.div(overlaps, F.add(area2, eps))


export(bounding_box_decode)
export(bounding_box_encode)
export(check_valid)
export(iou)


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
