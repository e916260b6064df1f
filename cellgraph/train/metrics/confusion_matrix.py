"""`ConfusionMatrix` (counts of true class against predicted class) and
`ConfusionMatrixMetric` (rates such as sensitivity or F1 from binarized segmentations)."""
from __future__ import annotations

import typing

import numpy as np

from .confusion_matrix_rates import rate_of
from .metric import Metric, check_choice, check_type, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


class ConfusionMatrix(Metric):
    """Counts of (true class, predicted class) pairs: rows are targets, columns predictions.
    Scores of shape (N, C, ...) predict their argmax over axis 1; predictions of the labels'
    shape are compared with `threshold` (binary). `normalize` divides by the row sums
    ("target"), the column sums ("prediction") or the total ("all"); empty rows or columns
    stay zero."""

    _NORMALIZERS: typing.ClassVar[dict] = {"no_norm": None, "target": (1,), "prediction": (0,), "all": (0, 1)}

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        check_type("num_classes", num_classes, (int,))
        if num_classes < 1:
            raise ValueError(f"ConfusionMatrix: `num_classes` must be a positive int, got "
                             f"{num_classes!r}")
        if normalize not in self._NORMALIZERS:
            raise ValueError(f"ConfusionMatrix: `normalize` must be one of "
                             f"{', '.join(self._NORMALIZERS)}, got {normalize!r}")
        self.num_classes, self.normalize = int(num_classes), normalize
        self.threshold = check_type("threshold", threshold, (float,))
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"ConfusionMatrix.update: expected 2 inputs, got {len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.ndim == y.ndim:
            y_pred = (y_pred > self.threshold).astype(np.int64)
        else:
            raise ValueError(f"ConfusionMatrix.update: expected predictions of rank "
                             f"{y.ndim} or {y.ndim + 1} for labels of shape {y.shape}, got "
                             f"shape {y_pred.shape}")
        pairs = self.num_classes * y.astype(np.int64).reshape(-1) + y_pred.reshape(-1)
        counts = np.bincount(pairs, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts[:self.num_classes ** 2].reshape(
            self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("ConfusionMatrix: no samples yet; call update first")
        axis = self._NORMALIZERS[self.normalize]
        if axis is None:
            return self.confusion_matrix
        totals = self.confusion_matrix.sum(axis=axis, keepdims=True)
        return np.divide(self.confusion_matrix, totals,
                         out=np.zeros_like(self.confusion_matrix), where=totals != 0)


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """(batch, channel, 4) counts of tp, fp, tn, fn over the spatial axes; without
    `skip_channel` the first channel (the background) is left out."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"The 'y_shape' should be equal to 'y_pred_shape', but got 'y_shape' = "
                         f"{y.shape} and 'y_pred_shape' = {y_pred.shape}.")
    batch, channels = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, channels, -1)
    y = y.astype(float).reshape(batch, channels, -1)
    tp = ((y_pred + y) == 2).sum(axis=2).astype(float)
    tn = ((y_pred + y) == 0).sum(axis=2).astype(float)
    positives = y.sum(axis=2)
    negatives = y.shape[-1] - positives
    return np.stack([tp, negatives - tn, tn, positives - tp], axis=-1)


def _mean_where_counted(values, counted, axis):
    return np.where(counted > 0, values.sum(axis=axis) / np.where(counted > 0, counted, 1), 0.0)


def _reduce(chart: np.ndarray, decrease: str):
    """The (batch, channel, ...) `chart` reduced as `decrease` says, nan entries left out, and
    how many entries were not nan."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart = np.where(nans, 0.0, chart)
    if decrease == "mean":
        per_batch = not_nans.sum(axis=1)
        chart = _mean_where_counted(chart, per_batch, 1)
        not_nans = (per_batch > 0).astype(float).sum(axis=0)
        return _mean_where_counted(chart, not_nans, 0), not_nans
    if decrease == "sum":
        return chart.sum(axis=(0, 1)), not_nans.sum(axis=(0, 1))
    if decrease in ("mean_batch", "mean_channel"):
        axis = 0 if decrease == "mean_batch" else 1
        counted = not_nans.sum(axis=axis)
        return _mean_where_counted(chart, counted, axis), counted
    if decrease in ("sum_batch", "sum_channel"):
        axis = 0 if decrease == "sum_batch" else 1
        return chart.sum(axis=axis), not_nans.sum(axis=axis)
    return chart, not_nans


class ConfusionMatrixMetric(Metric):
    """A rate (`metric_name`: "sensitivity", "precision", "f1 score", "mcc", ...) of binarized
    (batch, channel, ...) predictions against binarized truth. With `calculation_method` each
    update's rate is computed per sample and channel, reduced by `decrease`, and `eval` averages
    those over updates; otherwise the counts are summed over every update and `eval` computes
    the rate once from them."""

    _DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel",
                  "sum_channel")

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False,
                 decrease="mean"):
        super().__init__()
        self.skip_channel = check_type("skip_channel", skip_channel, (bool,))
        self.calculation_method = check_type("calculation_method", calculation_method, (bool,))
        self.metric_name = check_type("metric_name", metric_name, (str,))
        self.decrease = check_choice("decrease", decrease, self._DECREASES)
        self.clear()

    def clear(self):
        self._total_num, self._class_num = 0, 0
        self._total_tp = self._total_fp = self._total_tn = self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted "
                             f"value, true value), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a "
                             "binarized ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must "
                             f"have at least 2 dimensions, but got {y_pred.ndim}.")
        counts = _counts(y_pred, y, self.skip_channel)
        if self.calculation_method:
            score, counted = _reduce(rate_of(self.metric_name, counts), self.decrease)
            counted = int(np.asarray(counted).item())
            self._total_num += np.asarray(score).item() * counted
            self._class_num += counted
            return
        summed, _ = _reduce(counts, "sum")
        self._total_tp += summed[0].item()
        self._total_fp += summed[1].item()
        self._total_tn += summed[2].item()
        self._total_fn += summed[3].item()

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because "
                                   "the number of samples is 0, please check whether your "
                                   "inputs(predicted value, true value) are empty, or has called "
                                   "update method before calling eval method.")
            return self._total_num / self._class_num
        counts = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return rate_of(self.metric_name, counts)
