"""The 1.x module path of the general transforms (mindspore.dataset.transforms.c_transforms)."""
from .transforms import (
    Compose,
    Concatenate,
    Duplicate,
    Fill,
    Mask,
    OneHot,
    PadEnd,
    Relational,
    Slice,
    TypeCast,
)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "Relational",
           "Slice", "TypeCast"]
