"""`MeanSurfaceDistance`: the mean distance from the predicted surface to the true one."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_type, rearrange_inputs
from .surface_distance import (
    check_distance_metric,
    check_update_inputs,
    label_mask,
    surface,
    surface_distances,
)

__all__ = ["MeanSurfaceDistance"]


class SurfaceMetric(Metric):
    """The surfaces of the last `update`'s prediction and truth masks, and their distances."""

    _label_error = ValueError

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric = check_distance_metric(distance_metric)
        self.symmetric = check_type("symmetric", symmetric, (bool,))
        self.clear()
        # MindSpore's quirk, kept: before any update or clear, eval measures the empty
        # surfaces (inf); only after clear does it ask for an update first
        self._is_update = None

    def clear(self):
        self._y_pred_edges, self._y_edges = 0, 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y, label_idx = check_update_inputs(type(self).__name__, inputs,
                                                   self._convert_data, self._label_error)
        self._y_pred_edges = surface(label_mask(y_pred, label_idx))
        self._y_edges = surface(label_mask(y, label_idx))
        self._is_update = True

    def _distances(self, reverse=False):
        if self._is_update is False:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        edges = (self._y_edges, self._y_pred_edges) if reverse else (self._y_pred_edges,
                                                                     self._y_edges)
        return surface_distances(*edges, self.distance_metric)


class MeanSurfaceDistance(SurfaceMetric):
    """The mean over the predicted surface of each voxel's distance to the true surface; with
    `symmetric`, the mean of that and the same from the true surface. inf when a surface the
    distances start from is empty."""

    def eval(self):
        forward = self._distances()
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return forward.mean()
        backward = self._distances(reverse=True)
        if backward.shape == (0,):
            return np.inf
        return np.mean((forward.mean(), backward.mean()))
