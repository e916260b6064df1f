"""What the segmentation-surface metrics share (HausdorffDistance, MeanSurfaceDistance,
RootMeanSquareDistance): a mask's surface, the distances from one surface to the other, and the
checks of their three `update` inputs.

A mask's surface is the mask less its binary erosion by the cross-shaped structuring element
(each voxel kept only if its 2 * ndim face neighbours are in the mask, outside counting as
empty). The distance of a surface voxel to the other surface is to its nearest voxel, measured
as "euclidean", "chessboard" (max |d|) or "taxicab" (sum |d|): the values of SciPy's
distance_transform_edt and distance_transform_cdt at those voxels, which MindSpore uses.
"""
from __future__ import annotations

import numpy as np

from .metric import check_choice

DISTANCE_METRICS = ("euclidean", "chessboard", "taxicab")
_CHUNK = 1024  # surface voxels measured at once, to bound the pairwise array


def check_distance_metric(distance_metric):
    return check_choice("distance_metric", distance_metric, DISTANCE_METRICS)


def binary_erosion(mask: np.ndarray) -> np.ndarray:
    """The voxels of `mask` whose face neighbours all lie in `mask` (the border is empty)."""
    mask = mask.astype(bool)
    eroded = mask.copy()
    padded = np.pad(mask, 1, constant_values=False)
    inner = tuple(slice(1, -1) for _ in range(mask.ndim))
    for axis in range(mask.ndim):
        for step in (-1, 1):
            eroded &= np.roll(padded, step, axis=axis)[inner]
    return eroded


def surface(mask: np.ndarray) -> np.ndarray:
    """The surface voxels of a boolean mask."""
    return binary_erosion(mask) ^ mask.astype(bool)


def surface_distances(from_edges: np.ndarray, to_edges: np.ndarray,
                      distance_metric: str) -> np.ndarray:
    """For each voxel of `from_edges` (in C order), its distance to the nearest voxel of
    `to_edges`; inf when `to_edges` is empty, an empty array when `from_edges` is."""
    sources = np.argwhere(from_edges)
    if sources.size == 0:
        return np.array([])
    targets = np.argwhere(to_edges)
    if targets.size == 0:
        return np.full(len(sources), np.inf)
    nearest = []
    for start in range(0, len(sources), _CHUNK):
        offsets = np.abs(sources[start:start + _CHUNK, None, :] - targets[None, :, :])
        if distance_metric == "euclidean":
            nearest.append(np.sqrt((offsets.astype(np.float64) ** 2).sum(-1)).min(axis=1))
        elif distance_metric == "chessboard":
            nearest.append(offsets.max(-1).min(axis=1).astype(np.int32))
        else:
            nearest.append(offsets.sum(-1).min(axis=1).astype(np.int32))
    return np.concatenate(nearest)


def check_update_inputs(op: str, inputs: tuple, convert, label_error=ValueError):
    """(y_pred, y, label_idx) of a surface metric's update, checked as MindSpore does."""
    if len(inputs) != 3:
        raise ValueError(f"For '{op}.update', it needs 3 inputs (predicted value, true value, "
                         f"label index), but got {len(inputs)}.")
    y_pred, y, label_idx = convert(inputs[0]), convert(inputs[1]), inputs[2]
    if not isinstance(label_idx, (int, float)):
        raise label_error(f"For '{op}.update', the label index (input[2]) must be int or float, "
                          f"but got {type(label_idx)}.")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"For '{op}.update', the label index (input[2]) must be in predicted "
                         f"value (input[0]) or true value (input[1]), but {label_idx} is not.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"For '{op}.update', the size of predicted value (input[0]) and true "
                         f"value (input[1]) must be greater than 0, in addition to that, "
                         f"predicted value and true value must have the same shape, but got "
                         f"predicted value size: {y_pred.size}, shape: {y_pred.shape}, true "
                         f"value size: {y.size}, shape: {y.shape}.")
    return y_pred, y, label_idx


def label_mask(values: np.ndarray, label_idx) -> np.ndarray:
    """A boolean mask stays as it is; other arrays mark where they equal the label."""
    return values if values.dtype == bool else values == label_idx
