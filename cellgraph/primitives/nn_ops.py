"""Activation functions and the softmax family.

The softmax family's backward passes are fused primitives (`softmax_grad`, `log_softmax_grad`:
one kernel from the forward output and the output gradient instead of four elementwise passes
and a reduction); their own bprops differentiate the decomposition, so higher orders see
through them. `softmax_cross_entropy` is the kernel of MindSpore's SoftmaxCrossEntropyWithLogits
(the class, with MindSpore's checks, is in ops/operations/nn_ops.py): the per-row loss and its
gradient for labels that sum to one, softmax(logits) - labels, from one kernel.
"""
from __future__ import annotations

from . import dtype as dt
from .array_ops import broadcast_to, expand_dims, reduce_sum, reshape
from .batching import (
    axis_rule,
    batch_size,
    batched_front,
    loop_rule,
    paired_axis_rule,
    same_shape_rule,
    to_front,
)
from .check_convert import check_tensor_dtype
from .core import (
    FLOAT,
    Primitive,
    TensorType,
    abstract_of,
    bprop_by_decomposition,
    fmt_shape,
    normalize_axis,
)
from .errors import DTypeError, ShapeError
from .math_ops import add, add_terms, exp, float_type, mul, neg, sub

relu = Primitive("relu", lambda x: x.strong(), label="ReLU", public=True, method=True,
                 spellings=("mint.nn.functional",), ops_module="nn_ops")
sigmoid = Primitive("sigmoid", float_type, promote=FLOAT, public=True, method=True,
                    operands=("input",), spellings=("mint", "mint.nn.functional"),
                    ops_module="nn_ops")
def _softmax_type(x, axis=-1):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise DTypeError(f"the type of 'axis' must be 'int', got {type(axis).__name__} {axis!r}")
    if x.ndim == 0:  # MindSpore: "the axis must be in [0,0), but got -1"
        raise ShapeError("expected a tensor of rank >= 1, got a 0-d tensor: the axis must be "
                         "in [0, 0), and a softmax needs an axis to normalise along")
    normalize_axis(axis, x.ndim)
    return float_type(x)


softmax = Primitive("softmax", _softmax_type, promote=FLOAT)
log_softmax = Primitive("log_softmax", _softmax_type, label="LogSoftmax", promote=FLOAT)


def _relu_grad_type(x, dy):
    if x.shape != dy.shape:
        raise ShapeError(f"expected dy of x's shape {fmt_shape(x.shape)}, got "
                         f"{fmt_shape(dy.shape)}")
    return dy.strong()


# ReLU's backward pass fused: dy where x > 0, else 0; one pass (PyTorch's threshold_backward)
# instead of a comparison, a cast and a product. Linear in dy with a mask that is piecewise
# constant in x, so its own bprop is itself.
relu_grad = Primitive("relu_grad", _relu_grad_type, label="ReluGrad")
relu.def_bprop(lambda x, out, dout: (relu_grad(x, dout),))
relu_grad.def_bprop(lambda x, dy, out, dout: (None, relu_grad(x, dout)))


def _softmax_grad_type(y, dy, axis=-1):
    if y.shape != dy.shape:
        raise ShapeError(f"expected the output gradient dy of the output's shape "
                         f"{y.shape}, got {dy.shape}")
    normalize_axis(axis, y.ndim)
    return float_type(y)


# softmax's backward pass, fused: y * (dy - sum(dy * y)) along the axis, y softmax's output.
softmax_grad = Primitive("softmax_grad", _softmax_grad_type, label="SoftmaxGrad",
                         promote=FLOAT)
# log_softmax's backward pass, fused: dy - exp(y) * sum(dy) along the axis, y its output.
log_softmax_grad = Primitive("log_softmax_grad", _softmax_grad_type, label="LogSoftmaxGrad",
                             promote=FLOAT)


sigmoid.def_bprop(lambda x, out, dout: (mul(dout, mul(out, sub(1, out))),))


def _softmax_cross_entropy_type(logits, labels):
    op = "SoftmaxCrossEntropyWithLogits"
    for name, t in (("logits", logits), ("labels", labels)):
        if not t.dtype.is_float:
            raise DTypeError(f"{op}: expected float {name}, got {t.dtype}")
    if labels.dtype != logits.dtype:
        raise DTypeError(f"{op}: expected labels of the logits' dtype {logits.dtype}, got "
                         f"{labels.dtype}")
    if logits.ndim < 1 or labels.shape != logits.shape:
        raise ShapeError(f"{op}: expected logits and labels of one shape (..., classes), got "
                         f"{fmt_shape(logits.shape)} and {fmt_shape(labels.shape)}")
    return TensorType(logits.shape[:-1], logits.dtype), logits.strong()


# (loss, dlogits): loss = -sum(labels * log_softmax(logits)) over the last axis and
# dlogits = softmax(logits) - labels, its gradient when every row of labels sums to one.
softmax_cross_entropy = Primitive("softmax_cross_entropy", _softmax_cross_entropy_type,
                                  label="SoftmaxCrossEntropyWithLogits", multiple_results=True)


@softmax_cross_entropy.def_bprop
def _softmax_cross_entropy_bprop(logits, labels, out, dout):
    """The loss's gradient is sum(labels) * softmax - labels (dlogits when the labels sum to
    one); dlogits's is softmax's backward pass."""
    _, dlogits = out
    dloss, ddlogits = dout
    classes = abstract_of(logits).ndim - 1
    probabilities = add(dlogits, labels)
    dx = dy = None
    if dloss is not None:
        scale = expand_dims(dloss, axis=classes)
        total = reduce_sum(labels, axis=(classes,), keep_dims=True)
        dx = mul(scale, sub(mul(total, probabilities), labels))
        dy = neg(mul(scale, log_softmax(logits, axis=classes)))
    if ddlogits is not None:
        dx = add_terms(dx, softmax_grad(probabilities, ddlogits, axis=classes))
        dy = add_terms(dy, neg(ddlogits))
    return dx, dy


def _halving_sum_type(x, kept=0):
    return TensorType(x.shape[:kept], x.dtype)


# The sum of each example's elements (all axes after the first `kept`) in the order of
# MindSpore's CPU BinaryCrossEntropy reduction: an odd last element folds into the first, then
# the first half adds the second half, the stride halving, an element an odd stride leaves out
# again folding into the first. Float sums depend on their order; this one makes BCELoss's
# "sum" and "mean" MindSpore's to the last bit.
halving_sum = Primitive("halving_sum", _halving_sum_type, params={"kept": 0})


@halving_sum.def_bprop
def _halving_sum_bprop(x, out, dout, kept=0):
    shape = abstract_of(x).shape
    spread = reshape(dout, shape=shape[:kept] + (1,) * (len(shape) - kept))
    return (broadcast_to(spread, shape=shape),)


softmax.def_bprop(lambda x, out, dout, axis=-1: (softmax_grad(out, dout, axis=axis),))
log_softmax.def_bprop(lambda x, out, dout, axis=-1: (log_softmax_grad(out, dout, axis=axis),))


def _softmax_grad_decomposed(y, dy, axis=-1):
    """What softmax_grad computes, in ordinary primitives (its bprop differentiates this)."""
    inner = reduce_sum(mul(dy, y), axis=(axis,), keep_dims=True)
    return (mul(y, sub(dy, inner)),)


def _log_softmax_grad_decomposed(y, dy, axis=-1):
    """What log_softmax_grad computes, in ordinary primitives."""
    return (sub(dy, mul(exp(y), reduce_sum(dy, axis=(axis,), keep_dims=True))),)


softmax_grad.def_bprop(bprop_by_decomposition(_softmax_grad_decomposed))
log_softmax_grad.def_bprop(bprop_by_decomposition(_log_softmax_grad_decomposed))


# ----- batching rules (vmap) -------------------------------------------------------------------

relu.def_batch(same_shape_rule(relu))


@relu_grad.def_batch
def _relu_grad_batch(args, dims):
    size = batch_size(args, dims)
    return relu_grad(*(batched_front(a, d, size) for a, d in zip(args, dims))), 0
sigmoid.def_batch(same_shape_rule(sigmoid))
softmax.def_batch(axis_rule(softmax))
log_softmax.def_batch(axis_rule(log_softmax))
softmax_grad.def_batch(paired_axis_rule(softmax_grad))


@softmax_cross_entropy.def_batch
def _softmax_cross_entropy_batch(args, dims):
    """Every row is independent: the batch axis goes in front of the class axis's rows."""
    size = batch_size(args, dims)
    return softmax_cross_entropy(*(batched_front(x, d, size) for x, d in zip(args, dims))), (0, 0)
log_softmax_grad.def_batch(paired_axis_rule(log_softmax_grad))


@halving_sum.def_batch
def _halving_sum_batch(args, dims, kept=0):
    """Each example sums alone: the batch axis goes in front and is kept too."""
    (x,), (d,) = args, dims
    return halving_sum(to_front(x, d), kept=kept + 1), 0


# ----- CTCLoss (MindSpore's first CTC primitive) -----------------------------------------------

def _ctc_loss_type(x, labels_indices, labels_values, sequence_length,
                   preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                   ignore_longer_outputs_than_inputs=False):
    op = "CTCLoss"
    # in MindSpore's order, which checks the logits (its `inputs`) last
    for name, t, allowed in (("labels_indices", labels_indices, (dt.int64,)),
                             ("labels_values", labels_values, (dt.int32,)),
                             ("sequence_length", sequence_length, (dt.int32,)),
                             ("inputs", x, (dt.float16, dt.float32, dt.float64))):
        check_tensor_dtype(op, name, t.dtype, allowed)
    for name, t, rank in (("x", x, 3), ("labels_indices", labels_indices, 2),
                          ("labels_values", labels_values, 1),
                          ("sequence_length", sequence_length, 1)):
        if t.ndim != rank:
            raise ShapeError(f"For '{op}', the rank of '{name}' must be {rank}, but got "
                             f"{t.ndim}: shape {fmt_shape(t.shape)}.")
    batch = x.shape[1]
    if None not in (batch, sequence_length.shape[0]) and batch != sequence_length.shape[0]:
        raise ShapeError(f"For '{op}', the length of 'sequence_length' must be the batch size "
                         f"of 'x' ({batch}), but got shape {fmt_shape(sequence_length.shape)}.")
    if labels_indices.shape[1] not in (None, 2) or None not in (
            labels_indices.shape[0], labels_values.shape[0]) and \
            labels_indices.shape[0] != labels_values.shape[0]:
        raise ShapeError(f"For '{op}', 'labels_indices' must be (N, 2) with N the length of "
                         f"'labels_values', but got {fmt_shape(labels_indices.shape)} and "
                         f"{fmt_shape(labels_values.shape)}.")
    return TensorType((batch,), x.dtype), x.strong()


# (loss, gradient) of unnormalised scores x (max_time, batch, classes), the last class the blank,
# against labels given as a sparse tensor (each batch entry's labels are the values whose index
# row names it, in order): loss = -log p(labels | softmax(x)) per batch entry over its first
# sequence_length steps, gradient = d loss / d x (zero past an entry's sequence_length, and
# where no alignment fits). The three flags are TensorFlow's: collapse repeated labels first;
# merge repeated non-blank steps into one label (CTC proper) or not; an entry whose labels
# outnumber its steps gets an infinite loss rather than an error.
ctc_loss = Primitive("ctc_loss", _ctc_loss_type, label="CTCLoss", multiple_results=True,
                     params={"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
                             "ignore_longer_outputs_than_inputs": False},
                     primitive_class=False)


@ctc_loss.def_bprop
def _ctc_loss_bprop(x, labels_indices, labels_values, sequence_length, out, dout, **params):
    """The loss's gradient scaled by its cotangent (the gradient output's own cotangent is not
    propagated, as in MindSpore)."""
    dloss = dout[0]
    if dloss is None:
        return None, None, None, None
    return mul(expand_dims(dloss, axis=-1), out[1]), None, None, None


ctc_loss.def_batch(loop_rule(ctc_loss))
