"""The margin and robust losses of MindSpore's `ops` in functional form: `huber_loss`,
`soft_margin_loss`, `multilabel_soft_margin_loss`, `multi_margin_loss`,
`multilabel_margin_loss` and `cosine_embedding_loss`; the nn loss Cells of the same names
compute their per-sample losses with the helpers here.

MindSpore 2.10's CPU build has no kernel for soft_margin_loss and multilabel_margin_loss;
cellgraph computes them as PyTorch defines them (and as MindSpore documents them).
"""
from __future__ import annotations

import numbers

from cellgraph.ops.function.array_func.attributes import _tensor
from cellgraph.ops.function.array_func.creation import arange
from cellgraph.ops.function.array_func.indexing import gather_elements
from cellgraph.ops.function.math_func.reduction import cumprod
from cellgraph.ops.function.nn_func.loss import check_reduction, reduce_loss
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_convert import check_tensor_dtype
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["cosine_embedding_loss", "huber_loss", "multi_margin_loss", "multilabel_margin_loss",
           "multilabel_soft_margin_loss", "soft_margin_loss"]


def _reduced(op: str, loss, reduction):
    check_reduction(op, reduction)
    return reduce_loss(loss, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """0.5 (x - y)^2 where |x - y| < delta, delta (|x - y| - delta / 2) elsewhere."""
    op = "huber_loss"
    _tensor(input, op, "input")
    _tensor(target, op, "target")
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise DTypeError(f"For '{op}', the 'delta' must be int or float, but got "
                         f"{type(delta).__name__}.")
    if delta <= 0:
        raise ArgumentValueError(f"For '{op}', the argument 'delta' must > 0.0, but got {delta}.")
    size = F.abs(F.sub(input, target))
    quadratic = F.mul(F.square(size), 0.5)
    linear = F.mul(F.sub(size, 0.5 * delta), delta)
    return _reduced(op, F.select(F.less(size, delta), quadratic, linear), reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """log(1 + exp(-y x)), y the labels 1 or -1."""
    op = "soft_margin_loss"
    _tensor(input, op, "input")
    _tensor(target, op, "target")
    return _reduced(op, NF.softplus(F.neg(F.mul(target, input))), reduction)


def multilabel_soft_margin(x, target, weight):
    """Per sample, the mean over the last (class) axis of y softplus(-x) + (1 - y) softplus(x),
    times `weight` (broadcast over the classes) before the mean. MindSpore writes softplus as
    log(1 + exp(.)), which overflows to inf for |x| > ~88 in float32; softplus stays finite and
    equal elsewhere."""
    loss = F.add(F.mul(target, NF.softplus(F.neg(x))), F.mul(F.sub(1, target), NF.softplus(x)))
    if weight is not None:
        loss = F.mul(loss, weight)
    class_axis = len(x.shape) - 1
    return F.div(F.reduce_sum(loss, class_axis), x.shape[class_axis])


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """The multi-label one-versus-all loss: `multilabel_soft_margin` per sample, reduced."""
    op = "multilabel_soft_margin_loss"
    _tensor(input, op, "input")
    _tensor(target, op, "target")
    return _reduced(op, multilabel_soft_margin(input, target, weight), reduction)


def multi_margin(op: str, x, target, p, margin: float, weight):
    """Per sample, the sum over the classes i other than the target y of
    weight[y] max(0, margin - x[y] + x[i])^p, divided by the number of classes."""
    _tensor(x, op, "input")
    _tensor(target, op, "target")
    if len(x.shape) != 2 or tuple(target.shape) != (x.shape[0],):
        raise ArgumentValueError(f"{op}: `x` must be (N, C) and `target` (N,), got "
                                 f"{tuple(x.shape)} and {tuple(target.shape)}")
    index = F.expand_dims(F.cast(target, dt.int32), 1)
    chosen = gather_elements(x, 1, index)
    gaps = F.maximum(F.add(F.sub(x, chosen), margin), 0.0)
    if p == 2:
        gaps = F.square(gaps)
    others = F.sub(1.0, F.cast(F.equal(F.expand_dims(arange(x.shape[1]), 0), index), x.dtype))
    gaps = F.mul(gaps, others)
    if weight is not None:
        _tensor(weight, op, "weight")
        gaps = F.mul(gaps, F.gather(weight, index, 0))  # weight[y], shape (N, 1)
    return F.div(F.reduce_sum(gaps, 1), x.shape[1])


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):
    """The multi-class hinge loss: `multi_margin` per sample, reduced."""
    op = "multi_margin_loss"
    if isinstance(margin, bool) or not isinstance(margin, int):
        raise DTypeError(f"For '{op}', the type of 'margin' must be int, but got "
                         f"{type(margin)}.")
    if isinstance(p, bool) or p not in (1, 2):
        raise ArgumentValueError(f"For '{op}', 'p' must be 1 or 2, but got {p!r}.")
    return _reduced(op, multi_margin(op, input, target, p, float(margin), weight), reduction)


def multilabel_margin_loss(input, target, reduction="mean"):
    """The multi-label hinge loss: per sample, the sum over its target classes j (the entries
    of its target row up to the first -1) and its other classes k of max(0, 1 - (x[j] - x[k])),
    divided by the number of classes. `target` is int32, of input's shape."""
    return multilabel_margin(input, target, reduction)[0]


def multilabel_margin(input, target, reduction="mean"):
    """(`multilabel_margin_loss`, is_target): is_target (target's shape and dtype) is 1 where
    a class is among the sample's targets (the second output of MindSpore's
    MultilabelMarginLoss)."""
    op = "multilabel_margin_loss"
    _tensor(input, op, "input")
    aval = _tensor(target, op, "target")
    check_tensor_dtype("MultilabelMarginLoss", "target", aval.dtype, (dt.int32,))
    if tuple(aval.shape) != tuple(input.shape) or len(aval.shape) not in (1, 2):
        raise ShapeError(f"For '{op}', 'input' and 'target' must be 1-D or 2-D of one shape, "
                         f"but got {tuple(input.shape)} and {tuple(aval.shape)}.")
    x = input if len(input.shape) == 2 else F.expand_dims(input, 0)
    labels = target if len(aval.shape) == 2 else F.expand_dims(target, 0)
    classes = x.shape[1]
    # a target entry counts while no -1 came before it in its row
    valid = F.cast(cumprod(F.cast(F.not_equal(labels, -1), dt.int32), 1), x.dtype)
    safe = F.select(F.less(labels, 0), F.zeros_like(labels), labels)
    # is_target[n, c]: class c is one of sample n's targets
    hits = F.mul(NF.one_hot(safe, classes, 1.0, 0.0, axis=-1), F.expand_dims(valid, 2))
    is_target = F.minimum(F.reduce_sum(F.cast(hits, x.dtype), 1), 1.0)
    picked = F.reduce_sum(F.mul(F.cast(hits, x.dtype), F.expand_dims(x, 1)), 2)  # x[n, j]
    margins = F.maximum(F.add(F.sub(F.expand_dims(x, 1), F.expand_dims(picked, 2)), 1.0), 0.0)
    pairs = F.mul(F.expand_dims(valid, 2), F.expand_dims(F.sub(1.0, is_target), 1))
    loss = F.div(F.reduce_sum(F.mul(margins, pairs), (1, 2)), classes)
    is_target = F.cast(is_target, aval.dtype)
    if len(aval.shape) == 1:
        loss, is_target = F.reshape(loss, ()), F.reshape(is_target, (classes,))
    return _reduced(op, loss, reduction), is_target


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(x1, x2) where the target is 1, max(0, cos(x1, x2) - margin) where it is -1, the
    cosine taken along axis 1."""
    op = "ops.cosine_embedding_loss"
    a1, a2 = _tensor(input1, op, "input1"), _tensor(input2, op, "input2")
    _tensor(target, op, "target")
    if a1.dtype != a2.dtype:
        raise DTypeError(f"For {op}, the dtype of 'input1' and 'input2' must be the same, but "
                         f"got {a1.dtype} and {a2.dtype}.")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)):
        raise DTypeError(f"For {op}, 'margin' must be float, but got {type(margin)}")
    if not -1.0 <= margin <= 1.0:
        raise ArgumentValueError(f"For {op}, the value of 'margin' should be in [-1, 1],but got "
                                 f"{float(margin)}.")
    reduced = tuple(a1.shape[:1]) + tuple(a1.shape[2:])
    if tuple(target.shape) != reduced:
        raise ArgumentValueError(f"For {op}, the shape of 'target' must be {reduced} (input1's "
                                 f"without axis 1), but got {tuple(target.shape)}.")
    if a1.dtype.is_int:
        input1, input2 = F.cast(input1, dt.float32), F.cast(input2, dt.float32)
    dot = F.reduce_sum(F.mul(input1, input2), 1)
    norms = F.mul(F.sqrt(F.reduce_sum(F.square(input1), 1)),
                  F.sqrt(F.reduce_sum(F.square(input2), 1)))
    cosine = F.div(dot, norms)
    zeros = F.zeros_like(cosine)
    positive = F.select(F.equal(target, 1), F.sub(1.0, cosine), zeros)
    negative = F.select(F.equal(target, -1), F.maximum(F.sub(cosine, float(margin)), 0.0), zeros)
    return _reduced("cosine_embedding_loss", F.add(positive, negative), reduction)

