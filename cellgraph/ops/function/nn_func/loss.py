"""The functional losses, compositions of the core's operations; nn's loss Cells call them."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.ops.function.math_func.reduction import logsumexp
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_convert import check_tensor_dtype, dtype_error
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, fmt_shape
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.exports import export
from cellgraph.primitives.nn_functional import one_hot
from cellgraph.primitives.nn_ops import halving_sum, softmax_cross_entropy

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy",
           "gaussian_nll_loss", "hinge_embedding_loss", "kl_div", "l1_loss", "l2_loss",
           "margin_ranking_loss", "mse_loss", "nll_loss",
           "sigmoid_cross_entropy_with_logits", "smooth_l1_loss", "triplet_margin_loss"]


def _ctc_lengths(op: str, name: str, lengths, batch: int):
    """A CTC length argument as MindSpore's primitive takes it: an int32/int64 Tensor, or a
    tuple of Python ints (made an int64 Tensor); a tuple holding a float or a bool is typed
    by its widest element and refused, as is a list or a single number."""
    if is_tensor(lengths):
        check_tensor_dtype(op, name, abstract_of(lengths).dtype, (dt.int32, dt.int64))
        count = abstract_of(lengths).shape[0] if abstract_of(lengths).ndim else None
    elif isinstance(lengths, tuple) and all(isinstance(v, numbers.Number) for v in lengths):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in lengths):
            kind = ("Float32" if any(isinstance(v, float) for v in lengths)
                    else "Bool" if any(isinstance(v, bool) for v in lengths) else "External")
            raise dtype_error(op, name, (dt.int32, dt.int64), kind)
        lengths, count = A.cast(np.asarray(lengths, np.int64), dtype=dt.int64), len(lengths)
    else:
        raise DTypeError(f"For primitive[{op}], the input {name} must be a tuple or a tensor "
                         f"with all Int elements, but got {type(lengths).__name__} "
                         f"{lengths!r:.60}.")
    if count is not None and count != batch:
        raise ShapeError(f"For primitive[{op}], the {name}.shape[0] must be equal to {batch} , "
                         f"but got {count}.")
    return lengths


def _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, *, blank=0,
                 reduction="none", zero_infinity=False):
    """(neg_log_likelihood (N,), log_alpha (N, T, 2S+1)): the CTC forward recursion over the
    blank-extended targets in log space, unrolled over the T time steps; the loss reads alpha
    at each sequence's last step and its last two extended labels."""
    op = "CTCLossV2"
    t_len, batch, classes = abstract_of(log_probs).shape
    s_len = abstract_of(targets).shape[1]
    if reduction not in ("none", "mean", "sum"):
        raise ArgumentValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got "
                                 f"{reduction!r}")
    if not 0 <= blank < classes:
        raise ArgumentValueError(f"{op}: blank must be in [0, {classes}), got {blank}")
    input_lengths = _ctc_lengths(op, "input_lengths", input_lengths, batch)
    target_lengths = _ctc_lengths(op, "target_lengths", target_lengths, batch)
    ext = 2 * s_len + 1
    labels = F.cast(targets, dt.int64)
    # a target label outside [0, C) raises when the graph runs (MindSpore's CPU kernel reads
    # past the row instead); padding past a sequence's target length is not read
    counted = M.less(A.cast(np.arange(s_len), dtype=dt.int64),
                     F.expand_dims(F.cast(target_lengths, dt.int64), -1))
    labels = M.select(counted, check_range(M.select(counted, labels, F.zeros_like(labels)),
                                           low=0, high=max(classes, 1), what="target label",
                                           op=op), labels)
    blanks = F.fill(dt.int64, (batch, ext), blank)
    odd = A.cast(np.arange(ext) % 2 == 1, dtype=dt.bool_)
    spread = F.reshape(F.stack((labels, labels), -1), (batch, 2 * s_len))
    extended = M.select(odd, F.concat((spread, F.getitem(labels, (slice(None), slice(0, 1)))),
                                      -1), blanks)
    # a skip from s-2 to s is allowed where s is a label different from the one at s-2
    shifted = F.concat((F.fill(dt.int64, (batch, 2), blank),
                        F.getitem(extended, (slice(None), slice(0, ext - 2)))), -1)
    skip = M.logical_and(odd, M.not_equal(extended, shifted))
    dtype = abstract_of(log_probs).dtype
    neg = float(dt.finfo(dtype).min) / 4
    start = A.cast(np.arange(ext) < 2, dtype=dt.bool_)
    picks = F.cast(one_hot(extended, classes, 1, 0, -1), dtype)  # (N, ext, C)

    def emit(t):
        return F.reduce_sum(picks * F.expand_dims(F.getitem(log_probs, t), 1), -1)

    def shift(alpha, by):
        return F.concat((F.fill(dtype, (batch, by), neg),
                         F.getitem(alpha, (slice(None), slice(0, ext - by)))), -1)

    alpha = M.select(start, emit(0), F.fill(dtype, (batch, ext), neg))
    alphas = [alpha]
    for t in range(1, t_len):
        two_back = M.select(skip, shift(alpha, 2), F.fill(dtype, (batch, ext), neg))
        alpha = logsumexp(F.stack((alpha, shift(alpha, 1), two_back), 0), 0) + emit(t)
        alphas.append(alpha)
    log_alpha = F.stack(alphas, 1)  # (N, T, ext)
    steps = one_hot(F.cast(input_lengths, dt.int64) - 1, t_len, 1, 0, -1)
    final = F.reduce_sum(log_alpha * F.expand_dims(F.cast(steps, dtype), -1), 1)  # (N, ext)
    last = F.cast(target_lengths, dt.int64) * 2
    ends = M.logical_or(one_hot(last, ext, True, False, -1),
                        one_hot(last - 1, ext, True, False, -1))
    loss = -logsumexp(M.select(ends, final, F.fill(dtype, (batch, ext), neg)), -1)
    # no alignment fits (the input is too short for the targets): the loss is infinite, as in
    # MindSpore, or 0 with zero_infinity
    infeasible = M.greater(loss, -neg / 2)
    loss = M.select(infeasible, F.zeros_like(loss) if zero_infinity
                    else F.fill(dtype, (batch,), float("inf")), loss)
    if reduction == "mean":  # each sequence's loss per target label, then the batch mean
        lengths = M.maximum(F.cast(target_lengths, dtype), 1.0)
        loss = F.reduce_mean(loss / lengths)
    elif reduction == "sum":
        loss = F.reduce_sum(loss)
    return loss, log_alpha


@export
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """(loss, log_alpha) of the CTC loss of log-probabilities (T, N, C) against padded
    targets (N, S)."""
    return _ctc_loss_v2(log_probs, targets, input_lengths, target_lengths, blank=blank,
                        reduction=reduction, zero_infinity=zero_infinity)


def softmax_cross_entropy_with_logits(logits, labels):
    """(loss, backprop): per row -sum(labels * log_softmax(logits)) and its gradient with
    respect to the logits, softmax(logits) - labels, checked as MindSpore's primitive checks
    them (float16/float32, one (N, C) shape) before the fused `softmax_cross_entropy`."""
    op = "SoftmaxCrossEntropyWithLogits"
    lt, yt = abstract_of(logits), abstract_of(labels)
    for name, t in (("logits", lt), ("labels", yt)):
        if t.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"{op}: expected `{name}` of float16 or float32, got {t.dtype}")
    if lt.ndim != 2 or lt.shape != yt.shape:
        raise ShapeError(f"{op}: expected logits and labels of one shape (N, C), got "
                         f"{lt.shape} and {yt.shape}")
    return softmax_cross_entropy(logits, labels)


def _float_pair(op: str, logits, labels) -> None:
    check_tensors(op, logits, labels)
    for value in (logits, labels):
        if not abstract_of(value).dtype.is_float:
            raise DTypeError(f"{op}: expected float logits and labels, got "
                             f"{abstract_of(value).dtype}")
    if abstract_of(logits).shape != abstract_of(labels).shape:
        raise ShapeError(f"{op}: logits of shape {abstract_of(logits).shape} and labels of "
                         f"shape {abstract_of(labels).shape} must have one shape")


def sigmoid_cross_entropy_with_logits(logits, label):
    """Elementwise max(x, 0) - x * z + log(1 + exp(-|x|)), stable for large |x|."""
    _float_pair("SigmoidCrossEntropyWithLogits", logits, label)
    return M.add(M.sub(M.maximum(logits, 0.0), M.mul(logits, label)),
                 NF.softplus(M.neg(M.abs_(logits))))


def l2_loss(input_x):
    """sum(x ** 2) / 2, a scalar of x's dtype."""
    return M.div(F.reduce_sum(M.mul(input_x, input_x)), 2.0)


# ------------------------------------------------------------------ the functional losses
# nn's loss Cells (cellgraph/nn/loss.py) check their arguments when built and call these when
# applied; called directly, each checks its arguments as the Cell of the same meaning does, with
# that Cell's name in its errors.

REDUCTIONS = ("mean", "sum", "none")


def check_reduction(op: str, reduction) -> None:
    """`reduction` must be "mean", "sum" or "none" (ValueError naming `op` otherwise)."""
    if reduction not in REDUCTIONS:
        raise ArgumentValueError(f"{op}: `reduction` must be 'mean', 'sum' or 'none', got "
                                 f"{reduction!r}")


def reduce_loss(x, reduction="mean", weights=1.0):
    """Elementwise losses `x`, times `weights`, reduced by `reduction` (nn.LossBase.get_loss)."""
    if not (isinstance(weights, numbers.Number) and weights == 1.0):
        x = F.mul(x, weights)
    if reduction == "mean":
        return F.reduce_mean(x)
    if reduction == "sum":
        return F.reduce_sum(x)
    return x


def check_tensors(op: str, *values) -> None:
    """Each of `values` must be a Tensor: a TypeError naming `op` otherwise (a network's tuple
    of outputs handed to a loss, as MindSpore's primitives reject it), before any check reads a
    dtype or a shape."""
    for v in values:
        if not is_tensor(v):
            raise DTypeError(f"{op}: logits and labels must be Tensors, got "
                             f"{type(v).__name__} {v!r:.60}")


def check_float(op: str, *values) -> None:
    check_tensors(op, *values)
    for v in values:
        if not v.dtype.is_float:
            raise DTypeError(f"{op}: expected float logits and labels, got {v.dtype}")


def check_same_shape(op: str, logits, labels) -> None:
    check_tensors(op, logits, labels)
    if logits.shape != labels.shape:
        raise ShapeError(f"{op}: logits of shape {fmt_shape(logits.shape)} and labels of shape "
                         f"{fmt_shape(labels.shape)} must have one shape")


def check_positive_float(op: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value <= 0:
        raise ArgumentValueError(f"{op}: `{name}` must be a float > 0, got {value!r}")
    return float(value)


def check_float_margin(op: str, margin) -> float:
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise DTypeError(f"{op}: `margin` must be a float, got {margin!r}")
    return float(margin)


def check_triplet_args(p, swap, eps) -> None:
    op = "TripletMarginLoss"
    if isinstance(p, bool) or not isinstance(p, numbers.Integral) or p < 1:
        raise DTypeError(f"{op}: `p` must be a positive int, got {p!r}")
    if not isinstance(swap, bool):
        raise DTypeError(f"{op}: `swap` must be a bool, got {swap!r}")
    if not isinstance(eps, float):
        raise DTypeError(f"{op}: `eps` must be a float, got {eps!r}")


def check_label_smoothing(op: str, label_smoothing) -> float:
    if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real) \
            or not 0.0 <= label_smoothing <= 1.0:
        raise ArgumentValueError(f"{op}: `label_smoothing` must be a float in [0.0, 1.0], got "
                                 f"{label_smoothing!r}")
    return float(label_smoothing)


def class_axis_one_hot(op: str, labels, logits, axis: int = 1, ignore_index=None,
                       negative=False, error="index", one_hot=None):
    """One-hot rows of `labels` (ints) over the classes of `logits` (on `axis`), in logits'
    dtype; rows of labels equal to `ignore_index` are all zero. The other labels are checked
    when the graph runs, as MindSpore's kernels check them: a label outside [0, C) raises
    (IndexError, a RuntimeError, or ValueError with error="value"), except that with
    `negative` a label in [-C, 0) counts from the end, as MindSpore's GatherD reads it.
    `one_hot(labels, classes)` makes the rows along the last axis where a layer holds its own
    OneHot primitive."""
    if not labels.dtype.is_int:
        raise DTypeError(f"{op}: expected integer class labels, got {labels.dtype}")
    want = tuple(logits.shape[:axis]) + tuple(logits.shape[axis + 1:])
    if tuple(labels.shape) != want:
        raise ShapeError(f"{op}: labels of shape {fmt_shape(labels.shape)} do not fit logits of "
                         f"shape {fmt_shape(logits.shape)}; expected labels of shape "
                         f"{fmt_shape(want)}")
    classes = logits.shape[axis]
    zeros = F.zeros_like(labels)
    if ignore_index is not None:
        ignored = F.equal(labels, ignore_index)
        labels = F.select(ignored, zeros, labels)
    labels = check_range(labels, low=-classes if negative else 0, high=max(classes, 1),
                         what="label", op=op, error=error)
    if negative:
        labels = F.select(F.less(labels, zeros), F.add(labels, classes), labels)
    rows = NF.one_hot(labels, classes, 1, 0, axis=axis) if one_hot is None \
        else one_hot(labels, classes)
    picked = F.cast(rows, logits.dtype)
    if ignore_index is None:
        return picked
    return F.mul(picked, F.cast(F.expand_dims(F.logical_not(ignored), axis), logits.dtype))


def mse_loss(input, target, reduction="mean"):
    """(input - target)^2, broadcasting, reduced in float32 and given in the operands' float
    dtype, float32 for integers (MindSpore 2.10's ops.mse_loss)."""
    check_reduction("MSELoss", reduction)
    squared = F.square(F.sub(input, target))
    dtype = squared.dtype if squared.dtype.is_float else dt.float32
    return F.cast(reduce_loss(F.cast(squared, dt.float32), reduction), dtype)


def l1_loss(input, target, reduction="mean"):
    """|input - target|, broadcasting, reduced."""
    check_reduction("L1Loss", reduction)  # any dtypes, promoted (MindSpore's)
    return reduce_loss(F.abs(F.sub(input, target)), reduction)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = input - target)."""
    op = "SmoothL1Loss"
    check_reduction(op, reduction)
    beta = check_positive_float(op, "beta", beta)
    check_float(op, input, target)
    check_same_shape(op, input, target)
    diff = F.sub(input, target)
    size = F.abs(diff)
    quadratic = F.mul(F.square(diff), 0.5 / beta)
    linear = F.sub(size, 0.5 * beta)
    return reduce_loss(F.select(F.less(size, beta), quadratic, linear), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction="mean"):
    """Binary cross entropy on logits, computed stably:
    (1 - y) x + (1 + (pos_weight - 1) y) softplus(-x), times `weight`."""
    op = "BCEWithLogitsLoss"
    check_reduction(op, reduction)
    check_float(op, input, target)
    check_same_shape(op, input, target)
    log_term = NF.softplus(F.neg(input))
    if pos_weight is not None:
        log_term = F.mul(log_term, F.add(F.mul(F.sub(pos_weight, 1), target), 1))
    loss = F.add(F.mul(F.sub(1, target), input), log_term)
    return reduce_loss(loss, reduction, 1.0 if weight is None else weight)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """Binary cross entropy on probabilities: -w (y log p + (1 - y) log(1 - p)), the logs
    floored at log(1e-12) so that p = 0 or 1 stays finite."""
    op = "BCELoss"
    check_reduction(op, reduction)
    check_float(op, logits, labels)
    check_same_shape(op, logits, labels)
    log_p = F.log(F.maximum(logits, 1e-12))
    log_not_p = F.log(F.maximum(F.sub(1.0, logits), 1e-12))
    loss = F.neg(F.add(F.mul(labels, log_p), F.mul(F.sub(1.0, labels), log_not_p)))
    if weight is not None:
        loss = F.mul(loss, weight)
    if reduction == "none":
        return loss
    # summed in the order of MindSpore's kernel (one element counts twice there, as it does
    # here: the kernel folds an odd last element into the first before halving)
    total = halving_sum(loss)
    if reduction == "sum":
        return total
    shape = abstract_of(loss).shape
    count = (int(np.prod(shape, dtype=np.int64)) if None not in shape  # else counted at run time
             else F.reduce_sum(F.ones_like(loss)))
    return F.div(total, count)


def kl_div(logits, labels, reduction="mean"):
    """labels (log labels - logits), logits being log-probabilities; "batchmean" divides the
    sum by the batch size."""
    return kl_divergence(logits, labels, reduction)


def kl_divergence(logits, labels, reduction="mean", log_target=False):
    """kl_div, the labels log-probabilities too with `log_target` (mint's)."""
    op = "KLDivLoss"
    if log_target:
        labels = F.exp(labels)
    batchmean = reduction == "batchmean"
    reduction = "sum" if batchmean else reduction
    check_reduction(op, reduction)
    check_float(op, logits, labels)
    positive = F.greater(labels, 0)  # a label <= 0 adds nothing, as in MindSpore
    safe = F.select(positive, labels, F.ones_like(labels))
    terms = F.mul(labels, F.sub(F.log(safe), logits))
    out = reduce_loss(F.select(positive, terms, F.zeros_like(terms)), reduction)
    return F.div(out, logits.shape[0]) if batchmean else out


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin): target 1 ranks input1 first, -1 input2."""
    op = "MarginRankingLoss"
    check_reduction(op, reduction)
    margin = check_float_margin(op, margin)
    check_float(op, input1, input2)
    gap = F.mul(F.neg(target), F.sub(input1, input2))
    return reduce_loss(F.maximum(F.add(gap, margin), 0.0), reduction)


def _is_tensor(value) -> bool:
    return hasattr(value, "aval")


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)), plus 0.5 log(2 pi) when
    `full`, reduced; a `var` with one axis fewer than `x` (its last) is broadcast along it.
    MindSpore's checks and messages."""
    op = "gaussian_nll_loss"
    for name, value in (("x", x), ("target", target), ("var", var)):
        if not _is_tensor(value):
            raise DTypeError(f"For '{op}', '{name}' must be a tensor, but got {type(value)}.")
    if not isinstance(full, bool):
        raise DTypeError(f"For '{op}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ArgumentValueError(f"For '{op}', 'eps' must be a positive float, but got {eps}.")
    if reduction not in REDUCTIONS:
        raise ArgumentValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', or "
                                 f"'sum',        but got {reduction}.")
    if tuple(var.shape) != tuple(x.shape) and tuple(x.shape[:-1]) == tuple(var.shape):
        var = F.expand_dims(var, -1)
    clipped = F.maximum(var, eps)
    loss = F.mul(F.add(F.log(clipped), F.div(F.square(F.sub(x, target)), clipped)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * float(np.log(2 * np.pi)))
    return reduce_loss(loss, reduction)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """`inputs` where the target is positive, max(0, margin - inputs) where it is negative, 0
    where it is 0, broadcast together and reduced. MindSpore's checks and messages."""
    op = "HingeEmbeddingLoss"
    for which, value in (("first", inputs), ("second", targets)):
        if not _is_tensor(value):
            raise DTypeError(f"For '{op}', the {which} input must be a Tensor, but got "
                             f"{type(value)}.")
    for which, value in (("first", inputs), ("second", targets)):
        if not value.dtype.is_float:
            raise DTypeError(f"For '{op}', the dtype of the {which} input must be float, but "
                             f"got {value.dtype}.")
    if not isinstance(margin, (float, int)):  # True counts as 1, as MindSpore's
        raise DTypeError(f"For '{op}', 'margin' must be a float or int, but got "
                         f"{type(margin)}.")
    if reduction not in REDUCTIONS:
        raise ArgumentValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', "
                                 f"'sum',but got {reduction}.")
    positive = F.cast(F.greater(targets, 0), inputs.dtype)
    negative = F.cast(F.less(targets, 0), inputs.dtype)
    pushed = F.sub(F.mul(negative, float(margin)), F.mul(negative, inputs))
    return reduce_loss(F.add(F.mul(positive, inputs), F.maximum(pushed, 0.0)), reduction)


def _p_distance(a, b, p: int, eps):
    diff = F.abs(F.add(F.sub(a, b), eps))
    axes = tuple(range(1, len(diff.shape)))
    if p == 1:
        return F.reduce_sum(diff, axes)
    return F.pow(F.reduce_sum(F.pow(diff, float(p)), axes), 1.0 / p)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction="mean"):
    """max(d(anchor, positive) - d(anchor, negative) + margin, 0) per sample, d the p-norm of
    the difference plus eps over the non-batch axes; with `swap`, d(anchor, negative) is
    replaced by d(positive, negative) where that is smaller."""
    check_reduction("TripletMarginLoss", reduction)
    check_triplet_args(p, swap, eps)
    check_float("TripletMarginLoss", anchor, positive, negative)
    p = int(p)
    d_pos = _p_distance(anchor, positive, p, eps)
    d_neg = _p_distance(anchor, negative, p, eps)
    if swap:
        d_neg = F.minimum(d_neg, _p_distance(positive, negative, p, eps))
    return reduce_loss(F.maximum(F.add(F.sub(d_pos, d_neg), margin), 0.0), reduction)


def _class_weights(weight, like):
    """`weight` (C,) shaped to broadcast over the class axis 1 of `like`, in its dtype."""
    shape = (1, like.shape[1]) + (1,) * (len(like.shape) - 2)
    return F.reshape(F.cast(weight, like.dtype), shape)


def nll_loss_with(logits, labels, weight, ignore_index, reduction, negative_labels=True,
                  label_error="index"):
    """NLLLoss of log-probability `logits` (N, C, ...) at class ids `labels` (N, ...), the
    labels read as `class_axis_one_hot` reads them (`negative_labels`, `label_error`: how
    MindSpore's ops and mint's losses differ); 'mean' divides by the summed weights of the
    labels not ignored."""
    if not logits.dtype.is_float or len(logits.shape) < 2:
        raise ShapeError(f"NLLLoss: expected float logits of shape (N, C, ...), got "
                         f"{logits.dtype} of shape {fmt_shape(logits.shape)}")
    picks = class_axis_one_hot("NLLLoss", labels, logits, ignore_index=ignore_index,
                               negative=negative_labels, error=label_error)
    if weight is not None:
        picks = F.mul(picks, _class_weights(weight, logits))
    loss = F.neg(F.reduce_sum(F.mul(picks, logits), 1))
    if reduction == "none":
        return loss
    total = F.reduce_sum(loss)
    if reduction == "sum":
        return total
    return F.div(total, F.reduce_sum(picks))


def _smoothing_term(log_probs, labels, weight, ignore_index, reduction, negative_labels,
                    label_error):
    """The mean over classes of -weight * log p per element, ignored labels left out."""
    classes = log_probs.shape[1]
    per_class = F.neg(log_probs)
    if weight is not None:
        per_class = F.mul(per_class, _class_weights(weight, log_probs))
    kept = F.cast(F.not_equal(labels, ignore_index), log_probs.dtype)
    smooth = F.mul(F.div(F.reduce_sum(per_class, 1), classes), kept)
    if reduction == "none":
        return smooth
    if reduction == "sum":
        return F.reduce_sum(smooth)
    picks = class_axis_one_hot("CrossEntropyLoss", labels, log_probs, ignore_index=ignore_index,
                               negative=negative_labels, error=label_error)
    if weight is not None:
        picks = F.mul(picks, _class_weights(weight, log_probs))
    return F.div(F.reduce_sum(smooth), F.reduce_sum(picks))


def cross_entropy_with(logits, labels, weight, ignore_index, reduction, label_smoothing,
                       negative_labels=True, label_error="index"):
    """NLLLoss of log_softmax(logits) over the class axis 1. With `label_smoothing` e, the
    loss is (1 - e) * NLL + e * the mean over classes of -log p (weighted as the labels are),
    reduced with the same denominator, as MindSpore and PyTorch do."""
    check_tensors("CrossEntropyLoss", logits, labels)
    if not logits.dtype.is_float or len(logits.shape) < 2:
        raise ShapeError(f"CrossEntropyLoss: expected float logits of shape (N, C, ...), "
                         f"got {logits.dtype} of shape {fmt_shape(logits.shape)}")
    if labels.dtype.is_float and tuple(labels.shape) == tuple(logits.shape):
        return _probability_cross_entropy(logits, labels, weight, reduction, label_smoothing)
    log_probs = F.log_softmax(logits, 1)
    nll = nll_loss_with(log_probs, labels, weight, ignore_index, reduction, negative_labels,
                        label_error)
    if not label_smoothing:
        return nll
    smooth = _smoothing_term(log_probs, labels, weight, ignore_index, reduction,
                             negative_labels, label_error)
    return F.add(F.mul(nll, 1.0 - label_smoothing), F.mul(smooth, label_smoothing))


def _probability_cross_entropy(logits, target, weight, reduction, label_smoothing):
    """-sum over the class axis 1 of target * log_softmax(logits) (each class scaled by its
    `weight`), for targets that are class probabilities of the logits' shape; smoothing mixes
    them with the uniform distribution; 'mean' averages over the other positions."""
    if label_smoothing:
        target = F.add(F.mul(target, 1.0 - label_smoothing), label_smoothing / logits.shape[1])
    terms = F.mul(F.cast(target, logits.dtype), F.log_softmax(logits, 1))
    if weight is not None:
        terms = F.mul(terms, _class_weights(weight, logits))
    check_reduction("CrossEntropyLoss", reduction)
    return reduce_loss(F.neg(F.reduce_sum(terms, 1)), reduction)


def _check_cross_entropy_args(input, target, weight, ignore_index, label_smoothing) -> None:
    op = "cross_entropy_loss"
    for name, value in (("input", input), ("target", target), ("weight", weight)):
        if not (value is None and name == "weight" or _is_tensor(value)):
            raise DTypeError(f"For '{op}', the '{name}' must be a Tensor, but got "
                             f"'{type(value).__name__}'")
    if not input.dtype.is_float:
        raise DTypeError(f"For cross_entropy, the input dtype should be mstype.float64, "
                         f"mstype.float32 or mstype.float16, but got dtype:{input.dtype}.")
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise DTypeError(f"For '{op}', the type of 'ignore_index' must be 'int', but got "
                         f"'{type(ignore_index).__name__}'.")
    if not isinstance(label_smoothing, float):
        raise DTypeError(f"For '{op}', the 'label_smoothing' must be float, but got "
                         f"'{type(label_smoothing).__name__}'")


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """Softmax cross entropy over the class axis 1; `target` holds class indices, or class
    probabilities of input's shape. MindSpore's checks: Tensors, a float input, an int
    ignore_index and a float label_smoothing (TypeError)."""
    _check_cross_entropy_args(input, target, weight, ignore_index, label_smoothing)
    if target.dtype.is_float and tuple(target.shape) == tuple(input.shape):
        return _probability_cross_entropy(input, target, weight, reduction, label_smoothing)
    check_reduction("CrossEntropyLoss", reduction)
    ignore_index = int(ignore_index)
    label_smoothing = check_label_smoothing("CrossEntropyLoss", label_smoothing)
    return cross_entropy_with(input, target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean",
             label_smoothing=0.0):
    """Negative log likelihood of log-probabilities `inputs` (N, C, ...) at `target`."""
    if label_smoothing:
        return cross_entropy(inputs, target, weight, ignore_index, reduction, label_smoothing)
    check_reduction("NLLLoss", reduction)
    return nll_loss_with(inputs, target, weight, int(ignore_index), reduction)


def checked_labels(op, labels, classes, ignore_index):
    """`labels`, checked when the graph runs as MindSpore's NLLLoss kernel checks them: a label
    outside [0, C) that is not ignore_index raises ValueError."""
    ignored = F.equal(labels, ignore_index)
    checked = check_range(F.select(ignored, F.zeros_like(labels), labels), low=0,
                          high=max(classes, 1), what="label", op=op, error="value")
    return F.select(ignored, labels, checked)  # read through the check: ordered after it
