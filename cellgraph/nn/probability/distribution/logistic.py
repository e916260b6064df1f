"""`mindspore.nn.probability.distribution.Logistic`."""
from __future__ import annotations

import math

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt

from ._location_scale import LocationScale


class Logistic(LocationScale):
    """Logistic(loc, scale): cdf sigmoid((x - loc) / scale)."""

    repr_labels = ("location", "scale")

    def __init__(self, loc=None, scale=None, seed=None, dtype=dt.float32, name="Logistic"):
        super().__init__(loc, scale, seed, dtype, name)

    def log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -z - 2.0 * P.softplus(-z) - P.log(scale)

    def prob(self, value, loc=None, scale=None):
        return P.exp(self.log_prob(value, loc, scale))

    def cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return P.sigmoid(z)

    def log_cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return -P.softplus(-z)

    def survival_function(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return P.sigmoid(-z)

    def log_survival(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return -P.softplus(z)

    def mean(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return loc * P.ones_like(scale)

    mode = mean

    def var(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return (math.pi ** 2 / 3.0) * scale * scale * P.ones_like(loc)

    def entropy(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return (P.log(scale) + 2.0) * P.ones_like(loc)

    def sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        full = tuple(shape) + tuple((loc + scale).shape)
        u = P.cast(P.rand(full, seed=self.seed), self.dtype)
        return loc + scale * (P.log(u) - P.log1p(-u))
