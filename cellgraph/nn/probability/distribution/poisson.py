"""`mindspore.nn.probability.distribution.Poisson`."""
from __future__ import annotations

import numpy as np

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.runtime.tensor import Tensor

from . import Distribution, parameter_property
from ._checks import discrete_dtype, greater_zero, not_scalar


class Poisson(Distribution):
    """Poisson(rate) on the non-negative integers: p(k) = rate^k exp(-rate) / k! (with
    Gamma(k + 1) for k!, as MindSpore's, also between the integers), 0 where k < 0. `dtype` is the samples' (an int, uint or float type);
    the rate is float32. The rate is a list or a Tensor (a Python number is refused, as
    MindSpore's). The cdf (the regularized incomplete gamma function) and sampling are not
    available."""

    param_names = ("rate",)
    repr_labels = ("rate",)
    rate = parameter_property("rate")

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

    def cdf(self, value, rate=None):
        """Q(floor(value) + 1, rate), the regularized upper incomplete gamma function; 0 below
        0."""
        (rate,) = self._params((rate,))
        k = P.floor(P.cast(value, dt.float32))
        inside = P.igammac(k + 1.0, rate * P.ones_like(k))
        return P.select(k >= 0, inside, P.zeros_like(inside))

    def mean(self, rate=None):
        return self._params((rate,))[0]

    var = mean

    def mode(self, rate=None):
        (rate,) = self._params((rate,))
        return P.floor(rate)

    def sample(self, shape=(), rate=None):
        """Counts of shape `shape + rate.shape`, in the distribution's dtype."""
        (rate,) = self._params((rate,))
        sizes = Tensor(np.asarray(tuple(shape), np.int64).reshape(-1))
        return P.random_poisson(sizes, rate, seed=self.seed, dtype=self.sample_dtype) \
            if tuple(shape) else P.reshape(P.random_poisson(
                Tensor(np.array([1], np.int64)), rate, seed=self.seed, dtype=self.sample_dtype),
                tuple(rate.shape))
