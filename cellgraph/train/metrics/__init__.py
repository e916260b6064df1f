"""Metrics: accumulate over batches with `update`, read with `eval`, reset with `clear`.

Inputs are Tensors, NumPy arrays or lists; class scores are (N, C) and labels either class
indices (N,) or one-hot rows (N, C), as in MindSpore. `Model.eval` hands each metric the
network's outputs and the labels (and `Loss` the loss).
"""
from __future__ import annotations

import numbers
import sys

import numpy as np

from .auc import auc
from .bleu_score import BleuScore
from .confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from .cosine_similarity import CosineSimilarity
from .dice import Dice
from .hausdorff_distance import HausdorffDistance
from .mean_surface_distance import MeanSurfaceDistance
from .metric import Metric, rearrange_inputs
from .occlusion_sensitivity import OcclusionSensitivity
from .perplexity import Perplexity
from .roc import ROC
from .root_mean_square_surface_distance import RootMeanSquareDistance

__all__ = [
    "F1",
    "MAE",
    "MSE",
    "ROC",
    "Accuracy",
    "BleuScore",
    "ConfusionMatrix",
    "ConfusionMatrixMetric",
    "CosineSimilarity",
    "Dice",
    "Fbeta",
    "HausdorffDistance",
    "Loss",
    "MeanSurfaceDistance",
    "Metric",
    "OcclusionSensitivity",
    "Perplexity",
    "Precision",
    "Recall",
    "RootMeanSquareDistance",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "TopKCategoricalAccuracy",
    "auc",
    "get_metric_fn",
    "names",
    "rearrange_inputs",
]


def _check_inputs(op: str, inputs: tuple, count: int):
    if len(inputs) != count:
        raise ValueError(f"{op}.update: expected {count} inputs, got {len(inputs)}")


def _check_same_shape(op: str, y_pred: np.ndarray, y: np.ndarray):
    if y_pred.shape != y.shape:
        raise ValueError(f"{op}.update: in the multilabel case the predictions and labels must "
                         f"have one shape, got {y_pred.shape} and {y.shape}")


def _is_one_hot(y: np.ndarray) -> bool:
    """0/1 rows (axis 1) that each hold exactly one 1, as MindSpore's metrics test labels."""
    return y.ndim > 1 and bool(np.all(y * y == y)) and bool(np.all(y.sum(axis=1) == 1))


def _class_labels(y: np.ndarray, scores: np.ndarray, op: str) -> np.ndarray:
    """Labels as class indices: one-hot rows become their argmax."""
    if y.ndim == scores.ndim and y.shape == scores.shape:
        return y.argmax(axis=-1)
    if y.shape != scores.shape[:-1]:
        raise ValueError(f"{op}.update: labels of shape {y.shape} do not fit predictions of "
                         f"shape {scores.shape}; expected {scores.shape[:-1]} or {scores.shape}")
    return y


class Accuracy(Metric):
    """The fraction of correct predictions: the argmax over axis 1 of the scores
    ("classification"; the labels class indices or one-hot) or 0/1 predictions equal to the 0/1
    labels in every class ("multilabel"). Shapes and values checked as MindSpore checks them."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"Accuracy: the argument 'eval_type' must be in {{'multilabel', "
                            f"'classification'}}, but got {eval_type!r}")
        self._type = eval_type
        self.clear()

    def clear(self):
        self._correct_num, self._total_num, self._class_num = 0, 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For 'Accuracy.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_one_hot_axis1(y):
            y = y.argmax(axis=1)
        _check_evaluation_shape(self._type, y_pred, y)
        if self._type != "classification" and not (
                np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y "
                             "(true value) should be 0 or 1.Please check whether your inputs "
                             "y_pred and y are correct.")
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For 'Accuracy.update', class number not match, last input "
                             f"predicted data contain {self._class_num} classes, but current "
                             f"predicted data contain {y_pred.shape[1]} classes, please check your "
                             f"predicted value(inputs[0]).")
        if self._type == "classification":
            correct = (y_pred.argmax(axis=1) == y).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            y = y.swapaxes(1, last).reshape(-1, self._class_num)
            correct = np.equal(y_pred, y).all(axis=1)
        self._correct_num += int(np.sum(correct))
        self._total_num += int(correct.shape[0])

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of "
                               "samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before calling "
                               "eval method.")
        return np.float64(self._correct_num / self._total_num)  # MindSpore's type


def _is_one_hot_axis1(data: np.ndarray) -> bool:
    """0/1 values that sum to one over axis 1, as MindSpore's `_check_onehot_data`."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        return bool(np.equal(data.sum(axis=1), 1).all())
    return False


def _check_evaluation_shape(kind: str, y_pred: np.ndarray, y: np.ndarray) -> None:
    """MindSpore's shape checks of a classification or multilabel evaluation, in its words."""
    if kind == "classification":
        if y_pred.ndim != y.ndim + 1:
            raise ValueError(f"In classification case, the dimension of y_pred (predicted value) "
                             f"should equal to the dimension of y (true value) add 1, but got "
                             f"y_pred dimension: {y_pred.ndim} and y dimension: {y.ndim}.")
        if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
            raise ValueError(f"In classification case, y_pred (predicted value) shape and y (true "
                             f"value) shape can not match, y shape should be equal to y_pred shape "
                             f"that the value at index 1 is deleted. Such as y_pred shape (1, 2, "
                             f"3), then y shape should be (1, 3). But got y_pred shape "
                             f"{y_pred.shape} and y shape {y.shape}")
        return
    if y_pred.ndim != y.ndim:
        raise ValueError(f"In {kind} case, the dimension of y_pred (predicted value) should equal "
                         f"to the dimension of y (true value), but got y_pred dimension: "
                         f"{y_pred.ndim} and y dimension: {y.ndim}.")
    if y_pred.shape != y.shape:
        raise ValueError(f"In {kind} case, the shape of y_pred (predicted value) should equal to "
                         f"the shape of y (true value), but got y_pred shape: {y_pred.shape} and y "
                         f"shape: {y.shape}.")


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
        return np.float64(self._sum_loss / self._total_num)  # MindSpore's type


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
        return np.float64(self._error_sum / self._samples_num)  # MindSpore's type


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
        start = np.empty(0) if self._type == "multilabel" else 0
        self._true_positives = self._predicted = self._actual = start

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
            self._true_positives = self._true_positives + (truth * predicted).sum(axis=0)
            self._predicted = self._predicted + predicted.sum(axis=0)
            self._actual = self._actual + truth.sum(axis=0)
            return
        # multilabel: MindSpore counts per sample (over its classes), concatenated over updates
        _check_same_shape(op, y_pred, y)
        truth = np.moveaxis(y, 1, 0).reshape(classes, -1)
        predicted = np.moveaxis(np.round(y_pred), 1, 0).reshape(classes, -1)
        self._true_positives = np.append(self._true_positives, (truth * predicted).sum(axis=0))
        self._predicted = np.append(self._predicted, predicted.sum(axis=0))
        self._actual = np.append(self._actual, truth.sum(axis=0))

    def _counted(self):
        if isinstance(self._actual, int) or self._actual.size == 0:  # no update yet
            name = type(self).__name__
            raise RuntimeError(f"{name}: no samples yet; call update first")


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
        if not isinstance(k, int):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should "
                            f"be int, but got 'k' type: {type(k)}.")
        if k < 1:
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
        labels = y.argmax(axis=1) if y.ndim == y_pred.ndim and _is_one_hot(y) else \
            _class_labels(y, y_pred, op)
        top = np.argsort(-y_pred, axis=-1, kind="stable")[..., :self.k]
        self._correct_num += int((top == labels[..., None]).any(axis=-1).sum())
        self._samples_num += labels.size

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}: no samples yet; call update first")
        return np.float64(self._correct_num / self._samples_num)  # MindSpore's type


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


_METRICS = {"accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall,
            "F1": F1, "dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore,
            "cosine_similarity": CosineSimilarity, "occlusion_sensitivity": OcclusionSensitivity,
            "topk": TopKCategoricalAccuracy, "hausdorff_distance": HausdorffDistance,
            "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
            "mae": MAE, "mse": MSE, "loss": Loss, "mean_surface_distance": MeanSurfaceDistance,
            "root_mean_square_distance": RootMeanSquareDistance, "perplexity": Perplexity,
            "confusion_matrix": ConfusionMatrix, "confusion_matrix_metric": ConfusionMatrixMetric}


def names() -> list[str]:
    """The metric names `Model(metrics={...})` and `get_metric_fn` accept."""
    return sorted(_METRICS)


def get_metric_fn(name, *args, **kwargs) -> Metric:
    """A new metric by name ("accuracy", "loss", "mae", ...)."""
    if name not in _METRICS:
        raise KeyError(f"get_metric_fn: unknown metric {name!r}; expected one of "
                       f"{', '.join(names())}")
    return _METRICS[name](*args, **kwargs)
