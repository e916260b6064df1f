"""`mindspore.nn.probability.distribution.Beta`."""
from __future__ import annotations

import numpy as np

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor, gamma_draws, parameter_property
from ._checks import float_dtype, greater_zero, not_scalar


def _lbeta(a, b):
    return P.lgamma(a) + P.lgamma(b) - P.lgamma(a + b)


class Beta(Distribution):
    """Beta(concentration1, concentration0) on (0, 1): density x^(a-1) (1-x)^(b-1) / B(a, b).
    The parameters are lists or Tensors (a Python number is refused, as MindSpore's). The cdf
    (the regularized incomplete beta function) is not available; samples are
    G(a) / (G(a) + G(b)) of two gamma draws."""

    param_names = ("concentration1", "concentration0")
    repr_labels = ("concentration1", "concentration0")
    concentration1 = parameter_property("concentration1")
    concentration0 = parameter_property("concentration0")

    def __init__(self, concentration1=None, concentration0=None, seed=None, dtype=dt.float32,
                 name="Beta"):
        float_dtype(dtype, type(self).__name__)
        not_scalar(concentration0, "concentration0")  # MindSpore checks this one first
        not_scalar(concentration1, "concentration1")
        super().__init__(seed, dtype, name, {"param_dict": {"concentration1": concentration1,
                                                           "concentration0": concentration0}})
        greater_zero(concentration1, "concentration1")
        greater_zero(concentration0, "concentration0")

    def log_prob(self, value, concentration1=None, concentration0=None):
        a, b = self._params((concentration1, concentration0))
        return (a - 1.0) * P.log(value) + (b - 1.0) * P.log1p(-value) - _lbeta(a, b)

    def prob(self, value, concentration1=None, concentration0=None):
        return P.exp(self.log_prob(value, concentration1, concentration0))

    def cdf(self, value, *params):
        raise NotImplementedError("Beta.cdf needs the regularized incomplete beta function, "
                                  "which cellgraph does not have")

    def mean(self, concentration1=None, concentration0=None):
        a, b = self._params((concentration1, concentration0))
        return a / (a + b)

    def var(self, concentration1=None, concentration0=None):
        a, b = self._params((concentration1, concentration0))
        total = a + b
        return a * b / (total * total * (total + 1.0))

    def mode(self, concentration1=None, concentration0=None):
        """(a - 1) / (a + b - 2) where a > 1 and b > 1, NaN elsewhere."""
        a, b = self._params((concentration1, concentration0))
        mode = (a - 1.0) / (a + b - 2.0)
        return P.select(P.logical_and(a > 1.0, b > 1.0), mode,
                        P.full_like(mode, float("nan")))

    def entropy(self, concentration1=None, concentration0=None):
        a, b = self._params((concentration1, concentration0))
        total = a + b
        return (_lbeta(a, b) - (a - 1.0) * P.digamma(a) - (b - 1.0) * P.digamma(b) +
                (total - 2.0) * P.digamma(total))

    def kl_loss(self, dist, concentration1_b, concentration0_b, concentration1=None,
                concentration0=None):
        if dist != "Beta":
            raise ArgumentValueError(f"Beta.kl_loss: only dist='Beta' is supported, got "
                                     f"{dist!r}")
        a, b = self._params((concentration1, concentration0))
        a_b = _tensor(concentration1_b, self.dtype)
        b_b = _tensor(concentration0_b, self.dtype)
        total = a + b
        return (_lbeta(a_b, b_b) - _lbeta(a, b) + (a - a_b) * P.digamma(a) +
                (b - b_b) * P.digamma(b) + (a_b - a + b_b - b) * P.digamma(total))

    def sample(self, shape=(), concentration1=None, concentration0=None):
        """Draws of shape `shape + broadcast(concentration1, concentration0).shape`."""
        a, b = self._params((concentration1, concentration0))
        both = np.broadcast_shapes(a.shape, b.shape)
        x = gamma_draws(shape, P.broadcast_to(a, both), self.seed, self.dtype)
        y = gamma_draws(shape, P.broadcast_to(b, both), self.seed, self.dtype)
        return x / (x + y)
