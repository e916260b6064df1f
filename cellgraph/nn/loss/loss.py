"""Losses: MSELoss, L1Loss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits, BCEWithLogitsLoss,
NLLLoss, CrossEntropyLoss. Each takes `reduction` = "mean", "sum" or "none" (MindSpore's
defaults differ per loss and are kept)."""
from __future__ import annotations

import math
import numbers

from cellgraph.compiler.builder import Tracer
from cellgraph.ops import functional as F
from cellgraph.ops.function.nn_func.loss import (
    REDUCTIONS,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    check_float,
    check_float_margin,
    check_label_smoothing,
    check_positive_float,
    check_same_shape,
    check_tensors,
    check_triplet_args,
    class_axis_one_hot,
    cross_entropy_with,
    ctc_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    kl_div,
    l1_loss,
    margin_ranking_loss,
    nll_loss_with,
    reduce_loss,
    smooth_l1_loss,
    triplet_margin_loss,
)
from cellgraph.ops.function.nn_func.margin_loss import (
    multi_margin,
    multilabel_margin_loss,
    multilabel_soft_margin,
)
from cellgraph.ops.operations.nn_ops import OneHot
from cellgraph.ops.operations.nn_ops import (
    SoftmaxCrossEntropyWithLogits as SoftmaxCrossEntropyWithLogitsPrim,
)
from cellgraph.ops.operations.random_ops import UniformCandidateSampler
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_ops import softmax_cross_entropy
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell
from ..layer.activation import LogSoftmax

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CTCLoss",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "DiceLoss",
    "FocalLoss",
    "GaussianNLLLoss",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "KLDivLoss",
    "L1Loss",
    "LossBase",
    "MAELoss",
    "MSELoss",
    "MarginRankingLoss",
    "MultiClassDiceLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "MultilabelMarginLoss",
    "NLLLoss",
    "PoissonNLLLoss",
    "RMSELoss",
    "SampledSoftmaxLoss",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "SoftmaxCrossEntropyWithLogits",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
]


class LossBase(Cell):
    """Base of the losses: `get_loss(x, weights)` weights and reduces elementwise losses. The
    losses compute theirs with ops' functional losses (reduction "none") and reduce them with
    `get_loss`, so a subclass that overrides `get_loss` changes how they reduce, as in
    MindSpore."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in REDUCTIONS:  # MindSpore's LossBase words
            raise ArgumentValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                                     f"['mean', 'sum', 'none'], but got {reduction}.")
        self.reduction = reduction

    def get_loss(self, x, weights=1.0):
        return reduce_loss(x, self.reduction, weights)

    def get_axis(self, x):
        """Every axis of `x`, (0, 1, ..., rank - 1): what a subclass reduces over."""
        return tuple(range(len(x.shape)))


class MSELoss(LossBase):
    """(logits - labels)^2, broadcasting."""

    def construct(self, logits, labels):  # in the promoted dtype, integers too (MindSpore's)
        return self.get_loss(F.square(F.sub(logits, labels)))


class L1Loss(LossBase):
    """|logits - labels|, broadcasting."""

    def construct(self, logits, labels):
        return self.get_loss(l1_loss(logits, labels, "none"))


class MAELoss(LossBase):
    """Mean absolute error |logits - labels| (reduced by `reduction`)."""

    def construct(self, logits, labels):  # any dtypes, promoted (MindSpore's)
        return self.get_loss(F.abs(F.sub(logits, labels)))


class RMSELoss(LossBase):
    """Root mean squared error sqrt(mean((logits - labels)^2))."""

    def __init__(self):
        super().__init__("mean")
        self.MSELoss = MSELoss()  # MindSpore's attribute name: the child prints as (MSELoss)

    def construct(self, logits, labels):
        check_float("RMSELoss", logits, labels)
        return F.sqrt(self.MSELoss(logits, labels))


class HuberLoss(LossBase):
    """0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere (d = logits - labels)."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        if isinstance(delta, bool) or not isinstance(delta, numbers.Real) or delta <= 0:
            raise ArgumentValueError(f"HuberLoss: `delta` must be a float > 0, got {delta!r}")
        self.delta = float(delta)

    def construct(self, logits, labels):
        check_float("HuberLoss", logits, labels)
        diff = F.sub(logits, labels)
        size = F.abs(diff)
        quadratic = F.mul(F.square(diff), 0.5)
        linear = F.mul(F.sub(size, 0.5 * self.delta), self.delta)
        return self.get_loss(F.select(F.less(size, self.delta), quadratic, linear))


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = logits - labels)."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = check_positive_float("SmoothL1Loss", "beta", beta)

    def construct(self, logits, labels):
        return self.get_loss(smooth_l1_loss(logits, labels, self.beta, "none"))


class SoftmaxCrossEntropyWithLogits(LossBase):
    """-sum(labels * log_softmax(logits)) over the last axis; `sparse` labels are class ids."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = bool(sparse)
        # MindSpore's layer computes through these primitives, and programs shard them
        # (`loss.softmax_cross_entropy.shard(...)`, `loss.one_hot.shard(...)`)
        self.softmax_cross_entropy = SoftmaxCrossEntropyWithLogitsPrim()
        self.one_hot = OneHot()
        self.on_value = Tensor(1.0, dt.float32)
        self.off_value = Tensor(0.0, dt.float32)

    def _one_hot_rows(self, labels, depth):
        return self.one_hot(labels, depth, self.on_value, self.off_value)

    def construct(self, logits, labels):
        op = "SoftmaxCrossEntropyWithLogits"
        check_tensors(op, logits, labels)
        if not logits.dtype.is_float:
            raise DTypeError(f"{op}: expected float logits, got {logits.dtype}")
        if self.sparse:
            # a label outside [0, C) raises when the graph runs (MindSpore's CPU kernel reads
            # past the row instead)
            labels = class_axis_one_hot(op, labels, logits, axis=len(logits.shape) - 1,
                                        one_hot=self._one_hot_rows)
        else:
            check_float(op, labels)
            check_same_shape(op, logits, labels)
        if labels.dtype != logits.dtype:  # mixed precisions meet in the wider one
            per_row = F.neg(F.reduce_sum(F.mul(labels, F.log_softmax(logits, -1)), -1))
            return self.get_loss(per_row)
        if len(logits.shape) == 2:  # the primitive's (N, C)
            return self.get_loss(self.softmax_cross_entropy(logits, labels)[0])
        return self.get_loss(softmax_cross_entropy(logits, labels)[0])


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy on logits, computed stably:
    (1 - y) x + (1 + (pos_weight - 1) y) softplus(-x), times `weight`."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits, labels):
        loss = binary_cross_entropy_with_logits(logits, labels, None, self.pos_weight, "none")
        return self.get_loss(loss, 1.0 if self.weight is None else self.weight)


class BCELoss(LossBase):
    """Binary cross entropy on probabilities: -w (y log p + (1 - y) log(1 - p)), the logs
    floored at log(1e-12) so that p = 0 or 1 stays finite."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        loss = binary_cross_entropy(logits, labels, None, "none")
        return self.get_loss(loss, 1.0 if self.weight is None else self.weight)


class SoftMarginLoss(LossBase):
    """log(1 + exp(-y x)) for labels y in {-1, 1}."""

    def construct(self, logits, labels):
        check_float("SoftMarginLoss", logits, labels)
        return self.get_loss(NF.softplus(F.neg(F.mul(labels, logits))))


class KLDivLoss(LossBase):
    """target (log target - logits), logits being log-probabilities; "batchmean" divides the
    sum by the batch size."""

    def __init__(self, reduction="mean"):
        super().__init__("sum" if reduction == "batchmean" else reduction)
        self.batchmean = reduction == "batchmean"

    def construct(self, logits, labels):
        out = self.get_loss(kl_div(logits, labels, "none"))
        return F.div(out, logits.shape[0]) if self.batchmean else out


class CosineEmbeddingLoss(LossBase):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1 (cosine along
    axis 1)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        if not -1.0 <= margin <= 1.0:
            raise ArgumentValueError(f"CosineEmbeddingLoss: `margin` must be in [-1, 1], got "
                                     f"{margin}")
        self.margin = float(margin)

    def construct(self, logits_x1, logits_x2, labels):
        check_float("CosineEmbeddingLoss", logits_x1, logits_x2)
        dot = F.reduce_sum(F.mul(logits_x1, logits_x2), 1)
        norms = F.sqrt(F.mul(F.reduce_sum(F.square(logits_x1), 1),
                             F.reduce_sum(F.square(logits_x2), 1)))
        cosine = F.div(dot, F.maximum(norms, 1e-12))
        positive = F.sub(1.0, cosine)
        negative = F.maximum(F.sub(cosine, self.margin), 0.0)
        return self.get_loss(F.select(F.equal(labels, 1), positive, negative))


class MarginRankingLoss(LossBase):
    """max(0, -target * (input1 - input2) + margin): target 1 ranks input1 first, -1 input2."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = check_float_margin("MarginRankingLoss", margin)

    def construct(self, input1, input2, target):
        return self.get_loss(margin_ranking_loss(input1, input2, target, self.margin, "none"))


class TripletMarginLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0) per sample, d the p-norm of the
    difference plus eps over the non-batch axes; with `swap`, d(x, negative) is replaced by
    d(positive, negative) where that is smaller. `margin` given to the call overrides the one
    given at construction."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        check_triplet_args(p, swap, eps)
        self.p, self.swap, self.eps, self.margin = int(p), swap, eps, margin

    def construct(self, x, positive, negative, margin=None):
        margin = self.margin if margin is None else margin
        return self.get_loss(triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                                 self.swap, "none"))


class DiceLoss(LossBase):
    """1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)."""

    def __init__(self, smooth=1e-5):
        super().__init__("mean")
        if smooth <= 0:
            raise ArgumentValueError(f"DiceLoss: `smooth` must be > 0, got {smooth}")
        self.smooth = float(smooth)

    def construct(self, logits, label):
        check_float("DiceLoss", logits, label)
        check_same_shape("DiceLoss", logits, label)
        intersection = F.reduce_sum(F.mul(logits, label))
        union = F.add(F.reduce_sum(F.square(logits)), F.reduce_sum(F.square(label)))
        return F.sub(1.0, F.div(F.mul(intersection, 2.0), F.add(union, self.smooth)))


class NLLLoss(LossBase):
    """-weight[y] * logits[y] for log-probability logits of shape (N, C, ...) and class ids y of
    shape (N, ...); 'mean' divides by the summed weights of the labels not ignored. As in
    MindSpore (which picks with GatherD), a label in [-C, 0) counts from the end and any other
    label outside [0, C) but ignore_index raises RuntimeError when the graph runs."""

    _negative_labels, _label_error = True, "index"  # mint's losses: [0, C) only, ValueError

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, int(ignore_index)

    def construct(self, logits, labels):
        return nll_loss_with(logits, labels, self.weight, self.ignore_index, self.reduction,
                             self._negative_labels, self._label_error)


class CrossEntropyLoss(NLLLoss):
    """NLLLoss of log_softmax(logits) over the class axis 1. With `label_smoothing` e, the
    loss is (1 - e) * NLL + e * the mean over classes of -log p (weighted as the labels are),
    reduced with the same denominator, as MindSpore and PyTorch do."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(weight, ignore_index, reduction)
        self.label_smoothing = check_label_smoothing("CrossEntropyLoss", label_smoothing)

    def construct(self, logits, labels):
        check_cross_entropy_inputs("CrossEntropyLoss", logits, labels)
        return cross_entropy_with(logits, labels, self.weight, self.ignore_index, self.reduction,
                                  self.label_smoothing, self._negative_labels, self._label_error)


def _check_type_name(op: str, name: str, dtype, valid: tuple) -> None:
    if dtype not in valid:
        names = (str(valid[0]) if len(valid) == 1
                 else f"one of [{', '.join(repr(t) for t in valid)}]")
        raise DTypeError(f"For '{op}', the '{name}' should be {names}, but got '{dtype!r}'.")


def check_cross_entropy_inputs(op: str, logits, labels) -> None:
    """nn.CrossEntropyLoss's own checks, stricter than ops.cross_entropy's: float16/float32
    logits; labels of the logits' shape are float16/float32 probabilities, labels of one rank
    less are int32 class indices (int64 is refused, as in MindSpore)."""
    _check_tensor(op, "logits", logits)
    _check_tensor(op, "labels", labels)
    _check_type_name(op, "logits", logits.dtype, (dt.float16, dt.float32))
    logits_shape, labels_shape = tuple(logits.shape), tuple(labels.shape)
    if len(logits_shape) == len(labels_shape):
        _check_type_name(op, "labels", labels.dtype, (dt.float16, dt.float32))
        if logits_shape != labels_shape:
            raise ShapeError(f"For '{op}', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                             f"and the shape of 'labels' should be (N, C, d_0, d_1, ...), but get "
                             f"'logits' shape: {logits_shape} and 'labels' shape: {labels_shape}.")
    elif len(labels_shape) == len(logits_shape) - 1:
        _check_type_name(op, "labels", labels.dtype, (dt.int32,))
        if len(logits_shape) != 1 and (logits_shape[0], *logits_shape[2:]) != labels_shape:
            raise ShapeError(f"For '{op}', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                             f"and the shape of 'labels' should be (N, d_0, d_1, ...), but get "
                             f"'logits' shape: {logits_shape} and 'labels' shape: {labels_shape}.")
    else:
        raise ShapeError(f"For '{op}', the rank of 'logits' and 'labels' should be: "
                         f"'logits.ndim == labels.ndim' for probabilities, 'logits.ndim - 1 == "
                         f"labels.ndim' for class indices, but get 'logits' rank: "
                         f"{len(logits_shape)} and 'labels' rank: {len(labels_shape)}.")


def _check_tensor(op: str, name: str, value) -> None:
    if not isinstance(value, (Tensor, Tracer)):
        raise DTypeError(f"{op}: `{name}` must be a Tensor, got {type(value).__name__}")


class MultiLabelSoftMarginLoss(LossBase):
    """The mean over the last (class) axis of y softplus(-x) + (1 - y) softplus(x), times
    `weight` (broadcast over the classes) before that mean, then reduced over the samples
    (ops.multilabel_soft_margin_loss)."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        _check_tensor("MultiLabelSoftMarginLoss", "x", x)
        _check_tensor("MultiLabelSoftMarginLoss", "target", target)
        return self.get_loss(multilabel_soft_margin(x, target, self.weight))


class MultilabelMarginLoss(LossBase):
    """The multi-label hinge loss (ops.multilabel_margin_loss): per sample, over its target
    classes (the target row's entries up to the first -1) and its other classes, the mean of
    max(0, 1 - (x[target] - x[other]))."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, x, target):
        return multilabel_margin_loss(x, target, self.reduction)


class SampledSoftmaxLoss(LossBase):
    """Softmax cross-entropy over each example's true classes and `num_sampled` classes drawn
    for the batch (uniformly, without repeats: MindSpore's UniformCandidateSampler, or the
    given `sampled_values` (sampled classes, expected count of the true classes, of the
    sampled ones)); the logits are x . w + b of those classes' rows of `weights` and
    `biases`, minus the log of their expected counts, and each true class has target
    1 / num_true. `construct(weights, biases, labels, logits)`, labels (batch, num_true).
    `reduction` reduces the per-example losses as MindSpore documents it (MindSpore 2.10's
    layer returns them unreduced whatever `reduction` says)."""

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None,
                 remove_accidental_hits=True, seed=0, reduction="none"):
        super().__init__(reduction)
        name = "SampledSoftmaxLoss"
        if num_true < 1:
            raise ArgumentValueError(f"For '{name}', the 'num_true' must be greater than or "
                                     f"equal to 1, but got {num_true}.")
        if seed < 0:
            raise ArgumentValueError(f"For '{name}', the 'seed' must be greater than or equal "
                                     f"to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ArgumentValueError(f"For '{name}', the 'num_sampled' must be smaller than or "
                                     f"equal to 'num_classes', but got 'num_sampled': "
                                     f"{num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ArgumentValueError(f"For '{name}', the 'num_true' must be smaller than or "
                                     f"equal to 'num_classes', but got 'num_true': {num_true} "
                                     f"amd 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise DTypeError(f"For '{name}', the type of 'sampled_values' must be a list or "
                                 f"tuple, but got {type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ArgumentValueError(f"For '{name}', the length of 'sampled_values' must be "
                                         f"equal to 3,but got {len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits, self.seed = remove_accidental_hits, seed
        self.sampler = UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed,
                                                 remove_accidental_hits)

    def construct(self, weights, biases, labels, logits):
        for key, value in (("weights", weights), ("biases", biases), ("labels", labels),
                           ("logits", logits)):
            _check_tensor("SampledSoftmaxLoss", key, value)
        if labels.dtype not in (dt.int32, dt.int64):
            raise DTypeError(f"For 'SampledSoftmaxLoss', the 'labels' must be int32 or int64, "
                             f"but got {labels.dtype}.")
        labels = F.reshape(F.cast(labels, dt.int32), (-1, self.num_true))
        flat = F.reshape(labels, (-1,))
        values = self.sampled_values if self.sampled_values is not None else self.sampler(
            labels)
        sampled, true_expected, sampled_expected = values
        sampled = F.cast(sampled, dt.int32)
        true_w, sampled_w = F.gather(weights, flat, 0), F.gather(weights, sampled, 0)
        true_logits = F.reshape(F.reduce_sum(F.expand_dims(logits, 1) * F.reshape(
            true_w, (-1, self.num_true, true_w.shape[-1])), -1), (-1, self.num_true))
        true_logits = true_logits + F.reshape(F.gather(biases, flat, 0), (-1, self.num_true))
        sampled_logits = F.matmul(logits, F.transpose(sampled_w, (1, 0))) + F.gather(
            biases, sampled, 0)
        true_logits = true_logits - F.log(true_expected)
        sampled_logits = sampled_logits - F.log(sampled_expected)
        out_logits = F.concat((true_logits, sampled_logits), 1)
        targets = F.concat((F.ones_like(true_logits) / self.num_true,
                            F.zeros_like(sampled_logits)), 1)
        shifted = F.exp(out_logits - F.expand_dims(F.reduce_max(out_logits, 1), 1))
        prediction = shifted / F.expand_dims(F.reduce_sum(shifted, 1), 1)
        return self.get_loss(-F.reduce_sum(targets * F.log(prediction + 1.0e-20), 1))


class HingeEmbeddingLoss(LossBase):
    """x where the label is positive, max(0, margin - x) where it is negative (0 where it is
    0), then reduced; labels are 1 or -1, broadcast with the logits."""

    def __init__(self, margin=1.0, reduction="mean"):
        if isinstance(margin, bool) or not isinstance(margin, (float, int)):
            raise DTypeError(f"HingeEmbeddingLoss: `margin` must be a float or int, got "
                             f"{type(margin).__name__}")
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits, labels):
        return hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class GaussianNLLLoss(LossBase):
    """0.5 (log(max(var, eps)) + (logits - labels)^2 / max(var, eps)), plus 0.5 log(2 pi)
    when `full`; a `var` with one axis fewer than `logits` (its last) is broadcast along it."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        if not isinstance(eps, float):
            raise DTypeError(f"GaussianNLLLoss: `eps` must be a float, got {type(eps).__name__}")
        if not 0 < eps < float("inf"):
            raise ArgumentValueError(f"GaussianNLLLoss: `eps` must be in (0, inf), got {eps}")
        if not isinstance(full, bool):
            raise DTypeError(f"GaussianNLLLoss: `full` must be a bool, got {type(full).__name__}")
        super().__init__(reduction)
        self.full, self.eps = full, float(eps)

    def construct(self, logits, labels, var):
        return gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """exp(x) - y x (log_input) or x - y log(x + eps), plus, when `full`, Stirling's
    y log y - y + log(2 pi y) / 2 where y > 1; the target is cast to the input's dtype."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):
        _check_tensor("PoissonNLLLoss", "input", input)
        _check_tensor("PoissonNLLLoss", "target", target)
        target = F.cast(target, input.dtype)
        if self.log_input:
            loss = F.sub(F.exp(input), F.mul(target, input))
        else:
            loss = F.sub(input, F.mul(target, F.log(F.add(input, self.eps))))
        if self.full:
            target = F.maximum(target, self.eps)
            stirling = F.add(F.sub(F.mul(F.add(target, 0.5), F.log(target)), target),
                             0.5 * math.log(2 * math.pi))
            loss = F.add(loss, F.select(F.greater(target, 1.0), stirling,
                                        F.zeros_like(stirling)))
        return self.get_loss(loss)


class FocalLoss(LossBase):
    """-(1 - p)^gamma log p per class, p the softmax over axis 1 of the logits (N, C, ...):
    with labels of one channel (class indices), at the labelled class and averaged over the
    positions; with C channels (one-hot or soft labels), weighted by the labels and averaged
    over the positions. `weight` (C,) scales each class's log p."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise DTypeError(f"FocalLoss: `gamma` must be a float, got {type(gamma).__name__}")
        if weight is not None and not isinstance(weight, Tensor):
            raise DTypeError(f"FocalLoss: `weight` must be a Tensor, got "
                             f"{type(weight).__name__}")
        if weight is not None and len(weight.shape) != 1:
            raise ArgumentValueError(f"FocalLoss: `weight` must have one dimension, got "
                                     f"{len(weight.shape)}")
        self.gamma, self.weight = gamma, weight
        self.logsoftmax = LogSoftmax(1)

    def construct(self, logits, labels):
        op = "FocalLoss"
        _check_tensor(op, "logits", logits)
        _check_tensor(op, "labels", labels)
        rank = len(logits.shape)
        if not 2 <= rank <= 4 or len(labels.shape) != rank:
            raise ArgumentValueError(f"{op}: `logits` and `labels` must have one rank in [2, 4], "
                                     f"got {rank} and {len(labels.shape)}")
        channels, label_channels = logits.shape[1], labels.shape[1]
        if channels == 1 or label_channels not in (1, channels):
            raise ArgumentValueError(f"{op}: logits.shape[1] must not be 1 and labels.shape[1] "
                                     f"must be 1 or logits.shape[1], got {channels} and "
                                     f"{label_channels}")
        if str(labels.dtype) not in ("Int32", "Int64", "Float16", "Float32"):
            raise DTypeError(f"{op}: `labels` must be int32, int64, float16 or float32, got "
                             f"{labels.dtype}")
        # each reshaped by its own batch, as MindSpore's: labels of a smaller batch gather
        # from the first rows of logits
        logits = F.reshape(logits, (logits.shape[0], channels, -1))
        labels = F.reshape(labels, (labels.shape[0], label_channels, -1))
        batch = labels.shape[0]
        log_p = self.logsoftmax(logits)
        index = F.cast(labels, dt.int32)
        if label_channels == 1:
            log_p = F.squeeze(F.gather_elements(log_p, 1, index), 1)
        p = F.exp(log_p)
        if self.weight is not None:
            weight = F.tile(F.reshape(self.weight, (1, channels, 1)),
                            (batch, 1, labels.shape[2]))
            if label_channels == 1:
                weight = F.squeeze(F.gather_elements(weight, 1, index), 1)
            log_p = F.mul(log_p, weight)
        scale = F.pow(F.sub(1.0, p), self.gamma)
        if label_channels == 1:
            return self.get_loss(F.reduce_mean(F.neg(F.mul(scale, log_p)), 1))
        return self.get_loss(F.reduce_mean(F.neg(F.mul(F.mul(scale, labels), log_p)), -1))


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of DiceLoss between each class's slice of the
    activated logits and of the labels, times `weights[i]` if given, `ignore_indiex` left
    out (MindSpore's spelling)."""

    _ACTIVATIONS = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        from ..layer.activation import get_activation

        op = "MultiClassDiceLoss"
        if weights is not None and not isinstance(weights, Tensor):
            raise DTypeError(f"{op}: `weights` must be a Tensor, got {type(weights).__name__}")
        if weights is not None and len(weights.shape) != 2:
            raise ArgumentValueError(f"{op}: `weights` must have 2 dimensions, got "
                                     f"{len(weights.shape)}")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool)
                                          or not isinstance(ignore_indiex, int)):
            raise DTypeError(f"{op}: `ignore_indiex` must be an int, got "
                             f"{type(ignore_indiex).__name__}")
        if isinstance(activation, str) and activation not in self._ACTIVATIONS:
            raise ArgumentValueError(f"{op}: `activation` must be in {list(self._ACTIVATIONS)}, "
                                     f"got {activation!r}")
        activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(activation, Cell):
            raise DTypeError(f"{op}: `activation` must be a str or a Cell, got "
                             f"{type(activation).__name__}")
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.activation = activation  # after binarydiceloss, MindSpore's child order

    def construct(self, logits, label):
        op = "MultiClassDiceLoss"
        _check_tensor(op, "logits", logits)
        _check_tensor(op, "labels", label)
        check_same_shape(op, logits, label)
        if len(logits.shape) < 2:
            raise ArgumentValueError(f"{op}: the inputs must have at least 2 dimensions, got "
                                     f"{len(logits.shape)}")
        if self.activation is not None:
            logits = self.activation(logits)
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ArgumentValueError(f"{op}: weights.shape[0] ({self.weights.shape[0]}) must be "
                                     f"labels.shape[1] ({classes})")
        total = 0
        for i in range(classes):
            if i != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    loss = F.mul(loss, self.weights[i])
                total = F.add(loss, total)
        return F.div(total, classes)


class MultiMarginLoss(LossBase):
    """Per sample, the sum over the classes i other than the target y of
    weight[y] max(0, margin - x[y] + x[i])^p, divided by the number of classes."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        if p not in (1, 2) or isinstance(p, bool):
            raise ArgumentValueError(f"MultiMarginLoss: `p` must be 1 or 2, got {p!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)):
            raise DTypeError(f"MultiMarginLoss: `margin` must be a float, got "
                             f"{type(margin).__name__}")
        self.p, self.margin, self.weight = p, float(margin), weight

    def construct(self, x, target, weight=None):
        weight = self.weight if self.weight is not None else weight
        return self.get_loss(multi_margin("MultiMarginLoss", x, target, self.p, self.margin,
                                          weight))


class TripletMarginWithDistanceLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0), d = `distance_function` (by default
    the 2-norm of |x - y| along axis 1); with `swap`, d(x, negative) is replaced by
    d(positive, negative) where that is smaller."""

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        op = "TripletMarginWithDistanceLoss"
        if not isinstance(margin, float):
            raise DTypeError(f"{op}: `margin` must be a float, got {type(margin).__name__}")
        if not isinstance(swap, bool):
            raise DTypeError(f"{op}: `swap` must be a bool, got {type(swap).__name__}")
        self.distance_function = distance_function or self._pairwise_distance
        self.swap, self.margin = swap, margin

    @staticmethod
    def _pairwise_distance(x, y):
        d = F.abs(F.sub(x, y))
        if len(d.shape) == 0:
            raise ArgumentValueError("TripletMarginWithDistanceLoss: the inputs of the "
                                     "pairwise distance must have at least one dimension")
        return F.sqrt(F.reduce_sum(F.square(d), 1))

    def construct(self, x, positive, negative):
        op = "TripletMarginWithDistanceLoss"
        for name, value in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor(op, name, value)
        d_pos = self.distance_function(x, positive)
        d_neg = self.distance_function(x, negative)
        if self.swap:
            d_neg = F.minimum(d_neg, self.distance_function(positive, negative))
        return self.get_loss(F.maximum(F.add(F.sub(d_pos, d_neg), self.margin), 0.0))


class CTCLoss(LossBase):
    """The connectionist temporal classification loss of log-probabilities (T, N, C), or
    (T, C) for one unbatched sequence, against padded targets (N, S) (or (S,) / (1, S)
    unbatched): ops.ctc_loss's negative log-likelihood."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        if isinstance(blank, bool) or not isinstance(blank, int):
            raise DTypeError(f"CTCLoss: `blank` must be an int, got {type(blank).__name__}")
        if not isinstance(zero_infinity, bool):
            raise DTypeError(f"CTCLoss: `zero_infinity` must be a bool, got "
                             f"{type(zero_infinity).__name__}")
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        _check_tensor("CTCLoss", "log_probs", log_probs)
        _check_tensor("CTCLoss", "targets", targets)
        if len(log_probs.shape) == 2:
            if len(targets.shape) > 2 or len(targets.shape) == 2 and targets.shape[0] != 1:
                raise ShapeError(f"CTCLoss: with log_probs of shape (T, C), targets must be "
                                 f"(S,) or (1, S), got shape {fmt_shape(targets.shape)}")
            if len(targets.shape) == 1:
                targets = F.expand_dims(targets, 0)
            loss, _ = ctc_loss(F.expand_dims(log_probs, -2), targets, input_lengths,
                               target_lengths, self.blank, self.reduction, self.zero_infinity)
            return F.squeeze(loss, 0) if self.reduction == "none" else loss
        loss, _ = ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                           self.reduction, self.zero_infinity)
        return loss
