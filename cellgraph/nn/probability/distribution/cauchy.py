"""`mindspore.nn.probability.distribution.Cauchy`."""
from __future__ import annotations

import math

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import _tensor
from ._checks import undefined
from ._location_scale import LocationScale


class Cauchy(LocationScale):
    """Cauchy(loc, scale): density 1 / (pi scale (1 + z^2)), z = (x - loc) / scale. The mean,
    variance and standard deviation are undefined (ValueError, as MindSpore's)."""

    repr_labels = ("location", "scale")

    def __init__(self, loc=None, scale=None, seed=None, dtype=dt.float32, name="Cauchy"):
        super().__init__(loc, scale, seed, dtype, name)

    def log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -math.log(math.pi) - P.log(scale) - P.log1p(z * z)

    def prob(self, value, loc=None, scale=None):
        return P.exp(self.log_prob(value, loc, scale))

    def cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return 0.5 + P.atan(z) / math.pi

    def survival_function(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return 0.5 - P.atan(z) / math.pi

    def mode(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return loc * P.ones_like(scale)

    def mean(self, *params):
        undefined("mean", "Cauchy")

    def var(self, *params):
        undefined("variance", "Cauchy")

    def sd(self, *params):
        undefined("standard deviation", "Cauchy")

    def entropy(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return math.log(4 * math.pi) + P.log(scale) * P.ones_like(loc)

    def kl_loss(self, dist, loc_b, scale_b, loc=None, scale=None):
        """KL(self || Cauchy(loc_b, scale_b)) = log((s_a + s_b)^2 + (l_a - l_b)^2) -
        log(4 s_a s_b)."""
        if dist != "Cauchy":
            raise ArgumentValueError(f"Cauchy.kl_loss: only dist='Cauchy' is supported, got "
                                     f"{dist!r}")
        loc, scale = self._params((loc, scale))
        loc_b, scale_b = _tensor(loc_b, self.dtype), _tensor(scale_b, self.dtype)
        total = (scale + scale_b) ** 2 + (loc - loc_b) ** 2
        return P.log(total) - P.log(4.0 * scale * scale_b)

    def sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        full = tuple(shape) + tuple((loc + scale).shape)
        u = P.cast(P.rand(full, seed=self.seed), self.dtype)
        return loc + scale * P.tan(math.pi * (u - 0.5))

