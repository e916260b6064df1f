"""`mindspore.nn.probability.distribution.Poisson`."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt

from . import Distribution
from ._checks import discrete_dtype, greater_zero, not_scalar


class Poisson(Distribution):
    """Poisson(rate) on the non-negative integers: p(k) = rate^k exp(-rate) / k! (with
    Gamma(k + 1) for k!, as MindSpore's, also between the integers), 0 where k < 0. `dtype` is the samples' (an int, uint or float type);
    the rate is float32. The rate is a list or a Tensor (a Python number is refused, as
    MindSpore's). The cdf (the regularized incomplete gamma function) and sampling are not
    available."""

    param_names = ("rate",)

    float_only = False

    def __init__(self, rate=None, seed=None, dtype=dt.float32, name="Poisson"):
        discrete_dtype(dtype, type(self).__name__)
        not_scalar(rate, "rate")
        super().__init__(seed, dt.float32, name, {"param_dict": {"rate": rate}})
        self.sample_dtype = dtype
        greater_zero(rate, "rate")

    def log_prob(self, value, rate=None):
        (rate,) = self._params((rate,))
        value = P.cast(value, dt.float32)
        logp = value * P.log(rate) - rate - P.lgamma(value + 1.0)
        return P.select(value >= 0, logp, P.full_like(logp, float("-inf")))

    def prob(self, value, rate=None):
        return P.exp(self.log_prob(value, rate))

    def cdf(self, value, *params):
        raise NotImplementedError("Poisson.cdf needs the regularized incomplete gamma "
                                  "function, which cellgraph does not have")

    def mean(self, rate=None):
        return self._params((rate,))[0]

    var = mean

    def mode(self, rate=None):
        (rate,) = self._params((rate,))
        return P.floor(rate)

    def sample(self, shape=(), *params):
        raise NotImplementedError("Poisson.sample needs a Poisson sampler, which cellgraph "
                                  "does not have")
