"""`mindspore.dataset.vision.utils`: the vision enums and the image queries
(`get_image_size`, `get_image_num_channels`) on NumPy arrays and Pillow images."""
from __future__ import annotations

import numpy as np

from .geometry import SliceMode
from .transforms import Border, Inter, _is_pil

__all__ = ["Border", "Inter", "SliceMode", "get_image_num_channels", "get_image_size"]


def _not_an_image(image) -> TypeError:
    return TypeError(f"Input image is not of type {np.ndarray} or <class 'PIL.Image.Image'>, "
                     f"but got: {type(image)}.")


def _array_shape(image: np.ndarray, op: str) -> tuple:
    if image.ndim < 2:
        raise RuntimeError(f"{op}: invalid parameter, image should have at least two "
                           f"dimensions, but got: {image.ndim}")
    return image.shape


def get_image_size(image) -> list[int]:
    """[height, width] of an image: an array <H, W> or <..., H, W, C>, or a Pillow image."""
    if isinstance(image, np.ndarray):
        shape = _array_shape(image, "GetImageSize")
        return list(shape) if len(shape) == 2 else [shape[-3], shape[-2]]
    if _is_pil(image):
        width, height = image.size
        return [height, width]
    raise _not_an_image(image)


def get_image_num_channels(image) -> int:
    """Channels of an image: 1 for an array <H, W>, else its last dimension; a Pillow image's
    band count."""
    if isinstance(image, np.ndarray):
        shape = _array_shape(image, "GetImageNumChannels")
        return 1 if len(shape) == 2 else shape[-1]
    if _is_pil(image):
        return len(image.getbands())
    raise _not_an_image(image)
