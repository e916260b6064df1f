"""`mindspore.ops.operations.inner_ops`: MindSpore's primitives for beam search that programs and
MindSpore's tests reach through `ops.operations`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _tensor
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["NoRepeatNGram"]


def no_repeat_ngram(state_seq, log_probs, ngram_size: int):
    """log_probs with -max of its dtype at every token that would end an n-gram already in
    state_seq (batch, beam, length) after its last n - 1 tokens: for each window start i <=
    length - n where state_seq[i : i + n - 1] equals those last tokens, token state_seq[i + n - 1]
    of log_probs (batch, beam, vocab) is banned. The windows are known while compiling, so the
    test is n - 1 comparisons per window and one one-hot mask per window."""
    seq, probs = _tensor(state_seq, "NoRepeatNGram", "state_seq"), \
        _tensor(log_probs, "NoRepeatNGram", "log_probs")
    if seq.dtype != dt.int32:
        raise DTypeError(f"For primitive[NoRepeatNGram], the input argument[seq_type] must be a "
                         f"type of {{Tensor[Int32]}}, but got Tensor[{seq.dtype}].")
    if probs.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"For primitive[NoRepeatNGram], the input argument[log_probs] must be "
                         f"a type of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                         f"got Tensor[{probs.dtype}].")
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
    lowest = F.zeros_like(log_probs) - float(np.finfo(probs.dtype.np).max)
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
