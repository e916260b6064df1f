"""Activations (`ops.relu6`, `ops.elu`, `ops.glu`, `ops.gumbel_softmax`, ...) as compositions of
the core's operations."""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.effects import update_in_place
from cellgraph.ops.function.array_func.attributes import _tensor, is_tensor
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import nn_ops as N
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.primitives.exports import export
from cellgraph.primitives.nn_functional import argmax
from cellgraph.primitives.random_ops import rand

from ..random_func import uniform

__all__ = [
    "celu",
    "elu",
    "fast_gelu",
    "glu",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "leaky_relu",
    "logsigmoid",
    "mish",
    "prelu",
    "relu",
    "relu6",
    "rrelu",
    "selu",
    "silu",
    "soft_shrink",
    "softmin",
    "softshrink",
    "softsign",
    "tanhshrink",
    "threshold",
]


def silu(input):
    return F.mul(input, F.sigmoid(input))


def relu(input, inplace=False):
    """max(input, 0); with `inplace` the result is written into `input`, which is returned (as
    `Tensor.relu_`)."""
    out = F.relu(input)
    return update_in_place(input, out, "InplaceReLU") if inplace else out


def relu6(x):
    """min(max(x, 0), 6), whose gradient is 1 on (0, 6] as MindSpore's ReLU6 (0 at x = 0)."""
    return M.select(x > 6, F.zeros_like(x) + 6, F.relu(x))  # ReLU6Grad: dout on (0, 6]


def leaky_relu(input, alpha=0.2):
    return M.select(input > 0, input, input * alpha)


def elu(input_x, alpha=1.0):
    negative = M.select(input_x > 0, F.zeros_like(input_x), input_x)  # EluGrad: 1 at 0
    return M.select(input_x > 0, input_x, alpha * (M.exp(negative) - 1))


def celu(x, alpha=1.0):
    if float(alpha) == 0:
        raise ArgumentValueError("celu: `alpha` must not be zero")
    negative = M.minimum(x, 0.0)
    return M.maximum(x, 0.0) + alpha * (M.exp(negative / alpha) - 1)


def selu(input_x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * elu(input_x, alpha)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return NF.clip_by_value(input, float(min_val), float(max_val))


def hardsigmoid(input):
    """0 for x <= -3, 1 for x >= 3, (x + 3) / 6 between; its gradient is 1/6 strictly inside
    (-3, 3) and 0 at the corners, as MindSpore's HSigmoidGrad."""
    scaled = (input + 3.0) / 6.0
    return F.select(input <= -3.0, F.zeros_like(scaled),
                    F.select(input >= 3.0, F.ones_like(scaled), scaled))


def hardswish(input):
    """0 for x < -3, x for x > 3, x (x + 3) / 6 on [-3, 3]; so its gradient at the corners is
    (2x + 3) / 6 (-1/2 and 3/2), as MindSpore's HSwishGrad."""
    inner = input * (input + 3.0) / 6.0
    return F.select(input < -3.0, F.zeros_like(inner), F.select(input > 3.0, input, inner))


def logsigmoid(x):
    return -NF.softplus(-x)


def softsign(x):
    return x / (1 + M.abs_(x))


def mish(x):
    """x * tanh(softplus(x)); float16 computed in float32 and rounded once, as MindSpore's
    CPU kernel does."""
    if abstract_of(x).dtype == dt.float16:
        return F.cast(mish(F.cast(x, dt.float32)), dt.float16)
    return x * M.tanh(NF.softplus(x))


def softmin(x, axis=-1, *, dtype=None):
    if dtype is not None:
        x = F.cast(x, dtype)
    return N.softmax(-x, axis=normalize_axis(axis, abstract_of(x).ndim))


def glu(x, axis=-1):
    """The first half of x along `axis` gated by the sigmoid of the second (halves by slicing,
    so an empty axis gives empty halves, as in MindSpore)."""
    axis = normalize_axis(axis, abstract_of(x).ndim)
    half = abstract_of(x).shape[axis] // 2
    lead = (slice(None),) * axis
    a = F.getitem(x, lead + (slice(0, half),))
    b = F.getitem(x, lead + (slice(half, 2 * half),))
    return a * N.sigmoid(b)


def prelu(input, weight):
    """input where it is > 0, else weight * input: one weight per channel (axis 1) or one for
    all (then the result has input's shape, a 0-d input included). At 0 the gradient in input
    is the weight's, as in MindSpore."""
    w = weight
    ndim = abstract_of(input).ndim
    if abstract_of(weight).size == 1:
        w = F.reshape(weight, ())
    elif abstract_of(weight).size is not None and ndim > 1:
        w = F.reshape(weight, (-1,) + (1,) * (ndim - 2))
    return M.select(M.greater(input, 0.0), input, w * input)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    _tensor(input, "softshrink")
    if lambd < 0:
        raise ArgumentValueError(f"softshrink: `lambd` must be non-negative, got {lambd}")
    lambd = float(lambd)  # MindSpore's is a float: a bool or an int is read as one
    return M.sub(input, NF.clamp(input, -lambd, lambd))


def soft_shrink(input, lambd=0.5):
    """`softshrink` under MindSpore's other name for it."""
    return softshrink(input, lambd)


def tanhshrink(input):
    """x - tanh(x); an integer or bool input is taken as float32."""
    if not is_tensor(input):
        raise DTypeError(f"For tanhshrink, the input must be a Tensor, but got {type(input)}.")
    if abstract_of(input).dtype.is_int or abstract_of(input).dtype.is_bool:
        input = F.cast(input, dt.float32)
    return F.sub(input, F.tanh(input))


def threshold(input, thr, value):
    """input where it is greater than `thr`, else `value`."""
    _tensor(input, "threshold")
    for name, v in (("thr", thr), ("value", value)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise DTypeError(f"For 'threshold', the '{name}' must be a float or an int, but got "
                             f"{type(v).__name__}.")
    filled = F.fill(abstract_of(input).dtype, tuple(abstract_of(input).shape), value)
    return M.select(M.greater(input, thr), input, filled)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Randomized leaky ReLU: x where x >= 0, else a x with a drawn uniformly from
    [lower, upper) for each element."""
    for name, v in (("upper", upper), ("lower", lower)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise DTypeError(f"For 'rrelu', '{name}' must be an int or a float, but got "
                             f"{type(v)}")
    if lower > upper:
        raise ArgumentValueError(f"For 'rrelu', the value of 'upper' must be greater than or "
                                 f"equal to 'lower', but got upper: {upper}, lower: {lower}. ")
    if not is_tensor(input):
        raise DTypeError(f"For 'rrelu', the 'input' must be a Tensor but got {type(input)}.")
    aval = abstract_of(input)
    # MindSpore's slopes: ops.uniform's draws between the float32 bounds, in input's dtype
    bounds = (np.float32(lower), np.float32(upper))
    slopes = F.cast(uniform(tuple(aval.shape), *bounds), aval.dtype)
    return M.select(M.less(input, 0), F.mul(slopes, input),
                    M.select(M.greater(input, 0), input, F.mul(input, A.zeros_like(input))))


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    _tensor(input, "hardshrink")
    return M.select(M.greater(M.abs_(input), lambd), input, A.zeros_like(input))


@export
def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1):
    """softmax((logits + g) / tau) with g ~ Gumbel(0, 1); with `hard`, the one-hot of the
    argmax forward and the soft sample's gradient backward (straight-through)."""
    dtype = abstract_of(logits).dtype
    if not dtype.is_float:
        raise DTypeError(f"gumbel_softmax: expected float logits, got {dtype}")
    if not tau > 0:
        raise ArgumentValueError(f"gumbel_softmax: `tau` must be > 0, got {tau}")
    draws = F.cast(rand(abstract_of(logits).shape), dtype)
    tiny = float(dt.finfo(dtype).tiny)
    gumbel = -M.log(-M.log(M.maximum(draws, tiny)) + tiny)
    soft = F.softmax((logits + gumbel) / tau, dim)
    if not hard:
        return soft
    index = argmax(soft, dim, True)
    axis = dim % len(abstract_of(logits).shape)
    positions = A.cast(np.arange(abstract_of(logits).shape[axis]).reshape(
        [-1 if i == axis else 1 for i in range(len(abstract_of(logits).shape))]), dtype=dt.int64)
    one_hot = F.cast(M.equal(positions, F.cast(index, dt.int64)), dtype)
    return one_hot - F.stop_gradient(soft) + soft


def fast_gelu(x):
    """MindSpore's fast GELU: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))."""
    magnitude = F.abs(x)
    return F.mul(F.div(x, F.add(F.exp(F.mul(magnitude, -1.702)), 1.0)),
                 F.exp(F.mul(F.sub(x, magnitude), 0.851)))
