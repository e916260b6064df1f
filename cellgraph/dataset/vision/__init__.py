"""cellgraph.dataset.vision: image transforms on NumPy HWC arrays and Pillow images."""
from . import c_transforms, transforms
from .transforms import (
    HWC2CHW,
    Border,
    CenterCrop,
    Decode,
    Inter,
    Normalize,
    RandomCrop,
    RandomHorizontalFlip,
    Rescale,
    Resize,
    ToTensor,
)

__all__ = [
    "HWC2CHW",
    "Border",
    "CenterCrop",
    "Decode",
    "Inter",
    "Normalize",
    "RandomCrop",
    "RandomHorizontalFlip",
    "Rescale",
    "Resize",
    "ToTensor",
    "c_transforms",
    "transforms",
]
