"""Metrics: accumulate over batches with `update`, read with `eval`, reset with `clear`.

Inputs are Tensors, NumPy arrays or lists; class scores are (N, C) and labels either class
indices (N,) or one-hot rows (N, C), as in MindSpore. `Model.eval` hands each metric the
network's outputs and the labels (and `Loss` the loss).
"""
from __future__ import annotations

import numbers
import sys
import typing

import numpy as np

from .metric import Metric, rearrange_inputs
from .roc import ROC

__all__ = [
    "F1",
    "MAE",
    "MSE",
    "ROC",
    "Accuracy",
    "ConfusionMatrix",
    "Fbeta",
    "Loss",
    "Metric",
    "Precision",
    "Recall",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "TopKCategoricalAccuracy",
    "get_metric_fn",
    "names",
    "rearrange_inputs",
]


def _check_inputs(op: str, inputs: tuple, count: int):
    if len(inputs) != count:
        raise ValueError(f"{op}.update: expected {count} inputs, got {len(inputs)}")


def _class_labels(y: np.ndarray, scores: np.ndarray, op: str) -> np.ndarray:
    """Labels as class indices: one-hot rows become their argmax."""
    if y.ndim == scores.ndim and y.shape == scores.shape:
        return y.argmax(axis=-1)
    if y.shape != scores.shape[:-1]:
        raise ValueError(f"{op}.update: labels of shape {y.shape} do not fit predictions of "
                         f"shape {scores.shape}; expected {scores.shape[:-1]} or {scores.shape}")
    return y


class Accuracy(Metric):
    """The fraction of correct predictions: argmax of the scores ("classification") or every
    rounded score equal to the label ("multilabel")."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"Accuracy: the argument 'eval_type' must be in {{'multilabel', "
                            f"'classification'}}, but got {eval_type!r}")
        self._type = eval_type
        self.clear()

    def clear(self):
        self._correct_num, self._total_num = 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        _check_inputs("Accuracy", inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if self._type == "classification":
            correct = y_pred.argmax(axis=-1) == _class_labels(y, y_pred, "Accuracy")
        else:
            correct = (np.round(y_pred) == y).all(axis=tuple(range(1, y.ndim)) or None)
        self._correct_num += int(np.sum(correct))
        self._total_num += int(np.size(correct))

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Accuracy: no samples yet; call update before eval")
        return self._correct_num / self._total_num


class Loss(Metric):
    """The mean of the losses given to `update`."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss, self._total_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        _check_inputs("Loss", inputs, 1)
        loss = self._convert_data(inputs[0])
        if loss.ndim > 1:
            raise ValueError(f"Loss.update: expected a scalar or 1-D loss, got shape "
                             f"{loss.shape}")
        self._sum_loss += float(np.mean(loss))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Loss: no losses yet; call update before eval")
        return self._sum_loss / self._total_num


class _ErrorMetric(Metric):
    """Mean over samples of an elementwise error summed per sample (MAE, MSE)."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum, self._samples_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        _check_inputs(type(self).__name__, inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        diff = y.reshape(y_pred.shape) - y_pred
        self._error_sum += float(self._error(diff).sum())
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}: no samples yet; call update first")
        return self._error_sum / self._samples_num


class MAE(_ErrorMetric):
    """Mean absolute error."""

    _error = staticmethod(np.abs)


class MSE(_ErrorMetric):
    """Mean squared error."""

    _error = staticmethod(np.square)


class _ClassCounts(Metric):
    """Per-class true positives, predicted positives and actual positives."""

    eps = sys.float_info.min

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"{type(self).__name__}: `eval_type` must be 'classification' or "
                             f"'multilabel', got {eval_type!r}")
        self._type = eval_type
        self.clear()

    def clear(self):
        self._true_positives = self._predicted = self._actual = 0

    @rearrange_inputs
    def update(self, *inputs):
        op = type(self).__name__
        _check_inputs(op, inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        classes = y_pred.shape[-1]
        if self._type == "classification":
            labels = _class_labels(y, y_pred, op).astype(np.int64)
            if labels.size and (labels.min() < 0 or labels.max() >= classes):
                raise ValueError(f"{op}.update: labels must lie in [0, {classes})")
            truth = np.eye(classes)[labels.reshape(-1)]
            predicted = np.eye(classes)[y_pred.reshape(-1, classes).argmax(axis=-1)]
        else:
            truth = y.reshape(-1, classes)
            predicted = np.round(y_pred).reshape(-1, classes)
        self._true_positives = self._true_positives + (truth * predicted).sum(axis=0)
        self._predicted = self._predicted + predicted.sum(axis=0)
        self._actual = self._actual + truth.sum(axis=0)

    def _counted(self):
        if isinstance(self._actual, int):  # no update yet: MindSpore's RuntimeError
            name = type(self).__name__
            raise RuntimeError(f"{name}: no samples yet; call update first")  # noqa: TRY004


class Precision(_ClassCounts):
    """Per class: true positives / predicted positives (their mean with `average=True`)."""

    def eval(self, average=False):
        self._counted()
        result = self._true_positives / (self._predicted + self.eps)
        return float(result.mean()) if average else result


class Recall(_ClassCounts):
    """Per class: true positives / actual positives (their mean with `average=True`)."""

    def eval(self, average=False):
        self._counted()
        result = self._true_positives / (self._actual + self.eps)
        return float(result.mean()) if average else result


class Fbeta(_ClassCounts):
    """Per class: (1 + beta^2) * precision * recall / (beta^2 * precision + recall)."""

    def __init__(self, beta):
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or beta <= 0:
            raise ValueError(f"Fbeta: `beta` must be a positive number, got {beta!r}")
        self.beta = float(beta)
        super().__init__()

    def eval(self, average=False):
        self._counted()
        precision = self._true_positives / (self._predicted + self.eps)
        recall = self._true_positives / (self._actual + self.eps)
        b2 = self.beta ** 2
        result = (1 + b2) * precision * recall / (b2 * precision + recall + self.eps)
        return float(result.mean()) if average else result


class F1(Fbeta):
    """Fbeta with beta = 1."""

    def __init__(self):
        super().__init__(1.0)


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose label is among the `k` highest scores."""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"TopKCategoricalAccuracy: `k` must be a positive int, got {k!r}")
        self.k = int(k)
        self.clear()

    def clear(self):
        self._correct_num, self._samples_num = 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        op = type(self).__name__
        _check_inputs(op, inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        labels = _class_labels(y, y_pred, op)
        top = np.argsort(-y_pred, axis=-1, kind="stable")[..., :self.k]
        self._correct_num += int((top == labels[..., None]).any(axis=-1).sum())
        self._samples_num += labels.size

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}: no samples yet; call update first")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


class ConfusionMatrix(Metric):
    """Counts of (true class, predicted class) pairs: rows are targets, columns predictions.
    Scores of shape (N, C, ...) predict their argmax over axis 1; predictions of the labels'
    shape are compared with `threshold` (binary). `normalize` divides by the row sums
    ("target"), the column sums ("prediction") or the total ("all"); empty rows or columns
    stay zero."""

    _NORMALIZERS: typing.ClassVar[dict] = {"no_norm": None, "target": (1,), "prediction": (0,), "all": (0, 1)}

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, numbers.Integral) \
                or num_classes < 1:
            raise ValueError(f"ConfusionMatrix: `num_classes` must be a positive int, got "
                             f"{num_classes!r}")
        if normalize not in self._NORMALIZERS:
            raise ValueError(f"ConfusionMatrix: `normalize` must be one of "
                             f"{', '.join(self._NORMALIZERS)}, got {normalize!r}")
        self.num_classes, self.normalize = int(num_classes), normalize
        self.threshold = float(threshold)
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        _check_inputs("ConfusionMatrix", inputs, 2)
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


_METRICS = {"accuracy": Accuracy, "acc": Accuracy, "loss": Loss, "mae": MAE, "mse": MSE,
            "precision": Precision, "recall": Recall, "roc": ROC, "F1": F1,
            "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy}


def names() -> list[str]:
    """The metric names `Model(metrics={...})` and `get_metric_fn` accept."""
    return sorted(_METRICS)


def get_metric_fn(name, *args, **kwargs) -> Metric:
    """A new metric by name ("accuracy", "loss", "mae", ...)."""
    if name not in _METRICS:
        raise KeyError(f"get_metric_fn: unknown metric {name!r}; expected one of "
                       f"{', '.join(names())}")
    return _METRICS[name](*args, **kwargs)
