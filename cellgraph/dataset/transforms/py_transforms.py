"""The 1.x Python transforms (mindspore.dataset.transforms.py_transforms)."""
from .transforms import Compose, OneHot, TypeCast

OneHotOp = OneHot  # the 1.x name of the same transform

__all__ = ["Compose", "OneHotOp", "TypeCast"]
