"""`HausdorffDistance`: the largest (or a percentile) distance between two segmentation
surfaces."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_type, rearrange_inputs
from .surface_distance import check_distance_metric, check_update_inputs, surface, surface_distances

__all__ = ["HausdorffDistance"]


def _crop_to_union(y_pred: np.ndarray, y: np.ndarray):
    """Both masks cut to the bounding box of their union, size-1 axes dropped."""
    rows = np.nonzero(y_pred | y)
    box = tuple(slice(int(ix.min()), int(ix.max()) + 1) for ix in rows)
    return np.squeeze(y_pred[box]), np.squeeze(y[box])


class HausdorffDistance(Metric):
    """max(d(pred surface -> true surface), d(true -> pred)), each d the largest distance of a
    surface voxel to the other surface (the `percentile` of them if given); `directed` keeps
    only the first. inf when the predicted surface is empty. With `crop` the masks are first
    cut to the bounding box of their union."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        super().__init__()
        self.distance_metric = check_distance_metric(distance_metric)
        self.percentile = None if percentile is None else check_type(
            "percentile", percentile, (float,))
        self.directed = directed if directed is None else check_type("directed", directed, (bool,))
        self.crop = crop if crop is None else check_type("crop", crop, (bool,))
        self.clear()

    def clear(self):
        self.y_pred_edges, self.y_edges = 0, 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        self._is_update = True
        y_pred, y, label_idx = check_update_inputs("HausdorffDistance", inputs,
                                                   self._convert_data)
        # MindSpore compares with the label even for boolean masks
        y_pred, y = y_pred == label_idx, y == label_idx
        if self.crop:
            if not np.any(y_pred | y):
                self.y_pred_edges, self.y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            y_pred, y = _crop_to_union(y_pred, y)
        self.y_pred_edges, self.y_edges = surface(y_pred), surface(y)

    def _directed(self, from_edges, to_edges):
        distances = surface_distances(from_edges, to_edges, self.distance_metric)
        if distances.shape == (0,):
            return np.inf
        if not self.percentile:
            return distances.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distances, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must "
                         f"be [0, 100], but got {self.percentile}.")

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        forward = self._directed(self.y_pred_edges, self.y_edges)
        if self.directed:
            return forward
        return max(forward, self._directed(self.y_edges, self.y_pred_edges))
