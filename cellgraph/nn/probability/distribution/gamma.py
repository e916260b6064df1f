"""`mindspore.nn.probability.distribution.Gamma`."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor
from ._checks import float_dtype, greater_zero, not_scalar


class Gamma(Distribution):
    """Gamma(concentration, rate): density b^a x^(a-1) exp(-b x) / Gamma(a). The parameters are
    lists or Tensors (a Python number is refused, as MindSpore's). The cdf (MindSpore's uses
    the regularized incomplete gamma function) and sampling are not available."""

    param_names = ("concentration", "rate")

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

    def cdf(self, value, *params):
        raise NotImplementedError("Gamma.cdf needs the regularized incomplete gamma function, "
                                  "which cellgraph does not have")

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

    def sample(self, shape=(), *params):
        raise NotImplementedError("Gamma.sample needs a gamma sampler, which cellgraph does not "
                                  "have")
