"""`Perplexity`: exp of the mean negative log-probability the predictions give the labels."""
from __future__ import annotations

import math

import numpy as np

from .metric import Metric, check_type, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """exp(-mean(log p[label])) over every label but `ignore_label`; probabilities are clipped
    below at 1e-10. Predictions are (N, C) probabilities, labels (N,) class indices."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = None if ignore_label is None else check_type(
            "ignore_label", ignore_label, (int,))
        self.clear()

    def clear(self):
        self._sum_metric, self._num_inst = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, "
                             f"label), but got {len(inputs)}.")
        preds, labels = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if labels.size != preds.size / preds.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {preds.shape}, label shape {labels.shape}.")
        labels = labels.reshape(-1)
        picked = np.squeeze(preds.reshape(labels.size, -1)[np.arange(labels.size),
                                                          labels.astype(int)])
        count = picked.size
        if self.ignore_label is not None:
            ignored = (labels == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignored)
            picked = picked * (1 - ignored) + ignored  # log(1) = 0: no contribution
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether has called update method "
                               "before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
