"""Per-pixel and per-array image transforms of mindspore.dataset.vision: AdjustGamma, Erase,
PadToSize, LinearTransformation, RgbToHsv, HsvToRgb, ConvertColor (with ConvertMode) and
RandomLighting, on NumPy HWC arrays (CHW for the ones MindSpore defines on tensors: RgbToHsv,
HsvToRgb and LinearTransformation)."""
from __future__ import annotations

import numbers
from enum import Enum

import numpy as np

from cellgraph.dataset import _std_shuffle as std
from cellgraph.dataset.core.validator_helpers import (
    check_non_negative_float32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation

from .transforms import Border, TensorOperation, _is_pil, _pil, _RandomOp

__all__ = ["AdjustGamma", "ConvertColor", "ConvertMode", "Erase", "HsvToRgb",
           "LinearTransformation", "PadToSize", "RandomLighting", "RgbToHsv"]


def _array(image):
    return np.asarray(image), _is_pil(image)


def _back(array, was_pil):
    return _pil().fromarray(array) if was_pil else array


class AdjustGamma(TensorOperation):
    """gain * x ** gamma on the image scaled to [0, 1]; uint8 images are scaled back by
    255.999 and truncated (Pillow's and torchvision's lookup table, which MindSpore uses), float
    images are taken as they are."""

    def __init__(self, gamma, gain=1):
        type_check(gamma, (float, int), "gamma")
        check_value(gamma, (0, float("inf")), "gamma")
        type_check(gain, (float, int), "gain")
        self.gamma, self.gain = gamma, gain

    def __call__(self, image):
        array, was_pil = _array(image)
        if array.dtype == np.uint8:
            scaled = (255 + 1 - 1e-3) * self.gain * (array.astype(np.float64) / 255) ** self.gamma
            return _back(np.clip(np.floor(scaled), 0, 255).astype(np.uint8), was_pil)
        return (self.gain * array.astype(np.float64) ** self.gamma).astype(array.dtype)


class Erase(TensorOperation):
    """The height x width area at (top, left) set to `value` (one number, or one per
    channel)."""

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        for name, v in (("top", top), ("left", left), ("height", height), ("width", width)):
            type_check(v, (int,), name)
            check_value(v, (0 if name in ("top", "left") else 1, 2 ** 31 - 1), name)
        type_check(value, (float, int, tuple), "value")
        type_check(inplace, (bool,), "inplace")
        self.top, self.left, self.height, self.width = top, left, height, width
        self.value, self.inplace = value, inplace

    def __call__(self, image):
        array, was_pil = _array(image)
        out = array if self.inplace and not was_pil and array.flags.writeable else array.copy()
        area = out[self.top:self.top + self.height, self.left:self.left + self.width]
        area[...] = np.asarray(self.value, dtype=np.float64).astype(out.dtype)
        return _back(out, was_pil)


class PadToSize(TensorOperation):
    """The image padded to `size` (height, width), placed at `offset` (top, left; centred when
    None), with `fill_value` or the border mode `padding_mode`."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        size = [size, size] if isinstance(size, numbers.Integral) else list(size)
        type_check(size, (list,), "size")
        if offset is not None:
            offset = [offset, offset] if isinstance(offset, numbers.Integral) else list(offset)
        type_check(padding_mode, (Border,), "padding_mode")
        self.size, self.offset, self.fill_value = size, offset, fill_value
        self.padding_mode = padding_mode

    def __call__(self, image):
        array, was_pil = _array(image)
        height, width = array.shape[:2]
        target_h, target_w = self.size
        if target_h < height or target_w < width:
            raise ValueError(f"PadToSize: the target size {self.size} is smaller than the "
                             f"image's {[height, width]}")
        if self.offset is None:
            top, left = (target_h - height) // 2, (target_w - width) // 2
        else:
            top, left = self.offset
        pads = [(top, target_h - height - top), (left, target_w - width - left)]
        pads += [(0, 0)] * (array.ndim - 2)
        mode = {Border.CONSTANT: "constant", Border.EDGE: "edge", Border.REFLECT: "reflect",
                Border.SYMMETRIC: "symmetric"}[self.padding_mode]
        kwargs = {"constant_values": self.fill_value} if mode == "constant" else {}
        return _back(np.pad(array, pads, mode=mode, **kwargs), was_pil)


class LinearTransformation(TensorOperation):
    """(x - mean_vector) @ transformation_matrix on the flattened CHW image, reshaped back."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, transformation_matrix, mean_vector):
        type_check(transformation_matrix, (np.ndarray,), "transformation_matrix")  # NumPy
        type_check(mean_vector, (np.ndarray,), "mean_vector")  # arrays only, as MindSpore's
        self.matrix, self.mean = transformation_matrix, mean_vector
        if self.matrix.ndim != 2 or self.matrix.shape[0] != self.matrix.shape[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape "
                             f"{self.matrix.shape} instead.")
        if self.mean.shape[0] != self.matrix.shape[0]:
            raise ValueError(f"mean_vector length {self.mean.shape[0]} should match either one "
                             f"dimension of the square transformation_matrix "
                             f"{self.matrix.shape}.")

    def __call__(self, image):
        array = np.asarray(image)
        flat = array.reshape(1, -1)
        if flat.shape[1] != self.matrix.shape[0]:
            raise ValueError(f"LinearTransformation: the image has {flat.shape[1]} elements, "
                             f"the transformation matrix {self.matrix.shape}")
        # NumPy's promotion of the image with the matrix, as MindSpore's (float64 matrices
        # give float64 images)
        return ((flat - self.mean) @ self.matrix).reshape(array.shape)


def _rgb_to_hsv(rgb):
    """HSV of RGB values in [0, 1] along the last axis (colorsys's definitions)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    high, low = rgb.max(-1), rgb.min(-1)
    span = high - low
    safe = np.where(span == 0, 1, span)
    hue = np.where(high == r, (g - b) / safe, np.where(high == g, 2.0 + (b - r) / safe,
                                                        4.0 + (r - g) / safe))
    hue = np.where(span == 0, 0.0, (hue / 6.0) % 1.0)
    saturation = np.where(high == 0, 0.0, span / np.where(high == 0, 1, high))
    return np.stack([hue, saturation, high], -1)


def _hsv_to_rgb(hsv):
    """RGB of HSV values along the last axis (colorsys's definitions)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sector = np.floor(h * 6.0)
    f = h * 6.0 - sector
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    sector = sector.astype(np.int64) % 6
    choices = [np.stack(c, -1) for c in ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v),
                                         (v, p, q))]
    out = np.select([sector[..., None] == i for i in range(6)], choices)
    return np.where((s == 0)[..., None], np.stack([v, v, v], -1), out)


class _ColorSpace(TensorOperation):
    _convert = None

    def __init__(self, is_hwc=False):
        type_check(is_hwc, (bool,), "is_hwc")
        self.is_hwc = is_hwc

    def __call__(self, image):
        array = np.asarray(image)
        channels_last = array if self.is_hwc else np.moveaxis(array, -3, -1)
        out = type(self)._convert(channels_last.astype(np.float64))
        return out if self.is_hwc else np.moveaxis(out, -1, -3)  # float64, as MindSpore's


class RgbToHsv(_ColorSpace):
    """RGB values in [0, 1] (CHW, or HWC with is_hwc) to HSV."""

    python_implementation = True  # as MindSpore runs it

    _convert = staticmethod(_rgb_to_hsv)


class HsvToRgb(_ColorSpace):
    """HSV values (CHW, or HWC with is_hwc) to RGB in [0, 1]."""

    python_implementation = True  # as MindSpore runs it

    _convert = staticmethod(_hsv_to_rgb)


class ConvertMode(Enum):
    """OpenCV's colour conversions that ConvertColor performs (OpenCV's codes; a conversion and
    its mirror image share one, as in OpenCV)."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2  # noqa: PIE796  (OpenCV's alias)
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8  # noqa: PIE796  (OpenCV's alias)
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9  # noqa: PIE796  (OpenCV's alias)
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def _gray(array, order):
    """OpenCV's luma 0.299 R + 0.587 G + 0.114 B, R at `order`'s first index."""
    weights = np.array([0.299, 0.587, 0.114])[list(order)]
    out = array[..., :3].astype(np.float64) @ weights
    return np.rint(out).astype(array.dtype) if array.dtype.kind in "ui" else out.astype(
        array.dtype)


def _with_alpha(array):
    alpha = np.full(array.shape[:2] + (1,), 255 if array.dtype == np.uint8 else 1,
                    array.dtype)
    return np.concatenate([array, alpha], -1)


_CONVERSIONS = {
    0: _with_alpha,
    1: lambda a: a[..., :3],
    2: lambda a: _with_alpha(a[..., ::-1]),
    3: lambda a: a[..., 2::-1],
    4: lambda a: a[..., ::-1],
    5: lambda a: np.concatenate([a[..., 2::-1], a[..., 3:]], -1),
    6: lambda a: _gray(a, (2, 1, 0)),
    7: lambda a: _gray(a, (0, 1, 2)),
    8: lambda a: np.repeat(a.reshape(a.shape[:2] + (1,)), 3, -1),
    9: lambda a: _with_alpha(np.repeat(a.reshape(a.shape[:2] + (1,)), 3, -1)),
    10: lambda a: _gray(a, (2, 1, 0)),
    11: lambda a: _gray(a, (0, 1, 2)),
}


class ConvertColor(TensorOperation):
    """The image converted between colour spaces by `convert_mode` (a ConvertMode)."""

    def __init__(self, convert_mode):
        type_check(convert_mode, (ConvertMode,), "convert_mode")
        self.convert_mode = convert_mode

    def __call__(self, image):
        array, was_pil = _array(image)
        return _back(np.ascontiguousarray(_CONVERSIONS[self.convert_mode.value](array)),
                     was_pil)


# AlexNet's PCA lighting as MindSpore writes it: ImageNet's RGB eigenvectors (columns)
# times its eigenvalues on the 0..255 scale, in double
_LIGHTING = np.array([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                      [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                      [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]])


class RandomLighting(_RandomOp, CppRandomOperation):
    """AlexNet's PCA lighting noise: each pixel plus the eigenvectors times (a_i * eigval_i),
    a drawn from N(0, alpha) once per image. Arrays as MindSpore's C++ op: a_r, a_g, a_b by
    its std::normal_distribution<float> over the op's mt19937, the shift in float32, uint8
    pixels rounded half to even and saturated (MindSpore's kernel reads any other dtype as
    bytes; here such images get the same shift, saturated to an integer dtype's range);
    Pillow images as its Python implementation, from numpy.random."""

    engine_type = std.Mt19937Normal

    def __init__(self, alpha=0.05):
        check_non_negative_float32(alpha, "alpha")  # MindSpore's check: [0, 16777216]
        self.alpha = alpha

    def __call__(self, image):
        if _is_pil(image):
            weights = np.array([np.random.normal(loc=0.0, scale=self.alpha) for _ in range(3)])
            shifted = np.asarray(image).astype(np.float64) + _LIGHTING @ weights
            return _pil().fromarray(np.uint8(np.minimum(np.maximum(shifted, 0), 255)))
        array = np.asarray(image)
        if array.ndim < 2:
            raise RuntimeError(f"RandomLighting: input tensor is not in shape of <height, "
                               f"width, ...>, but got rank: {array.ndim}")
        words, alpha = self.words, np.float32(self.alpha)
        weights = [words.normal(words) * alpha for _ in range(3)]
        if array.ndim != 3 or array.shape[2] != 3:
            raise RuntimeError(f"RandomLighting: input tensor is not in shape of <H,W,C> or "
                               f"channel is not 3, got rank: {array.ndim}, and channel: "
                               f"{array.shape[2] if array.ndim == 3 else array.shape[-1]}")
        table = _LIGHTING.astype(np.float32)
        shift = np.array([table[c, 0] * weights[0] + table[c, 1] * weights[1]
                          + table[c, 2] * weights[2] for c in range(3)], np.float32)
        out = array.astype(np.float32) + shift
        if array.dtype.kind in "iu":
            info = np.iinfo(array.dtype)
            out = np.clip(np.rint(out), info.min, info.max)
        return out.astype(array.dtype)
