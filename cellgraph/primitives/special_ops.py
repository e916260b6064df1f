"""Special functions, clipping, cumulative sums and products, and dropout.

Every bprop is written with ops (erf's uses exp, gelu's uses erf, cumsum's is a cumsum in the
other direction), so the gradient graphs differentiate again.
"""
from __future__ import annotations

import math

from . import dtype as dt
from .array_ops import _reduce_type, cast, reduce_sum, reshape
from .batching import (
    axis_rule,
    batch_size,
    batched_front,
    broadcasting_rule,
    insert_ones,
    reduction_rule,
    same_shape_rule,
    to_front,
)
from .core import (
    FLOAT,
    SAME,
    Primitive,
    TensorType,
    abstract_of,
    bprop_by_decomposition,
    broadcast_shapes,
    fmt_shape,
    normalize_axes,
    normalize_axis,
    result_dtype,
)
from .errors import DTypeError, ShapeError
from .math_ops import (
    add,
    div,
    equal,
    exp,
    float_type,
    grad_like,
    greater_equal,
    less_equal,
    maximum,
    mul,
    neg,
    select,
    sub,
    tanh,
)
from .nn_ops import sigmoid

_SQRT1_2 = 1 / math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _float_unary_type(x: TensorType) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a float or integer tensor, got {x.dtype}")
    return float_type(x)


def _float_binary_type(x: TensorType, y: TensorType) -> TensorType:
    for name, t in (("x", x), ("dy", y)):
        if not t.dtype.is_float:
            raise DTypeError(f"expected a float tensor {name}, got {t.dtype}")
    return TensorType(broadcast_shapes(x.shape, y.shape), result_dtype(x, y))


erf = Primitive("erf", _float_unary_type, promote=FLOAT, public=True, method=True,
                operands=("input",), spellings=("mint",), ops_module="math_ops")
gelu = Primitive("gelu", _float_unary_type, label="GeLU", promote=FLOAT)
# GeLU's backward pass fused: dy * (Phi(x) + x * phi(x)) in one kernel (one erf, one exp)
# instead of a dozen elementwise passes, each with its own temporary.
gelu_grad = Primitive("gelu_grad", lambda x, dy: _float_binary_type(x, dy), label="GeLUGrad",
                      promote=FLOAT)
# GeLU's tanh approximation, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), and its backward
# pass, each one kernel (the composition is eight elementwise passes forward, fifteen back).
gelu_tanh = Primitive("gelu_tanh", _float_unary_type, label="GeLUTanh", promote=FLOAT)
gelu_tanh_grad = Primitive("gelu_tanh_grad", lambda x, dy: _float_binary_type(x, dy),
                           label="GeLUTanhGrad", promote=FLOAT)
log1p = Primitive("log1p", _float_unary_type, promote=FLOAT, array_api="log1p", public=True,
                  method=True, operands=("input",), spellings=("mint",), ops_module="math_ops")
expm1 = Primitive("expm1", _float_unary_type, promote=FLOAT, array_api="expm1", public=True,
                  method=True, operands=("input",), spellings=("mint",), ops_module="math_ops")
softplus = Primitive("softplus", _float_unary_type, promote=FLOAT)
# Phi(x), the standard normal distribution function.
normal_cdf = Primitive("normal_cdf", _float_unary_type, label="NormalCdf", promote=FLOAT)


def _gelu_and_slope_type(x):
    out = _float_unary_type(x)
    return out, out


# GeLU and its derivative, x * Phi(x) and Phi(x) + x * phi(x), from one kernel: how a
# differentiated GeLU runs forward (`gelu`'s recording rule), keeping the derivative so that
# its backward pass is one product. The forward kernel has the operand at hand; the backward
# pass, run much later, would have to fetch it and Phi(x) back from memory for a dozen passes.
gelu_and_slope = Primitive("gelu_and_slope", _gelu_and_slope_type, label="GeLUAndSlope",
                           promote=FLOAT, multiple_results=True)


def _normal_density(x):
    return mul(exp(mul(mul(x, x), -0.5)), _INV_SQRT_2PI)


normal_cdf.def_bprop(lambda x, out, dout: (mul(dout, _normal_density(x)),))
erf.def_bprop(lambda x, out, dout: (mul(dout, mul(exp(neg(mul(x, x))), _TWO_OVER_SQRT_PI)),))
log1p.def_bprop(lambda x, out, dout: (div(dout, add(x, 1)),))
expm1.def_bprop(lambda x, out, dout: (mul(dout, add(out, 1)),))
softplus.def_bprop(lambda x, out, dout: (mul(dout, sigmoid(x)),))


@gelu.def_bprop
def _gelu_bprop(x, out, dout, residuals=None):
    """gelu_grad, or one product when the forward pass kept the derivative as `residuals`."""
    if residuals is None:
        return (gelu_grad(x, dout),)
    return (mul(dout, residuals),)


@gelu.def_recording
def _gelu_record(x):
    out, slope = gelu_and_slope(x)
    return (out,), slope


def _gelu_slope(x):
    """d/dx x * Phi(x) = Phi(x) + x * phi(x), with phi the standard normal density."""
    return add(normal_cdf(x), mul(x, _normal_density(x)))


def _gelu_grad_decomposed(x, dy):
    """What gelu_grad computes, in ordinary primitives (its bprop differentiates this). A
    tuple, as a decomposition lists the primitive's outputs."""
    return (mul(dy, _gelu_slope(x)),)


def _gelu_and_slope_decomposed(x):
    return mul(x, normal_cdf(x)), _gelu_slope(x)


@gelu_and_slope.def_narrow
def _gelu_and_slope_narrow(live, x):
    """Only the GeLU read: gelu alone."""
    return (gelu, (0,), {}) if live == (True, False) else None


gelu_grad.def_bprop(bprop_by_decomposition(_gelu_grad_decomposed))
gelu_and_slope.def_bprop(bprop_by_decomposition(_gelu_and_slope_decomposed))
gelu_tanh.def_bprop(lambda x, out, dout: (gelu_tanh_grad(x, dout),))

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_GELU_CUBIC = 0.044715


def _gelu_tanh_grad_decomposed(x, dy):
    """What gelu_tanh_grad computes, in ordinary primitives: with t = tanh(u) and
    u = sqrt(2/pi) (x + 0.044715 x^3), d/dx 0.5 x (1 + t) = 0.5 (1 + t) + 0.5 x (1 - t^2) u'."""
    square = mul(x, x)
    t = tanh(mul(mul(x, add(mul(square, _GELU_CUBIC), 1)), _SQRT_2_OVER_PI))
    slope = mul(add(mul(square, 3 * _GELU_CUBIC), 1), _SQRT_2_OVER_PI)
    local = add(add(t, 1), mul(mul(x, slope), sub(1, mul(t, t))))
    return (mul(dy, mul(local, 0.5)),)


gelu_tanh_grad.def_bprop(bprop_by_decomposition(_gelu_tanh_grad_decomposed))


# ----- clip_by_value = minimum(maximum(x, lo), hi) ---------------------------------------------

def _clip_type(x: TensorType, lo: TensorType, hi: TensorType) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric tensor x, got {x.dtype}")
    shape = broadcast_shapes(x.shape, lo.shape, hi.shape)
    return TensorType(shape, result_dtype(x, lo, hi), weak=x.weak and lo.weak and hi.weak)


clip_by_value = Primitive("clip_by_value", _clip_type, promote=SAME)


@clip_by_value.def_bprop
def _clip_bprop(x, lo, hi, out, dout):
    # Gradient passes to x inside [lo, hi] (bounds included), to lo below it, to hi above it.
    raised = maximum(x, lo)
    below_hi = cast(less_equal(raised, hi), dtype=abstract_of(dout).dtype)
    d_raised = mul(dout, below_hi)
    x_wins = cast(greater_equal(x, lo), dtype=abstract_of(dout).dtype)
    return (grad_like(mul(d_raised, x_wins), x),
            grad_like(sub(d_raised, mul(d_raised, x_wins)), lo),
            grad_like(sub(dout, d_raised), hi))


# ----- cumsum ----------------------------------------------------------------------------------

def _cumsum_type(x: TensorType, axis: int, exclusive: bool, reverse: bool) -> TensorType:
    normalize_axis(axis, x.ndim)
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric tensor, got {x.dtype}")
    return x.strong()


cumsum = Primitive("cumsum", _cumsum_type, label="CumSum")
# The adjoint of a running sum is the running sum in the other direction.
cumsum.def_bprop(lambda x, out, dout, axis, exclusive, reverse: (
    cumsum(dout, axis=axis, exclusive=exclusive, reverse=not reverse),))


# ----- reduce_prod -----------------------------------------------------------------------------

def _prod_type(x: TensorType, axis=(), keep_dims=False) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric tensor, got {x.dtype}")
    return _reduce_type(x, axis, keep_dims)


reduce_prod = Primitive("reduce_prod", _prod_type, label="ReduceProd")


@reduce_prod.def_bprop
def _reduce_prod_bprop(x, out, dout, axis=(), keep_dims=False):
    """d prod / dx_i = the product of the other elements, computed without dividing by zero.

    Write x = s * t with s = x off the zeros (1 on them) and t = x on the zeros (1 off them).
    The product of the others is (prod s / s_i) * w_i, where w_i = prod t (0 when the slice has
    a zero, else 1) off the zeros, and at a zero 1 if it is the slice's only zero, else 0. Only
    the never-zero s is divided by, and prod t keeps the zero's own value in the graph, so the
    rule differentiates again: first derivatives are exact everywhere, second derivatives
    wherever a slice holds at most one zero.
    """
    xt = abstract_of(x)
    axes = normalize_axes(axis, xt.ndim)
    kept = tuple(1 if i in axes else d for i, d in enumerate(xt.shape))
    is_zero = equal(x, 0)
    s = select(is_zero, 1, x)
    t = select(is_zero, x, 1)
    zero_count = reduce_sum(cast(is_zero, dtype=dt.int32), axis=axes, keep_dims=True)
    lone_zero = cast(equal(zero_count, 1), dtype=xt.dtype)
    w = select(is_zero, lone_zero, reduce_prod(t, axis=axes, keep_dims=True))
    others = mul(div(reduce_prod(s, axis=axes, keep_dims=True), s), w)
    g = dout if keep_dims else reshape(dout, shape=kept)
    return (mul(g, others),)


# ----- dropout: the mask is an input, drawn by the caller -------------------------------------

def _dropout_type(x: TensorType, mask: TensorType, keep_prob: float) -> TensorType:
    if not x.dtype.is_float:
        raise DTypeError(f"expected a float tensor x, got {x.dtype}")
    if not 0 < keep_prob <= 1:
        raise ShapeError(f"expected keep_prob in (0, 1], got {keep_prob}")
    if broadcast_shapes(x.shape, mask.shape) != x.shape:
        raise ShapeError(f"mask of shape {fmt_shape(mask.shape)} does not fit x of shape "
                         f"{fmt_shape(x.shape)}")
    return x.strong()


dropout = Primitive("dropout", _dropout_type, label="Dropout")
dropout.def_bprop(lambda x, mask, out, dout, keep_prob: (
    dropout(dout, mask, keep_prob=keep_prob), None))


# ----- batching rules (vmap) -------------------------------------------------------------------

for _prim in (erf, gelu, gelu_tanh, normal_cdf, log1p, expm1, softplus):
    _prim.def_batch(same_shape_rule(_prim))
clip_by_value.def_batch(broadcasting_rule(clip_by_value))
gelu_grad.def_batch(broadcasting_rule(gelu_grad))
gelu_tanh_grad.def_batch(broadcasting_rule(gelu_tanh_grad))
cumsum.def_batch(axis_rule(cumsum))
reduce_prod.def_batch(reduction_rule(reduce_prod))


@gelu_and_slope.def_batch
def _gelu_and_slope_batch(args, dims):
    return gelu_and_slope(*args), (dims[0], dims[0])


@dropout.def_batch
def _dropout_batch(args, dims, keep_prob):
    (x, mask), (dx, dm) = args, dims
    if dm is None:  # the mask broadcasts against one example's axes
        return dropout(to_front(x, dx), mask, keep_prob=keep_prob), 0
    size = batch_size(args, dims)
    rank = abstract_of(x).ndim - (dx is not None)
    mask = insert_ones(to_front(mask, dm), 1, rank - (abstract_of(mask).ndim - 1))
    return dropout(batched_front(x, dx, size), mask, keep_prob=keep_prob), 0


__all__ = [
    "clip_by_value",
    "cumsum",
    "dropout",
    "erf",
    "expm1",
    "gelu",
    "log1p",
    "reduce_prod",
    "softplus",
]
