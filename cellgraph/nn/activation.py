"""Activation Cells (nn.ReLU, nn.GELU, nn.Softmax, ...) and `get_activation(name)`."""
from __future__ import annotations

from cellgraph.ops import functional as F
from cellgraph.ops import nn_functional as NF
from cellgraph.ops.errors import ArgumentValueError, DTypeError

from .cell import Cell

__all__ = [
    "GELU",
    "LeakyReLU",
    "LogSoftmax",
    "ReLU",
    "ReLU6",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "Tanh",
    "get_activation",
]


class ReLU(Cell):
    """max(x, 0)."""

    def construct(self, x):
        return F.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6)."""

    def construct(self, x):
        return F.minimum(F.relu(x), 6.0)


class LeakyReLU(Cell):
    """x where x >= 0, alpha * x elsewhere."""

    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = float(alpha)

    def construct(self, x):
        return F.select(F.greater_equal(x, 0), x, F.mul(x, self.alpha))

    def extend_repr(self) -> str:
        return f"alpha={self.alpha}"


class Sigmoid(Cell):
    """1 / (1 + exp(-x))."""

    def construct(self, x):
        return F.sigmoid(x)


class Tanh(Cell):
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

    def extend_repr(self) -> str:
        return f"approximate={self.approximate}"


class SiLU(Cell):
    """x * sigmoid(x)."""

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

    def construct(self, x):
        return F.softmax(x, self.axis)

    def extend_repr(self) -> str:
        return f"axis={self.axis}"


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return F.log_softmax(x, self.axis)

    def extend_repr(self) -> str:
        return f"axis={self.axis}"


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "sigmoid": Sigmoid,
                "tanh": Tanh, "gelu": GELU, "silu": SiLU, "softplus": Softplus,
                "softmax": Softmax, "logsoftmax": LogSoftmax}


def get_activation(name, prim_name=None):
    """The activation Cell for `name` ("relu", "gelu", ...); None for None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise DTypeError(f"get_activation: expected a name (str), got {type(name).__name__}")
    cls = _ACTIVATIONS.get(name.lower().replace("_", ""))
    if cls is None:
        raise ArgumentValueError(f"get_activation: unknown activation {name!r}; known: "
                                 f"{', '.join(sorted(_ACTIVATIONS))}")
    return cls()
