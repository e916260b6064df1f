"""The 1.x module path of the image transforms (mindspore.dataset.vision.c_transforms)."""
from .transforms import (
    HWC2CHW,
    CenterCrop,
    Decode,
    Normalize,
    RandomCrop,
    RandomHorizontalFlip,
    Rescale,
    Resize,
)

__all__ = [
    "HWC2CHW",
    "CenterCrop",
    "Decode",
    "Normalize",
    "RandomCrop",
    "RandomHorizontalFlip",
    "Rescale",
    "Resize",
]
