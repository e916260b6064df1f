"""`Dice`: the Dice coefficient 2|A.B| / (|A|^2 + |B|^2), averaged over samples."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_type, rearrange_inputs

__all__ = ["Dice"]


class Dice(Metric):
    """Per `update`: 2 * <pred, y> / (<pred, pred> + <y, y> + smooth); `eval` divides their sum
    by the number of samples (the first dimension of each batch)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        check_type("smooth", smooth, (float,))
        if not smooth > 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with "
                             f"type 'float'.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum, self._samples_num = 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Dice.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got predicted value shape: "
                             f"{y_pred.shape}, true value shape: {y.shape}.")
        pred, truth = y_pred.ravel(), y.ravel()
        union = np.dot(pred, pred) + np.dot(truth, truth)
        self._dice_coeff_sum += 2 * float(np.dot(pred, truth)) / float(union + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, because the number "
                               "of samples is 0, please check whether your inputs(predicted "
                               "value, true value) are empty, or has called update method before "
                               "calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)
