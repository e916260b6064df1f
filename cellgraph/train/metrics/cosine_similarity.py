"""`CosineSimilarity`: the matrix of pairwise similarities of the rows of one input."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_choice, check_type, rearrange_inputs

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Metric):
    """rows . rows^T, the rows first scaled to unit L2 norm with similarity="cosine"; `eval`
    zeroes the diagonal (`zero_diagonal`) and reduces along the last axis ("none", "sum",
    "mean")."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        self.similarity = check_choice("similarity", similarity, ("dot", "cosine"))
        self.reduction = check_choice("reduction", reduction, ("none", "sum", "mean"))
        self.zero_diagonal = check_type("zero_diagonal", zero_diagonal, (bool,))
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        rows = self._convert_data(inputs)
        if self.similarity == "cosine":
            rows = rows / np.linalg.norm(rows, ord=2, axis=1)[:, None]
        self.sqr_mtx_res = np.dot(rows, rows.T)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res
