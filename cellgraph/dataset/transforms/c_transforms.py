"""The 1.x module path of the general transforms (mindspore.dataset.transforms.c_transforms)."""
from .transforms import Compose, OneHot, TypeCast

__all__ = ["Compose", "OneHot", "TypeCast"]
