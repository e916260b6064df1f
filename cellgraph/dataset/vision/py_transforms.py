"""The 1.x Pillow-based image transforms (mindspore.dataset.vision.py_transforms): Decode
gives a Pillow image, ToTensor makes a CHW float array in [0, 1], and Normalize then works on
CHW arrays."""
from __future__ import annotations

from . import transforms as _t
from .geometry import to_pil_image
from .transforms import HWC2CHW, CenterCrop, RandomCrop, RandomHorizontalFlip, Resize, ToTensor

__all__ = [
    "HWC2CHW",
    "CenterCrop",
    "Decode",
    "Normalize",
    "RandomCrop",
    "RandomHorizontalFlip",
    "Resize",
    "ToPIL",
    "ToTensor",
]


class Decode(_t.Decode):
    """Encoded image bytes -> an RGB Pillow image."""

    def __init__(self):
        super().__init__(to_pil=True)


class Normalize(_t.Normalize):
    """(image - mean) / std per channel of a CHW float array (ToTensor's output)."""

    def __init__(self, mean, std):
        super().__init__(mean, std, is_hwc=False)


class ToPIL(_t.TensorOperation):
    """An HWC uint8 array -> a Pillow image."""

    python_implementation = True  # as MindSpore runs it

    def __call__(self, image):
        return to_pil_image(image)
