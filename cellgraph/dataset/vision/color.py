"""Colour transforms of mindspore.dataset.vision on RGB HWC images (NumPy arrays or Pillow
images, given back as they came): RandomColorAdjust, RandomColor, Invert, AutoContrast,
Equalize, RandomPosterize, Grayscale, RandomSolarize, RandomSharpness. On arrays the C++ ones
compute as MindSpore's kernels (OpenCV's arithmetic, in cv_color); other adjustments blend with
a reference image: out = reference + factor * (image - reference), clipped to the dtype's
range."""
from __future__ import annotations

import numbers
import random

import numpy as np

from cellgraph.dataset import _std_shuffle as std
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_uint8,
    check_value,
    type_check,
    type_check_list,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation

from .cv_color import (
    cv_add_weighted,
    cv_hsv_full_to_rgb,
    cv_rgb_to_gray,
    cv_rgb_to_hsv_full,
    cv_sharpness,
)
from .transforms import TensorOperation, _is_pil, _pil, _RandomOp, check_prob

__all__ = [
    "AdjustBrightness",
    "AdjustContrast",
    "AdjustHue",
    "AdjustSaturation",
    "AdjustSharpness",
    "AutoContrast",
    "Equalize",
    "Grayscale",
    "Invert",
    "RandomAutoContrast",
    "RandomColor",
    "RandomColorAdjust",
    "RandomEqualize",
    "RandomPosterize",
    "RandomSharpness",
    "RandomSolarize",
]

_LUMA = np.array([0.299, 0.587, 0.114], np.float32)  # ITU-R 601-2, Pillow's "L" conversion


def _rgb(image, op: str) -> tuple[np.ndarray, bool]:
    was_pil = _is_pil(image)
    array = np.asarray(image.convert("RGB") if was_pil else image)
    if array.ndim == 3 and array.shape[2] != 3:  # MindSpore's words, which its tests match
        raise RuntimeError(f"{op}: the channel of image tensor does not match the requirement "
                           f"of operator. Expecting tensor in channel of (3). But got channel "
                           f"{array.shape[2]}.")
    if array.ndim != 3:
        raise RuntimeError(f"{op}: expected an RGB image of shape <H, W, 3>, got shape "
                           f"{array.shape}")
    return array, was_pil


def _back(array: np.ndarray, was_pil: bool):
    return _pil().fromarray(array) if was_pil else array


def _blend(image: np.ndarray, reference, factor: float) -> np.ndarray:
    out = reference + np.float32(factor) * (image.astype(np.float32) - reference)
    if image.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(image.dtype)


def gray(image: np.ndarray) -> np.ndarray:
    return (image.astype(np.float32) @ _LUMA)[..., None]


def adjust_brightness(image, factor):
    return _blend(image, np.float32(0), factor)


def _cv_blend(image: np.ndarray, grey: np.ndarray, factor: float) -> np.ndarray:
    """MindSpore's C++ blend `grey * (1.0 - factor) + image * factor` of uint8 images, which
    OpenCV evaluates as addWeighted (float factor, the other in double)."""
    factor = np.float32(factor)
    return cv_add_weighted(grey, 1.0 - np.float64(factor), image, factor)


def adjust_contrast(image, factor):
    """Blend with the mean grey level; on uint8 as MindSpore's kernel: OpenCV's grey image,
    its mean rounded to a uint8 level, then OpenCV's blend."""
    if image.dtype == np.uint8:
        level = np.clip(np.rint(np.float64(cv_rgb_to_gray(image).mean())), 0, 255)
        return _cv_blend(image, np.full(image.shape, level, np.uint8), factor)
    return _blend(image, np.float32(gray(image).mean()), factor)


def adjust_saturation(image, factor):
    """Blend with the grey image; on uint8 as MindSpore's kernel (OpenCV's grey and blend)."""
    if image.dtype == np.uint8:
        return _cv_blend(image, np.repeat(cv_rgb_to_gray(image)[..., None], 3, -1), factor)
    return _blend(image, gray(image), factor)


def adjust_hue(image: np.ndarray, shift: float) -> np.ndarray:
    """Rotate the hue by `shift` turns (in [-0.5, 0.5]) through HSV."""
    scale = 255.0 if image.dtype == np.uint8 else 1.0
    rgb = image.astype(np.float64) / scale
    high, low = rgb.max(-1), rgb.min(-1)
    span = high - low
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    safe = np.where(span == 0, 1, span)
    hue = np.select([high == r, high == g], [(g - b) / safe % 6, (b - r) / safe + 2],
                    (r - g) / safe + 4) / 6
    hue = np.where(span == 0, 0, hue)
    hue = (hue + shift) % 1.0
    sat = np.where(high == 0, 0, span / np.where(high == 0, 1, high))
    out = _hsv_to_rgb(hue, sat, high) * scale
    if image.dtype == np.uint8:
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)
    return out.astype(image.dtype)


def _hsv_to_rgb(hue, sat, value):
    sector = np.floor(hue * 6).astype(np.int64) % 6
    frac = hue * 6 - np.floor(hue * 6)
    p, q, t = value * (1 - sat), value * (1 - sat * frac), value * (1 - sat * (1 - frac))
    table = [(value, t, p), (q, value, p), (p, value, t), (p, q, value), (t, p, value),
             (value, p, q)]
    channels = [np.choose(sector, [row[c] for row in table]) for c in range(3)]
    return np.stack(channels, -1)


def _factor_range(value, name: str, center: float = 1, bound=(0, FLOAT_MAX_INTEGER),
                  non_negative: bool = True) -> tuple:
    """RandomColorAdjust's range of a factor, with MindSpore's checks: a number v gives
    [center - v, center + v] (its low end at least 0 for a non-negative factor); a
    (min, max) pair is kept."""
    type_check(value, (numbers.Number, list, tuple), name)
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        value = [center - value, center + value]
        if non_negative:
            value[0] = max(0, value[0])
    elif len(value) != 2:
        raise TypeError(f"If {name} is a sequence, the length must be 2.")
    elif value[0] > value[1]:
        raise ValueError(f"{name} value should be in (min,max) format. Got ({value[0]}, "
                         f"{value[1]}).")
    if not bound[0] <= value[0] <= value[1] <= bound[1]:
        raise ValueError(f"Input is not within the required interval of [{bound[0]}, "
                         f"{bound[1]}].")
    return float(value[0]), float(value[1])


def _positive_degrees(degrees) -> tuple:
    """RandomColor's and RandomSharpness's (min, max) range, with MindSpore's checks."""
    if not isinstance(degrees, (list, tuple)):
        raise TypeError("degrees must be either a tuple or a list.")
    type_check_list(degrees, (int, float), "degrees")
    if len(degrees) != 2:
        raise ValueError("degrees must be a sequence with length 2.")
    for degree in degrees:
        check_value(degree, (0, FLOAT_MAX_INTEGER))
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    return float(degrees[0]), float(degrees[1])


class RandomColorAdjust(_RandomOp, CppRandomOperation):
    """Brightness, contrast and saturation scaled, and hue shifted, by factors drawn uniformly
    from their ranges (each a number v, meaning [1 - v, 1 + v] (hue: [-v, v]), or a pair).
    Arrays draw as MindSpore's C++ op draws: the four adjustments in an order std::shuffle
    draws, then each factor a float uniform draw, over the op's mt19937 (an identity range
    draws no factor); Pillow images from the transform's Python generator, in order."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.ranges = [(adjust_brightness, _factor_range(brightness, "brightness")),
                       (adjust_contrast, _factor_range(contrast, "contrast")),
                       (adjust_saturation, _factor_range(saturation, "saturation")),
                       (cv_adjust_hue, _factor_range(hue, "hue", 0, (-0.5, 0.5), False))]

    def __call__(self, image):
        array, was_pil = _rgb(image, "RandomColorAdjust")
        if was_pil:
            order, draw = self.ranges, lambda low, high: self.rng.uniform(low, high)
        else:
            words = self.words
            order = list(self.ranges)
            std.shuffle(order, words)
            draw = lambda low, high: std.uniform_float(words, low, high)
        for adjust, (low, high) in order:
            identity = 0.0 if adjust is cv_adjust_hue else 1.0
            # MindSpore compares the ends as float32 (CmpFloat)
            if not np.float32(low) == np.float32(high) == np.float32(identity):
                array = adjust(array, draw(low, high))
        return _back(array, was_pil)


class RandomColor(_RandomOp, CppRandomOperation):
    """Saturation scaled by a factor drawn uniformly from `degrees` (min, max). Arrays as
    MindSpore's C++ op: a float uniform draw over the op's mt19937; within 0.00195 of 1 the
    image as it is, of 0 OpenCV's grey image, else cv::addWeighted with it; Pillow images by
    Python's `random`, as its Python implementation."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _positive_degrees(degrees)

    def __call__(self, image):
        if _is_pil(image):
            array, _ = _rgb(image, "RandomColor")
            from PIL import ImageEnhance

            low, high = self.degrees  # MindSpore's Python implementation's draw
            factor = (high - low) * random.random() + low
            return ImageEnhance.Color(image.convert("RGB")).enhance(factor)
        array = np.asarray(image)
        if array.ndim != 3 or array.shape[2] != 3:
            raise RuntimeError(f"RandomColor: image shape is not <H,W,C> or channel is not 3, "
                               f"got rank: {array.ndim}, and channel: "
                               f"{array.shape[2] if array.ndim == 3 else array.shape[-1]}")
        factor = std.uniform_float(self.words, *self.degrees)
        eps = 0.00195  # half a level of an 8-bit image
        if abs(float(factor) - 1.0) < eps:
            return array
        grey = np.repeat(cv_rgb_to_gray(array)[..., None], 3, -1)
        if abs(float(factor)) < eps:
            return grey
        return cv_add_weighted(array, factor, grey, np.float32(1) - factor)


class Invert(TensorOperation):
    """255 - pixel, for uint8 RGB images."""

    def __call__(self, image):
        array, was_pil = _rgb(image, "Invert")
        return _back((255 - array.astype(np.int16)).astype(array.dtype), was_pil)


class AutoContrast(TensorOperation):
    """Stretch each channel to the full 0..255 range, after cutting `cutoff` percent of the
    darkest and lightest pixels (Pillow's ImageOps.autocontrast)."""

    def __init__(self, cutoff=0.0, ignore=None):
        type_check(cutoff, (int, float), "cutoff")  # MindSpore's checks and words
        check_value(cutoff, [0, 50], "cutoff", right_open_interval=True)
        if ignore is not None:
            type_check(ignore, (list, tuple, int), "ignore")
        if isinstance(ignore, int):
            check_value(ignore, [0, 255], "ignore")
        if isinstance(ignore, (list, tuple)):
            for item in ignore:
                type_check(item, (int,), "item")
                check_value(item, [0, 255], "ignore")
        self.cutoff, self.ignore = cutoff, ignore

    def __call__(self, image):
        from PIL import ImageOps

        array, was_pil = _rgb(image, "AutoContrast")
        out = ImageOps.autocontrast(_pil().fromarray(array), self.cutoff, self.ignore)
        return out if was_pil else np.asarray(out)


def equalize_channel(channel: np.ndarray) -> np.ndarray:
    """OpenCV's equalizeHist (MindSpore's kernel) of one uint8 channel: the cumulative
    histogram past the first used level, scaled to 0..255 and rounded half to even."""
    hist = np.bincount(channel.ravel(), minlength=256)
    first = int(np.flatnonzero(hist)[0])
    total = channel.size
    if hist[first] == total:
        return np.full_like(channel, first)
    scale = np.float32(255) / np.float32(total - hist[first])
    lut = np.zeros(256, np.uint8)
    cumulative = np.cumsum(hist[first + 1:]).astype(np.float32)  # int * float in float
    lut[first + 1:] = np.clip(np.rint(cumulative * scale), 0, 255).astype(np.uint8)
    return lut[channel]


def equalize(array: np.ndarray) -> np.ndarray:
    """Each channel of a uint8 <H, W> or <H, W, C> image equalized on its own."""
    if array.ndim == 2:
        return equalize_channel(array)
    return np.stack([equalize_channel(array[:, :, c]) for c in range(array.shape[2])], axis=2)


class Equalize(TensorOperation):
    """Equalise each channel's histogram, as MindSpore does (OpenCV's equalizeHist)."""

    def __call__(self, image):
        if _is_pil(image):
            array, was_pil = _rgb(image, "Equalize")
            return _back(equalize(array), was_pil)
        array = np.asarray(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"Equalize: image rank should be 2 or 3,  but got: {array.ndim}")
        if array.ndim == 3 and array.shape[2] not in (1, 3):
            raise RuntimeError(f"Equalize: channel of input image should be 1 or 3, but got: "
                               f"{array.shape[2]}")
        return equalize(array)


class RandomEqualize(_RandomOp):
    """Equalize the image (as `Equalize`) with probability `prob`; 1-channel (or <H, W>) and
    3-channel uint8 images."""

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def __call__(self, image):
        if not _is_pil(image):
            array = np.asarray(image)
            if array.ndim not in (2, 3):
                hint = ". You may need to perform Decode first." if array.ndim < 2 else ""
                raise RuntimeError(f"RandomEqualize: input tensor is not in shape of <H,W> or "
                                   f"<H,W,C>, but got rank: {array.ndim}{hint}")
            if array.ndim == 3 and array.shape[2] not in (1, 3):
                raise RuntimeError(f"RandomEqualize: input image is not in channel of 1 or 3, "
                                   f"but got: {array.shape[2]}")
            if array.dtype != np.uint8:
                raise RuntimeError(f"RandomEqualize: input image is not in type of uint8, but "
                                   f"got: {array.dtype}")
        if self.rng.random() >= self.prob:
            return image
        if _is_pil(image):
            return Equalize()(image)
        return equalize(np.asarray(image))


class RandomAutoContrast(_RandomOp):
    """AutoContrast (of `cutoff` and `ignore`) with probability `prob`; the image is left as it
    is otherwise (and, as in MindSpore, not checked)."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        self._auto = AutoContrast(cutoff, ignore)  # MindSpore's checks of cutoff and ignore
        type_check(prob, (float, int), "prob")
        check_value(prob, [0.0, 1.0], "prob")
        self.cutoff, self.prob = cutoff, prob
        self.ignore = [] if ignore is None else [ignore] if isinstance(ignore, int) else ignore

    def __call__(self, image):
        if self.rng.random() >= self.prob:
            return image
        return self._auto(image)


class RandomPosterize(CppRandomOperation):
    """Keep only the top `bits` bits of each channel, `bits` drawn from [min, max] in 1..8 as
    MindSpore's C++ op draws it (no draw where min == max)."""

    def __init__(self, bits=(8, 8)):
        type_check(bits, (list, tuple, int), "bits")  # MindSpore's checks and words
        if isinstance(bits, int):
            check_value(bits, [1, 8])
        else:
            if len(bits) != 2:
                raise TypeError("Size of bits should be a single integer or a list/tuple (min, "
                                "max) of length 2.")
            for value in bits:
                check_uint8(value, "bits")
            if not 1 <= bits[0] <= bits[1] <= 8:
                raise ValueError("Input is not within the required interval of [1, 8].")
        self.bits = bits

    def __call__(self, image):
        array, was_pil = _rgb(image, "RandomPosterize")
        low, high = (self.bits, self.bits) if isinstance(self.bits, int) else self.bits
        bits = low if low == high else std.uniform_int(self.words, low, high)
        mask = np.uint8((0xFF << (8 - bits)) & 0xFF)
        return _back(array & mask, was_pil)


class Grayscale(TensorOperation):
    """RGB -> luma (ITU-R 601-2, as Pillow's "L"), with 1 or 3 equal output channels."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: `num_output_channels` must be 1 or 3, got "
                             f"{num_output_channels!r}")
        self.channels = num_output_channels

    def __call__(self, image):
        array, was_pil = _rgb(image, "Grayscale")
        if was_pil:  # MindSpore's: Pillow's own "L" conversion (its fixed-point rounding)
            luma = np.asarray(image.convert("RGB").convert("L"))[..., None]
        else:
            luma = np.clip(np.rint(gray(array)), 0, 255).astype(array.dtype)
        out = np.repeat(luma, self.channels, axis=2)
        if was_pil:
            return _pil().fromarray(out[..., 0] if self.channels == 1 else out)
        return out


class RandomSolarize(CppRandomOperation):
    """Invert (255 - pixel) the pixels in [a, b], where a and b are two draws from
    `threshold` (min, max) in 0..255 taken in order, as MindSpore's C++ op draws them."""

    def __init__(self, threshold=(0, 255)):
        type_check(threshold, (tuple,), "threshold")  # MindSpore's checks and words
        type_check_list(threshold, (int,), "threshold")
        if len(threshold) != 2:
            raise ValueError("threshold must be a sequence of two numbers.")
        for element in threshold:
            check_value(element, (0, 255))
        if threshold[1] < threshold[0]:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = tuple(threshold)

    def __call__(self, image):
        array, was_pil = _rgb(image, "RandomSolarize")
        low, high = (std.uniform_int(self.words, *self.threshold) for _ in range(2))
        low, high = min(low, high), max(low, high)
        inside = (array >= low) & (array <= high)
        return _back(np.where(inside, 255 - array, array).astype(array.dtype), was_pil)


class RandomSharpness(_RandomOp, CppRandomOperation):
    """Sharpness scaled by a factor drawn from `degrees`: a blend with the image smoothed by a
    3x3 kernel, borders kept. Arrays as MindSpore's C++ op: the factor mid + u * half-range
    from a float uniform draw u in [-1, 1) over the op's mt19937, and OpenCV's filter and
    blend; Pillow images by ImageEnhance.Sharpness and Python's `random`, as its Python
    implementation."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _positive_degrees(degrees)

    def __call__(self, image):
        if not _is_pil(image):
            array = np.asarray(image)
            if array.ndim not in (2, 3):
                raise RuntimeError(f"Sharpness: shape of input is not <H,W,C> or <H,W>, but "
                                   f"got rank: {array.ndim}")
            f32 = np.float32
            start, end = f32(self.degrees[0]), f32(self.degrees[1])
            draw = std.uniform_float(self.words, -1.0, 1.0)
            return cv_sharpness(array, (end + start) / f32(2) + draw * ((end - start) / f32(2)))
        from PIL import ImageEnhance

        array, _ = _rgb(image, "RandomSharpness")
        low, high = self.degrees  # MindSpore's Python implementation's draw
        factor = (high - low) * random.random() + low
        return ImageEnhance.Sharpness(_pil().fromarray(array)).enhance(factor)


class _Adjust(TensorOperation):
    """A colour adjustment by one fixed factor, checked as MindSpore checks it."""

    _name = ""
    _range = (0, FLOAT_MAX_INTEGER)
    _names_range = True  # MindSpore's range error for saturation and sharpness names nothing

    def __init__(self, factor):
        type_check(factor, (float, int), self._name)
        check_value(factor, self._range, self._name if self._names_range else "")
        self.factor = factor

    def adjust(self, array):
        raise NotImplementedError

    def __call__(self, image):
        array, was_pil = _rgb(image, type(self).__name__)
        return _back(self.adjust(array), was_pil)


class AdjustBrightness(_Adjust):
    """Brightness scaled by `brightness_factor` (0 gives black, 1 the image)."""

    _name = "brightness_factor"

    def __init__(self, brightness_factor):
        super().__init__(brightness_factor)

    def adjust(self, array):
        return adjust_brightness(array, self.factor)


class AdjustContrast(_Adjust):
    """Contrast scaled by `contrast_factor`: a blend with the image's mean grey."""

    _name = "contrast_factor"

    def __init__(self, contrast_factor):
        super().__init__(contrast_factor)

    def adjust(self, array):
        return adjust_contrast(array, self.factor)


class AdjustSaturation(_Adjust):
    """Saturation scaled by `saturation_factor`: a blend with the image's grey version."""

    _name = "saturation_factor"
    _names_range = False

    def __init__(self, saturation_factor):
        super().__init__(saturation_factor)

    def adjust(self, array):
        return adjust_saturation(array, self.factor)


class AdjustHue(_Adjust):
    """The hue turned by `hue_factor` turns, in [-0.5, 0.5]: for uint8 images through OpenCV's
    full-range 8-bit HSV, as MindSpore's kernel."""

    _name = "hue_factor"
    _range = (-0.5, 0.5)

    def __init__(self, hue_factor):
        super().__init__(hue_factor)

    def adjust(self, array):
        return cv_adjust_hue(array, self.factor)


def cv_adjust_hue(array: np.ndarray, shift: float) -> np.ndarray:
    """MindSpore's C++ hue kernel: for uint8 images the hue byte of OpenCV's full-range HSV
    turned by int(shift * 255), wrapping around; other dtypes through float HSV."""
    if array.dtype != np.uint8:
        return adjust_hue(array, shift)
    hsv = cv_rgb_to_hsv_full(array)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int64) + int(shift * 255)) % 256).astype(np.uint8)
    return cv_hsv_full_to_rgb(hsv)


class AdjustSharpness(_Adjust):
    """Sharpness scaled by `sharpness_factor`: a blend with the image smoothed by a 3x3
    kernel (borders kept), as MindSpore's C++ kernel; 0 blurs, 1 is the image, 2 sharpens."""

    _name = "sharpness_factor"
    _names_range = False

    def __init__(self, sharpness_factor):
        super().__init__(sharpness_factor)

    def adjust(self, array):
        return cv_sharpness(array, self.factor)

    def __call__(self, image):
        array = image if isinstance(image, np.ndarray) else None
        if array is not None and (array.ndim == 2 or array.ndim == 3 and array.shape[2] == 1):
            grey = np.ascontiguousarray(array.reshape(array.shape[:2]))  # <H, W> and <H, W, 1>
            return self.adjust(grey).reshape(array.shape)
        return super().__call__(image)
