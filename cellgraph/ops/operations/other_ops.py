"""MindSpore's `ops.operations.other_ops`: the bounding-box primitives' classes and IOU."""
from __future__ import annotations

from cellgraph.ops.function.image_func import (
    bounding_box_decode,
    bounding_box_encode,
    check_box_options,
    check_decode_options,
    check_iou_mode,
    check_valid,
    iou,
)
from cellgraph.ops.primitive_class import define_class, generate_classes
from cellgraph.primitives.exports import REQUIRED

__all__ = ["IOU", "BoundingBoxDecode", "BoundingBoxEncode", "CheckValid"]

_BOXES = {"means": (0.0, 0.0, 0.0, 0.0), "stds": (1.0, 1.0, 1.0, 1.0)}


class BoundingBoxEncode(define_class("BoundingBoxEncode", bounding_box_encode, _BOXES,
                                     module=__name__)):
    """ops.BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box): options checked when
    it is made."""

    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        check_box_options("BoundingBoxEncode", means, stds)
        super().__init__(means, stds)


class BoundingBoxDecode(define_class("BoundingBoxDecode", bounding_box_decode,
                                     {"max_shape": REQUIRED, **_BOXES, "wh_ratio_clip": 0.016},
                                     module=__name__)):
    """ops.BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas):
    options checked when it is made."""

    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip=0.016):
        check_decode_options(max_shape, means, stds, wh_ratio_clip)
        super().__init__(max_shape, means, stds, wh_ratio_clip)


CheckValid = define_class("CheckValid", check_valid, module=__name__)


class IOU(define_class("IOU", iou, {"mode": "iou"}, module=__name__)):
    """ops.IOU(mode)(anchor_boxes, gt_boxes): ops.iou, its mode checked when it is made."""

    def __init__(self, mode="iou"):
        check_iou_mode(mode)
        super().__init__(mode)

# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
