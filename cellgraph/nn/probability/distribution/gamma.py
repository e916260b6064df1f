"""`mindspore.nn.probability.distribution.Gamma`."""
from __future__ import annotations

import numpy as np

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor, gamma_draws, parameter_property
from ._checks import float_dtype, greater_zero, not_scalar


class Gamma(Distribution):
    """Gamma(concentration, rate): density b^a x^(a-1) exp(-b x) / Gamma(a). The parameters are
    lists or Tensors (a Python number is refused, as MindSpore's). The cdf is the regularized
    incomplete gamma function P(a, b x)."""

    param_names = ("concentration", "rate")
    repr_labels = ("concentration", "rate")
    concentration, rate = parameter_property("concentration"), parameter_property("rate")

    def __init__(self, concentration=None, rate=None, seed=None, dtype=dt.float32,
                 name="Gamma"):
        float_dtype(dtype, type(self).__name__)
        not_scalar(concentration, "concentration")
        not_scalar(rate, "rate")
        super().__init__(seed, dtype, name, {"param_dict": {"concentration": concentration,
                                                           "rate": rate}})
        greater_zero(concentration, "concentration")
        greater_zero(rate, "rate")

    def log_prob(self, value, concentration=None, rate=None):
        a, b = self._params((concentration, rate))
        return a * P.log(b) + (a - 1.0) * P.log(value) - b * value - P.lgamma(a)

    def prob(self, value, concentration=None, rate=None):
        return P.exp(self.log_prob(value, concentration, rate))

    def cdf(self, value, concentration=None, rate=None):
        a, b = self._params((concentration, rate))
        x = P.cast(value, self.dtype)
        return P.select(x > 0, P.igamma(a * P.ones_like(x), P.relu(b * x)), P.zeros_like(x))

    def mean(self, concentration=None, rate=None):
        a, b = self._params((concentration, rate))
        return a / b

    def var(self, concentration=None, rate=None):
        a, b = self._params((concentration, rate))
        return a / (b * b)

    def mode(self, concentration=None, rate=None):
        """(a - 1) / b where a >= 1, NaN elsewhere."""
        a, b = self._params((concentration, rate))
        mode = (a - 1.0) / b
        return P.select(a >= 1.0, mode, P.full_like(mode, float("nan")))

    def entropy(self, concentration=None, rate=None):
        a, b = self._params((concentration, rate))
        return a - P.log(b) + P.lgamma(a) + (1.0 - a) * P.digamma(a)

    def kl_loss(self, dist, concentration_b, rate_b, concentration=None, rate=None):
        if dist != "Gamma":
            raise ArgumentValueError(f"Gamma.kl_loss: only dist='Gamma' is supported, got "
                                     f"{dist!r}")
        a, b = self._params((concentration, rate))
        a_b, b_b = _tensor(concentration_b, self.dtype), _tensor(rate_b, self.dtype)
        return ((a - a_b) * P.digamma(a) + P.lgamma(a_b) - P.lgamma(a) +
                a_b * (P.log(b) - P.log(b_b)) + a * (b_b / b - 1.0))

    def sample(self, shape=(), concentration=None, rate=None):
        """Draws of shape `shape + broadcast(concentration, rate).shape`."""
        a, b = self._params((concentration, rate))
        a = P.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape))
        return gamma_draws(shape, a, self.seed, self.dtype) / b
