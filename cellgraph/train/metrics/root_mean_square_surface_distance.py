"""`RootMeanSquareDistance`: the mean squared distance between two segmentation surfaces."""
from __future__ import annotations

import numpy as np

from .mean_surface_distance import SurfaceMetric

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(SurfaceMetric):
    """The mean over the predicted surface of the squared distance to the true surface; with
    `symmetric`, the square root of the mean of that and the same from the true surface (as in
    MindSpore, only the symmetric form takes the root). inf when a surface is empty."""

    _label_error = TypeError

    def eval(self):
        forward = self._distances()
        if forward.shape == (0,):
            return np.inf
        forward_ms = (forward ** 2).mean()
        if not self.symmetric:
            return forward_ms
        backward = self._distances(reverse=True)
        if backward.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((forward_ms, (backward ** 2).mean())))
