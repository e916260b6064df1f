"""`mindspore.nn.probability.distribution.LogNormal`."""
from __future__ import annotations

import math

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor, parameter_property
from ._checks import greater_zero


class LogNormal(Distribution):
    """exp(X) for X ~ Normal(loc, scale): the density of the log shifted by -log x."""

    param_names = ("loc", "scale")
    repr_labels = ("loc", "scale")
    loc, scale = parameter_property("loc"), parameter_property("scale")

    def __init__(self, loc=None, scale=None, seed=0, dtype=dt.float32, name="LogNormal"):
        super().__init__(seed, dtype, name, {"param_dict": {"loc": loc, "scale": scale}})
        if scale is not None and not hasattr(scale, "aval"):
            try:
                greater_zero(scale, "scale")
            except ArgumentValueError:
                raise ArgumentValueError("Standard deviation must be greater than zero.") \
                    from None

    def log_prob(self, value, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        log_x = P.log(value)
        z = (log_x - loc) / scale
        return -0.5 * z * z - P.log(scale) - 0.5 * math.log(2 * math.pi) - log_x

    def prob(self, value, loc=None, scale=None):
        return P.exp(self.log_prob(value, loc, scale))

    def cdf(self, value, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return 0.5 * (1.0 + P.erf((P.log(value) - loc) / (scale * math.sqrt(2.0))))

    def mean(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return P.exp(loc + 0.5 * scale * scale)

    def mode(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return P.exp(loc - scale * scale)

    def var(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        s2 = scale * scale
        return P.expm1(s2) * P.exp(2.0 * loc + s2)

    def entropy(self, loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        return loc + 0.5 + P.log(scale) + 0.5 * math.log(2 * math.pi)

    def kl_loss(self, dist, loc_b, scale_b, loc=None, scale=None):
        """As between the Normals of the logs (exp is one-to-one)."""
        if dist != "LogNormal":
            raise ArgumentValueError(f"LogNormal.kl_loss: only dist='LogNormal' is supported, "
                                     f"got {dist!r}")
        loc, scale = self._params((loc, scale))
        loc_b, scale_b = _tensor(loc_b, self.dtype), _tensor(scale_b, self.dtype)
        ratio = scale / scale_b
        return 0.5 * (ratio * ratio + ((loc - loc_b) / scale_b) ** 2 - 1.0) - P.log(ratio)

    def sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._params((loc, scale))
        full = tuple(shape) + tuple((loc + scale).shape)
        return P.exp(loc + scale * P.cast(P.randn(full, seed=self.seed), self.dtype))
