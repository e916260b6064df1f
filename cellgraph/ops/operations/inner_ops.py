"""`mindspore.ops.operations.inner_ops`: MindSpore's primitives for beam search and its fused
AdaFactor update, that programs and MindSpore's tests reach through `ops.operations`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.common.apply_ops import _parameters
from cellgraph.common.assign import assign
from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_convert import check_tensor_dtype
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["FusedAdaFactor", "FusedAdaFactorWithGlobalNorm", "NoRepeatNGram"]


def no_repeat_ngram(state_seq, log_probs, ngram_size: int):
    """log_probs with -max of its dtype at every token that would end an n-gram already in
    state_seq (batch, beam, length) after its last n - 1 tokens: for each window start i <=
    length - n where state_seq[i : i + n - 1] equals those last tokens, token state_seq[i + n - 1]
    of log_probs (batch, beam, vocab) is banned. The windows are known while compiling, so the
    test is n - 1 comparisons per window and one one-hot mask per window."""
    seq, probs = _tensor(state_seq, "NoRepeatNGram", "state_seq"), \
        _tensor(log_probs, "NoRepeatNGram", "log_probs")
    check_tensor_dtype("NoRepeatNGram", "seq_type", seq.dtype, (dt.int32,))
    check_tensor_dtype("NoRepeatNGram", "log_probs", probs.dtype,
                       (dt.float16, dt.float32, dt.float64))
    for name, aval in (("state_seq", seq), ("log_probs", probs)):
        if aval.ndim != 3:
            raise ShapeError(f"For primitive[NoRepeatNGram], the rank of {name} must be equal "
                             f"to 3, but got {aval.ndim}.")
    for axis in (0, 1):
        if seq.shape[axis] != probs.shape[axis]:
            raise ShapeError(f"For primitive[NoRepeatNGram], the state_seq shape[{axis}] must be "
                             f"equal to log_probs shape[{axis}] which is {probs.shape[axis]} , "
                             f"but got {seq.shape[axis]}.")
    length, vocab = seq.shape[2], probs.shape[2]
    if ngram_size > length:  # (MindSpore's message says shape[2] + 1 but prints shape[2])
        raise ShapeError(f"For primitive[NoRepeatNGram], the ngram_size must be less than or "
                         f"equal to state_seq shape[2] + 1 which is {length} , but got "
                         f"{ngram_size}.")
    if ngram_size >= length:  # MindSpore's kernel refuses a window with no token after it
        raise RuntimeError("Param ngram_size is illegal")
    state_seq = check_range(state_seq, low=0, high=vocab, what="state_seq id",
                            op="NoRepeatNGram", error="value")
    prefix = ngram_size - 1
    tail = [state_seq[:, :, length - prefix + k] for k in range(prefix)]
    banned = None
    for start in range(length - ngram_size + 1):
        hit = NF.one_hot(state_seq[:, :, start + prefix], vocab, 1, 0, -1) > 0
        for k in range(prefix):
            hit = hit & F.expand_dims(state_seq[:, :, start + k] == tail[k], -1)
        banned = hit if banned is None else banned | hit
    if banned is None:
        return log_probs
    lowest = F.zeros_like(log_probs) - float(dt.finfo(probs.dtype).max)
    return F.select(banned, lowest, log_probs)


class NoRepeatNGram(PrimitiveClass):
    """`NoRepeatNGram(ngram_size=1)(state_seq, log_probs)`: `no_repeat_ngram` above."""

    def __init__(self, ngram_size=1):
        if isinstance(ngram_size, bool) or not isinstance(ngram_size, numbers.Integral):
            raise DTypeError(f"For 'NoRepeatNGram', the type of 'ngram_size' should be 'int', "
                             f"but got type '{type(ngram_size).__name__}'.")
        if ngram_size < 1:
            raise ArgumentValueError(f"For 'NoRepeatNGram', the 'ngram_size' must be int and "
                                     f"must >= 1, but got '{ngram_size}' with type 'int'.")
        self.ngram_size = int(ngram_size)

    def __call__(self, state_seq, log_probs):
        return no_repeat_ngram(state_seq, log_probs, self.ngram_size)

    def __repr__(self) -> str:
        return f"NoRepeatNGram(ngram_size={self.ngram_size})"


_EPS = 1e-30  # the floor of MindSpore's AdaFactor kernel


def _f32(value):
    """A float32 Tensor of a Python number or a Tensor (the kernel computes in float32)."""
    return F.cast(value, dt.float32) if is_tensor(value) else _const(np.float32(value), dt.float32)


def _rms(x):
    return F.sqrt(F.mean(F.square(x)))


def _factored_update(update, grad, beta2t, exp_avg_sq_row, exp_avg_sq_col):
    """The update of a parameter of rank >= 2 from the row (last axis) and column (second to
    last axis) averages of grad ** 2, written to exp_avg_sq_row / exp_avg_sq_col."""
    row = F.add(F.mul(_f32(exp_avg_sq_row), beta2t), F.mul(F.mean(update, -1), 1 - beta2t))
    row = assign(exp_avg_sq_row, F.cast(row, abstract_of(exp_avg_sq_row).dtype))
    row = _f32(row)
    row_factor = F.sqrt(F.div(row, F.maximum(F.mean(row, -1, True), _EPS)))
    col = F.maximum(F.add(F.mul(_f32(exp_avg_sq_col), beta2t),
                          F.mul(F.mean(update, -2), 1 - beta2t)), _EPS)
    col = assign(exp_avg_sq_col, F.cast(col, abstract_of(exp_avg_sq_col).dtype))
    norm = F.mul(F.expand_dims(row_factor, -1), F.expand_dims(F.sqrt(_f32(col)), -2))
    return F.div(grad, F.maximum(norm, _EPS))


def fused_ada_factor(flags, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate,
                     grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq,
                     global_norm=None):
    """One AdaFactor step as MindSpore's CPU kernel takes it, in float32: the squared gradient
    (divided by `global_norm` when one is given and not below 1e-30) plus epsilon[0] averaged
    into the factored row/column statistics (rank >= 2) or `exp_avg_sq`; the update clipped to
    an RMS of `clip_threshold`, scaled by the learning rate (times max(epsilon[1], RMS(param))
    with `enable_scale_parameter`), averaged into `exp_avg` with `enable_first_moment`, and
    subtracted from `param` with the decay `param * weight_decay * lr` with
    `enable_weight_decay`. Writes the Parameters; returns (param,) as MindSpore returns its one
    output of param's shape and dtype."""
    scale_parameter, first_moment, decay = flags
    _parameters("FusedAdaFactor", param=param, exp_avg=exp_avg, exp_avg_sq_row=exp_avg_sq_row,
                exp_avg_sq_col=exp_avg_sq_col, exp_avg_sq=exp_avg_sq)
    eps0, eps1 = (_f32(epsilon[0]), _f32(epsilon[1]))
    beta1, beta2t, lr = _f32(beta1), _f32(beta2t), _f32(learning_rate)
    grad, weights = _f32(grad), _f32(param)
    if global_norm is not None:
        norm = _f32(global_norm)
        grad = F.div(grad, F.select(F.less(norm, _EPS), F.ones_like(norm), norm))
    update = F.add(F.square(grad), eps0)
    if abstract_of(param).ndim >= 2:
        update = _factored_update(update, grad, beta2t, exp_avg_sq_row, exp_avg_sq_col)
    else:
        second = F.maximum(F.add(F.mul(_f32(exp_avg_sq), beta2t), F.mul(update, 1 - beta2t)), _EPS)
        second = assign(exp_avg_sq, F.cast(second, abstract_of(exp_avg_sq).dtype))
        update = F.div(grad, F.sqrt(_f32(second)))
    if scale_parameter:
        lr = F.mul(lr, F.maximum(eps1, _rms(weights)))
    update = F.mul(update, F.div(lr, F.maximum(F.div(_rms(update), _f32(clip_threshold)), 1.0)))
    if first_moment:
        update = F.add(F.mul(_f32(exp_avg), beta1), F.mul(update, 1 - beta1))
        assign(exp_avg, F.cast(update, abstract_of(exp_avg).dtype))
    if decay:
        update = F.add(update, F.mul(weights, F.mul(_f32(weight_decay), lr)))
    return (assign(param, F.cast(F.sub(weights, update), abstract_of(param).dtype)),)


class FusedAdaFactor(PrimitiveClass):
    """`FusedAdaFactor(enable_scale_parameter=False, enable_first_moment=False,
    enable_weight_decay=False)(epsilon, clip_threshold, beta1, beta2, weight_decay,
    learning_rate, grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)`:
    `fused_ada_factor` above."""

    def __init__(self, enable_scale_parameter=False, enable_first_moment=False,
                 enable_weight_decay=False):
        for name, value in (("enable_scale_parameter", enable_scale_parameter),
                            ("enable_first_moment", enable_first_moment),
                            ("enable_weight_decay", enable_weight_decay)):
            if not isinstance(value, bool):
                raise DTypeError(f"For '{type(self).__name__}', the type of '{name}' should be "
                                 f"'bool', but got type '{type(value).__name__}'.")
        self.enable_scale_parameter = enable_scale_parameter
        self.enable_first_moment = enable_first_moment
        self.enable_weight_decay = enable_weight_decay

    def __call__(self, epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, grad,
                 param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq):
        return fused_ada_factor(self._flags(), epsilon, clip_threshold, beta1, beta2,
                                weight_decay, learning_rate, grad, param, exp_avg,
                                exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)

    def _flags(self) -> tuple:
        return self.enable_scale_parameter, self.enable_first_moment, self.enable_weight_decay

    def __repr__(self) -> str:
        return type(self).__name__


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """FusedAdaFactor with the gradient divided by `global_norm` (its last input) first."""

    def __call__(self, epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, grad,
                 param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, global_norm):
        return fused_ada_factor(self._flags(), epsilon, clip_threshold, beta1, beta2,
                                weight_decay, learning_rate, grad, param, exp_avg,
                                exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, global_norm)
