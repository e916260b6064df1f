"""cellgraph.dataset.transforms: TypeCast, OneHot, Compose (also under `c_transforms`)."""
from . import c_transforms, transforms
from .transforms import Compose, OneHot, TensorOperation, TypeCast

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "c_transforms", "transforms"]
