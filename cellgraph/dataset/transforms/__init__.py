"""cellgraph.dataset.transforms: TypeCast, OneHot, Compose, PadEnd, Fill, Concatenate, Slice,
Duplicate, Mask, Unique, RandomApply, RandomChoice, RandomOrder (also under the 1.x module paths `c_transforms` and `py_transforms`)."""
# as MindSpore's: `dataset.transforms.vision` is the vision module (programs spell
# `ds.transforms.vision.Inter`)
from .. import vision
from . import c_transforms, py_transforms, transforms
from .transforms import (
    Compose,
    Concatenate,
    Duplicate,
    Fill,
    Mask,
    OneHot,
    PadEnd,
    RandomApply,
    RandomChoice,
    RandomOrder,
    Relational,
    Slice,
    TensorOperation,
    TypeCast,
    Unique,
)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply",
           "RandomChoice", "RandomOrder", "Relational",
           "Slice", "TensorOperation", "TypeCast", "Unique", "c_transforms", "py_transforms", "transforms",
           "vision"]
