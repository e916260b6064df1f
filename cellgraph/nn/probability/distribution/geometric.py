"""`mindspore.nn.probability.distribution.Geometric`."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError

from . import Distribution, _tensor, parameter_property
from ._checks import discrete_dtype, probability


class Geometric(Distribution):
    """Geometric(probs): the number of failures before the first success of Bernoulli(probs)
    trials, p(k) = (1 - p)^k p for k = 0, 1, ... (the value is floored, as MindSpore's). `dtype`
    is the samples' (an int, uint or float type); `probs` is float32."""

    param_names = ("probs",)
    repr_labels = ("probs",)
    dist_arg_names = ("probs1",)
    probs = parameter_property("probs")

    float_only = False

    def __init__(self, probs=None, seed=None, dtype=dt.int32, name="Geometric"):
        discrete_dtype(dtype, type(self).__name__)
        super().__init__(seed, dt.float32, name, {"param_dict": {"probs": probs}})
        self.sample_dtype = dtype
        probability(probs)

    def prob(self, value, probs=None):
        (p,) = self._params((probs,))
        k = P.floor(P.cast(value, dt.float32))
        pmf = P.pow(1.0 - p, k) * p
        return P.select(k < 0, P.zeros_like(pmf), pmf)

    def log_prob(self, value, probs=None):
        return P.log(self.prob(value, probs))

    def cdf(self, value, probs=None):
        (p,) = self._params((probs,))
        k = P.floor(P.cast(value, dt.float32))
        cdf = 1.0 - P.pow(1.0 - p, k + 1.0)
        return P.select(k < 0, P.zeros_like(cdf), cdf)

    def mean(self, probs=None):
        (p,) = self._params((probs,))
        return (1.0 - p) / p

    def mode(self, probs=None):
        (p,) = self._params((probs,))
        return P.zeros_like(p)

    def var(self, probs=None):
        (p,) = self._params((probs,))
        return (1.0 - p) / (p * p)

    def entropy(self, probs=None):
        (p,) = self._params((probs,))
        q = 1.0 - p
        return (-p * P.log(p) - q * P.log(q)) / p

    def kl_loss(self, dist, probs_b, probs=None):
        """KL(self || Geometric(probs_b)) = log(p_a / p_b) + (1 - p_a) / p_a *
        log((1 - p_a) / (1 - p_b))."""
        if dist != "Geometric":
            raise ArgumentValueError(f"Geometric.kl_loss: only dist='Geometric' is supported, "
                                     f"got {dist!r}")
        (p,) = self._params((probs,))
        p_b = _tensor(probs_b, dt.float32)
        return P.log(p / p_b) + (1.0 - p) / p * P.log((1.0 - p) / (1.0 - p_b))

    def sample(self, shape=(), probs=None):
        """floor(log(U) / log(1 - p)) for U uniform on (0, 1)."""
        (p,) = self._params((probs,))
        full = tuple(shape) + tuple(p.shape)
        u = P.rand(full, seed=self.seed)
        return P.cast(P.floor(P.log1p(-u) / P.log1p(-p)), self.sample_dtype)
