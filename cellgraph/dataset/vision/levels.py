"""Pixel-level transforms of mindspore.dataset.vision with MindSpore's checks and words:
Posterize and Solarize (fixed levels), RandomInvert and RandomAdjustSharpness (applied with a
probability), RandomGrayscale (Pillow images, as MindSpore's Python transform), ToNumpy and
ToType.
Eagerly a Pillow image comes back as a NumPy array from the C++-backed ones, as in MindSpore."""
from __future__ import annotations

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    check_arguments,
    check_value,
    type_check,
    type_check_list,
)
from cellgraph.dataset.transforms.transforms import TypeCast

from . import color
from .transforms import TensorOperation, _is_pil, _pil, _RandomOp, check_prob

__all__ = ["Posterize", "RandomAdjustSharpness", "RandomGrayscale", "RandomInvert", "Solarize",
           "ToNumpy", "ToType"]


def _array(image) -> np.ndarray:
    return np.asarray(image.convert("RGB") if _is_pil(image) and image.mode not in
                      ("L", "RGB") else image)


class Posterize(TensorOperation):
    """Keep the top `bits` bits of each channel (bits in [0, 8]; 0 gives black), for int8 and
    uint8 images of shape <H, W> or <H, W, C>."""

    def __init__(self, bits):
        type_check(bits, (int,), "bits")
        check_value(bits, [0, 8], "bits")
        self.bits = bits

    def __call__(self, image):
        array = _array(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"Posterize: input image is not in shape of <H,W,C> or <H,W>, "
                               f"but got rank: {array.ndim}")
        if array.dtype not in (np.uint8, np.int8):
            raise RuntimeError(f"Posterize: data type of input image should be int8 or uint8, "
                               f"but got {array.dtype}")
        mask = (0xFF << (8 - self.bits)) & 0xFF
        return (array.view(np.uint8) & np.uint8(mask)).view(array.dtype)


def _threshold(threshold) -> tuple:
    """(min, max) of Solarize's threshold, checked in MindSpore's order (the type of each
    item, then the count, the range and the order); one number t is [t, 255]."""
    type_check(threshold, (float, int, list, tuple), "threshold")
    pair = (threshold, threshold) if isinstance(threshold, (float, int)) else threshold
    type_check_list(pair, (float, int), "threshold")
    if len(pair) != 2:
        raise TypeError("threshold must be a single number or sequence of two numbers.")
    for index, value in enumerate(pair):
        check_value(value, (0, 255), f"threshold[{index}]")
    if pair[0] > pair[1]:
        raise ValueError("threshold must be in order of (min, max).")
    return (pair[0], 255) if isinstance(threshold, (float, int)) else tuple(pair)


class Solarize(TensorOperation):
    """Invert (255 - pixel) the pixels in [min, max] of `threshold` (one number t means
    [t, 255])."""

    def __init__(self, threshold):
        self.threshold = _threshold(threshold)

    def __call__(self, image):
        array = _array(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"Solarize: the dimension of image tensor does not match the "
                               f"requirement of operator. Expecting tensor in dimension of (2, "
                               f"3), in shape of <H, W> or <H, W, C>. But got dimension "
                               f"{array.ndim}. You may need to perform Decode first.")
        if array.dtype.kind not in "uif":
            raise RuntimeError(f"Solarize: the data type of image tensor does not match the "
                               f"requirement of operator. Expecting tensor in type of (uint8, "
                               f"int, float). But got type {array.dtype}.")
        low, high = self.threshold
        inside = (array >= low) & (array <= high)
        return np.where(inside, 255 - array, array).astype(array.dtype)


class RandomInvert(_RandomOp):
    """Invert (255 - pixel) an RGB image of shape <H, W, 3> with probability `prob`."""

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def __call__(self, image):
        array = _array(image)
        if array.ndim != 3:
            raise RuntimeError(f"RandomInvert: image shape is not <H,W,C>, got rank: "
                               f"{array.ndim}")
        if array.shape[2] != 3:
            raise RuntimeError(f"RandomInvert: image shape is incorrect, expected num of "
                               f"channels is 3, but got:{array.shape[2]}")
        if self.rng.random() >= self.prob:
            return array
        return (255 - array.astype(np.float64 if array.dtype.kind == "f" else np.int64)
                ).astype(array.dtype)


class RandomAdjustSharpness(_RandomOp):
    """AdjustSharpness(degree) with probability `prob`."""

    def __init__(self, degree, prob=0.5):
        type_check(degree, (float, int), "degree")
        check_value(degree, (0, 16777216), "degree")
        self.degree, self.prob = degree, check_prob(prob)

    def __call__(self, image):
        array = _array(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"RandomAdjustSharpness: image shape is not <H,W,C> or <H,W>, "
                               f"got rank: {array.ndim}")
        if self.rng.random() >= self.prob:
            return array
        return color.AdjustSharpness(self.degree).adjust(array)


class RandomGrayscale(_RandomOp):
    """A Pillow image as greyscale with probability `prob`: an RGB image stays three
    (equal) channels, any other mode becomes one channel ("L")."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, prob=0.1):
        self.prob = check_prob(prob)

    def __call__(self, img):
        mode = img.mode  # a Pillow image, as MindSpore's Python transform takes
        if self.rng.random() >= self.prob:
            return img
        gray = img.convert("L")
        if mode != "RGB":
            return gray
        channel = np.asarray(gray)
        return _pil().fromarray(np.dstack([channel] * 3), "RGB")


class ToNumpy(TensorOperation):
    """A Pillow image (or an array) as a new NumPy array."""

    def __call__(self, img):
        return np.array(img)


class ToType(TypeCast):
    """An image (or any array) cast to `data_type`: a MindSpore dtype or a NumPy one."""

    @check_arguments
    def __init__(self, data_type):
        super().__init__(data_type)
