"""The bounding-box transforms of mindspore.dataset.vision: an image and its boxes in, the
transformed image and the boxes moved with it out. A box row is (x, y, width, height, ...)
in pixels (float32); the columns past the fourth (label, difficult, ...) pass through.

They draw as MindSpore's C++ transforms draw: a `std::mt19937` seeded with the dataset seed
(`dataset.config.set_seed`), and libstdc++'s distributions over it, so a seeded pipeline gives
MindSpore's boxes. Their geometry (the reflections, the clipping to a crop, the scaling of a
resize, the padding's shift) is MindSpore's, float32 arithmetic included.
"""
from __future__ import annotations

import numpy as np

from cellgraph.dataset import _std_shuffle as std
from cellgraph.dataset.core.validator_helpers import check_value, type_check
from cellgraph.dataset.transforms.transforms import CppRandomOperation

from .geometry import DRAWN_INTER, _crop_scale_ratio, cpp_crop_box
from .transforms import (
    Border,
    Inter,
    RandomCrop,
    Resize,
    TensorOperation,
    _check_crop_padding,
    _check_inter,
    _crop,
    _pad,
    _size_pair,
    check_prob,
    resize_array,
)

__all__ = [
    "BoundingBoxAugment",
    "RandomCropWithBBox",
    "RandomHorizontalFlipWithBBox",
    "RandomResizeWithBBox",
    "RandomResizedCropWithBBox",
    "RandomVerticalFlipWithBBox",
    "ResizeWithBBox",
]

_EPSILON = 1e-4  # how far a box may pass the image's edge
_FLOAT_MAX = np.finfo(np.float32).max


def _validate(row) -> tuple[np.ndarray, np.ndarray]:
    """MindSpore's checks of an (image, boxes) row; the image as an array and a float32 copy of
    the boxes."""
    if len(row) != 2:
        raise RuntimeError(f"BoundingBox: invalid input, size of input data should be 2 "
                           f"(including image and bounding box), but got: {len(row)}")
    image, boxes = np.asarray(row[0]), np.asarray(row[1])
    if boxes.ndim < 2:
        raise RuntimeError(f"BoundingBox: bounding boxes should have to be two-dimensional "
                           f"matrix at least, but got {boxes.ndim} dimension.")
    if image.ndim < 2:
        raise RuntimeError("Invalid data, input image hasn't been decoded, you may need to "
                           "perform Decode first.")
    if boxes.shape[1] < 4:
        raise RuntimeError(f"BoundingBox: bounding boxes should be have at least 4 features, "
                           f"but got: {boxes.shape[1]}")
    if boxes.dtype != np.float32:
        raise RuntimeError(f"BoundingBox: the bounding boxes must be float32, got "
                           f"{boxes.dtype}")
    boxes = boxes.reshape(boxes.shape[0], int(np.prod(boxes.shape[1:]))).copy()
    img_h, img_w = image.shape[:2]
    for x, y, w, h in boxes[:, :4]:
        right, bottom = x + w, y + h
        if right - np.float32(img_w) > _EPSILON or bottom - np.float32(img_h) > _EPSILON:
            raise RuntimeError(f"BoundingBox: bounding boxes is out of bounds of the image, as "
                               f"image width: {img_w}, bbox width coordinate: {right:.6f}, and "
                               f"image height: {img_h}, bbox height coordinate: {bottom:.6f}")
        if x < -_EPSILON or y < -_EPSILON:
            raise RuntimeError(f"BoundingBox: the coordinates of the bounding boxes has negative "
                               f"value, got: ({x:.6f},{y:.6f}).")
    return image, boxes


def _check_image(op: str, image: np.ndarray) -> None:
    """The image checks of MindSpore's flips: <H, W> or <H, W, C> of a type OpenCV takes."""
    if image.ndim not in (2, 3):
        hint = ". You may need to perform Decode first." if image.ndim < 2 else ""
        raise RuntimeError(f"{op}: input tensor is not in shape of <H,W> or <H,W,C>, but got "
                           f"rank: {image.ndim}{hint}")
    if image.dtype.kind not in "biuf" or image.dtype in (np.uint32, np.int64, np.uint64):
        name = {"U": "string", "S": "bytes", "O": "python"}.get(image.dtype.kind,
                                                                  image.dtype.name)
        raise RuntimeError(f"{op}: Cannot convert [{name}] to OpenCV type. Currently "
                           f"unsupported data type: [uint32, int64, uint64, string]")


def crop_boxes(boxes: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """The boxes that meet the crop [x0, x1) x [y0, y1), clipped to it and moved to its origin
    (MindSpore's UpdateBBoxesForCrop); the others are dropped."""
    f = np.float32
    kept = []
    for row in boxes:
        x, y, w, h = row[:4]
        right, bottom = x + w, y + h
        if x > f(x1) or y > f(y1) or right < f(x0) or bottom < f(y0):
            continue
        left = x - min(f(0), x - f(x0)) - f(x0)
        top = y - min(f(0), y - f(y0)) - f(y0)
        right = right - max(f(0), right - f(x1)) - f(x0)
        bottom = bottom - max(f(0), bottom - f(y1)) - f(y0)
        left, top = max(left, f(0)), max(top, f(0))
        right, bottom = min(right, f(x1 - x0)), min(bottom, f(y1 - y0))
        row = row.copy()
        row[:4] = (left, top, right - left, bottom - top)
        kept.append(row)
    return np.array(kept, np.float32).reshape(len(kept), boxes.shape[1])


def resize_boxes(boxes: np.ndarray, out_w: int, out_h: int, in_w: int, in_h: int) -> np.ndarray:
    """The boxes scaled from an in_w x in_h image to out_w x out_h (MindSpore's
    UpdateBBoxesForResize), in place."""
    ratio_w = np.float32(out_w) / np.float32(in_w)
    ratio_h = np.float32(out_h) / np.float32(in_h)
    with np.errstate(divide="ignore"):
        for row in boxes:
            for value, ratio, name in ((row[0], ratio_w, "Width"), (row[1], ratio_h, "Height"),
                                       (row[2], ratio_w, "Width"), (row[3], ratio_h, "Height")):
                if not _FLOAT_MAX / value > ratio:
                    raise RuntimeError(f"BoundingBox: {name} aspect Ratio is too large as got: "
                                       f"{ratio:.6f}")
    boxes[:, 0] *= ratio_w
    boxes[:, 1] *= ratio_h
    boxes[:, 2] *= ratio_w
    boxes[:, 3] *= ratio_h
    return boxes


class _FlipWithBBox(CppRandomOperation):
    """Mirror the image with probability `prob`, its boxes with it (`_mirror`)."""

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def __call__(self, *row):
        image, boxes = _validate(row)
        _check_image(type(self).__name__, image)
        if not std.bernoulli(self.words, self.prob):
            return row[0], row[1]
        return self._mirror(image, boxes)


class RandomHorizontalFlipWithBBox(_FlipWithBBox):
    """Mirror the image left-right with probability `prob`, its boxes with it."""

    @staticmethod
    def _mirror(image, boxes):
        center = np.float32(image.shape[1]) / np.float32(2)
        boxes[:, 0] = (center - boxes[:, 0]) + center - boxes[:, 2]
        return np.ascontiguousarray(image[:, ::-1]), boxes


class RandomVerticalFlipWithBBox(_FlipWithBBox):
    """Mirror the image top-bottom with probability `prob`, its boxes with it."""

    @staticmethod
    def _mirror(image, boxes):
        one = np.float32(1)
        boxes[:, 1] = (np.float32(image.shape[0]) - one) - ((boxes[:, 1] + boxes[:, 3]) - one)
        return np.ascontiguousarray(image[::-1]), boxes


class ResizeWithBBox(TensorOperation):
    """Resize the image to `size` ((height, width), or an int for the shorter side) and scale
    its boxes."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self._resize = Resize(size, interpolation)
        self.size, self.interpolation = self._resize.size, interpolation

    def __call__(self, *row):
        image, boxes = _validate(row)
        out = self._resize(image)
        return out, resize_boxes(boxes, out.shape[1], out.shape[0], image.shape[1],
                                 image.shape[0])




class RandomResizeWithBBox(CppRandomOperation):
    """ResizeWithBBox with an interpolation drawn from linear, nearest, cubic and area."""

    def __init__(self, size):
        self.size = Resize(size).size

    def __call__(self, *row):
        inter = DRAWN_INTER[std.uniform_int(self.words, 0, 3)]
        return ResizeWithBBox(self.size, inter)(*row)


class RandomCropWithBBox(CppRandomOperation):
    """RandomCrop on the image (MindSpore's C++ padding: `padding`, then with `pad_if_needed`
    the missing rows and columns on both sides), its boxes clipped to the crop; boxes that miss
    the crop are dropped."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        checked = RandomCrop(size, padding, pad_if_needed, fill_value, padding_mode)
        self.size, self.padding = checked.size, checked.padding or (0, 0, 0, 0)
        self.pad_if_needed = checked.pad_if_needed
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def __call__(self, *row):
        image, boxes = _validate(row)
        _check_crop_padding(self.padding, image)
        left, top = self.padding[:2]
        padded = _pad(image, self.padding, self.fill_value, self.padding_mode)
        # MindSpore moves the boxes by the explicit padding only, not by pad_if_needed's
        boxes[:, 0] += np.float32(left)
        boxes[:, 1] += np.float32(top)
        height, width = self.size
        pad_h, pad_w = padded.shape[:2]
        if (pad_h, pad_w) == (height, width):
            return padded, boxes
        if self.pad_if_needed:
            grow_h, grow_w = max(height - pad_h, 0), max(width - pad_w, 0)
            padded = _pad(padded, (grow_w, grow_h, grow_w, grow_h), self.fill_value,
                          self.padding_mode)
            pad_h, pad_w = padded.shape[:2]
        if pad_h < height or pad_w < width:
            raise RuntimeError(f"RandomCrop: invalid crop size, crop size is bigger than the "
                               f"image dimensions, got crop height: {height}, crop width: "
                               f"{width}")
        words = self.words
        x = std.uniform_int(words, 0, pad_w - width)
        y = std.uniform_int(words, 0, pad_h - height)
        return (_crop(padded, y, x, height, width),
                crop_boxes(boxes, x, y, x + width, y + height))


class RandomResizedCropWithBBox(CppRandomOperation):
    """RandomResizedCrop on the image (MindSpore's C++ draws of the area and the aspect), its
    boxes clipped to the crop and scaled to `size`."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = _size_pair(size, type(self).__name__)
        self.scale, self.ratio = _crop_scale_ratio(scale, ratio)
        _check_inter(interpolation, "interpolation")
        type_check(max_attempts, (int,), "max_attempts")
        check_value(max_attempts, (1, 2**31 - 1), "max_attempts")
        self.interpolation, self.max_attempts = interpolation, max_attempts

    def crop_box(self, h_in: int, w_in: int) -> tuple[int, int, int, int]:
        """(x, y, height, width) of the crop, drawn as MindSpore's GetCropBox draws it."""
        return cpp_crop_box(self.words, h_in, w_in, self.scale, self.ratio, self.max_attempts)

    def __call__(self, *row):
        image, boxes = _validate(row)
        if image.ndim not in (2, 3):
            raise RuntimeError(f"RandomCropAndResizeWithBBox: input tensor is not in shape of "
                               f"<H,W> or <H,W,C>, but got rank: {image.ndim}")
        h_in, w_in = image.shape[:2]
        x, y, height, width = self.crop_box(h_in, w_in)
        boxes = crop_boxes(boxes, x, y, x + width, y + height)
        out_h, out_w = self.size
        out = resize_array(_crop(image, y, x, height, width), out_h, out_w, self.interpolation)
        return out, resize_boxes(boxes, out_w, out_h, width, height)


class BoundingBoxAugment(CppRandomOperation):
    """Apply `transform` to the region of each box, each with probability `ratio`, pasting the
    result back (resized to the box where the transform changed its size); the boxes pass
    through."""

    def __init__(self, transform, ratio=0.3):
        type_check(ratio, (float, int), "ratio")
        check_value(ratio, [0.0, 1.0], "ratio")
        type_check(transform, (TensorOperation,), "transform")
        self.transform, self.ratio = transform, ratio

    def __call__(self, *row):
        image, boxes = _validate(row)
        out = image.copy()
        ratio = np.float32(self.ratio)
        for x, y, w, h in boxes[:, :4]:
            if not std.uniform_float(self.words, 0.0, 1.0) < ratio:
                continue
            x, y, w, h = int(x), int(y), int(w), int(h)
            if y < 0 or y + h > out.shape[0] or x < 0 or x + w > out.shape[1]:
                axis, at = ("y", y) if y < 0 or y + h > out.shape[0] else ("x", x)
                raise RuntimeError(f"Crop: invalid {axis} coordinate value for crop, {axis} "
                                   f"coordinate value exceeds the boundary of the image, got "
                                   f"{axis}: {at}")
            patch = np.asarray(self.transform(_crop(out, y, x, h, w)))
            if patch.shape[:2] != (h, w):
                patch = Resize((h, w))(patch)
            out[y:y + patch.shape[0], x:x + patch.shape[1]] = patch
        return out, row[1]
