"""Activation functions and the softmax family."""
from __future__ import annotations

from .array_ops import cast, reduce_sum
from .batching import axis_rule, same_shape_rule
from .core import FLOAT, Primitive, abstract_of, normalize_axis
from .math_ops import exp, float_type, greater, mul, sub

relu = Primitive("relu", lambda x: x.strong(), label="ReLU", public=True, method=True)
sigmoid = Primitive("sigmoid", float_type, promote=FLOAT, public=True, method=True)
softmax = Primitive("softmax", lambda x, axis=-1: float_type(x) if normalize_axis(
    axis, x.ndim) is not None else None, promote=FLOAT)
log_softmax = Primitive("log_softmax", lambda x, axis=-1: float_type(x) if normalize_axis(
    axis, x.ndim) is not None else None, label="LogSoftmax", promote=FLOAT)


@relu.def_bprop
def _relu_bprop(x, out, dout):
    return (mul(dout, cast(greater(x, 0), dtype=abstract_of(dout).dtype)),)


sigmoid.def_bprop(lambda x, out, dout: (mul(dout, mul(out, sub(1, out))),))


@softmax.def_bprop
def _softmax_bprop(x, out, dout, axis=-1):
    inner = reduce_sum(mul(dout, out), axis=(axis,), keep_dims=True)
    return (mul(out, sub(dout, inner)),)


@log_softmax.def_bprop
def _log_softmax_bprop(x, out, dout, axis=-1):
    total = reduce_sum(dout, axis=(axis,), keep_dims=True)
    return (sub(dout, mul(exp(out), total)),)


# ----- batching rules (vmap) -------------------------------------------------------------------

relu.def_batch(same_shape_rule(relu))
sigmoid.def_batch(same_shape_rule(sigmoid))
softmax.def_batch(axis_rule(softmax))
log_softmax.def_batch(axis_rule(log_softmax))
