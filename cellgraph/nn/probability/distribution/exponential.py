"""`mindspore.nn.probability.distribution.Exponential`."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor, parameter_property
from ._checks import greater_zero


class Exponential(Distribution):
    """Exponential(rate): density rate * exp(-rate x) on x >= 0."""

    param_names = ("rate",)
    repr_labels = ("rate",)
    rate = parameter_property("rate")

    def __init__(self, rate=None, seed=None, dtype=dt.float32, name="Exponential"):
        super().__init__(seed, dtype, name, {"param_dict": {"rate": rate}})
        greater_zero(rate, "rate")

    def prob(self, value, rate=None):
        (rate,) = self._params((rate,))
        density = rate * P.exp(-rate * value)
        return P.select(value < 0, P.zeros_like(density), density)

    def log_prob(self, value, rate=None):
        (rate,) = self._params((rate,))
        logp = P.log(rate) - rate * value
        return P.select(value < 0, P.full_like(logp, float("-inf")), logp)

    def cdf(self, value, rate=None):
        (rate,) = self._params((rate,))
        cdf = -P.expm1(-rate * value)
        return P.select(value < 0, P.zeros_like(cdf), cdf)

    def survival_function(self, value, rate=None):
        (rate,) = self._params((rate,))
        sf = P.exp(-rate * value)
        return P.select(value < 0, P.ones_like(sf), sf)

    def mean(self, rate=None):
        (rate,) = self._params((rate,))
        return 1.0 / rate

    def mode(self, rate=None):
        (rate,) = self._params((rate,))
        return P.zeros_like(rate)

    def var(self, rate=None):
        (rate,) = self._params((rate,))
        return 1.0 / (rate * rate)

    def entropy(self, rate=None):
        (rate,) = self._params((rate,))
        return 1.0 - P.log(rate)

    def kl_loss(self, dist, rate_b, rate=None):
        """KL(self || Exponential(rate_b)) = log(rate_a / rate_b) + rate_b / rate_a - 1."""
        if dist != "Exponential":
            raise ArgumentValueError(f"Exponential.kl_loss: only dist='Exponential' is "
                                     f"supported, got {dist!r}")
        (rate,) = self._params((rate,))
        rate_b = _tensor(rate_b, self.dtype)
        return P.log(rate) - P.log(rate_b) + rate_b / rate - 1.0

    def sample(self, shape=(), rate=None):
        (rate,) = self._params((rate,))
        full = tuple(shape) + tuple(rate.shape)
        u = P.cast(P.rand(full, seed=self.seed), self.dtype)
        return -P.log1p(-u) / rate
