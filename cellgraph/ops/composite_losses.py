"""The loss primitives of MindSpore's 1.x model zoo (`P.SparseSoftmaxCrossEntropyWithLogits()`,
`P.SigmoidCrossEntropyWithLogits()`, `P.L2Loss()`), with `ops.clip_by_norm` and
`ops.bernoulli`, as compositions of existing operations."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, running_eagerly
from cellgraph.primitives.errors import DTypeError, ShapeError
from cellgraph.primitives.random_ops import rand_like

from . import functional as F
from .composite_classes import function_class, softmax_cross_entropy_with_logits

__all__ = ["L2Loss", "SigmoidCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
           "bernoulli", "clip_by_norm", "l2_loss", "sigmoid_cross_entropy_with_logits"]


def _float_pair(op: str, logits, labels) -> None:
    for value in (logits, labels):
        if not abstract_of(value).dtype.is_float:
            raise DTypeError(f"{op}: expected float logits and labels, got "
                             f"{abstract_of(value).dtype}")
    if abstract_of(logits).shape != abstract_of(labels).shape:
        raise ShapeError(f"{op}: logits of shape {abstract_of(logits).shape} and labels of "
                         f"shape {abstract_of(labels).shape} must have one shape")


class SparseSoftmaxCrossEntropyWithLogits:
    """Mean cross entropy of logits (N, C) at class indices (N,); with `is_grad=True`, its
    gradient with respect to the logits instead."""

    def __init__(self, is_grad=False):
        self.is_grad = bool(is_grad)

    def __call__(self, logits, labels):
        if not abstract_of(labels).dtype.is_int:
            raise DTypeError(f"SparseSoftmaxCrossEntropyWithLogits: expected integer labels, "
                             f"got {abstract_of(labels).dtype}")
        classes = abstract_of(logits).shape[-1]
        # MindSpore raises RuntimeError for a negative label (and reads past the row for one
        # >= C): every label outside [0, C) raises when the graph runs
        labels = check_range(labels, low=0, high=max(classes, 1), what="label",
                             op="SparseSoftmaxCrossEntropyWithLogits")
        dense = F.cast(NF.one_hot(labels, classes, 1, 0, -1), abstract_of(logits).dtype)
        loss, grad = softmax_cross_entropy_with_logits(logits, dense)
        if self.is_grad:
            return M.div(grad, abstract_of(logits).shape[0])
        return F.reduce_mean(loss)

    def __repr__(self) -> str:
        return f"SparseSoftmaxCrossEntropyWithLogits(is_grad={self.is_grad})"


def sigmoid_cross_entropy_with_logits(logits, label):
    """Elementwise max(x, 0) - x * z + log(1 + exp(-|x|)), stable for large |x|."""
    _float_pair("SigmoidCrossEntropyWithLogits", logits, label)
    return M.add(M.sub(M.maximum(logits, 0.0), M.mul(logits, label)),
                 NF.softplus(M.neg(M.abs_(logits))))


def l2_loss(input_x):
    """sum(x ** 2) / 2, a scalar of x's dtype."""
    return M.div(F.reduce_sum(M.mul(input_x, input_x)), 2.0)


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """A Tensor, or each of a tuple of Tensors, scaled by max_norm / (total norm + 1e-6) when
    that is below one; the total norm is over all of them together."""
    tensors = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    p = float(norm_type)
    if p == float("inf"):
        total = F.reduce_max(F.stack([F.reduce_max(M.abs_(t)) for t in tensors]))
    else:
        powered = [F.reduce_sum(M.abs_(t) ** p) for t in tensors]
        total = F.reduce_sum(F.stack(powered)) ** (1.0 / p)
    if error_if_nonfinite and running_eagerly() and not np.isfinite(total.asnumpy()):
        raise RuntimeError(f"clip_by_norm: the total norm {total.asnumpy()} is not finite")
    coef = M.minimum(M.div(max_norm, M.add(total, 1e-6)), 1.0)
    clipped = tuple(M.mul(t, F.cast(coef, abstract_of(t).dtype)) for t in tensors)
    return clipped if isinstance(x, (tuple, list)) else clipped[0]


def bernoulli(input, p=0.5, seed=None):
    """Zeros and ones of input's shape and dtype, one with probability `p` (a float or a Tensor
    broadcasting against input)."""
    if isinstance(p, numbers.Real) and not 0 <= p <= 1:
        raise ShapeError(f"bernoulli: `p` must be in [0, 1], got {p}")
    draws = rand_like(input, seed) if abstract_of(input).dtype.is_float else rand_like(
        F.cast(input, "float32"), seed)
    return F.cast(M.less(draws, p), abstract_of(input).dtype)


SigmoidCrossEntropyWithLogits = function_class("SigmoidCrossEntropyWithLogits",
                                               sigmoid_cross_entropy_with_logits)
L2Loss = function_class("L2Loss", l2_loss)
