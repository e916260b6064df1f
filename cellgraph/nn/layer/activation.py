"""Activation Cells (nn.ReLU, nn.GELU, nn.Softmax, ...) and `get_activation(name)`."""
from __future__ import annotations

import numpy as np

import cellgraph.ops as P
from cellgraph.compiler.builder import Tracer
from cellgraph.ops import functional as F
from cellgraph.ops.function.nn_func.activation import fast_gelu, hardsigmoid, hardswish
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "FastGelu",
    "HShrink",
    "HSigmoid",
    "HSwish",
    "Hardtanh",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Mish",
    "PReLU",
    "RReLU",
    "ReLU",
    "ReLU6",
    "SeLU",
    "SiLU",
    "Sigmoid",
    "SoftShrink",
    "Softmax",
    "Softmax2d",
    "Softmin",
    "Softplus",
    "Softsign",
    "Tanh",
    "Tanhshrink",
    "Threshold",
    "get_activation",
]


class ReLU(Cell):
    """max(x, 0)."""

    def __init__(self):
        super().__init__()
        self.relu = P.ReLU()  # MindSpore's attribute, which subclasses call

    def construct(self, x):
        return F.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6)."""

    def __init__(self):
        super().__init__()
        self.relu6 = P.ReLU6()

    def construct(self, x):
        return F.relu6(x)


class LeakyReLU(Cell):
    """x where x >= 0, alpha * x elsewhere."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = float(alpha)

    def construct(self, x):
        return F.select(F.greater_equal(x, 0), x, F.mul(x, self.alpha))


class Sigmoid(Cell):
    """1 / (1 + exp(-x))."""

    def __init__(self):
        super().__init__()
        self.sigmoid = P.Sigmoid()

    def construct(self, x):
        return F.sigmoid(x)


class Tanh(Cell):
    def __init__(self):
        super().__init__()
        self.tanh = P.Tanh()

    def construct(self, x):
        return F.tanh(x)


class GELU(Cell):
    """x * Phi(x); MindSpore's default `approximate=True` is the tanh approximation."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise DTypeError(f"GELU: `approximate` must be a bool, got {approximate!r}")
        self.approximate = approximate

    def construct(self, x):
        return NF.gelu(x, "tanh" if self.approximate else "none")


class SiLU(Cell):
    """x * sigmoid(x)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.mul(x, F.sigmoid(x))


class Softplus(Cell):
    """log(1 + exp(x))."""

    def construct(self, x):
        return NF.softplus(x)


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis
        self.softmax = P.Softmax(axis)

    def construct(self, x):
        return F.softmax(x, self.axis)


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis
        self.log_softmax = P.LogSoftmax(axis)

    def construct(self, x):
        return F.log_softmax(x, self.axis)


class ELU(Cell):
    """x where x > 0, alpha * (exp(x) - 1) elsewhere."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = float(alpha)

    def construct(self, x):
        negative = F.mul(NF.expm1(F.minimum(x, 0.0)), self.alpha)
        return F.select(F.greater(x, 0), x, negative)


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    def construct(self, x):
        negative = F.mul(NF.expm1(F.div(F.minimum(x, 0.0), self.alpha)), self.alpha)
        return F.select(F.greater(x, 0), x, negative)


class SeLU(Cell):
    """scale * ELU(x, alpha) with the self-normalising constants."""

    alpha, scale = 1.6732632423543772, 1.0507009873554805

    def __init__(self):
        super().__init__()

    def construct(self, x):
        negative = F.mul(NF.expm1(F.minimum(x, 0.0)), self.alpha)
        return F.mul(F.select(F.greater(x, 0), x, negative), self.scale)


class HSigmoid(Cell):
    """relu6(x + 3) / 6 (ops.hardsigmoid, with MindSpore's gradient at the corners)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return hardsigmoid(x)


class HSwish(Cell):
    """x * relu6(x + 3) / 6 (ops.hardswish, with MindSpore's gradient at the corners)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return hardswish(x)


class LogSigmoid(Cell):
    """log(sigmoid(x)) = -softplus(-x)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.neg(NF.softplus(F.neg(x)))


class Softsign(Cell):
    """x / (1 + |x|)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.div(x, F.add(F.abs(x), 1.0))


class Mish(Cell):
    """x * tanh(softplus(x))."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.mul(x, F.tanh(NF.softplus(x)))


class Hardtanh(Cell):
    """x clipped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        if min_val >= max_val:
            raise ArgumentValueError(f"Hardtanh: expected min_val < max_val, got {min_val} and "
                                     f"{max_val}")
        self.min_val, self.max_val = float(min_val), float(max_val)

    def construct(self, x):
        return F.minimum(F.maximum(x, self.min_val), self.max_val)


class FastGelu(Cell):
    """MindSpore's fast GELU: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return fast_gelu(x)


class PReLU(Cell):
    """max(x, 0) + w * min(x, 0), with a learnable slope per channel (axis 1) or one shared
    (`channel=1`); the slope Parameter is named "a", as in MindSpore."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        from cellgraph.common.initializer import initializer
        from cellgraph.runtime.tensor import Parameter

        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ArgumentValueError(f"PReLU: `channel` must be a positive int, got {channel!r}")
        self.channel = channel
        self.w = Parameter(initializer(_prelu_slopes(w, channel), (channel,)), name="a")

    def construct(self, x):
        slope = F.cast(self.w, x.dtype)
        if len(x.shape) >= 2 and self.channel > 1:
            slope = F.reshape(slope, (self.channel,) + (1,) * (len(x.shape) - 2))
        return F.add(F.relu(x), F.mul(slope, F.minimum(x, 0.0)))



def _prelu_slopes(w, channel: int):
    """PReLU's initial slopes as MindSpore takes them: a float for every channel, a list of
    `channel` floats, or a float16/float32 Tensor of shape (channel,)."""
    if isinstance(w, (float, np.float32)):
        return float(w)
    if isinstance(w, list):
        if len(w) != channel:
            raise ArgumentValueError(
                f"For 'PReLU', the length of 'w' must be equal to the 'channel' when the 'w' is "
                f"a list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
        for item in w:
            if not isinstance(item, (float, np.float32)):
                raise ArgumentValueError(f"For 'PReLU', all elements in 'w' must be float when "
                                         f"the 'w' is a list, but got {item}.")
        return Tensor(np.asarray(w, np.float32))
    if isinstance(w, Tensor):
        if w.dtype not in (mstype.float16, mstype.float32):
            raise ArgumentValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32 "
                                     f"when the 'w' is a tensor, but got {w.dtype}.")
        if len(w.shape) != 1 or w.shape[0] != channel:
            raise ArgumentValueError(
                f"For 'PReLU', the dimension of 'w' must be 1, and the elements number should be "
                f"equal to the 'channel' when the 'w' is a tensor, but got 'w' shape {w.shape}, "
                f"the 'channel' {channel}.")
        return w
    raise DTypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got "
                     f"{type(w).__name__}.")


def _check_tensor(op: str, x) -> None:
    if not isinstance(x, (Tensor, Tracer)):
        raise DTypeError(f"{op}: the input must be a Tensor, got {type(x).__name__}")


class Softmin(Cell):
    """softmax(-x) along `axis`."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return P.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of (C, H, W) or (N, C, H, W)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        if len(x.shape) not in (3, 4):
            raise ArgumentValueError(f"Softmax2d: the input must have 3 or 4 dims, got "
                                     f"{len(x.shape)}")
        return F.softmax(x, -3)


class SoftShrink(Cell):
    """x - lambd where x > lambd, x + lambd where x < -lambd, 0 between."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return P.softshrink(input, self.lambd)


class HShrink(Cell):
    """x where |x| > lambd, 0 elsewhere."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return P.hardshrink(input, self.lambd)


class Threshold(Cell):
    """x where x > threshold, `value` elsewhere."""

    def __init__(self, threshold, value):
        super().__init__()
        for name, number in (("threshold", threshold), ("value", value)):
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise DTypeError(f"Threshold: `{name}` must be a float or int, got "
                                 f"{type(number).__name__}")
        self.threshold, self.value = threshold, value

    def construct(self, input_x):
        return P.threshold(input_x, self.threshold, self.value)


class GLU(Cell):
    """a * sigmoid(b), a and b the two halves of the input along `axis`."""

    def __init__(self, axis=-1):
        super().__init__()
        self.dim = axis

    def construct(self, x):
        return P.glu(x, self.dim)


class RReLU(Cell):
    """x where x >= 0, x times a slope drawn uniformly from [lower, upper) for each element
    where x < 0. As MindSpore's, the slopes are drawn on every call, in training and in
    evaluation alike."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        for name, number in (("upper", upper), ("lower", lower)):
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise DTypeError(f"RReLU: `{name}` must be a float or int, got "
                                 f"{type(number).__name__}")
        if lower > upper:
            raise ArgumentValueError(f"RReLU: `upper` must be >= `lower`, got upper {upper}, "
                                     f"lower {lower}")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x):
        _check_tensor("RReLU", x)
        return P.rrelu(x, self.lower, self.upper)


def _mint_layer(name: str):
    """A maker of mint.nn's layer `name` (MindSpore's nn.<name>Ext; mint loads nn: read when
    called)."""
    def make():
        from cellgraph.mint import nn as mint_nn

        return getattr(mint_nn, name)()
    return make


def get_activation(name, prim_name=None):
    """The activation Cell for `name`, one of MindSpore's names ("relu", "fast_gelu", ...);
    None for None. Another name raises KeyError listing them, as MindSpore does."""
    if name is None:
        return None
    if name not in _ACTIVATIONS:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise KeyError(f"{prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()


class Tanhshrink(Cell):
    """x - tanh(x); integer and bool inputs are computed in float32, as MindSpore does."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return P.tanhshrink(x)


# MindSpore's names, in its order (its error message lists them)
_ACTIVATIONS = {"softmin": Softmin, "softmax": Softmax, "softmax2d": Softmax2d,
                "logsoftmax": LogSoftmax, "logsoftmaxExt": _mint_layer("LogSoftmax"),
                "relu": ReLU, "relu6": ReLU6, "rrelu": RReLU, "silu": SiLU, "tanh": Tanh,
                "tanhshrink": Tanhshrink, "hardtanh": Hardtanh, "gelu": GELU,
                "fast_gelu": FastGelu, "elu": ELU, "sigmoid": Sigmoid, "softsign": Softsign,
                "prelu": PReLU, "preluExt": _mint_layer("PReLU"), "leakyrelu": LeakyReLU,
                "hswish": HSwish, "hsigmoid": HSigmoid, "logsigmoid": LogSigmoid,
                "softshrink": SoftShrink, "hshrink": HShrink, "threshold": Threshold,
                "mish": Mish}
