"""Perspective warps of mindspore.dataset.vision: Perspective (NumPy arrays as MindSpore's C++
kernel warps them, through OpenCV's warpPerspective; Pillow images through Pillow's transform)
and RandomPerspective (Pillow images, corners drawn from Python's `random` as MindSpore's Python
transform draws them)."""
from __future__ import annotations

import random

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_int32,
    check_value,
    type_check,
    type_check_list,
)

from .cv_warp import CvInter, perspective_matrix, warp_perspective
from .transforms import _PIL_FILTERS, Inter, TensorOperation, _is_pil

__all__ = ["Perspective", "RandomPerspective"]

# MindSpore's C++ interpolation for a warp: AREA warps as LINEAR (OpenCV), PILCUBIC too (its
# table has no entry for it)
_CV_INTER = {Inter.NEAREST: CvInter.NEAREST, Inter.BICUBIC: CvInter.CUBIC}
_CV_DTYPES = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.float16,
              np.float32, np.float64)
_DTYPE_NAMES = "bool, int8, uint8, int16, uint16, int32, float16, float32, float64"
_WARPED = (np.uint8, np.int16, np.uint16, np.float32, np.float64)  # what cv::remap takes


def _check_points(points, name: str) -> None:
    type_check_list(points, (list, tuple), name)
    if len(points) != 4:
        raise TypeError(f"{name} should be a list or tuple of length 4.")
    for i, point in enumerate(points):
        type_check(point, (list, tuple), f"{name}[{i}]")
        if len(point) != 2:
            raise TypeError(f"{name}[{i}] should be a list or tuple of length 2.")
        check_int32(point[0], f"{name}[{i}][0]")
        check_int32(point[1], f"{name}[{i}][1]")


def _pil_coefficients(start_points, end_points) -> list:
    """Pillow's PERSPECTIVE data (a, b, c, d, e, f, g, h: output -> input) for the corners,
    by least squares as MindSpore's Python transform finds them."""
    rows = []
    for (x, y), (u, v) in zip(end_points, start_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    target = np.array(start_points, dtype=float).reshape(8)
    return np.linalg.lstsq(np.array(rows, dtype=float), target, rcond=None)[0].tolist()


def pil_perspective(image, start_points, end_points, interpolation: Inter):
    """A Pillow image warped so that `start_points` land on `end_points`."""
    from PIL import Image

    return image.transform(image.size, Image.Transform.PERSPECTIVE,
                           _pil_coefficients(start_points, end_points),
                           _PIL_FILTERS[interpolation])


def _array_image(image) -> np.ndarray:
    """MindSpore's ValidateImage for Perspective: its dtypes, rank 2 or 3."""
    array = np.asarray(image)
    if array.dtype.type not in _CV_DTYPES:
        raise RuntimeError(f"Perspective: the data type of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in type of "
                           f"({_DTYPE_NAMES}). But got type {array.dtype}.")
    if array.ndim not in (2, 3):
        hint = " You may need to perform Decode first." if array.ndim == 1 else ""
        raise RuntimeError(f"Perspective: the dimension of image tensor does not match the "
                           f"requirement of operator. Expecting tensor in dimension of (2, 3), "
                           f"in shape of <H, W> or <H, W, C>. But got dimension "
                           f"{array.ndim}.{hint}")
    return array


class Perspective(TensorOperation):
    """Warp the image so that the quadrilateral `start_points` ([top-left, top-right,
    bottom-right, bottom-left], (x, y) each) lands on `end_points`; uncovered pixels are 0."""

    @property
    def python_implementation(self) -> bool:
        return self.interpolation is Inter.ANTIALIAS  # MindSpore runs it on Pillow

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        _check_points(start_points, "start_points")
        _check_points(end_points, "end_points")
        type_check(interpolation, (Inter,), "interpolation")
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = interpolation

    def __call__(self, image):
        if _is_pil(image):
            if self.interpolation in (Inter.AREA, Inter.PILCUBIC):
                raise TypeError("Current Interpolation is not supported with PIL input.")
            return pil_perspective(image, self.start_points, self.end_points,
                                   self.interpolation)
        if self.interpolation is Inter.ANTIALIAS:  # MindSpore runs it in Python, on Pillow
            raise TypeError(f"img should be PIL image. Got {type(image)}. Use Decode() for "
                            f"encoded data or ToPIL() for decoded data.")
        array = _array_image(image)
        matrix = perspective_matrix(self.start_points, self.end_points)
        inter = _CV_INTER.get(self.interpolation, CvInter.LINEAR)
        if array.dtype.type not in _WARPED:  # MindSpore passes them on; OpenCV refuses them
            raise RuntimeError(f"Perspective: OpenCV's warpPerspective does not take images "
                               f"of type {array.dtype}")
        if array.ndim == 3 and array.shape[2] > 4 and inter is CvInter.CUBIC:
            raise RuntimeError(f"Perspective: OpenCV's bicubic warpPerspective takes at most 4 "
                               f"channels, got {array.shape[2]}")
        return warp_perspective(array, matrix, array.shape[:2], inter)


def perspective_corners(width: int, height: int, distortion_scale: float) -> tuple:
    """RandomPerspective's (start_points, end_points): each corner moved inwards by up to
    `distortion_scale` of half the width and height, drawn with random.randint."""
    half_w = int(width / 2 * distortion_scale)
    half_h = int(height / 2 * distortion_scale)
    top_left = (random.randint(0, half_w), random.randint(0, half_h))
    top_right = (random.randint(width - half_w - 1, width - 1), random.randint(0, half_h))
    bottom_right = (random.randint(width - half_w - 1, width - 1),
                    random.randint(height - half_h - 1, height - 1))
    bottom_left = (random.randint(0, half_w), random.randint(height - half_h - 1, height - 1))
    start = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
    return start, [top_left, top_right, bottom_right, bottom_left]


class RandomPerspective(TensorOperation):
    """With probability `prob`, a perspective warp of a Pillow image whose corners move
    inwards by random amounts up to `distortion_scale` (in [0, 1]) of half its size."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        type_check(distortion_scale, (float,), "distortion_scale")
        type_check(prob, (float,), "prob")
        check_value(distortion_scale, [0., 1.], "distortion_scale")
        check_value(prob, [0., 1.], "prob")
        type_check(interpolation, (Inter,), "interpolation")
        self.distortion_scale, self.prob = distortion_scale, prob
        self.interpolation = interpolation

    def __call__(self, img):
        if not _is_pil(img):
            raise ValueError("Input image should be a Pillow image.")
        if self.prob > random.random():
            width, height = img.size
            start, end = perspective_corners(width, height, self.distortion_scale)
            return pil_perspective(img, start, end, self.interpolation)
        return img
