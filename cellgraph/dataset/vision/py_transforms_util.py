"""MindSpore's `dataset.vision.py_transforms_util`: the NumPy helpers of its Python transforms
that user code and tests call directly. Here: the RGB/HSV conversions of one image or a batch
(`rgb_to_hsv(s)`, `hsv_to_rgb(s)`, with MindSpore's checks and errors) and `is_numpy`; the
conversions are the ones `vision.RgbToHsv` and `vision.HsvToRgb` apply (colorsys's
definitions, in float64)."""
from __future__ import annotations

import numpy as np

from .pixels import _hsv_to_rgb, _rgb_to_hsv

__all__ = ["hsv_to_rgb", "hsv_to_rgbs", "is_numpy", "rgb_to_hsv", "rgb_to_hsvs"]


def is_numpy(img) -> bool:
    """Whether `img` is a NumPy array."""
    return isinstance(img, np.ndarray)


def _convert(convert, image, is_hwc: bool):
    channels_last = image if is_hwc else np.moveaxis(image, 0, -1)
    out = convert(np.asarray(channels_last, np.float64))
    return out if is_hwc else np.moveaxis(out, -1, 0)


def rgb_to_hsv(np_rgb_img, is_hwc):
    """One RGB image, (H, W, 3) with `is_hwc` else (3, H, W), with values in [0, 1], as HSV."""
    return _convert(_rgb_to_hsv, np_rgb_img, is_hwc)


def hsv_to_rgb(np_hsv_img, is_hwc):
    """One HSV image, (H, W, 3) with `is_hwc` else (3, H, W), as RGB."""
    return _convert(_hsv_to_rgb, np_hsv_img, is_hwc)


def _checked_images(images, is_hwc, what: str):
    """The images' batch size (0 for a single image), after MindSpore's checks."""
    if not is_numpy(images):
        raise TypeError(f"img should be NumPy image. Got {type(images)}")
    if not isinstance(is_hwc, bool):
        raise TypeError(f"is_hwc should be bool type. Got {type(is_hwc)}.")
    if images.ndim not in (3, 4):
        raise TypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C ,H, W)/(N, C, H, W). "
                        f"Got {images.shape}.")
    batch = 0 if images.ndim == 3 else images.shape[0]
    channels = images.shape[-1 if is_hwc else images.ndim - 3]
    if channels != 3:
        raise TypeError(f"img should be 3 channels {what} img. Got {channels} channels.")
    return batch


def rgb_to_hsvs(np_rgb_imgs, is_hwc):
    """RGB images, one (H, W, C) / (C, H, W) or a batch (N, ...), as HSV."""
    if _checked_images(np_rgb_imgs, is_hwc, "RGB") == 0:
        return rgb_to_hsv(np_rgb_imgs, is_hwc)
    return np.array([rgb_to_hsv(image, is_hwc) for image in np_rgb_imgs])


def hsv_to_rgbs(np_hsv_imgs, is_hwc):
    """HSV images, one (H, W, C) / (C, H, W) or a batch (N, ...), as RGB."""
    if _checked_images(np_hsv_imgs, is_hwc, "RGB") == 0:
        return hsv_to_rgb(np_hsv_imgs, is_hwc)
    return np.array([hsv_to_rgb(image, is_hwc) for image in np_hsv_imgs])
