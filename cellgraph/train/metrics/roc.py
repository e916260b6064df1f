"""`mindspore.train.ROC`: the receiver operating characteristic curve of scores against
labels, for binary problems and, one class against the rest, for multiclass ones."""
from __future__ import annotations

import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["ROC"]


def _check_int(name: str, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"For 'ROC', the type of '{name}' should be 'int', but got "
                        f"type '{type(value).__name__}'.")
    return value


def _curve_inputs(y_pred, y, class_num, pos_label):
    """(scores, labels, class_num, pos_label): binary scores flattened, multiclass ones (N, C)
    with the labels flattened."""
    if y_pred.ndim not in (y.ndim, y.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must "
                         f"have same dimensions, or the dimension of predicted value equal the "
                         f"dimension of true value add 1, but got predicted value ndim: "
                         f"{y_pred.ndim}, true value ndim: {y.ndim}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value "
                             f"(input[1]) have the same shape, the 'class_num' must be 1, but "
                             f"got {class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals "
                         f"the dimension of true value (input[1]) add 1, the 'pos_label' must "
                         f"be None, but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from "
                         f"predicted value (input[0]), but got 'class_num' {class_num}, the "
                         f"number of classes from predicted value {y_pred.shape[1]}.")
    return y_pred.reshape(-1, class_num), y.flatten(), class_num, pos_label


def _binary_clf_curve(preds, target, pos_label):
    """False and true positives at each distinct score, highest first, and those scores."""
    order = np.argsort(-preds)
    preds, target = preds[order], target[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    positive = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(positive, axis=0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]


class ROC(Metric):
    """`ROC(class_num=None, pos_label=None)`: after `update(y_pred, y)`, `eval()` gives
    (fpr, tpr, thresholds) as NumPy arrays, or for multiclass scores (N, C) lists of them, one
    per class. Each `update` replaces the data of the previous one.

    For multiclass scores MindSpore 2.10 reshapes the (N, C) scores to (C, N) before reading
    the columns, which mixes the samples unless N == C; the columns here are the classes."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = _check_int("class_num", class_num)
        self.pos_label = _check_int("pos_label", pos_label)
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """`update(y_pred, y)`: scores (N,) or (N, C), labels (N,) or one-hot as y_pred."""
        if len(inputs) != 2:
            raise ValueError(f"For 'ROC.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        y_pred, y, self.class_num, self.pos_label = _curve_inputs(
            self._convert_data(inputs[0]), self._convert_data(inputs[1]), self.class_num,
            self.pos_label)
        self.y_pred, self.y = y_pred, y
        self._is_update = True

    def _roc_eval(self, y_pred, y, class_num, pos_label):
        if class_num == 1:
            fps, tps, thresholds = _binary_clf_curve(y_pred, y, pos_label)
            tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
            fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
            thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
            if fps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no negative samples in true value, "
                                 "false positive value is meaningless.")
            if tps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no positive samples in true value, "
                                 "true positive value is meaningless.")
            return fps / fps[-1], tps / tps[-1], thresholds
        curves = [self._roc_eval(*_curve_inputs(y_pred[:, c], y, 1, c)[:2], 1, c)
                  for c in range(class_num)]
        return tuple(list(part) for part in zip(*curves))

    def eval(self):
        """(fpr, tpr, thresholds) of the data given to the last `update`."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        y_pred = self.y_pred if self.class_num == 1 else self.y_pred.reshape(
            -1, self.class_num)
        return self._roc_eval(y_pred, np.squeeze(self.y), self.class_num, self.pos_label)
