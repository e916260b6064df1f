"""The functional losses, compositions of the core's operations; nn's loss Cells call them."""
from __future__ import annotations

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.derive import export
from cellgraph.ops.function.math_func import logsumexp
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import one_hot
from cellgraph.primitives.nn_ops import softmax_cross_entropy

__all__ = ["l2_loss", "sigmoid_cross_entropy_with_logits"]


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
    neg = float(np.finfo(dtype.np).min) / 4
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
