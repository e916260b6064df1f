"""MindSpore's `ops.function.random_func`: random draws composed from `uniform_real` samples, so
they are fresh on every run and follow `set_seed`."""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.compiler.builder import current_builder
from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func.attributes import _ndim, _shape
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import clip_by_value, cumsum
from cellgraph.primitives.random_ops import draw_uniform, op_seed, op_seeds, rand, rand_like
from cellgraph.primitives.random_ops import random_poisson as poisson_draw
from cellgraph.primitives.random_ops import uniform_candidate_sampler as candidate_draw
from cellgraph.runtime.rng import MinstdDoubleStream, MinstdStream

__all__ = ["bernoulli", "multinomial", "normal", "randint", "randn", "randn_like",
           "random_categorical", "random_poisson", "standard_laplace", "standard_normal",
           "uniform", "uniform_candidate_sampler"]


def instance_stream(seed: int, seed2: int, streams: dict, key: tuple):
    """The draws of a seeded random primitive instance, as each MindSpore kernel seeds a
    generator of its own from (seed, seed2): None (the global generator) when both are 0; in a
    graph being built, a stream for that node (carried on from run to run); eagerly, the one
    `streams` (the instance's) keeps for `key` (its inputs). So two instances with the same
    seeds draw the same numbers."""
    if not seed and not seed2:
        return None
    if current_builder() is not None:
        return MinstdStream(seed, seed2)
    return streams.setdefault(key, MinstdStream(seed, seed2))


def check_candidate_sampler(num_true, num_sampled, unique, range_max, seed,
                            remove_accidental_hits) -> None:
    """UniformCandidateSampler's options, with MindSpore's TypeErrors and ValueErrors."""
    op = "UniformCandidateSampler"
    for name, value, kind in (("num_true", num_true, int), ("num_sampled", num_sampled, int),
                              ("unique", unique, bool), ("range_max", range_max, int),
                              ("seed", seed, int),
                              ("remove_accidental_hits", remove_accidental_hits, bool)):
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise DTypeError(f"For '{op}', the type of '{name}' should be '{kind.__name__}', "
                             f"but got type '{type(value).__name__}'.")
    for name, value in (("num_true", num_true), ("num_sampled", num_sampled),
                        ("range_max", range_max)):
        if value <= 0:
            raise ArgumentValueError(f"For '{op}', the value of {name} should be > : 0, but "
                                     f"got {value}.")
    if unique and num_sampled > range_max:
        raise ArgumentValueError(f"For '{op}', the value of num_sampled should be <= value of "
                                 f"range_max: {range_max}, but got {num_sampled}.")
    if seed < 0:
        raise ArgumentValueError(f"For '{op}', the value of seed should be >= : 0, but got "
                                 f"{seed}.")


def sample_candidates(true_classes, num_true, num_sampled, unique, range_max,
                      remove_accidental_hits, stream):
    """The UniformCandidateSampler primitive on `true_classes`, drawing from `stream` (None:
    the global generator)."""
    params = {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
              "range_max": range_max, "remove_accidental_hits": remove_accidental_hits}
    if stream is not None:
        params["seed"] = stream
    return tuple(candidate_draw(true_classes, **params))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """(sampled classes, expected count of each true class, of each sampled class): classes
    drawn uniformly from [0, range_max), as MindSpore's UniformCandidateSampler; with a
    `seed`, every call draws the numbers that seed starts with (its numbers are not
    MindSpore's)."""
    check_candidate_sampler(num_true, num_sampled, unique, range_max, seed,
                            remove_accidental_hits)
    return sample_candidates(true_classes, num_true, num_sampled, unique, range_max,
                             remove_accidental_hits, MinstdStream(seed, 0) if seed else None)


def laplace_draws(shape, key=None):
    """Standard Laplace float32 samples, -sign(u) log(1 - 2|u|) of u uniform on (-1/2, 1/2)."""
    u = F.sub(draw_uniform(shape, dt.float32, key), 0.5)
    magnitude = F.maximum(F.sub(1.0, F.mul(F.abs(u), 2.0)), float(np.finfo(np.float32).tiny))
    return F.mul(F.neg(F.sign(u)), F.log(magnitude))


def standard_laplace(shape, seed=None):
    """Standard Laplace (location 0, scale 1) float32 samples of `shape`; `seed` None or 0:
    from the global generator (the numbers are not MindSpore's)."""
    return laplace_draws(_size((shape,)), op_seeds(seed or 0, 0, "standard_laplace"))

_POISSON_TYPES = (dt.int64, dt.int32, dt.float16, dt.float32, dt.float64)


def random_poisson(shape, rate, seed=None, dtype=dt.float32):
    """Poisson counts of shape `shape + rate.shape`, each with its element of `rate` as mean (a
    rate <= 0 gives 0): `shape` a 1-D int Tensor of positive sizes, `rate` a float or int
    Tensor, `dtype` the result's (int32/int64 or a float). With `seed` the draws come from that
    seed's stream, else from the global generator (its numbers are not MindSpore's)."""
    if not hasattr(shape, "aval"):
        raise DTypeError(f"For primitive[RandomPoisson], the input argument[shape] must be a "
                         f"type of {{Int32, Int64}}, but got {type(shape).__name__}.")
    shape_aval = abstract_of(shape)
    if shape_aval.dtype not in (dt.int32, dt.int64):
        raise DTypeError(f"For primitive[RandomPoisson], the input argument[shape] must be a "
                         f"type of {{Tensor[Int32], Tensor[Int64]}}, but got "
                         f"Tensor[{shape_aval.dtype}].")
    if shape_aval.ndim != 1:
        raise ShapeError(f"For RandomPoisson, the argument[shape] must be a 1-D tensor, but got "
                         f"{shape_aval.ndim}-D")
    if not hasattr(rate, "aval"):
        raise DTypeError(f"For primitive[RandomPoisson], the input argument[rate] must be a "
                         f"type of {{Float16, Float32, Float64, Int32, Int64}}, but got "
                         f"{type(rate).__name__}.")
    rate_dtype = abstract_of(rate).dtype
    if rate_dtype not in _POISSON_TYPES:
        raise DTypeError(f"For primitive[RandomPoisson], the input argument[rate] must be a "
                         f"type of {{Tensor[Float16], Tensor[Float32], Tensor[Float64], "
                         f"Tensor[Int32], Tensor[Int64]}}, but got Tensor[{rate_dtype}].")
    key = op_seed(seed, "random_poisson")
    if dtype not in _POISSON_TYPES:
        raise DTypeError(f"For 'RandomPoisson', the 'dtype' should be one of [mindspore.int64, "
                         f"mindspore.int32, mindspore.float16, mindspore.float32, "
                         f"mindspore.float64], but got 'mindspore.{getattr(dtype, 'name', dtype)}'.")
    sizes = _known_sizes(shape)
    if any(d <= 0 for d in sizes):
        raise ShapeError(f"For primitive[RandomPoisson], the attribute[shape] should be a vector "
                         f"with all positive item. but got [{', '.join(map(str, sizes))}, ].")
    return poisson_draw(rate, shape=sizes, dtype=dtype, **({} if key is None else {"seed": key}))


def _known_sizes(shape) -> tuple:
    """A shape Tensor's values, known when the graph is built (a value input)."""
    return tuple(int(v) for v in value_input(shape, "RandomPoisson", "shape").reshape(-1))

_CATEGORY_TYPES = (dt.int16, dt.int32, dt.int64)


def _int_scalar(value, name: str):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        kind = "Float32" if isinstance(value, float) else type(value).__name__
        raise DTypeError(f"For primitive[RandomCategorical], the input argument[{name}] must be "
                         f"a type of {{Int32, Int64}}, but got {kind}.")
    return int(value)


def random_categorical_dtype_check(dtype) -> None:
    if dtype not in _CATEGORY_TYPES:
        raise DTypeError(f"For 'RandomCategorical', the 'dtype' should be one of "
                         f"[mindspore.int32, mindspore.int16, mindspore.int64], but got "
                         f"'mindspore.{getattr(dtype, 'name', dtype)}'.")


def categorical_stream(seed: int, streams: dict | None, key: tuple):
    """What RandomCategorical's draws come from: the global generator for seed 0 (MindSpore's
    kernel then seeds from the device), else the kernel's engine seeded from (0, seed), one a
    graph being built (a kernel of its own, carried on from run to run) and, eagerly, the one
    `streams` keeps for `key` (MindSpore keeps a kernel per primitive and inputs)."""
    if seed == 0:
        return None
    if current_builder() is not None or streams is None:
        return MinstdDoubleStream(0, seed & (2**64 - 1))
    return streams.setdefault(key, MinstdDoubleStream(0, seed & (2**64 - 1)))


def random_categorical(logits, num_sample, seed=0, dtype=dt.int64):
    """`num_sample` category indices per row of logits (batch, classes), drawn as MindSpore's
    CPU kernel draws them: per row the running sum of exp(logit - row max) (the exponential
    in float32, the sum in the logits' dtype), and for each sample one uniform draw, shared by
    every row, scaled by the row's total; the index is the number of sums below it."""
    return categorical_draw(logits, num_sample, seed, dtype, None)


def categorical_draw(logits, num_sample, seed, dtype, streams: dict | None):
    """random_categorical, eagerly drawing from the stream `streams` keeps for its inputs."""
    random_categorical_dtype_check(dtype)
    num_sample = _int_scalar(num_sample, "num_sample")
    seed = _int_scalar(seed, "seed")
    aval = abstract_of(logits)
    if aval.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"For primitive[RandomCategorical], the input argument[logits] must be "
                         f"a type of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                         f"got Tensor[{aval.dtype}].")
    if aval.ndim != 2:
        raise ShapeError("logits shape size only support 2D")
    if num_sample <= 0:
        raise ArgumentValueError(f"For 'RandomCategorical', num_sample can't has negative "
                                 f"value, but got {num_sample}")
    stream = categorical_stream(seed, streams, (aval.shape, aval.dtype, num_sample, seed))
    shifted = F.sub(logits, F.reduce_max(logits, -1, True))
    cdf = cumsum(F.cast(M.exp(F.cast(shifted, dt.float32)), aval.dtype), -1)
    draws = F.cast(draw_uniform((num_sample,), dt.float32, stream), aval.dtype)
    targets = F.mul(cdf[:, -1:], F.expand_dims(draws, 0))  # (batch, num_sample)
    below = F.less(F.expand_dims(cdf, 1), F.expand_dims(targets, -1))
    return F.cast(F.reduce_sum(F.cast(below, dt.int32), -1), dtype)


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
    if len(size) == 1 and hasattr(size[0], "aval") and abstract_of(size[0]).ndim == 1:
        size = tuple(value_input(size[0], "random", "shape").tolist())  # a shape Tensor
    size = tuple(value_input(d, "random", "shape").item() if hasattr(d, "aval") else d
                 for d in size)
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
