"""MindSpore's `ops.function.random_func`: random draws composed from `uniform_real` samples, so
they are fresh on every run and follow `set_seed`."""
from __future__ import annotations

import math
import numbers

from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func.attributes import _ndim, _shape
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import clip_by_value, cumsum
from cellgraph.primitives.random_ops import draw_uniform, op_seed, op_seeds, rand, rand_like

__all__ = ["bernoulli", "multinomial", "normal", "randint", "randn", "randn_like",
           "standard_normal", "uniform"]


def multinomial(input, num_samples, replacement=True, seed=None):
    """Category indices drawn with the (unnormalised) weights of each row of `input`: the
    number of cumulative probabilities below a uniform draw (with replacement)."""
    if not replacement and num_samples > 1:
        raise ArgumentValueError("multinomial: replacement=False is not supported")
    weights = input if _ndim(input) == 2 else F.expand_dims(input, 0)
    cdf = cumsum(F.div(weights, F.reduce_sum(weights, -1, True)), -1)
    draws = rand(_shape(weights)[:1] + (num_samples, 1), seed=seed)
    below = F.less(F.expand_dims(cdf, 1), draws)  # (N, samples, C)
    index = F.minimum(F.reduce_sum(F.cast(below, dt.int64), -1), _shape(weights)[-1] - 1)
    return index if _ndim(input) == 2 else F.squeeze(index, 0)


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if not all(isinstance(d, numbers.Integral) for d in size):
        raise DTypeError(f"expected a shape of ints, got {size!r}")
    return tuple(int(d) for d in size)


def _normal_draws(shape, key=None):
    """N(0, 1) float32 samples by the Box-Muller transform of two uniform draws (from the
    global generator, or the op seed's stream `key`)."""
    u1 = F.sub(1.0, draw_uniform(shape, dt.float32, key))  # (0, 1]: log is finite
    u2 = draw_uniform(shape, dt.float32, key)
    return F.mul(F.sqrt(F.mul(F.log(u1), -2.0)), F.cos(F.mul(u2, 2 * math.pi)))


def standard_normal(shape, seed=None):
    """N(0, 1) float32 samples by the Box-Muller transform of two uniform draws (`seed` None or
    0: from the global generator)."""
    return seeded_standard_normal(shape, seed or 0, 0)


def seeded_standard_normal(shape, seed=0, seed2=0):
    """standard_normal from the stream of the StandardNormal primitive's (seed, seed2)."""
    return _normal_draws(_size((shape,)), op_seeds(seed, seed2, "standard_normal"))


def randn(*size, dtype=None, seed=None):
    out = _normal_draws(_size(size), op_seed(seed, "randn"))
    return out if dtype is None else F.cast(out, dtype)


def randn_like(input, seed=None, *, dtype=None):
    return randn(_shape(input), dtype=dtype or abstract_of(input).dtype, seed=seed)


def normal(shape, mean, stddev, seed=None):
    """mean + stddev * N(0, 1) samples of `shape`."""
    return F.add(F.mul(_normal_draws(_size((shape,)), op_seed(seed, "normal")), stddev), mean)


def uniform(shape, minval, maxval, seed=None, dtype=dt.float32):
    """U[minval, maxval) samples; integer dtypes give ints in [minval, maxval)."""
    draw = F.add(F.mul(rand(_size((shape,)), seed=seed), F.sub(maxval, minval)), minval)
    if dt.as_dtype(dtype).is_int:
        return F.cast(clip_by_value(draw, minval, F.sub(maxval, 1)), dtype)
    return F.cast(draw, dtype)


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in [low, high): low + floor(U * (high - low)) (the product is >= 0, so
    casting truncates it to its floor)."""
    return random_ints(low, high, _size((size,)), op_seed(seed, "randint"), dtype or dt.int64)


def random_ints(low, high, shape, key, dtype):
    """randint's draws from the global generator or the op seed's stream `key`."""
    if high <= low:
        raise ArgumentValueError(f"randint: expected low < high, got {low} and {high}")
    offset = F.cast(F.mul(draw_uniform(shape, dt.float32, key), float(high - low)), dt.int64)
    out = F.add(F.minimum(offset, high - low - 1), low)
    return F.cast(out, dtype)


def bernoulli(input, p=0.5, seed=None):
    """Zeros and ones of input's shape and dtype, one with probability `p` (a float or a Tensor
    broadcasting against input)."""
    if isinstance(p, numbers.Real) and not 0 <= p <= 1:
        raise ShapeError(f"bernoulli: `p` must be in [0, 1], got {p}")
    draws = rand_like(input, seed) if abstract_of(input).dtype.is_float else rand_like(
        F.cast(input, "float32"), seed)
    return F.cast(M.less(draws, p), abstract_of(input).dtype)


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
