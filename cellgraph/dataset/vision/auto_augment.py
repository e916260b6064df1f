"""Learned and random augmentation policies of mindspore.dataset.vision: AutoAugment (with
AutoAugmentPolicy), RandAugment and TrivialAugmentWide, on RGB uint8 <H, W, 3> images.

All three pick operations from one table (`apply_augment`: shears, translations, a turn,
colour, contrast, brightness and sharpness changes, posterize, solarize, autocontrast, equalize,
invert, identity), each with a magnitude from a table of bins built as MindSpore's C++ kernels
build theirs (float32 linspace; posterize's bins rounded half to even). Their draws are
MindSpore's: `std::mt19937` from the dataset seed through libstdc++'s distributions. The
operation tables of RandAugment and TrivialAugmentWide are `std::map`s, so the operations are
drawn from their names in sorted order.
"""
from __future__ import annotations

import math
from enum import Enum

import numpy as np

from cellgraph.dataset import _std_shuffle as _std
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_fill_value,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation

from . import color
from .cv_color import cv_sharpness
from .cv_warp import CvInter, affine_matrix, rotation_matrix, warp_affine
from .transforms import Inter

__all__ = ["AutoAugment", "AutoAugmentPolicy", "RandAugment", "TrivialAugmentWide"]

_F = np.float32


class AutoAugmentPolicy(str, Enum):
    """The AutoAugment policies learned on ImageNet, CIFAR-10 and SVHN."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


# each policy: 25 sub-policies of two (operation, probability, magnitude bin or None)
_POLICIES = {
    AutoAugmentPolicy.IMAGENET: [
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None))],
    AutoAugmentPolicy.CIFAR10: [
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None))],
    AutoAugmentPolicy.SVHN: [
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None))],
}


# -- magnitude bins -------------------------------------------------------------------------
def _round_half_even(value: np.float32) -> np.float32:
    """MindSpore's Round: half away from zero, except that a fraction within float epsilon
    of one half goes to the even neighbour."""
    nearest = _F(math.copysign(math.floor(abs(float(value)) + 0.5), float(value)))
    low, high = _F(math.floor(value)), _F(math.ceil(value))
    if abs(float(_F(_F(value - low) - _F(0.5)))) <= float(np.finfo(np.float32).eps):
        if float(nearest) % 2 == 0:
            return nearest
        return low if value > 0 else high
    return nearest


def linspace(start, end, count: int, scale=1.0, offset=0.0, rounded=False) -> list:
    """MindSpore's Linspace, in float32: (start + i * step) * scale + offset."""
    start, end, scale, offset = _F(start), _F(end), _F(scale), _F(offset)
    step = _F(0) if count == 1 else _F((end - start) / _F(count - 1))
    values = []
    for i in range(count):
        value = _F(_F(_F(start + _F(i) * step) * scale) + offset)
        values.append(_round_half_even(value) if rounded else value)
    return values


def _shared_bins(bins: int, top: tuple, translate_x, translate_y, posterize_low: float,
                 solarize_top: float) -> dict:
    """name -> (magnitude bins, signed) for the operations all three tables hold; `top` is
    the largest (shear, turn, colour) magnitude."""
    posterize = linspace(0.0, _F(bins) - _F(1), bins, _F(-posterize_low) / (_F(bins) - _F(1)),
                         8.0, True)
    return {
        "ShearX": (linspace(0.0, top[0], bins), True),
        "ShearY": (linspace(0.0, top[0], bins), True),
        "TranslateX": (linspace(0.0, translate_x, bins), True),
        "TranslateY": (linspace(0.0, translate_y, bins), True),
        "Rotate": (linspace(0.0, top[1], bins), True),
        "Brightness": (linspace(0.0, top[2], bins), True),
        "Color": (linspace(0.0, top[2], bins), True),
        "Contrast": (linspace(0.0, top[2], bins), True),
        "Sharpness": (linspace(0.0, top[2], bins), True),
        "Posterize": (posterize, False),
        "Solarize": (linspace(solarize_top, 0.0, bins), False),
        "AutoContrast": ([_F(0)], False),
        "Equalize": ([_F(0)], False),
    }


def _translate_top(size: int) -> np.float32:
    return _F(_F(150.0) / _F(331.0) * _F(size))


# -- the operations -------------------------------------------------------------------------
_CV_INTER = {Inter.NEAREST: CvInter.NEAREST, Inter.BICUBIC: CvInter.CUBIC}  # others: linear


def _affine(image, translate, shear, inter, fill):
    height, width = image.shape[:2]
    shift = (_F(translate[0]) * _F(width), _F(translate[1]) * _F(height))
    matrix = affine_matrix(height, width, 0.0, shift, 1.0, shear)
    return warp_affine(image, matrix, image.shape[:2], inter, fill)


def _autocontrast(image: np.ndarray) -> np.ndarray:
    """MindSpore's AutoContrast with no cutoff: each channel's used levels stretched to
    0..255 (float32 scale, truncated)."""
    out = np.empty_like(image)
    levels = np.arange(256, dtype=np.float32)
    for c in range(image.shape[2]):
        used = np.flatnonzero(np.bincount(image[..., c].ravel(), minlength=256))
        low, high = int(used[0]), int(used[-1])
        if high <= low:
            out[..., c] = image[..., c]
            continue
        scale = _F(255) / _F(high - low)
        offset = _F(-low) * scale
        table = np.clip((levels * scale + offset).astype(np.int64), 0, 255).astype(np.uint8)
        out[..., c] = table[image[..., c]]
    return out


# the operations that take images other than uint8 here (the warps); MindSpore's others
# mostly fail on them inside OpenCV
_ANY_DTYPE = frozenset(["ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Identity"])


def apply_augment(image: np.ndarray, name: str, magnitude, inter: Inter, fill) -> np.ndarray:
    """MindSpore's ApplyAugment: operation `name` with `magnitude` on an RGB image (uint8;
    the warps also take other dtypes)."""
    if image.dtype != np.uint8 and name not in _ANY_DTYPE:
        raise RuntimeError(f"{name}: the image must be uint8 for this operation, got "
                           f"{image.dtype}")
    cv_inter = _CV_INTER.get(inter, CvInter.LINEAR)
    magnitude = _F(magnitude)
    if name in ("ShearX", "ShearY"):
        shear = _F(float(_F(magnitude * _F(180))) / math.pi)
        return _affine(image, (0, 0), (shear, 0) if name == "ShearX" else (0, shear), cv_inter,
                       fill)
    if name == "TranslateX":
        return _affine(image, (magnitude, 0), (0, 0), cv_inter, fill)
    if name == "TranslateY":
        return _affine(image, (0, magnitude), (0, 0), cv_inter, fill)
    if name == "Rotate":
        height, width = image.shape[:2]
        center = (_F(width - 1) * _F(0.5), _F(height - 1) * _F(0.5))
        # MindSpore hands the fill to its Rotate as (R, B, G), which fills channels (G, B, R)
        turned_fill = (fill[1], fill[2], fill[0])
        return warp_affine(image, rotation_matrix(center, float(magnitude)), image.shape[:2],
                           cv_inter, turned_fill)
    if name == "Brightness":
        return color.adjust_brightness(image, float(_F(1) + magnitude))
    if name == "Color":
        return color.AdjustSaturation(float(_F(1) + magnitude)).adjust(image)
    if name == "Contrast":
        return color.AdjustContrast(float(_F(1) + magnitude)).adjust(image)
    if name == "Sharpness":
        return cv_sharpness(image, _F(1) + magnitude)
    if name == "Posterize":
        mask = (0xFF << (8 - int(magnitude))) & 0xFF
        return image & np.uint8(mask)
    if name == "Solarize":
        return np.where(image >= magnitude, 255 - image, image).astype(np.uint8)
    if name == "AutoContrast":
        return _autocontrast(image)
    if name == "Equalize":
        return color.equalize(image)
    if name == "Invert":
        return (255 - image).astype(np.uint8)
    if name == "Identity":
        return image
    raise RuntimeError(f"ApplyAugment: the provided operator {name} is not supported.")


# -- checks -----------------------------------------------------------------------------------
def _check_bins(num_magnitude_bins) -> None:
    type_check(num_magnitude_bins, (int,), "num_magnitude_bins")
    check_value(num_magnitude_bins, (2, FLOAT_MAX_INTEGER), "num_magnitude_bins")


def _rgb_u8(image, op: str) -> np.ndarray:
    """MindSpore's ValidateImage(uint8, rank 3, 3 channels)."""
    array = np.asarray(image)
    if array.dtype != np.uint8:
        raise RuntimeError(f"{op}: the data type of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in type of (uint8). But got type "
                           f"{array.dtype}.")
    if array.ndim != 3:
        hint = " You may need to perform Decode first." if array.ndim == 1 else ""
        raise RuntimeError(f"{op}: the dimension of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in dimension of (3), in shape of <H, "
                           f"W, C>. But got dimension {array.ndim}.{hint}")
    if array.shape[2] != 3:
        raise RuntimeError(f"{op}: the channel of image tensor does not match the requirement of "
                           f"operator. Expecting tensor in channel of (3). But got channel "
                           f"{array.shape[2]}.")
    return array


class _Augment(CppRandomOperation):
    def _keep_fill(self, fill_value) -> tuple:
        fill = check_fill_value(fill_value)
        if "_arguments" in self.__dict__:  # MindSpore's JSON holds the three channels
            self.__dict__["_arguments"]["fill_value"] = fill
        return fill

    def _rand_int(self, high: int) -> int:
        """MindSpore's RandInt(0, high): uniform_int_distribution(0, high) % high."""
        return _std.uniform_int(self.words, 0, high) % high


class AutoAugment(_Augment):
    """AutoAugment: pick one of the policy's 25 sub-policies, then apply each of its two
    operations with its probability (a random sign for signed magnitudes)."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        type_check(policy, (AutoAugmentPolicy,), "policy")
        type_check(interpolation, (Inter,), "interpolation")
        self.fill_value = self._keep_fill(fill_value)
        self.policy, self.interpolation = policy, interpolation

    def __call__(self, image):
        array = np.asarray(image)
        if array.ndim != 3:
            raise RuntimeError(f"AutoAugment: input tensor is not in shape of <H,W,C>, but got "
                               f"rank: {array.ndim}")
        if array.shape[2] != 3:
            raise RuntimeError(f"AutoAugment: channel of input image should be 3, but got: "
                               f"{array.shape[2]}")
        policy = _POLICIES[self.policy]
        words = self.words
        chosen = _std.uniform_int(words, 0, len(policy) - 1)
        probs = [_std.uniform_float(words, 0.0, 1.0) for _ in range(2)]
        signs = [_std.uniform_int(words, 0, 1) for _ in range(2)]
        height, width = array.shape[:2]
        space = _shared_bins(10, (0.3, 30.0, 0.9), _translate_top(width),
                             _translate_top(height), 4.0, 256.0)
        space["Invert"] = ([_F(0)], False)
        for (name, prob, bin_index), drawn, sign in zip(policy[chosen], probs, signs):
            if drawn > _F(prob):
                continue
            bins, signed = space[name]
            magnitude = bins[bin_index] if len(bins) != 1 and bin_index is not None else _F(0)
            if signed and sign == 0:
                magnitude = -magnitude
            array = apply_augment(array, name, magnitude, self.interpolation, self.fill_value)
        return array


class RandAugment(_Augment):
    """RandAugment: `num_ops` operations drawn at random, each with the fixed bin `magnitude`
    of `num_magnitude_bins` (a random sign for signed ones)."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST,
                 fill_value=0):
        type_check(num_ops, (int,), "num_ops")
        check_value(num_ops, (0, FLOAT_MAX_INTEGER), "num_ops")
        _check_bins(num_magnitude_bins)
        type_check(magnitude, (int,), "magnitude")
        check_value(magnitude, (0, num_magnitude_bins), "magnitude", right_open_interval=True)
        type_check(interpolation, (Inter,), "interpolation")
        self.fill_value = self._keep_fill(fill_value)
        self.num_ops, self.magnitude = num_ops, magnitude
        self.num_magnitude_bins, self.interpolation = num_magnitude_bins, interpolation

    def __call__(self, image):
        array = _rgb_u8(image, "RandAugment")
        height, width = array.shape[:2]
        space = _shared_bins(self.num_magnitude_bins, (0.3, 30.0, 0.9), _translate_top(width),
                             _translate_top(height), 4.0, 255.0)
        space["Identity"] = ([_F(0)], False)
        names = sorted(space)
        for _ in range(self.num_ops):
            name = names[self._rand_int(len(names))]
            bins, signed = space[name]
            magnitude = bins[self.magnitude] if len(bins) != 1 else _F(0)
            if self._rand_int(2) and signed:
                magnitude = -magnitude
            array = apply_augment(array, name, magnitude, self.interpolation, self.fill_value)
        return array


class TrivialAugmentWide(_Augment):
    """TrivialAugmentWide: one operation drawn at random, with a magnitude drawn from its
    `num_magnitude_bins` bins (a random sign for signed ones)."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        _check_bins(num_magnitude_bins)
        type_check(interpolation, (Inter,), "interpolation")
        self.fill_value = self._keep_fill(fill_value)
        self.num_magnitude_bins, self.interpolation = num_magnitude_bins, interpolation

    def __call__(self, image):
        array = _rgb_u8(image, "TrivialAugmentWide")
        space = _shared_bins(self.num_magnitude_bins, (0.99, 135.0, 0.99), 32.0, 32.0, 6.0,
                             255.0)
        space["Identity"] = ([_F(0)], False)
        names = sorted(space)
        name = names[self._rand_int(len(names))]
        bins, signed = space[name]
        magnitude = bins[self._rand_int(len(bins))] if len(bins) != 1 else _F(0)
        if self._rand_int(2) and signed:
            magnitude = -magnitude
        return apply_augment(array, name, magnitude, self.interpolation, self.fill_value)
