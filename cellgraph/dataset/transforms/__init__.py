"""cellgraph.dataset.transforms: TypeCast, OneHot, Compose (also under the 1.x module paths
`c_transforms` and `py_transforms`)."""
from . import c_transforms, py_transforms, transforms
from .transforms import Compose, OneHot, TensorOperation, TypeCast

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast", "c_transforms", "py_transforms",
           "transforms"]
