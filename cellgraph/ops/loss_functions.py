"""The functional losses (`ops.cross_entropy`, `ops.mse_loss`, ...): each applies the nn loss
Cell of the same meaning, so the two never disagree. Inside a graph the Cell runs as library
Python over graph values, like any library function."""
from __future__ import annotations

from cellgraph.ops import functional as F
from cellgraph.primitives.check_ops import check_range


def _nn():
    """cellgraph.nn, which sits above ops: loaded when a loss is first computed."""
    from cellgraph import nn

    return nn


__all__ = ["BinaryCrossEntropy", "NLLLoss", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "cross_entropy",
           "kl_div", "l1_loss", "margin_ranking_loss", "mse_loss", "nll_loss", "smooth_l1_loss",
           "triplet_margin_loss"]


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Softmax cross entropy over the class axis 1; `target` holds class indices, or class
    probabilities of input's shape."""
    if target.dtype.is_float and tuple(target.shape) == tuple(input.shape):
        if label_smoothing:
            target = F.add(F.mul(target, 1.0 - label_smoothing),
                           label_smoothing / input.shape[1])
        loss = F.neg(F.reduce_sum(F.mul(target, F.log_softmax(input, 1)), 1))
        return _nn().LossBase(reduction).get_loss(loss)
    return _nn().CrossEntropyLoss(weight, ignore_index, reduction, label_smoothing)(input, target)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Negative log likelihood of log-probabilities `inputs` (N, C, ...) at `target`."""
    if label_smoothing:
        return cross_entropy(inputs, target, weight, ignore_index, reduction, label_smoothing)
    return _nn().NLLLoss(weight, ignore_index, reduction)(inputs, target)


def checked_labels(op, labels, classes, ignore_index):
    """`labels`, checked when the graph runs as MindSpore's NLLLoss kernel checks them: a label
    outside [0, C) that is not ignore_index raises ValueError."""
    ignored = F.equal(labels, ignore_index)
    checked = check_range(F.select(ignored, F.zeros_like(labels), labels), low=0,
                          high=max(classes, 1), what="label", op=op, error="value")
    return F.select(ignored, labels, checked)  # read through the check: ordered after it


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    return _nn().MarginRankingLoss(margin, reduction)(input1, input2, target)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    return _nn().TripletMarginLoss(p, swap, eps, reduction, margin)(anchor, positive, negative)


def mse_loss(input, target, reduction="mean"):
    return _nn().MSELoss(reduction)(input, target)


def l1_loss(input, target, reduction="mean"):
    return _nn().L1Loss(reduction)(input, target)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    return _nn().SmoothL1Loss(beta, reduction)(input, target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    return _nn().BCEWithLogitsLoss(reduction, weight, pos_weight)(input, target)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    return _nn().BCELoss(weight, reduction)(input, target)


def kl_div(logits, labels, reduction="mean", log_target=False):
    if log_target:
        labels = F.exp(labels)
    return _nn().KLDivLoss(reduction)(logits, labels)


class BinaryCrossEntropy:
    """`ops.BinaryCrossEntropy(reduction)(logits, labels, weight=None)` on probabilities."""

    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, logits, labels, weight=None):
        return binary_cross_entropy(logits, labels, weight, self.reduction)


class NLLLoss:
    """`ops.NLLLoss(reduction, ignore_index)(logits, labels, weight)` -> (loss, total_weight),
    total_weight being the summed class weights of the targets that count."""

    def __init__(self, reduction="mean", ignore_index=-100):
        self.reduction, self.ignore_index = reduction, ignore_index

    def __call__(self, logits, labels, weight):
        labels = checked_labels("NLLLoss", labels, logits.shape[1], self.ignore_index)
        loss = nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        counted = F.cast(F.not_equal(labels, self.ignore_index), weight.dtype)
        safe = F.select(F.not_equal(labels, self.ignore_index), labels, F.zeros_like(labels))
        return loss, F.reduce_sum(F.mul(F.gather(weight, safe, 0), counted))
