"""cellgraph.dataset.vision: image transforms on NumPy HWC arrays and Pillow images."""
from . import c_transforms, transforms
from .transforms import (
    Border,
    CenterCrop,
    Decode,
    HWC2CHW,
    Inter,
    Normalize,
    RandomCrop,
    RandomHorizontalFlip,
    Rescale,
    Resize,
    ToTensor,
)

__all__ = ["Border", "CenterCrop", "Decode", "HWC2CHW", "Inter", "Normalize", "RandomCrop",
           "RandomHorizontalFlip", "Rescale", "Resize", "ToTensor", "c_transforms",
           "transforms"]
