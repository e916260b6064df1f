"""`mindspore.nn.probability.bijector`: invertible maps Y = g(X) with their log-Jacobians.

A bijector is a Cell: `forward`, `inverse`, `forward_log_jacobian` (log |dg/dx|) and
`inverse_log_jacobian` (log |dg^-1/dy|), composed of ops so they differentiate and run inside
graphs; `construct(name, value)` calls the method `name`, as MindSpore's do.
`TransformedDistribution` pushes a distribution through one.

A user's bijector follows MindSpore's protocol: it defines `_forward`, `_inverse`,
`_forward_log_jacobian` and `_inverse_log_jacobian` (the public methods call them), makes its
parameters Tensors with `_add_parameter`, checks inputs with `_check_value_dtype` and casts its
parameters to the input's dtype with `cast_param_by_value`.
"""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph import _checkparam as validator
from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

from ...cell import Cell
from ..distribution import _tensor

__all__ = ["Bijector", "Exp", "GumbelCDF", "Invert", "PowerTransform", "ScalarAffine",
           "Softplus"]


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
        self._given_dtype = None if dtype is None else self.dtype  # None: any float input
        self.parameters = {k: v for k, v in (param or {}).items()
                           if k != "param" and k != "self" and not k.startswith("_")}
        self.default_parameters, self.parameter_names, self.common_dtype = [], [], None

    # the parameters MindSpore's repr shows, by attribute name
    repr_params: tuple = ()

    def extend_repr(self) -> str:
        return ", ".join(f"{name} = {_shown(getattr(self, name), self.dtype)}"
                         for name in self.repr_params)

    # -- MindSpore's protocol for bijectors defined by users -------------------------------
    def forward(self, value, *args, **kwargs):
        return self._forward(value, *args, **kwargs)

    def inverse(self, value, *args, **kwargs):
        return self._inverse(value, *args, **kwargs)

    def forward_log_jacobian(self, value, *args, **kwargs):
        return self._forward_log_jacobian(value, *args, **kwargs)

    def inverse_log_jacobian(self, value, *args, **kwargs):
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def _add_parameter(self, value, name):
        """`value` as a Tensor, recorded among the bijector's parameters: a float of the
        bijector's dtype, or, when it has none, of the dtype its other parameters share."""
        if isinstance(value, bool) or value is None:
            raise ArgumentError(f"{name} cannot be type {type(value)}")
        tensor = value if isinstance(value, Tensor) else Tensor(value)
        if self._given_dtype is None:
            if self.common_dtype is None:
                self.common_dtype = tensor.dtype
            elif tensor.dtype != self.common_dtype:
                raise DTypeError(f"{name} should have the same dtype as other arguments.")
            if not tensor.dtype.is_float:
                raise DTypeError(f"For '{type(self).__name__}', the 'dtype of {name}' should be "
                                f"a float type, but got {tensor.dtype}.")
        elif tensor.dtype != self._given_dtype:
            raise DTypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        return tensor

    def _check_value(self, value, name):
        if not is_tensor(value):
            raise ArgumentError(f"{name} should be a Tensor, but got {type(value).__name__}.")
        return value

    def _check_value_dtype(self, value):
        """`value`, once it is a Tensor of a float dtype (of the bijector's dtype, when it was
        given one)."""
        self._check_value(value, "input value of bijector")
        if self._given_dtype is None:
            if not value.dtype.is_float:
                raise DTypeError(f"For 'input value of bijector', the type should be a float "
                                f"type, but got {value.dtype}.")
        elif value.dtype != self._given_dtype:
            raise DTypeError(f"For '{self.name}', the dtype of the input value should be "
                            f"{self._given_dtype}, but got {value.dtype}.")
        return value

    def cast_param_by_value(self, value, para):
        """`para` cast to the dtype of `value`."""
        return P.cast(para, value.dtype)

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

    def extend_repr(self) -> str:
        return "exp"

    def forward(self, value):
        return P.exp(self._value(value))

    def inverse(self, value):
        return P.log(self._value(value))

    def forward_log_jacobian(self, value):
        return self._value(value)

    def inverse_log_jacobian(self, value):
        return -P.log(self._value(value))


def _shown(value, dtype) -> str:
    """A parameter as MindSpore's repr prints it: a Tensor of the bijector's dtype."""
    return str(value if hasattr(value, "aval") else _tensor(value, dtype))


def _scalar(value, name: str, op: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{op}: `{name}` must be a float, got {type(value).__name__}")
    return float(value)


class PowerTransform(Bijector):
    """Y = (1 + c X)^(1/c) for power c, and exp(X) for c = 0 (the Box-Cox inverse)."""

    repr_params = ("power",)

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

    repr_params = ("scale", "shift")

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


def _positive(value: float, message: str) -> float:
    if value <= 0:
        raise ArgumentValueError(message)
    return value


class GumbelCDF(Bijector):
    """Y = exp(-exp(-(X - loc) / scale)), the Gumbel distribution's CDF; scale > 0."""

    repr_params = ("loc", "scale")

    def __init__(self, loc=0.0, scale=1.0, name="GumbelCDF"):
        validator.check_value_type("name", name, [str], "GumbelCDF")
        super().__init__(name=name, param={"loc": loc, "scale": scale})
        self.loc = _tensor(_scalar(loc, "loc", "GumbelCDF"), self.dtype)
        self.scale = _tensor(_positive(_scalar(scale, "scale", "GumbelCDF"),
                                       "scale must be greater than zero."), self.dtype)

    def forward(self, value):
        return P.exp(-P.exp(-(self._value(value) - self.loc) / self.scale))

    def inverse(self, value):
        return self.loc - self.scale * P.log(-P.log(self._value(value)))

    def forward_log_jacobian(self, value):
        z = (self._value(value) - self.loc) / self.scale
        return -z - P.exp(-z) - P.log(self.scale)

    def inverse_log_jacobian(self, value):
        y = self._value(value)
        return P.log(self.scale / (-y * P.log(y)))


class Softplus(Bijector):
    """Y = log(1 + exp(k X)) / k for sharpness k."""

    repr_params = ("sharpness",)

    def __init__(self, sharpness=1.0, name="Softplus"):
        validator.check_value_type("name", name, [str], "Softplus")
        super().__init__(name=name, param={"sharpness": sharpness})
        self.sharpness = _tensor(_scalar(sharpness, "sharpness", "Softplus"), self.dtype)

    def forward(self, value):
        kx = self.sharpness * self._value(value)
        return P.softplus(kx) / self.sharpness

    def inverse(self, value):
        ky = self.sharpness * self._value(value)
        return P.log(P.expm1(ky)) / self.sharpness

    def forward_log_jacobian(self, value):
        return -P.softplus(-self.sharpness * self._value(value))  # log sigmoid(k x)

    def inverse_log_jacobian(self, value):
        ky = self.sharpness * self._value(value)
        return ky - P.log(P.expm1(ky))


class Invert(Bijector):
    """The inverse of `bijector`: its forward is the bijector's inverse, and so on. Its name
    is "Invert" + the bijector's name unless one is given."""

    def __init__(self, bijector, name=""):
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For 'Invert', the type of 'bijector' should be 'Bijector', but "
                            f"got type '{type(bijector).__name__}'.")
        validator.check_value_type("name", name, [str], "Invert")
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian,
                         is_injective=bijector.is_injective,
                         name=name or "Invert" + bijector.name, dtype=bijector._given_dtype,
                         param={"bijector": bijector})
        self.bijector = bijector

    def forward(self, value):
        return self.bijector.inverse(value)

    def inverse(self, value):
        return self.bijector.forward(value)

    def forward_log_jacobian(self, value):
        return self.bijector.inverse_log_jacobian(value)

    def inverse_log_jacobian(self, value):
        return self.bijector.forward_log_jacobian(value)
