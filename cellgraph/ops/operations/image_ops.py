"""MindSpore's `ops.operations.image_ops`: the primitive classes of image operations."""
from __future__ import annotations

import numpy as np

from cellgraph._checkparam import check_string, check_value_type
from cellgraph.ops.function.array_func.indexing import gather_elements
from cellgraph.ops.function.image_func import crop_and_resize
from cellgraph.ops.function.nn_func.bicubic import resize_bicubic
from cellgraph.ops.primitive_class import PrimitiveClass, define_class, generate_classes
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.check_convert import (
    check_tensor_type,
)
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.primitives.random_ops import draw_uniform, standard_normal_draw
from cellgraph.runtime.tensor import Tensor

__all__ = ["AdjustHue", "AdjustSaturation", "CombinedNonMaxSuppression", "CropAndResize",
           "ExtractGlimpse",
           "HSVToRGB", "NonMaxSuppressionWithOverlaps", "RGBToHSV", "ResizeArea",
           "ResizeBicubic", "ScaleAndTranslate"]


CropAndResize = define_class("CropAndResize", crop_and_resize,
                             {"method": "bilinear", "extrapolation_value": 0.0}, module=__name__)



def _check_operand_types(op: str, operands) -> None:
    """Each (name, value, allowed dtypes) operand is a Tensor of one of its dtypes, else
    MindSpore's TypeError for the primitive `op`."""
    for name, value, allowed in operands:
        check_tensor_type(op, name, value, allowed)

class ResizeBicubic(PrimitiveClass):
    """`ops.ResizeBicubic(align_corners=False, half_pixel_centers=False)(images, size)`:
    (N, C, H, W) images resized bicubically to `size` (an int32 Tensor (height, width))."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        # MindSpore 2.10 takes any value here and reads its truth
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, images, size):
        return resize_bicubic(images, size, bool(self.align_corners),
                              bool(self.half_pixel_centers))


# ----- colour spaces: RGB and HSV (hue in [0, 1)) over the last axis of 3 channels

_FLOATS = (dt.float16, dt.float32, dt.float64)


def _check_image(op: str, image, what: str, rank: int | None = None, least: int = 1) -> None:
    """MindSpore's checks of a float image whose last axis holds 3 channels."""
    check_tensor_type(op, what, image, _FLOATS)
    shape = abstract_of(image).shape
    if rank is not None and len(shape) != rank:
        raise ArgumentValueError(f"For primitive[{op}], the the dimension of [x] must be equal "
                                 f"to {rank}, but got {len(shape)}.")
    if len(shape) < least:
        raise ArgumentValueError(f"For primitive[{op}], the dimension of image must be greater "
                                 f"than or equal to {least}, but got {len(shape)}.")
    if shape[-1] != 3:
        raise ArgumentValueError(f"For primitive[{op}], the last dimension of input 'images' "
                                 f"must be equal to 3, but got {shape[-1]}.")


def _check_factor(op: str, value, what: str) -> None:
    check_tensor_type(op, what, value, (dt.float32,))
    if abstract_of(value).ndim != 0:
        raise ArgumentValueError(f"For primitive[{op}], the dimension of {what} must be equal "
                                 f"to 0, but got {abstract_of(value).ndim}.")


def _channels(image) -> list:
    return [image[..., i] for i in range(3)]


def _safe_div(num, den):
    """num / den where den > 0, else 0 (no division by zero reaches the gradient)."""
    positive = F.greater(den, F.zeros_like(den))
    return M.select(positive, M.div(num, M.select(positive, den, F.ones_like(den))),
                    F.zeros_like(num))


def rgb_to_hsv(image):
    """(hue, saturation, value) of RGB `image`, hue in [0, 1): the sector of the largest
    channel plus the others' difference over the chroma, as MindSpore's kernels compute it."""
    r, g, b = _channels(image)
    value = M.maximum(r, M.maximum(g, b))
    chroma = M.sub(value, M.minimum(r, M.minimum(g, b)))
    hue = M.select(F.equal(value, r), _safe_div(M.sub(g, b), chroma),
                   M.select(F.equal(value, g), M.add(_safe_div(M.sub(b, r), chroma), 2.0),
                            M.add(_safe_div(M.sub(r, g), chroma), 4.0)))
    hue = M.div(hue, 6.0)
    hue = M.select(F.less(hue, F.zeros_like(hue)), M.add(hue, 1.0), hue)
    hue = M.select(F.greater(chroma, F.zeros_like(chroma)), hue, F.zeros_like(hue))
    return F.stack([hue, _safe_div(chroma, value), value], -1)


def hsv_to_rgb(image):
    """The RGB image of HSV `image` (hue in [0, 1)): channel n (5, 3, 1 for r, g, b) is
    v - c * clamp(min(k, 4 - k), 0, 1) with k = (n + 6h) mod 6 and the chroma c = s * v."""
    hue, saturation, value = _channels(image)
    chroma = M.mul(saturation, value)
    sixth = M.mul(hue, 6.0)
    out = []
    for offset in (5.0, 3.0, 1.0):  # r, g, b: (n + 6h) mod 6, n = 5, 3, 1
        k = M.sub(M.add(sixth, offset), M.mul(R.floor(M.div(M.add(sixth, offset), 6.0)), 6.0))
        ramp = M.minimum(M.maximum(M.minimum(k, M.sub(4.0, k)), F.zeros_like(k)),
                         F.ones_like(k))
        out.append(M.sub(value, M.mul(chroma, ramp)))
    return F.stack(out, -1)


def _in_float32(convert):
    """`convert` computing float16 images in float32, as MindSpore's kernels do."""
    def run(image, *factors):
        if abstract_of(image).dtype != dt.float16:
            return convert(image, *factors)
        return F.cast(convert(F.cast(image, dt.float32), *factors), dt.float16)

    return run


def _rgb_to_hsv(images):
    """MindSpore's float16 kernel divides in float16 and gives infinities where the chroma is
    small; this one computes float16 in float32."""
    _check_image("RGBToHSV", images, "type of input 'images'")
    return _in_float32(rgb_to_hsv)(images)


def _hsv_to_rgb(x):
    _check_image("HSVToRGB", x, "x", rank=4)
    return _in_float32(hsv_to_rgb)(x)


def _adjust_hue(image, delta):
    """`image` with each pixel's hue turned by `delta` (a float32 scalar, in turns)."""
    _check_image("AdjustHue", image, "images", least=3)
    _check_factor("AdjustHue", delta, "delta")
    return _in_float32(_turn_hue)(image, delta)


def _turn_hue(image, delta):
    hue, saturation, value = _channels(rgb_to_hsv(image))
    hue = M.add(hue, F.cast(delta, abstract_of(image).dtype))
    hue = M.sub(hue, R.floor(hue))
    return hsv_to_rgb(F.stack([hue, saturation, value], -1))


def _adjust_saturation(image, scale):
    """`image` with each pixel's saturation scaled by `scale` (a float32 scalar), kept in
    [0, 1]."""
    _check_image("AdjustSaturation", image, "image", least=3)
    _check_factor("AdjustSaturation", scale, "scale")
    return _in_float32(_scale_saturation)(image, scale)


def _scale_saturation(image, scale):
    hue, saturation, value = _channels(rgb_to_hsv(image))
    saturation = M.mul(saturation, F.cast(scale, abstract_of(image).dtype))
    saturation = M.minimum(M.maximum(saturation, F.zeros_like(saturation)),
                           F.ones_like(saturation))
    return hsv_to_rgb(F.stack([hue, saturation, value], -1))


# ----- ResizeArea: each output pixel the mean of the input area it covers (TensorFlow's rule)

_AREA_DTYPES = (dt.int8, dt.uint8, dt.int16, dt.uint16, dt.int32, dt.int64, dt.float16,
                dt.float32, dt.float64)


def area_weights(size_in: int, size_out: int, align_corners: bool) -> np.ndarray:
    """(size_out, size_in): how much of input row i output row y covers, in input rows (the
    part of [y * scale, (y + 1) * scale) inside [i, i + 1); past the last row, the last row),
    divided by the scale, so that each output row is a weighted mean."""
    scale = (size_in - 1) / (size_out - 1) if align_corners and size_out > 1 else \
        size_in / size_out
    weights = np.zeros((size_out, size_in))
    for y in range(size_out):
        start, end = y * scale, (y + 1) * scale
        for i in range(int(np.floor(start)), int(np.ceil(end))):
            covered = min(i + 1, end) - max(i, start)
            weights[y, min(i, size_in - 1)] += covered
    return weights / scale


class ResizeArea(PrimitiveClass):
    """`ops.ResizeArea(align_corners=False)(images, size)`: (N, H, W, C) real images resized to
    `size` (a 1-D int32 Tensor of 2 positive sizes, read when the graph is built) by area
    averaging, as float32 (MindSpore's deprecated class; its kernel is TensorFlow's)."""

    def __init__(self, align_corners=False):
        self.align_corners = check_value_type("align_corners", align_corners, [bool],
                                              "ResizeArea")
        self._attrs = {"align_corners": align_corners}

    def __call__(self, images, size):
        op = "ResizeArea"
        _check_operand_types(op, (("images", images, _AREA_DTYPES),
                                  ("size", size, (dt.int32,))))
        shape = abstract_of(images).shape
        if len(shape) != 4:
            raise ArgumentValueError(f"For '{op}', the dimension of 'images' must be 4, but got "
                                     f"{len(shape)}.")
        if abstract_of(size).shape != (2,):
            raise ArgumentValueError(f"For '{op}', 'size' must be a 1-D Tensor of 2 elements, "
                                     f"but got shape {list(abstract_of(size).shape)}.")
        height, width = (int(v) for v in value_input(size, op, "size"))
        if height <= 0 or width <= 0:
            raise ArgumentValueError(f"For '{op}', 'size' should only contain positive number.")
        rows = Tensor(area_weights(shape[1], height, self.align_corners), dt.float32)
        columns = Tensor(area_weights(shape[2], width, self.align_corners).T, dt.float32)
        planes = F.transpose(F.cast(images, dt.float32), (0, 3, 1, 2))      # (N, C, H, W)
        resized = F.matmul(F.matmul(rows, planes), columns)                  # (N, C, h, w)
        return F.transpose(resized, (0, 2, 3, 1))


# ----- CombinedNonMaxSuppression: greedy NMS per class, the classes' picks merged by score


def _scalar_operand(op: str, name: str, value, dtype):
    check_tensor_type(op, name, value, (dtype,))
    if abstract_of(value).ndim != 0:
        raise ArgumentValueError(f"For primitive[{op}], the {name}'s dims must be 0, but got "
                                 f"{abstract_of(value).ndim}.")
    return value


def _pairwise_iou(boxes):
    """(..., N, N) IoU of boxes (..., N, 4) with their corners put in order; 0 where either box
    has no area (MindSpore's kernel)."""
    x1 = M.minimum(boxes[..., 0], boxes[..., 2])
    x2 = M.maximum(boxes[..., 0], boxes[..., 2])
    y1 = M.minimum(boxes[..., 1], boxes[..., 3])
    y2 = M.maximum(boxes[..., 1], boxes[..., 3])
    area = M.mul(M.sub(x2, x1), M.sub(y2, y1))
    zero = F.zeros_like(area[..., :, None])

    def overlap(low, high):
        size = M.sub(M.minimum(high[..., :, None], high[..., None, :]),
                     M.maximum(low[..., :, None], low[..., None, :]))
        return M.maximum(size, F.zeros_like(size))

    inter = M.mul(overlap(x1, x2), overlap(y1, y2))
    union = M.sub(M.add(area[..., :, None], area[..., None, :]), inter)
    valid = F.logical_and(F.greater(area[..., :, None], zero),
                          F.greater(area[..., None, :], F.zeros_like(area[..., None, :])))
    return M.select(valid, M.div(inter, M.select(valid, union, F.ones_like(union))),
                    F.zeros_like(inter))


class CombinedNonMaxSuppression(PrimitiveClass):
    """`ops.CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes, scores,
    max_output_size_per_class, max_total_size, iou_threshold, score_threshold)`: per image and
    class, MindSpore's CPU kernel's greedy NMS (boxes by descending score, ties by position,
    scores above score_threshold, a box dropped when its IoU with a kept one exceeds
    iou_threshold, at most max_output_size_per_class kept); the classes' picks then merged by
    descending score (ties in class order) into max_total_size detections (padded with
    zeros). The two sizes set the result's shape, so they are read when the graph is built; the
    greedy pass is unrolled over the boxes."""

    def __init__(self, pad_per_class=False, clip_boxes=True):
        op = "CombinedNonMaxSuppression"
        self.pad_per_class = check_value_type("pad_per_class", pad_per_class, [bool], op)
        self.clip_boxes = check_value_type("clip_boxes", clip_boxes, [bool], op)
        self._attrs = {"pad_per_class": pad_per_class, "clip_boxes": clip_boxes}

    def __call__(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                 score_threshold):
        op = "CombinedNonMaxSuppression"
        for name, value in (("boxes", boxes), ("scores", scores)):
            check_tensor_type(op, name, value, (dt.float32,))
        for name, value, dtype in (("max_output_size_per_class", max_output_size_per_class,
                                    dt.int32), ("max_total_size", max_total_size, dt.int32),
                                   ("iou_threshold", iou_threshold, dt.float32),
                                   ("score_threshold", score_threshold, dt.float32)):
            _scalar_operand(op, name, value, dtype)
        shape, score_shape = abstract_of(boxes).shape, abstract_of(scores).shape
        if len(shape) != 4:
            raise ArgumentValueError(f"For primitive[{op}], the boxes dim must be equal to 4, "
                                     f"but got {len(shape)}.")
        if len(score_shape) != 3:
            raise ArgumentValueError(f"For primitive[{op}], the scores dim must be equal to 3, "
                                     f"but got {len(score_shape)}.")
        if shape[3] != 4 or shape[:2] != score_shape[:2] or shape[2] not in (1, score_shape[2]):
            raise ArgumentValueError(f"For primitive[{op}], boxes {list(shape)} and scores "
                                     f"{list(score_shape)} do not match: boxes must be (batch, "
                                     f"num_boxes, 1 or num_classes, 4).")
        per_class = int(value_input(max_output_size_per_class, op, "max_output_size_per_class"))
        total = int(value_input(max_total_size, op, "max_total_size"))
        if total <= 0:
            raise ArgumentValueError(f"For primitive[{op}], the max_total_size must be greater "
                                     f"than 0, but got {total}.")
        if per_class <= 0:
            raise ArgumentValueError(f"For primitive[{op}], the max_output_size_per_clas must be "
                                     f"greater than 0, but got {per_class}.")
        known = value_input(iou_threshold, op, "iou_threshold") if not hasattr(
            iou_threshold, "builder") else None
        if known is not None and not 0 <= float(known) <= 1:
            raise ArgumentValueError(f"For {op}, iou_threshold must be in [0,1], but got "
                                     f"{float(known)}.")
        classes = score_shape[2]
        detections = min(total, per_class * classes) if self.pad_per_class else total
        return self._select(boxes, scores, min(per_class, shape[1]), detections, iou_threshold,
                            score_threshold)

    def _select(self, boxes, scores, per_class, detections, iou_threshold, score_threshold):
        batch, count, q, _ = abstract_of(boxes).shape
        classes = abstract_of(scores).shape[2]
        class_scores = F.transpose(scores, (0, 2, 1))                        # (B, C, N)
        order = F.argsort(F.neg(class_scores), -1)                          # ties by position
        ranked = _take(class_scores, order, -1)
        class_boxes = F.transpose(boxes, (0, 2, 1, 3))                      # (B, q, N, 4)
        iou = _pairwise_iou(class_boxes)                                     # (B, q, N, N)
        iou = F.broadcast_to(iou, (batch, classes, count, count))
        iou = _take(_take(iou, F.expand_dims(order, -1), -2), F.expand_dims(order, -2), -1)
        overlaps = F.greater(iou, iou_threshold)
        keep = F.greater(ranked, score_threshold)                           # (B, C, N)
        earlier = np.tril(np.ones((count, count), np.bool_), -1)
        for i in range(count):
            hits = F.logical_and(F.logical_and(overlaps[..., i, :], Tensor(earlier[i])), keep)
            suppressed = F.greater(F.reduce_sum(F.cast(hits, dt.int32), -1), 0)
            column = np.arange(count) == i
            keep = F.logical_and(keep, F.logical_not(F.logical_and(Tensor(column),
                                                                    F.expand_dims(suppressed, -1))))
        taken = NF.cumsum(F.cast(keep, dt.int32), -1)
        keep = F.logical_and(keep, F.less_equal(taken, per_class))
        # the classes' picks in class order, then by descending score
        flat_keep = F.reshape(keep, (batch, classes * count))
        flat_scores = F.reshape(ranked, (batch, classes * count))
        lowest = Tensor(np.full((1, 1), -np.inf, np.float32))
        merged = F.argsort(F.neg(M.select(flat_keep, flat_scores, F.broadcast_to(
            lowest, (batch, classes * count)))), -1)[:, :detections]          # (B, D)
        valid = F.minimum(F.reduce_sum(F.cast(flat_keep, dt.int32), -1), detections)
        filled = F.less(Tensor(np.arange(detections, dtype=np.int32)), F.expand_dims(valid, -1))
        class_ids = F.floor_div(merged, count)                               # (B, D)
        box_ids = _take(F.reshape(order, (batch, classes * count)), merged, -1)
        picked_scores = _take(flat_scores, merged, -1)
        source = F.add(F.mul(box_ids, q), class_ids if q > 1 else F.zeros_like(class_ids))
        picked_boxes = _take(F.reshape(boxes, (batch, count * q, 4)),
                             F.broadcast_to(F.expand_dims(source, -1), (batch, detections, 4)), 1)
        if self.clip_boxes:
            picked_boxes = M.minimum(M.maximum(picked_boxes, F.zeros_like(picked_boxes)),
                                     F.ones_like(picked_boxes))
        zero_boxes = F.zeros_like(picked_boxes)
        return (M.select(F.broadcast_to(F.expand_dims(filled, -1), (batch, detections, 4)),
                         picked_boxes, zero_boxes),
                M.select(filled, picked_scores, F.zeros_like(picked_scores)),
                M.select(filled, F.cast(class_ids, dt.float32), F.zeros_like(picked_scores)),
                F.cast(valid, dt.int32))


def _nms_with_overlaps(overlaps, scores, max_output_size, overlap_threshold,
                       score_threshold) -> list:
    """MindSpore's CPU kernel's greedy selection: the boxes above score_threshold by
    descending score (ties by position), each kept unless its overlap with a kept box reaches
    overlap_threshold, at most max_output_size of them."""
    kept: list = []
    for box in sorted(np.flatnonzero(scores > score_threshold), key=lambda i: -scores[i]):
        if len(kept) == max_output_size:
            break
        if all(overlaps[box, other] < overlap_threshold for other in kept):
            kept.append(int(box))
    return kept


class NonMaxSuppressionWithOverlaps(PrimitiveClass):
    """`ops.NonMaxSuppressionWithOverlaps()(overlaps, scores, max_output_size,
    overlap_threshold, score_threshold)`: the int32 positions of the boxes greedy
    non-maximum suppression keeps, given their (N, N) overlaps and (N,) scores. How many are
    kept sets the result's size, so every input is read when the graph is built."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        op = "NonMaxSuppressionWithOverlaps"
        floats = (dt.float16, dt.float32, dt.float64)
        _check_operand_types(op, (("overlaps", overlaps, floats), ("scores", scores, floats),
                                  ("max_output_size", max_output_size, (dt.int32,)),
                                  ("overlap_threshold", overlap_threshold, floats),
                                  ("score_threshold", score_threshold, floats)))
        count = abstract_of(scores).shape
        if len(count) != 1 or abstract_of(overlaps).shape != (count[0], count[0]):
            raise ArgumentValueError(f"For primitive[{op}], overlaps must be (N, N) and scores "
                                     f"(N,), but got {list(abstract_of(overlaps).shape)} and "
                                     f"{list(count)}.")
        for name, value in (("max_output_size", max_output_size),
                            ("overlap_threshold", overlap_threshold),
                            ("score_threshold", score_threshold)):
            if abstract_of(value).ndim != 0:
                raise ArgumentValueError(f"For primitive[{op}], the rank of {name} must be 0, "
                                         f"but got {abstract_of(value).ndim}.")
        limit = int(value_input(max_output_size, op, "max_output_size"))
        if limit < 0:
            raise ArgumentValueError(f"For '{op}', the input max_output_size must be "
                                     f"non-negative.")
        values = [np.asarray(value_input(v, op, name), np.float32) for v, name in (
            (overlaps, "overlaps"), (scores, "scores"), (overlap_threshold, "overlap_threshold"),
            (score_threshold, "score_threshold"))]
        kept = _nms_with_overlaps(values[0], values[1], limit, values[2], values[3])
        return Tensor(np.asarray(kept, np.int32))


def _take(x, index, axis):
    """x's elements along `axis` at `index` (gather_elements, index broadcast to x's other
    axes)."""
    shape = list(abstract_of(x).shape)
    shape[axis] = abstract_of(index).shape[axis]
    return gather_elements(x, axis, F.broadcast_to(index, tuple(shape)))


# ----- ScaleAndTranslate: separable resampling with a kernel (TensorFlow's, MindSpore's CPU)

_PI = np.float32(3.14159265359)


def _lanczos(radius: float):
    def weight(x):
        x = np.abs(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = radius * np.sin(_PI * x) * np.sin(_PI * x / radius) / (_PI * _PI * x * x)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value)).astype(np.float32)

    return weight, radius


def _gaussian(x):
    x = np.abs(x)
    sigma = np.float32(0.5)
    return np.where(x >= 1.5, 0.0, np.exp(-x * x / (2 * sigma * sigma))).astype(np.float32)


def _box(x):
    x = np.abs(x)
    half = np.abs(x - 0.5) <= np.finfo(np.float32).eps
    return np.where(x < 0.5, 1.0, np.where(half, 0.5, 0.0)).astype(np.float32)


def _keys_cubic(x):
    x = np.abs(x)
    outer = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    inner = (1.5 * x - 2.5) * x * x + 1.0
    return np.where(x >= 2, 0.0, np.where(x >= 1, outer, inner)).astype(np.float32)


def _mitchell_cubic(x):
    x = np.abs(x)
    outer = (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0
    inner = (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0
    return np.where(x >= 2, 0.0, np.where(x >= 1, outer, inner)).astype(np.float32)


SAMPLING_KERNELS = {
    "lanczos1": _lanczos(1.0), "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0),
    "gaussian": (_gaussian, 1.5), "box": (_box, 1.0),
    "triangle": (lambda x: np.maximum(1 - np.abs(x), 0).astype(np.float32), 1.0),
    "keyscubic": (_keys_cubic, 2.0), "mitchellcubic": (_mitchell_cubic, 2.0),
}


def resampling_weights(kernel_type: str, size_in: int, size_out: int, scale: float,
                       translate: float, antialias: bool) -> np.ndarray:
    """(size_out, size_in): output pixel x samples input position (x + 0.5 - translate) /
    scale through the kernel (stretched by 1 / scale when shrinking with `antialias`) over the
    pixels within its radius, the weights summing to 1; a sample outside the input has none."""
    weight, radius = SAMPLING_KERNELS[kernel_type]
    scale, translate = np.float32(scale), np.float32(translate)
    inv_scale = np.float32(1.0) / scale
    stretch = max(inv_scale, np.float32(1.0)) if antialias else np.float32(1.0)
    reach = np.float32(radius) * stretch
    weights = np.zeros((size_out, size_in), np.float32)
    for x in range(size_out):
        sample = np.float32(x + 0.5) * inv_scale - inv_scale * translate
        if sample < 0 or sample > size_in:
            continue
        start = min(max(int(np.ceil(sample - reach - np.float32(0.5))), 0), size_in - 1)
        end = min(max(int(np.floor(sample + reach - np.float32(0.5))), 0), size_in - 1) + 1
        sources = np.arange(start, end, dtype=np.float32)
        row = weight((sources + np.float32(0.5) - sample) / stretch)
        total = row.sum(dtype=np.float32)
        if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
            weights[x, start:end] = row / total
    return weights


class ScaleAndTranslate(PrimitiveClass):
    """`ops.ScaleAndTranslate(kernel_type="lanczos3", antialias=True)(images, size, scale,
    translation)`: (N, H, W, C) real images resampled to `size` (int32 (2,)), each output
    pixel sampling ((y, x) + 0.5 - translation) / scale through the kernel, as float32: two
    constant weight matrices made from `size`, `scale` and `translation` (read when the graph
    is built), so the result is differentiable in the images."""

    def __init__(self, kernel_type="lanczos3", antialias=True):
        op = "ScaleAndTranslate"
        check_value_type("kernel_type", kernel_type, [str], op)
        self.kernel_type = check_string(kernel_type, list(SAMPLING_KERNELS), "kernel_type", op)
        self.antialias = check_value_type("antialias", antialias, [bool], op)
        self._attrs = {"kernel_type": kernel_type, "antialias": antialias}

    def __call__(self, images, size, scale, translation):
        op = "ScaleAndTranslate"
        images_dtypes = (dt.int8, dt.int16, dt.int32, dt.int64, dt.float16, dt.float32,
                         dt.float64)
        _check_operand_types(op, (("images", images, images_dtypes), ("size", size, (dt.int32,)),
                                  ("scale", scale, (dt.float32,)),
                                  ("translation", translation, (dt.float32,))))
        shape = abstract_of(images).shape
        if len(shape) != 4:
            raise ArgumentValueError(f"For '{op}', the rank of 'images' must be 4, but got "
                                     f"{len(shape)}.")
        for name, value in (("size", size), ("scale", scale), ("translation", translation)):
            if abstract_of(value).shape != (2,):
                raise ArgumentValueError(f"For '{op}', the shape of '{name}' must be (2,), but "
                                         f"got {abstract_of(value).shape}.")
        height, width = (int(v) for v in value_input(size, op, "size"))
        if height <= 0 or width <= 0:
            raise ArgumentValueError(f"For '{op}', the values of 'size' must be positive, but "
                                     f"got {[height, width]}.")
        scales = [float(v) for v in value_input(scale, op, "scale")]
        shifts = [float(v) for v in value_input(translation, op, "translation")]
        if any(abs(v) <= 1e-5 for v in scales):
            raise ArgumentValueError(f"For {op}, divisor scale cannot be 0.")
        rows = resampling_weights(self.kernel_type, shape[1], height, scales[0], shifts[0],
                                  self.antialias)
        columns = resampling_weights(self.kernel_type, shape[2], width, scales[1], shifts[1],
                                     self.antialias)
        planes = F.transpose(F.cast(images, dt.float32), (0, 3, 1, 2))      # (N, C, H, W)
        resized = F.matmul(F.matmul(Tensor(rows), planes), Tensor(columns.T))
        return F.transpose(resized, (0, 2, 3, 1))


# ----- ExtractGlimpse: windows at per-image offsets, noise where they leave the image


class ExtractGlimpse(PrimitiveClass):
    """`ops.ExtractGlimpse(centered=True, normalized=True, uniform_noise=True,
    noise="uniform")(x, size, offsets)`: from each (H, W, C) float32 image a (gh, gw) window
    whose centre is the image's (row, column) offset (a fraction of the size with
    `normalized`, from the middle with `centered`), its top-left corner truncated toward zero
    as MindSpore's kernel does; pixels outside the image are 0 ("zero"), uniform in (-1, 1)
    ("uniform", or `uniform_noise`) or max(0, N(10, 11)) ("gaussian"), drawn from the global
    generator. `size` is read when the graph is built; the offsets where it runs."""

    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        op = "ExtractGlimpse"
        self.centered = check_value_type("centered", centered, [bool], op)
        self.normalized = check_value_type("normalized", normalized, [bool], op)
        check_value_type("noise", noise, [str], op)
        self.noise = check_string(noise, ["uniform", "gaussian", "zero"], "noise", op)
        self.uniform_noise = check_value_type("uniform_noise", uniform_noise, [bool], op)
        if uniform_noise and noise != "uniform":
            raise ArgumentValueError(f"For '{op}', the value of 'noise' must be uniform when "
                                     f"uniform_noise is True, but got {noise}.")
        self._attrs = {"centered": centered, "normalized": normalized,
                       "uniform_noise": uniform_noise, "noise": noise}

    def __call__(self, x, size, offsets):
        op = "ExtractGlimpse"
        for name, value, dtype in (("x", x, dt.float32), ("size", size, dt.int32),
                                   ("offsets", offsets, dt.float32)):
            check_tensor_type(op, name, value, (dtype,))
        shape = abstract_of(x).shape
        if len(shape) != 4:
            raise ArgumentValueError(f"For '{op}', the rank of 'x' must be 4, but got "
                                     f"{len(shape)}.")
        if abstract_of(offsets).shape != (shape[0], 2):
            raise ArgumentValueError(f"For '{op}', the shape of 'offsets' must be "
                                     f"({shape[0]}, 2), but got {abstract_of(offsets).shape}.")
        if abstract_of(size).shape != (2,):
            raise ArgumentValueError(f"For '{op}', 'size' must hold 2 elements, but got shape "
                                     f"{abstract_of(size).shape}.")
        glimpse = [int(v) for v in value_input(size, op, "size")]
        if min(glimpse) <= 0:
            raise ArgumentValueError(f"For '{op}', the value of size must be greater than zero, "
                                     f"but got {glimpse}.")
        batch, height, width, channels = shape
        corners = []
        for axis, (extent, window) in enumerate(zip((height, width), glimpse)):
            where = offsets[:, axis]
            if self.normalized:
                where = M.mul(where, float(extent))
            if self.centered:
                where = M.add(M.div(where, 2.0), extent / 2.0)
            corners.append(F.cast(M.sub(where, window / 2.0), dt.int64))  # toward zero
        rows = F.add(F.expand_dims(corners[0], 1), Tensor(np.arange(glimpse[0], dtype=np.int64)))
        cols = F.add(F.expand_dims(corners[1], 1), Tensor(np.arange(glimpse[1], dtype=np.int64)))

        def inside(index, extent):
            return F.logical_and(F.greater_equal(index, 0), F.less(index, extent))

        valid = F.logical_and(F.expand_dims(inside(rows, height), 2),
                              F.expand_dims(inside(cols, width), 1))      # (B, gh, gw)
        rows = M.minimum(M.maximum(rows, 0), height - 1)
        cols = M.minimum(M.maximum(cols, 0), width - 1)
        base = Tensor(np.arange(batch, dtype=np.int64).reshape(batch, 1, 1) * height * width)
        flat = F.add(F.add(base, F.mul(F.expand_dims(rows, 2), width)), F.expand_dims(cols, 1))
        pixels = F.gather(F.reshape(x, (batch * height * width, channels)),
                          F.reshape(flat, (-1,)), 0)
        pixels = F.reshape(pixels, (batch, *glimpse, channels))
        out_shape = (batch, *glimpse, channels)
        if self.uniform_noise or self.noise == "uniform":
            fill = M.sub(M.mul(draw_uniform(out_shape, dt.float32, None), 2.0), 1.0)
        elif self.noise == "gaussian":
            normal = standard_normal_draw(out_shape, dt.float32, None)
            fill = M.maximum(M.add(M.mul(normal, 11.0), 10.0), 0.0)
        else:
            fill = F.zeros(out_shape, dt.float32)
        return M.select(F.broadcast_to(F.expand_dims(valid, -1), out_shape), pixels, fill)


RGBToHSV = define_class("RGBToHSV", _rgb_to_hsv, module=__name__)
HSVToRGB = define_class("HSVToRGB", _hsv_to_rgb, module=__name__)
AdjustHue = define_class("AdjustHue", _adjust_hue, module=__name__)
AdjustSaturation = define_class("AdjustSaturation", _adjust_saturation, module=__name__)


# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
