"""Position-sensitive ROI pooling (MindSpore's `PSROIPooling`) and its gradient
(`PSROIPoolingGrad`), written with ops: each pooled bin is the mean of the feature pixels of
its bin in the channel that bin reads (channel `c * group_size^2 + bin_row * group_size +
bin_col`), and the gradient spreads each bin's incoming gradient evenly over those pixels, as
MindSpore's CPU kernels do."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_dtype, not_tensor_error
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError
from cellgraph.primitives.nn_functional import one_hot
from cellgraph.runtime.tensor import Tensor

_OP = "PSROIPoolingGrad"
_MIN_ROI_SIZE = 0.1  # the kernel widens a roi to at least this (in scaled units)


def _check_operand(name: str, value) -> None:
    """A float32 Tensor, or MindSpore's TypeError for the operand it calls `x`."""
    if isinstance(value, (bool, int, float)):
        raise not_tensor_error(_OP, name, value)
    check_tensor_dtype(_OP, "x", abstract_of(value).dtype, (dt.float32,))


def _check_shapes(dy_shape: tuple, rois_shape: tuple, group_size: int, output_dim: int,
                  input_size) -> None:
    """MindSpore's shape inference (ValueError) then its CPU kernel's checks (RuntimeError)."""
    if len(input_size) < 2:
        raise ArgumentValueError(f"For '{_OP}', the dim of input_size must be >= 2, but got "
                                 f"{len(input_size)}.")
    if not 0 < group_size < 128:
        raise ArgumentValueError(f"For '{_OP}', the group_size must be in range of (0, 128), "
                                 f"but got {group_size}.")
    if len(dy_shape) > 1 and dy_shape[1] != output_dim:
        raise ArgumentValueError(f"For '{_OP}', the channel of input feature is invalid, got: "
                                 f"{dy_shape[1]}, must be equal to output_dim: {output_dim}.")
    if len(dy_shape) != 4:
        raise RunError(f"For '{_OP}', the rank of input[0] should be 4, but got the rank of "
                       f"input[0]: {len(dy_shape)}.")
    if len(rois_shape) != 3:
        raise RunError(f"For '{_OP}', the rank of input[1] should be 3, but got the rank of "
                       f"input[1]: {len(rois_shape)}.")
    if dy_shape[0] != rois_shape[0] * rois_shape[2]:
        raise RunError(f"For '{_OP}', input[0].shape[0]({dy_shape[0]}) should be equal to "
                       f"input[1].shape[0]({rois_shape[0]}) * input[1].shape[2]"
                       f"({rois_shape[2]}), but it's not true.")
    for axis in (2, 3):
        if dy_shape[axis] != group_size:
            raise RunError(f"For '{_OP}', input[0].shape[{axis}]({dy_shape[axis]}) should be "
                           f"equal to group_size({group_size}), but it's not true.")


def _round_half_away(x):
    """C's roundf: halves away from zero."""
    return F.mul(F.sign(x), F.floor(F.add(F.abs(x), 0.5)))


def _bin_masks(start, end, bins: int, length: int, limit=None, dtype=dt.float32):
    """For rois (N,) spanning [start, end) in scaled units, split into `bins` bins: which of
    `length` pixels each bin covers (N, bins, length), and each bin's pixel count (N, bins).
    Bin edges are clipped to [0, limit] (`length` unless given); arithmetic in `dtype`."""
    limit = float(length if limit is None else limit)
    size = F.maximum(F.sub(end, start), _MIN_ROI_SIZE)
    bin_size = F.div(size, float(bins))
    index = Tensor(np.arange(bins), dtype)
    low = F.add(F.mul(F.expand_dims(bin_size, 1), index), F.expand_dims(start, 1))
    high = F.add(F.mul(F.expand_dims(bin_size, 1), F.add(index, 1.0)), F.expand_dims(start, 1))
    low = F.minimum(F.maximum(F.floor(low), 0.0), limit)
    high = F.minimum(F.maximum(F.ceil(high), 0.0), limit)
    pixels = F.reshape(Tensor(np.arange(length), dtype), (1, 1, length))
    covered = F.logical_and(F.greater_equal(pixels, F.expand_dims(low, 2)),
                            F.less(pixels, F.expand_dims(high, 2)))
    return F.cast(covered, dtype), F.maximum(F.sub(high, low), 0.0)


def ps_roi_pooling_grad(dy, rois, input_size, spatial_scale, group_size, output_dim):
    """The gradient of position-sensitive ROI pooling with respect to its features
    (B, output_dim * group_size^2, H, W), where (H, W) = input_size, for the output gradient
    `dy` (B * R, output_dim, group_size, group_size) and `rois` (B, 5, R) holding each roi's
    (batch index, x1, y1, x2, y2) in input coordinates, scaled by `spatial_scale` and rounded;
    a bin with no pixel passes nothing on."""
    _check_operand("x", dy)
    _check_operand("x", rois)
    dy_shape = tuple(abstract_of(dy).shape)
    rois_shape = tuple(abstract_of(rois).shape)
    _check_shapes(dy_shape, rois_shape, group_size, output_dim, input_size)
    batch, _, rois_num = rois_shape
    height, width = int(input_size[0]), int(input_size[1])
    count = batch * rois_num
    boxes = F.reshape(F.transpose(rois, (0, 2, 1)), (count, 5))
    image = F.cast(boxes[:, 0], dt.int32)  # C's conversion: toward zero
    corners = [_round_half_away(F.mul(boxes[:, k], float(spatial_scale))) for k in range(1, 5)]
    start_w, start_h, end_w, end_h = corners
    rows, row_counts = _bin_masks(start_h, end_h, group_size, height)  # (N, g, H), (N, g)
    cols, col_counts = _bin_masks(start_w, end_w, group_size, width)  # (N, g, W), (N, g)
    area = F.mul(F.expand_dims(row_counts, 2), F.expand_dims(col_counts, 1))  # (N, g, g)
    area = F.expand_dims(area, 1)
    nonempty = F.greater(area, 0.0)
    share = F.select(F.broadcast_to(nonempty, dy_shape), F.div(dy, F.maximum(area, 1.0)),
                     F.zeros_like(dy))  # (N, D, g, g)
    # spread[n, d, i, j, h, w] = share[n, d, i, j] * rows[n, i, h] * cols[n, j, w]
    spread = F.mul(F.reshape(share, (count, output_dim, group_size, group_size, 1, 1)),
                   F.reshape(rows, (count, 1, group_size, 1, height, 1)))
    spread = F.mul(spread, F.reshape(cols, (count, 1, 1, group_size, 1, width)))
    channels = output_dim * group_size * group_size
    spread = F.reshape(spread, (count, channels * height * width))
    owner = one_hot(image, batch, Tensor(1.0, dt.float32), Tensor(0.0, dt.float32))  # (N, B)
    grad = F.matmul(F.transpose(owner, (1, 0)), spread)
    return F.reshape(grad, (batch, channels, height, width))


_FORWARD = "PSROIPooling"
_FLOATS = (dt.float16, dt.float32, dt.float64)


def _check_pooling_operands(features, rois, group_size: int, output_dim: int):
    """MindSpore's type checks (TypeError) and shape inference (RuntimeError) of PSROIPooling."""
    kinds = []
    for name, value in (("x", features), ("rois", rois)):
        if isinstance(value, (bool, int, float)):
            raise not_tensor_error(_FORWARD, name, value)
        kinds.append(check_tensor_dtype(_FORWARD, name, abstract_of(value).dtype, _FLOATS))
    if kinds[0] != kinds[1]:
        raise DTypeError(f"For '{_FORWARD}', input[features] is expected to have the same type "
                         f"with input[rois], but got type (Tensor[{kinds[0]}], "
                         f"Tensor[{kinds[1]}]).")
    x_shape, rois_shape = abstract_of(features).shape, abstract_of(rois).shape
    if not 0 < group_size < 128:
        raise RunError(f"For '{_FORWARD}', 'group_size' should be in the range (0, 128), but "
                       f"got: {group_size}")
    if x_shape[0] != rois_shape[0]:
        raise RunError(f"For '{_FORWARD}', the batch number of input 'features' and 'rois' "
                       f"must be equal, but got: {x_shape[0]} and {rois_shape[0]} respectively.")
    if len(x_shape) != 4:
        raise RunError(f"For '{_FORWARD}', input 'features' shape must be 4d(NCHW), but got: "
                       f"{len(x_shape)}")
    if x_shape[1] is not None and x_shape[1] != output_dim * group_size * group_size:
        raise RunError(f"For '{_FORWARD}', the second dimension({x_shape[1]}) of the input "
                       f"'features' is illegal, it is not equal to group_size({group_size}) * "
                       f"group_size({group_size}) * output_dim({output_dim}).")
    if len(rois_shape) != 3 or rois_shape[1] != 5:
        raise RunError(f"For '{_FORWARD}', expected rois of shape (batch, 5, rois_n), got "
                       f"{tuple(rois_shape)}.")


def ps_roi_pooling(features, rois, spatial_scale, group_size, output_dim):
    """Position-sensitive ROI pooling of `features` (B, output_dim * group_size^2, H, W) over
    `rois` (B, 5, R), each column a roi (batch index, x1, y1, x2, y2) in input coordinates:
    (B * R, output_dim, group_size, group_size), bin (i, j) of output channel d the mean of
    channel (d * group_size + i) * group_size + j over the bin's pixels. Corners are scaled by
    `spatial_scale` and rounded half away from zero, a roi is at least 0.1 wide, bin edges are
    clipped to [0, H - 1] and [0, W - 1] as in MindSpore's CPU kernel (so its last row and
    column are never read), and an empty bin is 0. With one roi per image this is MindSpore's
    CPU kernel; with several it reads the roi columns the documentation describes (the kernel
    reads the rois in memory order, as if they were (B * R, 5), past the end of its output)."""
    _check_pooling_operands(features, rois, group_size, output_dim)
    dtype = abstract_of(features).dtype
    _, _, height, width = abstract_of(features).shape
    boxes = F.reshape(F.transpose(rois, (0, 2, 1)), (-1, 5))  # (N, 5)
    image = F.cast(boxes[:, 0], dt.int32)  # C's conversion: toward zero
    scale = Tensor(spatial_scale, dtype)
    start_w, start_h, end_w, end_h = (_round_half_away(F.mul(boxes[:, k], scale))
                                      for k in range(1, 5))
    rows, row_counts = _bin_masks(start_h, end_h, group_size, height, height - 1, dtype)
    cols, col_counts = _bin_masks(start_w, end_w, group_size, width, width - 1, dtype)
    picked = F.gather(features, image, 0)  # (N, D * g * g, H, W)
    picked = F.reshape(picked, (-1, output_dim, group_size, group_size, height, width))
    # pooled[n, d, i, j] = sum_hw picked[n, d, i, j, h, w] * rows[n, i, h] * cols[n, j, w]
    by_rows = F.reduce_sum(F.mul(picked, F.reshape(rows, (-1, 1, group_size, 1, height, 1))),
                           4)  # (N, D, g, g, W)
    summed = F.reduce_sum(F.mul(by_rows, F.reshape(cols, (-1, 1, 1, group_size, width))), 4)
    area = F.expand_dims(F.mul(F.expand_dims(row_counts, 2), F.expand_dims(col_counts, 1)), 1)
    return F.select(F.greater(area, 0.0), F.div(summed, F.maximum(area, 1.0)),
                    F.zeros_like(summed))
