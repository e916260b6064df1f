"""`mindspore.nn.probability.distribution`: Normal, Uniform, Bernoulli and
TransformedDistribution as Cells; Cauchy, Logistic, LogNormal, Exponential, Gamma, Beta,
Poisson, Geometric and Categorical in their own modules.

Each method takes the distribution's parameters as optional trailing arguments (falling back
to the ones given at construction), as MindSpore's do; `construct(name, *args)` calls the
method `name`, so a distribution can be used inside a graph like any Cell. Densities and
statistics are composed of ops (differentiable in the value and the parameters); `sample`
transforms uniform draws.
"""
from __future__ import annotations

import math

import numpy as np

import cellgraph.ops as P
from cellgraph import _checkparam as validator
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, UnsupportedError
from cellgraph.runtime.tensor import Parameter, Tensor

from ...cell import Cell
from ._checks import float_dtype

__all__ = ["Bernoulli", "Beta", "Categorical", "Cauchy", "Distribution", "Exponential", "Gamma",
           "Geometric", "LogNormal", "Logistic", "Normal", "Poisson", "TransformedDistribution",
           "Uniform"]


def _tensor(value, dtype):
    """A parameter as a Tensor of `dtype`: a Tensor cast, a number or a list of numbers (as
    MindSpore's distributions take them) made one."""
    if value is None:
        return None
    if hasattr(value, "aval"):
        return P.cast(value, dtype)
    return Tensor(np.asarray(value, dtype.np), dtype)


def parameter_property(name: str) -> property:
    """A distribution's parameter `name` as given at construction (a Tensor in the
    distribution's dtype, or None), read-only, as MindSpore's distributions expose theirs."""
    return property(lambda self: getattr(self, f"_{name}"),
                    doc=f"The distribution's `{name}` given at construction (None if not given).")


class Distribution(Cell):
    """Base: parameters by name, `construct(name, *args)` dispatch, shared statistics."""

    param_names: tuple = ()
    # get_dist_args's keywords, where MindSpore's differ from `param_names` (Bernoulli's and
    # Geometric's `probs1`)
    dist_arg_names: tuple = ()

    float_only = True  # a continuous distribution: its dtype is a float type, as MindSpore's
    # how MindSpore's repr names each of `param_names` ("standard deviation" for Normal's sd)
    repr_labels: tuple = ()

    def __init__(self, seed, dtype, name, param):
        """MindSpore's arguments: `param` is the subclass's `dict(locals())`, its parameters
        under "param_dict"; the other entries (not "self", not starting with "_") are kept in
        `parameters`."""
        super().__init__()
        cls = type(self).__name__
        validator.check_value_type("name", name, [str], cls)
        seed = 0 if seed is None else seed
        validator.check_non_negative_int(seed, "seed", name)
        if self.float_only:
            float_dtype(dtype, cls)
        self.dtype, self.seed, self.name = dt.as_dtype(dtype), seed, name
        param = dict(param or {})
        params = dict(param.get("param_dict") or {})
        self.parameters = {k: v for k, v in param.items()
                           if k not in ("self", "param") and not k.startswith("_")}
        for key, value in params.items():
            setattr(self, f"_{key}", _tensor(value, self.dtype))
        given = [tuple(np.shape(v)) for v in params.values()
                 if v is not None and not hasattr(v, "aval")]
        try:  # as MindSpore's: the parameters broadcast together
            np.broadcast_shapes(*given)
        except ValueError as exc:
            raise ArgumentValueError(f"For '{cls}', the shapes of the parameters {given} do not "
                                     f"broadcast together") from exc

    @property
    def is_scalar_batch(self) -> bool:
        """Whether each parameter given at construction is a Python number (or not given)."""
        given = (self.parameters.get("param_dict") or {}).values()
        return all(v is None or isinstance(v, (int, float)) for v in given)

    @property
    def broadcast_shape(self):
        """The shape the parameters given at construction broadcast to; None when one was
        not given."""
        given = list((self.parameters.get("param_dict") or {}).values())
        if any(v is None for v in given):
            return None
        return tuple(np.broadcast_shapes(*(tuple(np.shape(v)) for v in given)))

    def extend_repr(self) -> str:
        """MindSpore's: the parameters by name when each is a number, else the batch shape."""
        if not self.repr_labels:
            return ""
        if not self.is_scalar_batch:
            return f"batch_shape = {self.broadcast_shape}"
        return ", ".join(f"{label} = {getattr(self, f'_{name}')}"
                         for label, name in zip(self.repr_labels, self.param_names))

    def _params(self, given) -> list:
        out = []
        for key, value in zip(self.param_names, given):
            value = getattr(self, f"_{key}") if value is None else _tensor(value, self.dtype)
            if value is None:
                raise ArgumentValueError(f"{type(self).__name__}: `{key}` was given neither at "
                                         f"construction nor to this call")
            out.append(value)
        return out

    def construct(self, name, *args, **kwargs):
        return getattr(self, name)(*args, **kwargs)

    def get_dist_type(self) -> str:
        """The distribution's family as MindSpore names it ("Normal"): of the classes this one
        derives from, the first of this package's that has parameters."""
        for cls in type(self).__mro__:
            if cls.__module__.startswith(__name__) and cls.param_names \
                    and cls.__name__ != "LocationScale":
                return cls.__name__
        raise UnsupportedError(f"get_dist_type is not implemented for {self.name} "
                               f"distribution.")

    def get_dist_args(self, *args, **kwargs) -> tuple:
        """The distribution's parameters, in the order of its constructor's: each given one (a
        Tensor) as given, the others as given at construction (None if they were not)."""
        names = self.dist_arg_names or self.param_names
        if not names:
            raise UnsupportedError(f"get_dist_args is not implemented for {self.name} "
                                   f"distribution.")
        if len(args) > len(names):
            raise TypeError(f"get_dist_args() takes at most {len(names)} arguments "
                            f"({len(args)} given)")
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"get_dist_args() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"get_dist_args() got multiple values for argument '{key}'")
            values[key] = value
        out = []
        for key, name in zip(names, self.param_names):
            value = values.get(key)
            if value is None:
                value = getattr(self, f"_{name}")
            elif not hasattr(value, "aval"):
                raise DTypeError(f"For {name}, input type must be a Tensor or Parameter.")
            out.append(value)
        return tuple(out)

    def _not_implemented(self, method: str):
        raise UnsupportedError(f"Function {method} is not implemented in "
                               f"{type(self).__name__}")

    def prob(self, *args, **kwargs):
        self._not_implemented("prob")

    def cdf(self, *args, **kwargs):
        self._not_implemented("cdf")

    def mean(self, *args, **kwargs):
        self._not_implemented("mean")

    def mode(self, *args, **kwargs):
        self._not_implemented("mode")

    def var(self, *args, **kwargs):
        self._not_implemented("var")

    def entropy(self, *args, **kwargs):
        self._not_implemented("entropy")

    def kl_loss(self, *args, **kwargs):
        self._not_implemented("kl_loss")

    def sample(self, *args, **kwargs):
        self._not_implemented("sample")

    def log_prob(self, value, *params):
        return P.log(self.prob(value, *params))

    def sd(self, *params):
        return P.sqrt(self.var(*params))

    def survival_function(self, value, *params):
        return 1.0 - self.cdf(value, *params)

    def log_cdf(self, value, *params):
        return P.log(self.cdf(value, *params))

    def log_survival(self, value, *params):
        return P.log(self.survival_function(value, *params))

    def cross_entropy(self, dist, *params):
        """entropy(self) + KL(self || other): `params` are the other distribution's parameters,
        then optionally this one's."""
        return self.entropy(*params[len(self.param_names):]) + self.kl_loss(dist, *params)


class Normal(Distribution):
    """N(mean, sd^2)."""

    param_names = ("mean", "sd")
    repr_labels = ("mean", "standard deviation")

    def __init__(self, mean=None, sd=None, seed=None, dtype=dt.float32, name="Normal"):
        super().__init__(seed, dtype, name, {"param_dict": {"mean": mean, "sd": sd}})
        if sd is not None and not isinstance(sd, Parameter) and \
                not np.all(np.asarray(sd, np.float64) > 0):
            raise ArgumentValueError("Standard deviation must be greater than zero.")

    def prob(self, value, mean=None, sd=None):
        return P.exp(self.log_prob(value, mean, sd))

    def log_prob(self, value, mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        z = (value - mean) / sd
        return -0.5 * z * z - P.log(sd) - 0.5 * math.log(2 * math.pi)

    def cdf(self, value, mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        return 0.5 * (1.0 + P.erf((value - mean) / (sd * math.sqrt(2.0))))

    def mean(self, mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        return mean * P.ones_like(sd)

    mode = mean

    def var(self, mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        return sd * sd * P.ones_like(mean)

    def entropy(self, mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        return (0.5 * math.log(2 * math.pi * math.e) + P.log(sd)) * P.ones_like(mean)

    def kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        """KL(self || Normal(mean_b, sd_b))."""
        if dist != "Normal":
            raise ArgumentValueError(f"Normal.kl_loss: only dist='Normal' is supported, got "
                                     f"{dist!r}")
        mean, sd = self._params((mean, sd))
        ratio = sd / sd_b
        return 0.5 * (ratio * ratio + ((mean - mean_b) / sd_b) ** 2 - 1.0) - P.log(ratio)

    def sample(self, shape=(), mean=None, sd=None):
        mean, sd = self._params((mean, sd))
        full = tuple(shape) + tuple(P.broadcast_to(mean, (mean + sd).shape).shape)
        return mean + sd * P.cast(P.randn(full, seed=self.seed), self.dtype)


class Uniform(Distribution):
    """U[low, high)."""

    param_names = ("low", "high")
    repr_labels = ("low", "high")
    low, high = parameter_property("low"), parameter_property("high")

    def __init__(self, low=None, high=None, seed=None, dtype=dt.float32, name="Uniform"):
        super().__init__(seed, dtype, name, {"param_dict": {"low": low, "high": high}})
        if low is not None and high is not None and not isinstance(low, Parameter) and \
                not isinstance(high, Parameter) and \
                not np.all(np.less(np.asarray(low), np.asarray(high))):
            raise ArgumentValueError("low must be less than high")

    def prob(self, value, low=None, high=None):
        low, high = self._params((low, high))
        inside = P.logical_and(value >= low, value < high)
        return P.select(inside, P.ones_like(value) / (high - low), P.zeros_like(value))

    def cdf(self, value, low=None, high=None):
        low, high = self._params((low, high))
        return P.clip_by_value((value - low) / (high - low), 0.0, 1.0)

    def mean(self, low=None, high=None):
        low, high = self._params((low, high))
        return (low + high) / 2.0

    def var(self, low=None, high=None):
        low, high = self._params((low, high))
        return (high - low) ** 2 / 12.0

    def entropy(self, low=None, high=None):
        low, high = self._params((low, high))
        return P.log(high - low)

    def kl_loss(self, dist, low_b, high_b, low=None, high=None):
        if dist != "Uniform":
            raise ArgumentValueError(f"Uniform.kl_loss: only dist='Uniform' is supported, got "
                                     f"{dist!r}")
        low, high = self._params((low, high))
        return P.log((high_b - low_b) / (high - low))

    def sample(self, shape=(), low=None, high=None):
        low, high = self._params((low, high))
        full = tuple(shape) + tuple((low + high).shape)
        return low + (high - low) * P.cast(P.rand(full, seed=self.seed), self.dtype)


class Bernoulli(Distribution):
    """1 with probability `probs`, else 0 (samples in `dtype`, int32 by default)."""

    param_names = ("probs",)
    repr_labels = ("probs",)
    dist_arg_names = ("probs1",)
    probs = parameter_property("probs")

    float_only = False

    def __init__(self, probs=None, seed=None, dtype=dt.int32, name="Bernoulli"):
        if not isinstance(dtype, dt.DType) or not (dtype.is_float or dtype.is_int):
            raise DTypeError(f"For 'Bernoulli', the 'dtype' should be an int, uint or float "
                             f"type, but got {dtype}.")
        super().__init__(seed, dt.float32, name, {"param_dict": {"probs": probs}})
        self.sample_dtype = dtype
        if probs is not None and not isinstance(probs, Parameter):
            values = np.asarray(probs, np.float64)
            if not np.all(values > 0):
                raise ArgumentValueError("Probabilities must be greater than zero")
            if not np.all(values < 1):
                raise ArgumentValueError("Probabilities must be less than one")

    def prob(self, value, probs=None):
        (p,) = self._params((probs,))
        value = P.cast(value, dt.float32)
        return value * p + (1.0 - value) * (1.0 - p)

    def cdf(self, value, probs=None):
        (p,) = self._params((probs,))
        value = P.cast(value, dt.float32)
        return P.select(value < 0, P.zeros_like(value),
                        P.select(value < 1, (1.0 - p) * P.ones_like(value), P.ones_like(value)))

    def mean(self, probs=None):
        return self._params((probs,))[0]

    def mode(self, probs=None):
        (p,) = self._params((probs,))
        return P.cast(p > 0.5, self.sample_dtype)

    def var(self, probs=None):
        (p,) = self._params((probs,))
        return p * (1.0 - p)

    def entropy(self, probs=None):
        (p,) = self._params((probs,))
        return -(p * P.log(p) + (1.0 - p) * P.log(1.0 - p))

    def kl_loss(self, dist, probs_b, probs=None):
        if dist != "Bernoulli":
            raise ArgumentValueError(f"Bernoulli.kl_loss: only dist='Bernoulli' is supported, "
                                     f"got {dist!r}")
        (p,) = self._params((probs,))
        return p * P.log(p / probs_b) + (1.0 - p) * P.log((1.0 - p) / (1.0 - probs_b))

    def sample(self, shape=(), probs=None):
        (p,) = self._params((probs,))
        full = tuple(shape) + tuple(p.shape)
        return P.cast(P.rand(full, seed=self.seed) < p, self.sample_dtype)


class TransformedDistribution(Distribution):
    """The distribution of Y = bijector(X) for X ~ `distribution`: densities by the change of
    variables, log p_Y(y) = log p_X(g^-1(y)) + log |dg^-1/dy|, samples pushed forward. The
    cdf assumes an increasing map; the mean exists only for a linear one (ScalarAffine)."""

    def __init__(self, bijector, distribution, seed=None, name="transformed_distribution"):
        from ..bijector import Bijector, ScalarAffine

        if not isinstance(bijector, Bijector):
            raise TypeError(f"TransformedDistribution: `bijector` must be a Bijector, got "
                            f"{type(bijector).__name__}")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"TransformedDistribution: `distribution` must be a Distribution, "
                            f"got {type(distribution).__name__}")
        super().__init__(seed, distribution.dtype, name, {"param_dict": {}})
        # MindSpore's names for the two Cells (its repr shows them)
        self._bijector, self._distribution = bijector, distribution
        self.is_linear_transformation = isinstance(bijector, ScalarAffine)

    @property
    def bijector(self):
        return self._bijector

    @property
    def distribution(self):
        return self._distribution

    def log_prob(self, value, *params):
        inverse = self._bijector.inverse(value)
        return self._distribution.log_prob(inverse, *params) + \
            self._bijector.inverse_log_jacobian(value)

    def prob(self, value, *params):
        return P.exp(self.log_prob(value, *params))

    def cdf(self, value, *params):
        return self._distribution.cdf(self._bijector.inverse(value), *params)

    def log_cdf(self, value, *params):
        return P.log(self.cdf(value, *params))

    def mean(self, *params):
        if not self.is_linear_transformation:
            raise NotImplementedError("TransformedDistribution: the mean is only available "
                                      "for a linear transformation (ScalarAffine)")
        return self._bijector.forward(self._distribution.mean(*params))

    def sample(self, shape=(), *params):
        return self._bijector.forward(self._distribution.sample(shape, *params))


# Each of these subclasses Distribution, defined above.
def gamma_draws(shape, concentration, seed, dtype):
    """Gamma(concentration, 1) draws of shape `shape + concentration.shape` in `dtype`, from
    the stream of `seed` (a distribution's)."""
    sizes = Tensor(np.asarray(tuple(shape), np.int64).reshape(-1))
    return P.cast(P.random_gamma(sizes, P.cast(concentration, dt.float32), seed=seed), dtype)


from .beta import Beta
from .categorical import Categorical
from .cauchy import Cauchy
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .log_normal import LogNormal
from .logistic import Logistic
from .poisson import Poisson

