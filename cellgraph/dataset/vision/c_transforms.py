"""The 1.x module path of the image transforms (mindspore.dataset.vision.c_transforms)."""
from .transforms import (
    CenterCrop,
    Decode,
    HWC2CHW,
    Normalize,
    RandomCrop,
    RandomHorizontalFlip,
    Rescale,
    Resize,
)

__all__ = ["CenterCrop", "Decode", "HWC2CHW", "Normalize", "RandomCrop", "RandomHorizontalFlip",
           "Rescale", "Resize"]
