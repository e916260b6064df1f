"""MindSpore's `ops.operations.image_ops`: the primitive classes of image operations."""
from __future__ import annotations

from cellgraph.ops.function.image_func import crop_and_resize
from cellgraph.ops.primitive_class import define_class, generate_classes

__all__ = ["CropAndResize"]


CropAndResize = define_class("CropAndResize", crop_and_resize,
                             {"method": "bilinear", "extrapolation_value": 0.0}, module=__name__)

# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
