"""`mindspore.nn.probability.bijector`: invertible maps Y = g(X) with their log-Jacobians.

A bijector is a Cell: `forward`, `inverse`, `forward_log_jacobian` (log |dg/dx|) and
`inverse_log_jacobian` (log |dg^-1/dy|), composed of ops so they differentiate and run inside
graphs; `construct(name, value)` calls the method `name`, as MindSpore's do.
`TransformedDistribution` pushes a distribution through one.
"""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph import _checkparam as validator
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from ...cell import Cell
from ..distribution import _tensor

__all__ = ["Bijector", "Exp", "PowerTransform", "ScalarAffine"]


class Bijector(Cell):
    """Base: subclasses define the four maps; `is_constant_jacobian` says whether the
    log-Jacobian is the same everywhere, and `is_injective` that the map is one-to-one."""

    def __init__(self, is_constant_jacobian=False, is_injective=True, name=None,
                 dtype=None, param=None):
        super().__init__()
        cls = type(self).__name__
        if name is not None:  # (None: the class's name)
            validator.check_value_type("name", name, [str], cls)
        validator.check_value_type("is_constant_jacobian", is_constant_jacobian, [bool], name)
        validator.check_value_type("is_injective", is_injective, [bool], name)
        if dtype is not None and (not isinstance(dtype, dt.DType) or not dtype.is_float):
            raise DTypeError(f"For '{cls}', the 'dtype' should be a float type (float16, "
                             f"float32, float64), but got {dtype}.")
        self.is_constant_jacobian, self.is_injective = is_constant_jacobian, is_injective
        self.name = name or type(self).__name__
        self.dtype = dt.float32 if dtype is None else dt.as_dtype(dtype)
        self.parameters = dict(param or {})

    def construct(self, name, *args):
        if name not in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
            raise ArgumentValueError(f"{self.name}: unknown method {name!r}; expected forward, "
                                     f"inverse, forward_log_jacobian or inverse_log_jacobian")
        return getattr(self, name)(*args)

    def _value(self, value):
        return P.cast(value, self.dtype)


class Exp(Bijector):
    """Y = exp(X): log-Jacobian x forward, -log(y) inverse."""

    def __init__(self, name="Exp"):
        super().__init__(name=name)

    def forward(self, value):
        return P.exp(self._value(value))

    def inverse(self, value):
        return P.log(self._value(value))

    def forward_log_jacobian(self, value):
        return self._value(value)

    def inverse_log_jacobian(self, value):
        return -P.log(self._value(value))


def _scalar(value, name: str, op: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{op}: `{name}` must be a float, got {type(value).__name__}")
    return float(value)


class PowerTransform(Bijector):
    """Y = (1 + c X)^(1/c) for power c, and exp(X) for c = 0 (the Box-Cox inverse)."""

    def __init__(self, power=0.0, name="PowerTransform"):
        super().__init__(name=name, param={"power": power})
        self.power = _scalar(power, "power", "PowerTransform")
        if self.power < 0:
            raise ArgumentValueError(f"PowerTransform: `power` must be >= 0, got {power}")

    def forward(self, value):
        x = self._value(value)
        if self.power == 0:
            return P.exp(x)
        return P.pow(1.0 + x * self.power, 1.0 / self.power)

    def inverse(self, value):
        y = self._value(value)
        if self.power == 0:
            return P.log(y)
        return (P.pow(y, self.power) - 1.0) / self.power

    def forward_log_jacobian(self, value):
        x = self._value(value)
        if self.power == 0:
            return x
        return (1.0 / self.power - 1.0) * P.log1p(x * self.power)

    def inverse_log_jacobian(self, value):
        return (self.power - 1.0) * P.log(self._value(value))


class ScalarAffine(Bijector):
    """Y = scale * X + shift; its log-Jacobian is log |scale| everywhere."""

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
        super().__init__(is_constant_jacobian=True, name=name,
                         param={"scale": scale, "shift": shift})
        self.scale = _tensor(_scalar(scale, "scale", "ScalarAffine"), self.dtype)
        self.shift = _tensor(_scalar(shift, "shift", "ScalarAffine"), self.dtype)

    def forward(self, value):
        return self.scale * self._value(value) + self.shift

    def inverse(self, value):
        return (self._value(value) - self.shift) / self.scale

    def forward_log_jacobian(self, value):
        return P.log(P.abs(self.scale))

    def inverse_log_jacobian(self, value):
        return -P.log(P.abs(self.scale))
