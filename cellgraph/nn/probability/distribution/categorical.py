"""`mindspore.nn.probability.distribution.Categorical`."""
from __future__ import annotations

import numpy as np

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.runtime.tensor import Parameter

from . import Distribution, _tensor, parameter_property
from ._checks import discrete_dtype, probability


def _check_probs(probs):
    """Rank >= 1, each probability in (0, 1), each row summing to one (within 10 eps, as
    MindSpore's)."""
    if probs is None or isinstance(probs, Parameter):
        return
    values = probs.asnumpy() if hasattr(probs, "asnumpy") else np.asarray(probs, np.float32)
    if values.ndim == 0:
        raise ArgumentValueError("probs for Categorical distribution must have rank >= 1.")
    probability(values)
    total = np.sum(values, axis=-1)
    eps = np.finfo(total.dtype).eps if total.dtype.kind == "f" else np.finfo(np.float32).eps
    if not np.allclose(total, np.ones(total.shape), rtol=eps * 10, atol=eps):
        raise ArgumentValueError("Probabilities for each category should sum to one for "
                                 "Categorical distribution.")


class Categorical(Distribution):
    """Categorical(probs): category i with probability probs[..., i]. `dtype` is the samples'
    (an int, uint or float type); `probs` is float32."""

    param_names = ("probs",)
    repr_labels = ("probs",)
    probs = parameter_property("probs")

    float_only = False

    def __init__(self, probs=None, seed=None, dtype=dt.int32, name="Categorical"):
        discrete_dtype(dtype, type(self).__name__)
        super().__init__(seed, dt.float32, name, {"param_dict": {"probs": probs}})
        _check_probs(probs)
        self.sample_dtype = dtype

    # the last dimension of `probs` holds the categories: the batch is the dimensions before it
    @property
    def is_scalar_batch(self) -> bool:
        return super().is_scalar_batch or (
            self._probs is not None and len(self._probs.shape) == 1)

    @property
    def broadcast_shape(self):
        shape = super().broadcast_shape
        return None if shape is None else shape[:-1]

    def _index(self, p):
        return P.cast(P.arange(0, p.shape[-1]), dt.float32)

    def mean(self, probs=None):
        (p,) = self._params((probs,))
        return P.sum(self._index(p) * p, -1, keepdim=True)

    def var(self, probs=None):
        (p,) = self._params((probs,))
        index = self._index(p)
        mean = P.sum(index * p, -1, keepdim=True)
        return P.sum(index * index * p, -1, keepdim=True) - mean * mean

    def mode(self, probs=None):
        (p,) = self._params((probs,))
        return P.cast(P.argmax(p, -1), self.sample_dtype)

    def entropy(self, probs=None):
        (p,) = self._params((probs,))
        return -P.reduce_sum(P.log(p) * p, -1)

    def kl_loss(self, dist, probs_b, probs=None):
        if dist != "Categorical":
            raise ArgumentValueError(f"Categorical.kl_loss: only dist='Categorical' is "
                                     f"supported, got {dist!r}")
        (p,) = self._params((probs,))
        p_b = _tensor(probs_b, dt.float32)
        return P.reduce_sum(p * (P.log(p) - P.log(p_b)), -1)

    def log_prob(self, value, probs=None):
        """log probs[..., floor(value)]; NaN where the value is no category."""
        (p,) = self._params((probs,))
        count = p.shape[-1]
        value = P.floor(P.cast(value, dt.float32))
        valid = P.logical_and(value >= 0, value < count)
        index = P.cast(P.clip_by_value(value, 0.0, float(count - 1)), dt.int32)
        log_p = P.log(p)
        table = P.broadcast_to(log_p, tuple(index.shape) + (count,))
        out = P.squeeze(P.gather_d(table, -1, P.expand_dims(index, -1)), -1)
        return P.select(valid, out, P.full_like(out, float("nan")))

    def prob(self, value, probs=None):
        return P.exp(self.log_prob(value, probs))

    def cdf(self, value, probs=None):
        """P(X <= value): the cumulative sum up to the (floored) value, 0 below the first
        category and 1 from the last on."""
        (p,) = self._params((probs,))
        count = p.shape[-1]
        value = P.floor(P.cast(value, dt.float32))
        index = P.cast(P.clip_by_value(value, 0.0, float(count - 1)), dt.int32)
        cum = P.cumsum(p, -1)
        table = P.broadcast_to(cum, tuple(index.shape) + (count,))
        cdf = P.squeeze(P.gather_d(table, -1, P.expand_dims(index, -1)), -1)
        return P.select(value < 0, P.zeros_like(cdf), cdf)

    def sample(self, shape=(), probs=None):
        (p,) = self._params((probs,))
        flat = P.reshape(p, (-1, p.shape[-1]))
        count = int(np.prod(shape)) if shape else 1
        draws = P.multinomial(flat, count, replacement=True, seed=self.seed)
        batch = tuple(p.shape[:-1])
        draws = P.reshape(P.transpose(draws, (1, 0)), tuple(shape) + batch)
        return P.cast(draws, self.sample_dtype)
