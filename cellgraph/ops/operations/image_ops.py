"""MindSpore's `ops.operations.image_ops`: the primitive classes of image operations."""
from __future__ import annotations

from cellgraph.ops.function.image_func import crop_and_resize
from cellgraph.ops.function.nn_func.bicubic import resize_bicubic
from cellgraph.ops.primitive_class import PrimitiveClass, define_class, generate_classes

__all__ = ["CropAndResize", "ResizeBicubic"]


CropAndResize = define_class("CropAndResize", crop_and_resize,
                             {"method": "bilinear", "extrapolation_value": 0.0}, module=__name__)


class ResizeBicubic(PrimitiveClass):
    """`ops.ResizeBicubic(align_corners=False, half_pixel_centers=False)(images, size)`:
    (N, C, H, W) images resized bicubically to `size` (an int32 Tensor (height, width))."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        # MindSpore 2.10 takes any value here and reads its truth
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, images, size):
        return resize_bicubic(images, size, bool(self.align_corners),
                              bool(self.half_pixel_centers))


# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
