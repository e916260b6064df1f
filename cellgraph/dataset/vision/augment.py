"""Affine warps, blur, erasing and AutoAugment-style policies of mindspore.dataset.vision:
Rotate, RandomAffine, GaussianBlur, RandomErasing, RandomSelectSubpolicy. All run on NumPy
arrays (a Pillow image is converted and given back as one), so no Pillow is needed.

Coordinates are pixel indices, x to the right and y down, and a positive angle turns the
image counter-clockwise on screen, as OpenCV's warps (which MindSpore uses) do. Rotation
centres default to ((W - 1) / 2, (H - 1) / 2), which makes quarter turns exact permutations.
"""
from __future__ import annotations

import math
import numbers
import random

import numpy as np

from cellgraph.dataset import _std_shuffle
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_fill_value,
    check_value,
    type_check,
    type_check_list,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation, _transform_list

from . import cv_warp
from .geometry import _range_pair
from .transforms import (
    Inter,
    TensorOperation,
    _check_inter,
    _image_array,
    _is_pil,
    _pil,
    _RandomOp,
)

__all__ = ["Affine", "CutOut", "GaussianBlur", "RandomAffine", "RandomErasing", "RandomSelectSubpolicy", "Rotate",
           "UniformAugment"]


# MindSpore's C++ interpolations for a warp (AREA and the Pillow ones warp as LINEAR)
_CV_INTER = {Inter.NEAREST: cv_warp.CvInter.NEAREST, Inter.BICUBIC: cv_warp.CvInter.CUBIC}


def _fill_pixel(fill_value, channels: int | None, dtype) -> np.ndarray:
    fill = np.asarray(fill_value, np.float64)
    if fill.ndim and channels is not None and fill.size != channels:
        raise ValueError(f"expected a fill value per channel ({channels}), got {fill_value!r}")
    return fill.astype(dtype) if fill.ndim else np.full(channels or (), fill, dtype)


def _cv_fill(fill_value) -> tuple:
    """The (r, g, b) border MindSpore's C++ warps hand OpenCV (a number fills all three)."""
    return (fill_value,) * 3 if isinstance(fill_value, numbers.Number) else tuple(fill_value)


def warp_affine(image: np.ndarray, forward: np.ndarray, out_hw: tuple[int, int],
                interpolation: Inter, fill_value) -> np.ndarray:
    """Each output pixel p takes the input at inverse(forward) @ p (nearest or bilinear);
    pixels that land outside the input get `fill_value`."""
    if interpolation not in (Inter.NEAREST, Inter.LINEAR):
        raise ValueError(f"affine warp: `resample` must be Inter.NEAREST or Inter.BILINEAR, "
                         f"got {interpolation}")
    height, width = out_hw
    inverse = np.linalg.inv(np.vstack([forward, [0, 0, 1]]))[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    src_x = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
    src_y = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
    in_h, in_w = image.shape[:2]
    channels = image.shape[2] if image.ndim == 3 else None
    fill = _fill_pixel(fill_value, channels, np.float64)
    data = image.astype(np.float64)

    def sample(row, col):
        inside = (row >= 0) & (row < in_h) & (col >= 0) & (col < in_w)
        picked = data[np.clip(row, 0, in_h - 1), np.clip(col, 0, in_w - 1)]
        mask = inside[..., None] if channels is not None else inside
        return np.where(mask, picked, fill)

    if interpolation is Inter.NEAREST:
        out = sample(np.floor(src_y + 0.5).astype(np.int64),
                     np.floor(src_x + 0.5).astype(np.int64))
    else:
        top, left = np.floor(src_y).astype(np.int64), np.floor(src_x).astype(np.int64)
        wy, wx = src_y - top, src_x - left
        if channels is not None:
            wy, wx = wy[..., None], wx[..., None]
        out = ((1 - wy) * ((1 - wx) * sample(top, left) + wx * sample(top, left + 1))
               + wy * ((1 - wx) * sample(top + 1, left) + wx * sample(top + 1, left + 1)))
    if image.dtype.kind in "iu":
        info = np.iinfo(image.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    return out.astype(image.dtype)


def _about(center, linear: np.ndarray, shift=(0.0, 0.0)) -> np.ndarray:
    """The 2x3 matrix applying `linear` about `center`, then translating by `shift`."""
    cx, cy = center
    offset = np.array([cx, cy]) - linear @ np.array([cx, cy]) + np.asarray(shift, float)
    return np.hstack([linear, offset[:, None]])


def _rotation(degrees: float) -> np.ndarray:
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    return np.array([[cos, sin], [-sin, cos]])  # counter-clockwise with y pointing down


def _as_array(image, op: str) -> tuple[np.ndarray, bool]:
    return _image_array(image, op), _is_pil(image)


def _back(array: np.ndarray, was_pil: bool):
    return _pil().fromarray(array) if was_pil else array


def _bounding_size(center, size, degrees: float) -> tuple[float, float]:
    """cv::RotatedRect(center, size, degrees).boundingRect2f()'s (width, height), in float."""
    f32 = np.float32
    angle = degrees * math.pi / 180
    b, a = f32(math.cos(angle)) * f32(0.5), f32(math.sin(angle)) * f32(0.5)
    cx, cy = f32(center[0]), f32(center[1])
    width, height = f32(size[0]), f32(size[1])
    x0, y0 = cx - a * height - b * width, cy + b * height - a * width
    x1, y1 = cx + a * height - b * width, cy - b * height - a * width
    xs = [x0, x1, f32(2) * cx - x0, f32(2) * cx - x1]
    ys = [y0, y1, f32(2) * cy - y0, f32(2) * cy - y1]
    return float(max(xs) - min(xs)), float(max(ys) - min(ys))


def cv_rotate(image: np.ndarray, degrees: float, inter: Inter, expand: bool, center,
              fill) -> np.ndarray:
    """MindSpore's C++ Rotate: cv::getRotationMatrix2D about `center` ((x, y); the image
    centre, ((W - 1) / 2, (H - 1) / 2), when None) and cv::warpAffine; `expand` sizes the output
    to the turned image's bounding box. `fill` is (r, g, b) as MindSpore takes it, which it
    hands OpenCV as (b, g, r): the first channel is filled with b."""
    height, width = image.shape[:2]
    if center is None:
        center = (np.float32(width - 1) * np.float32(0.5),
                  np.float32(height - 1) * np.float32(0.5))
    fill = (fill,) * 3 if isinstance(fill, numbers.Number) else tuple(fill)
    matrix = cv_warp.rotation_matrix(center, float(degrees))
    out_hw = (height, width)
    if expand:
        box_w, box_h = _bounding_size(center, (width, height), float(degrees))
        matrix[0, 2] += box_w / 2.0 - width / 2.0
        matrix[1, 2] += box_h / 2.0 - height / 2.0
        out_hw = (int(np.rint(box_h)), int(np.rint(box_w)))
    inter = _CV_INTER.get(inter, cv_warp.CvInter.LINEAR)
    return cv_warp.warp_affine(image, matrix, out_hw, inter, fill[::-1])


class Rotate(TensorOperation):
    """Turn the image `degrees` counter-clockwise about `center` ((x, y); the image centre by
    default), filling the uncovered corners with `fill_value`; `expand` grows the output to
    hold the whole turned image."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        if isinstance(degrees, bool) or not isinstance(degrees, numbers.Real):
            raise TypeError(f"Rotate: `degrees` must be a number, got {degrees!r}")
        _check_inter(resample, "resample")
        if center is not None and len(center) != 2:
            raise ValueError(f"Rotate: `center` must be (x, y), got {center!r}")
        # MindSpore turns by degrees % 360 (and writes that to its JSON)
        self.degrees, self.resample, self.expand = float(degrees % 360), resample, bool(expand)
        self.center, self.fill_value = center, fill_value

    def __call__(self, image):
        array, was_pil = _as_array(image, "Rotate")
        return _back(cv_rotate(array, np.float32(self.degrees), self.resample, self.expand,
                               self.center, self.fill_value), was_pil)


def _symmetric(value, name: str, op: str) -> tuple[float, float]:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{op}: `{name}` must be non-negative, got {value}")
        return -float(value), float(value)
    pair = tuple(float(v) for v in value)
    if len(pair) != 2 or pair[0] > pair[1]:
        raise ValueError(f"{op}: `{name}` must be (min, max), got {value!r}")
    return pair


class RandomAffine(_RandomOp, CppRandomOperation):
    """A random affine warp about the image centre: a turn drawn from `degrees`, a shift of
    a fraction of the width and height drawn from `translate` ((x_min, x_max[, y_min,
    y_max])), a zoom from `scale` ((min, max)) and shears (degrees) from `shear` (a number s:
    x in [-s, s]; (min, max): x; (x_min, x_max, y_min, y_max): both).

    Arrays are warped as MindSpore's C++ op warps them: six float draws (turn, x and y shift
    in pixels, zoom, x and y shear) by std::uniform_real_distribution over the op's mt19937,
    GetAffineMatrix's float32 matrix and cv::warpAffine. Pillow images (MindSpore's Python
    implementation) take translate . centre . rotate . shear . scale . uncentre, where the
    x-shear adds tan(sx) * y to x and the y-shear adds tan(sy) * x to y."""

    @property
    def python_implementation(self) -> bool:
        return self.resample is Inter.ANTIALIAS  # MindSpore runs it on Pillow

    def __init__(self, degrees, translate=None, scale=None, shear=None,
                 resample=Inter.NEAREST, fill_value=0):
        op = "RandomAffine"
        _check_inter(resample, "resample")
        self.degrees = _symmetric(degrees, "degrees", op)
        translate = (0.0, 0.0) if translate is None else tuple(float(t) for t in translate)
        if len(translate) not in (2, 4) or not all(-1 <= t <= 1 for t in translate):
            raise ValueError(f"{op}: `translate` must be 2 or 4 fractions in [-1, 1], got "
                             f"{translate!r}")
        self.translate = translate if len(translate) == 4 else translate + (0.0, 0.0)
        self.scale = (1.0, 1.0) if scale is None else _range_pair(scale, "scale", op)
        if self.scale[0] <= 0:
            raise ValueError(f"{op}: `scale` must be positive, got {scale!r}")
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Real) or len(shear) == 2:
            shear = _symmetric(shear, "shear", op) + (0.0, 0.0)
        elif len(shear) == 4:
            shear = _symmetric(shear[:2], "shear", op) + _symmetric(shear[2:], "shear", op)
        else:
            raise ValueError(f"{op}: `shear` must be a number or 2 or 4 numbers, got {shear!r}")
        self.shear = tuple(float(s) for s in shear)
        self.resample, self.fill_value = resample, fill_value

    def matrix(self, height: int, width: int) -> np.ndarray:
        """One draw of the forward 2x3 matrix for an image of this size."""
        angle = self.rng.uniform(*self.degrees)
        tx = round(self.rng.uniform(*self.translate[:2]) * width)
        ty = round(self.rng.uniform(*self.translate[2:]) * height)
        zoom = self.rng.uniform(*self.scale)
        sx = math.radians(self.rng.uniform(*self.shear[:2]))
        sy = math.radians(self.rng.uniform(*self.shear[2:]))
        shear = np.array([[1.0, math.tan(sx)], [math.tan(sy), 1.0]])
        linear = _rotation(angle) @ shear * zoom
        return _about(((width - 1) / 2, (height - 1) / 2), linear, (tx, ty))

    def cpp_matrix(self, height: int, width: int) -> np.ndarray:
        """One draw of MindSpore's C++ RandomAffineOp: the float32 2x3 forward matrix."""
        words, f32 = self.words, np.float32
        x_min, x_max, y_min, y_max = (f32(t) for t in self.translate)
        degrees = _std_shuffle.uniform_float(words, *self.degrees)
        tx = _std_shuffle.uniform_float(words, x_min * f32(width), x_max * f32(width))
        ty = _std_shuffle.uniform_float(words, y_min * f32(height), y_max * f32(height))
        scale = _std_shuffle.uniform_float(words, *self.scale)
        shear_x = _std_shuffle.uniform_float(words, *self.shear[:2])
        shear_y = _std_shuffle.uniform_float(words, *self.shear[2:])
        return cv_warp.affine_matrix(height, width, np.fmod(degrees, f32(360)), (tx, ty),
                                     scale, (shear_x, shear_y))

    def __call__(self, image):
        array, was_pil = _as_array(image, "RandomAffine")
        if not was_pil:
            return cv_warp.warp_affine(array, self.cpp_matrix(*array.shape[:2]),
                                       array.shape[:2],
                                       _CV_INTER.get(self.resample, cv_warp.CvInter.LINEAR),
                                       _cv_fill(self.fill_value))
        forward = self.matrix(*array.shape[:2])
        return _back(warp_affine(array, forward, array.shape[:2], self.resample,
                                 self.fill_value), was_pil)


class Affine(TensorOperation):
    """The affine warp of RandomAffine with fixed values: a turn of `degrees`, a shift of
    `translate` (fractions of the width and height), a zoom `scale` and shears `shear` (a
    number: along x; or (x, y) degrees), about the image centre."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST,
                 fill_value=0):
        type_check(degrees, (int, float), "degrees")  # MindSpore's checks and words
        check_value(degrees, [-180, 180], "degrees")
        type_check(translate, (list, tuple), "translate")
        if len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        for i, t in enumerate(translate):
            type_check(t, (int, float), f"translate[{i}]")
            check_value(t, [-1.0, 1.0], f"translate[{i}]")
        type_check(scale, (int, float), "scale")
        if scale <= 0:
            raise ValueError("Input scale must be greater than 0.")
        type_check(shear, (numbers.Number, tuple, list), "shear")
        if isinstance(shear, (list, tuple)):
            if len(shear) != 2:
                raise TypeError("The length of shear should be 2.")
            for i, value in enumerate(shear):
                type_check(value, (int, float), f"shear[{i}]")
                check_value(value, [-180, 180], f"shear[{i}]")
            shear = (float(shear[0]), float(shear[1]))
        else:
            check_value(shear, [-180, 180], "shear")
            shear = (float(shear), 0.0)
        type_check(resample, (Inter,), "resample")
        check_fill_value(fill_value)
        self.degrees, self.translate, self.scale = float(degrees), tuple(translate), scale
        self.shear, self.resample, self.fill_value = shear, resample, fill_value

    def __call__(self, image):
        """MindSpore's C++ Affine (its Pillow images too): GetAffineMatrix's float32 matrix
        for a shift of the fractions times the width and height, and cv::warpAffine."""
        array, was_pil = _as_array(image, "Affine")
        height, width = array.shape[:2]
        shift = (np.float32(self.translate[0]) * np.float32(width),
                 np.float32(self.translate[1]) * np.float32(height))
        matrix = cv_warp.affine_matrix(height, width, self.degrees, shift, self.scale,
                                       self.shear)
        return _back(cv_warp.warp_affine(array, matrix, (height, width),
                                         _CV_INTER.get(self.resample, cv_warp.CvInter.LINEAR),
                                         _cv_fill(self.fill_value)), was_pil)


def _odd_pair(value, name: str, op: str) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, numbers.Integral) else tuple(value)
    if len(pair) != 2 or not all(isinstance(k, numbers.Integral) and not isinstance(k, bool)
                                 and k > 0 and k % 2 for k in pair):
        raise ValueError(f"{op}: `{name}` must be a positive odd int or two of them, got "
                         f"{value!r}")
    return int(pair[0]), int(pair[1])


def gaussian_kernel(size: int, sigma: float) -> np.ndarray:
    """The normalised 1-D Gaussian of `size` taps; sigma <= 0 takes OpenCV's default for the
    size, 0.3 * ((size - 1) / 2 - 1) + 0.8."""
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    taps = np.exp(-0.5 * ((np.arange(size) - (size - 1) / 2) / sigma) ** 2)
    return taps / taps.sum()


class GaussianBlur(TensorOperation):
    """Blur with a Gaussian of `kernel_size` ((width, height), odd) and `sigma` ((sigma_x,
    sigma_y); None or 0: from the size); borders reflect without repeating the edge pixel."""

    def __init__(self, kernel_size, sigma=None):
        op = "GaussianBlur"
        self.kernel_size = _odd_pair(kernel_size, "kernel_size", op)
        if sigma is None:
            sigma = (0.0, 0.0)
        elif isinstance(sigma, numbers.Real):
            sigma = (sigma, sigma)
        self.sigma = tuple(float(s) for s in sigma)
        if len(self.sigma) != 2 or min(self.sigma) < 0:
            raise ValueError(f"{op}: `sigma` must be a non-negative number or two, got "
                             f"{sigma!r}")

    def __call__(self, image):
        array, was_pil = _as_array(image, "GaussianBlur")
        out = array.astype(np.float64)
        for axis, size, sigma in ((1, self.kernel_size[0], self.sigma[0]),
                                  (0, self.kernel_size[1], self.sigma[1])):
            taps, half = gaussian_kernel(size, sigma), size // 2
            widths = [(0, 0)] * out.ndim
            widths[axis] = (half, half)
            padded = np.pad(out, widths, mode="reflect")
            windows = np.lib.stride_tricks.sliding_window_view(padded, size, axis=axis)
            out = windows @ taps
        if array.dtype.kind in "iu":
            info = np.iinfo(array.dtype)
            out = np.clip(np.rint(out), info.min, info.max)
        return _back(out.astype(array.dtype), was_pil)


def _check_erasing(prob, scale, ratio, value, inplace, max_attempts) -> None:
    """MindSpore's checks of RandomErasing's arguments, in its order and words."""
    type_check(prob, (float, int), "prob")
    for name, pair in (("scale", scale), ("ratio", ratio)):
        type_check_list(pair, (float, int), name)
        if len(pair) != 2:
            raise TypeError(f"{name} should be a list or tuple of length 2.")
    type_check(value, (int, list, tuple, str), "value")
    type_check(inplace, (bool,), "inplace")
    type_check(max_attempts, (int,), "max_attempts")
    if not (isinstance(value, numbers.Number) or value == "random" or
            (isinstance(value, (tuple, list)) and len(value) == 3)):
        raise ValueError("The value for erasing should be either a single value, or a string "
                         "'random', or a sequence of 3 elements for RGB respectively.")
    check_value(prob, [0.0, 1.0], "prob")
    for name, (low, high) in (("scale", scale), ("ratio", ratio)):
        if low > high:
            raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
        if name == "scale":
            if not 0 <= low <= high <= FLOAT_MAX_INTEGER:
                raise ValueError(f"Input is not within the required interval of "
                                 f"[0, {FLOAT_MAX_INTEGER}].")
            if high <= 0:
                raise ValueError("Input scale[1] must be greater than 0.")
        else:
            check_value(low, [0, FLOAT_MAX_INTEGER], left_open_interval=True)
            check_value(high, [0, FLOAT_MAX_INTEGER], left_open_interval=True)
    if isinstance(value, int):
        check_value(value, (0, 255))
    if isinstance(value, (list, tuple)):
        for item in value:
            type_check(item, (int,), "value")
            check_value(item, [0, 255], "value")
    check_value(max_attempts, (1, FLOAT_MAX_INTEGER))


class RandomErasing(TensorOperation):
    """With probability `prob`, overwrite a random rectangle of a CHW image: its area a
    fraction drawn from `scale`, its width / height ratio from `ratio`; `value` is a number,
    one per channel, or "random" (standard normal noise). After `max_attempts` rectangles that
    do not fit, the image is left as it is. As MindSpore's Python implementation, it draws
    from Python's `random` module (and the noise from `numpy.random`), which
    dataset.config.set_seed seeds."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        _check_erasing(prob, scale, ratio, value, inplace, max_attempts)
        self.prob, self.scale, self.ratio = prob, tuple(scale), tuple(ratio)
        self.value, self.inplace, self.max_attempts = value, inplace, max_attempts

    def region(self, height: int, width: int):
        """(top, left, h, w) of the rectangle to erase, or None: MindSpore's get_erase_params
        (bounded), uniform draws of the area and the ratio, the width rounded first."""
        for _ in range(self.max_attempts):
            area = random.uniform(self.scale[0], self.scale[1]) * (height * width)
            aspect = random.uniform(self.ratio[0], self.ratio[1])
            w = round(math.sqrt(area * aspect))
            h = round(w / aspect)
            if h < height and w < width:
                return (random.randint(0, height - h), random.randint(0, width - w), h, w)
        return None

    def __call__(self, image):
        array = np.asarray(image)
        if array.ndim != 3:
            raise RuntimeError(f"RandomErasing: expected a CHW image, got shape {array.shape}")
        if not self.prob > random.random():
            return array
        box = self.region(*array.shape[1:])
        if box is None:
            return array
        top, left, h, w = box
        out = array if self.inplace else array.copy()
        if self.value == "random":
            patch = np.random.normal(loc=0.0, scale=1.0, size=(array.shape[0], h, w))
        else:
            patch = np.asarray(self.value, np.float64).reshape(-1, 1, 1)
        out[:, top:top + h, left:left + w] = patch
        return out


class CutOut(_RandomOp):
    """Zero `num_patches` random `length` x `length` squares of an HWC (or, with
    `is_hwc=False`, CHW) image. As in MindSpore's kernel, each square's top-left corner is
    drawn uniformly in [-length, H] x [-length, W] and the square is clipped to the image, so
    squares near the edges are partly (or wholly) outside it."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        type_check(length, (int,), "length")
        type_check(num_patches, (int,), "num_patches")
        check_value(length, (1, FLOAT_MAX_INTEGER))
        check_value(num_patches, (1, FLOAT_MAX_INTEGER))
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc
        self.random = False

    def __call__(self, image):
        array = np.array(image, copy=True)
        layout = "<H,W,C>" if self.is_hwc else "<C,H,W>"
        if array.ndim <= (2 if self.is_hwc else 0):
            raise RuntimeError("CutOut: shape is invalid.")
        if array.ndim != 3:
            raise RuntimeError(f"CutOut: image shape is not {layout}, but got rank: {array.ndim}")
        height, width = array.shape[:2] if self.is_hwc else array.shape[1:]
        box = self.length
        if box > height or box > width:
            raise RuntimeError(f"CutOut: box size is too large for image erase, got box height: "
                               f"{box}box weight: {box}, and image height: {height}, image "
                               f"width: {width}")
        for _ in range(self.num_patches):
            top = int(self.rng.integers(0, height + box + 1)) - box
            left = int(self.rng.integers(0, width + box + 1)) - box
            rows = slice(max(top, 0), min(top + box, height))
            cols = slice(max(left, 0), min(left + box, width))
            if self.is_hwc:
                array[rows, cols] = 0
            else:
                array[:, rows, cols] = 0
        return _back(array, _is_pil(image))


class RandomSelectSubpolicy(_RandomOp):
    """AutoAugment's policy: pick one sub-policy (a list of (transform, prob) pairs) at
    random, then apply each of its transforms, in order, with its probability."""

    def __init__(self, policy):
        if not isinstance(policy, list) or not policy:
            raise TypeError(f"RandomSelectSubpolicy: `policy` must be a non-empty list of "
                            f"sub-policies, got {policy!r}")
        for sub in policy:
            if not isinstance(sub, list) or not sub or not all(
                    isinstance(pair, tuple) and len(pair) == 2 and callable(pair[0]) and
                    isinstance(pair[1], numbers.Real) and 0 <= pair[1] <= 1 for pair in sub):
                raise TypeError(f"RandomSelectSubpolicy: each sub-policy must be a non-empty "
                                f"list of (transform, prob in [0, 1]) tuples, got {sub!r}")
        self.policy = policy

    def __call__(self, *inputs):
        values = inputs
        for transform, prob in self.policy[int(self.rng.integers(len(self.policy)))]:
            if self.rng.random() < prob:
                values = transform(*values)
                values = values if isinstance(values, tuple) else (values,)
        return values[0] if len(values) == 1 else values


class UniformAugment(CppRandomOperation):
    """Pick `num_ops` of `transforms` (keeping their order) and apply each picked one, in
    turn, with probability 1/2. On arrays it draws as MindSpore's C++ kernel does (std::sample
    and std::uniform_int_distribution over std::mt19937 from the dataset seed); on a Pillow
    image as its Python implementation does (numpy.random.choice, then a random.random()
    below another random.random() to apply each), both seeded by dataset.config.set_seed."""

    def __init__(self, transforms, num_ops=2):
        type_check(num_ops, (int,), "num_ops")
        if num_ops <= 0:
            raise ValueError("Input num_ops must be greater than 0.")
        if num_ops > len(transforms):
            raise ValueError("num_ops is greater than transforms list size.")
        self.transforms = _transform_list(transforms, "UniformAugment", (list, tuple))
        self.num_ops = num_ops

    def __call__(self, *inputs):
        if len(inputs) == 1 and _is_pil(inputs[0]):
            image = inputs[0]
            for index in np.random.choice(len(self.transforms), size=self.num_ops,
                                          replace=False):
                chance = random.random()
                if random.random() < chance:
                    image = self.transforms[index](image.copy())
            return image
        words = self.words
        values = inputs
        for transform in _std_shuffle.sample(self.transforms, self.num_ops, words):
            if _std_shuffle.uniform_int(words, 0, 1):
                continue
            values = transform(*values)
            values = values if isinstance(values, tuple) else (values,)
        return values[0] if len(values) == 1 else values
