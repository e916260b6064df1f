"""MindSpore's `ops.function.random_func`: random draws composed from `uniform_real` samples, so
they are fresh on every run and follow `set_seed`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.common.seed import _get_graph_seed
from cellgraph.compiler.builder import current_builder
from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.function.array_func.attributes import _ndim, _shape
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.check_convert import check_tensor_dtype, dtype_error, value_type_name
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import cumsum
from cellgraph.primitives.random_ops import (
    _seed_int,
    draw_uniform,
    float_dtype,
    op_seed,
    shuffle_first_axis,
    shuffled_true_positions,
    standard_normal_draw,
    uniform_int,
)
from cellgraph.primitives.random_ops import rand_like as global_rand_like
from cellgraph.primitives.random_ops import random_gamma as gamma_draw
from cellgraph.primitives.random_ops import random_poisson as poisson_draw
from cellgraph.primitives.random_ops import uniform_candidate_sampler as candidate_draw
from cellgraph.runtime.mt19937 import Mt19937Stream
from cellgraph.runtime.rng import (
    MinstdDoubleStream,
    MinstdStream,
    PhiloxMantissaStream,
    PhiloxRestartingStream,
)

__all__ = [
    "bernoulli",
    "choice_with_mask",
    "gamma",
    "laplace",
    "log_uniform_candidate_sampler",
    "multinomial",
    "multinomial_with_replacement",
    "normal",
    "poisson",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "random_categorical",
    "random_gamma",
    "random_poisson",
    "shuffle",
    "standard_laplace",
    "standard_normal",
    "uniform",
    "uniform_candidate_sampler",
]


def call_stream(kind, seed, kernel_name: str):
    """The stream of the kernel a random function's call makes, as MindSpore's functions make
    a primitive per call seeded by `_get_graph_seed(seed, kernel_name)` (the global seed and
    the kernel name's next op seed): None (the global generator) when that pair is (0, 0), no
    seed being set; else a `kind` stream of the pair, one per call eagerly, and in a graph one
    for the node, carried on from run to run as MindSpore's kernel is."""
    if seed is not None:
        _seed_int(seed, kernel_name)
    seeds = _get_graph_seed(seed, kernel_name)
    return kind(*seeds) if any(seeds) else None


def instance_stream(seed: int, seed2: int, streams: dict, key: tuple, kind=MinstdStream):
    """The draws of a seeded random primitive instance, as each MindSpore kernel seeds a
    generator of its own (a `kind` stream) from (seed, seed2): None (the global generator) when
    both are 0; in a graph being built, a stream for that node (carried on from run to run);
    eagerly, the one `streams` (the instance's) keeps for `key` (its inputs). So two instances
    with the same seeds draw the same numbers."""
    if not seed and not seed2:
        return None
    if current_builder() is not None:
        return kind(seed, seed2)
    if key not in streams:
        streams[key] = kind(seed, seed2)
    return streams[key]


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
                      remove_accidental_hits, stream, log_uniform=False):
    """The candidate sampler primitive on `true_classes` (log-uniform classes with
    `log_uniform`, else uniform), drawing from `stream` (None: the global generator)."""
    params = {"num_true": num_true, "num_sampled": num_sampled, "unique": unique,
              "range_max": range_max, "remove_accidental_hits": remove_accidental_hits,
              "log_uniform": log_uniform}
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


def check_log_uniform_sampler(num_true, num_sampled, unique, range_max, seed) -> None:
    """LogUniformCandidateSampler's options, with MindSpore's TypeErrors and ValueErrors."""
    op = "LogUniformCandidateSampler"
    for name, value, kind in (("num_true", num_true, int), ("num_sampled", num_sampled, int),
                              ("unique", unique, bool), ("range_max", range_max, int),
                              ("seed", seed, int)):
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise DTypeError(f"For '{op}', the type of '{name}' should be '{kind.__name__}', "
                             f"but got type '{type(value).__name__}'.")
    for name, value, low in (("num_true", num_true, 1), ("num_sampled", num_sampled, 1),
                             ("range_max", range_max, 1), ("seed", seed, 0)):
        if value < low:
            raise ArgumentValueError(f"For '{op}', the '{name}' must be >= {low}, but got "
                                     f"{value}.")
    if unique and range_max < num_sampled:
        raise ArgumentValueError(f"For '{op}', the 'range_max' must be >= 'num_sampled': "
                                 f"{num_sampled}, but got {range_max}.")


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True,
                                  range_max=5, seed=0):
    """(sampled classes, expected count of each true class, of each sampled class): classes
    drawn from [0, range_max) with probability log((c + 2) / (c + 1)) / log(range_max + 1)
    (small classes, the frequent words of a vocabulary sorted by frequency, most often), as
    MindSpore's LogUniformCandidateSampler; with a `seed`, every call draws the numbers that
    seed starts with (its numbers are not MindSpore's)."""
    check_log_uniform_sampler(num_true, num_sampled, unique, range_max, seed)
    if not hasattr(true_classes, "aval"):
        raise DTypeError(f"For 'LogUniformCandidateSampler', 'true_classes' must be a Tensor, "
                         f"but got {type(true_classes).__name__}.")
    return sample_candidates(true_classes, num_true, num_sampled, unique, range_max, False,
                             MinstdStream(seed, 0) if seed else None, log_uniform=True)


def choice_with_mask(input_x, count=256, seed=None):
    """(index, mask): the coordinates (int32, (count, rank)) of up to `count` True elements of
    the bool `input_x`, in random order, then rows of zeros with mask False once the True
    elements run out, as MindSpore's RandomChoiceWithMask."""
    aval = abstract_of(input_x) if hasattr(input_x, "aval") else None
    if aval is None or aval.dtype != dt.bool_:
        raise DTypeError(f"For 'RandomChoiceWithMask', the 'input_x' must be a bool Tensor, but "
                         f"got {aval.dtype if aval is not None else type(input_x).__name__}.")
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise ArgumentValueError(f"For 'RandomChoiceWithMask', the 'count' must be a positive "
                                 f"int, but got {count!r}.")
    if not 1 <= len(aval.shape) <= 5:
        raise ShapeError(f"For 'RandomChoiceWithMask', the rank of 'input_x' must be in [1, 5], "
                         f"but got {len(aval.shape)}.")
    return pick_true_positions(input_x, count,
                               call_stream(MinstdStream, seed, "choice_with_mask"))


def pick_true_positions(input_x, count, stream):
    """choice_with_mask's (index, mask), its order MindSpore's RandomChoiceWithMask kernel's
    with a kernel's `stream` (None: the global generator's)."""
    shape = tuple(abstract_of(input_x).shape)
    size = int(np.prod(shape))
    flat = F.reshape(input_x, (size,))
    order = shuffled_true_positions(flat) if stream is None else \
        shuffled_true_positions(flat, seed=stream)
    taken = min(count, size)
    positions = order[:taken] if taken < size else order
    mask = F.gather(flat, positions, 0)
    strides = np.cumprod((1,) + shape[:0:-1])[::-1].astype(np.int32)
    coords = F.stack([F.floor_mod(F.floor_div(positions, int(stride)), int(extent))
                      for stride, extent in zip(strides, shape)], -1)
    coords = F.select(F.broadcast_to(F.expand_dims(mask, -1), (taken, len(shape))), coords,
                      F.zeros_like(coords))
    if taken < count:
        coords = F.concat((coords, F.zeros((count - taken, len(shape)), dt.int32)), 0)
        mask = F.concat((mask, F.fill(dt.bool_, (count - taken,), False)), 0)
    return coords, mask


_OPEN_LOW = np.nextafter(np.float32(-1), np.float32(0))


def laplace_draws(shape, key=None):
    """Standard Laplace float32 samples as MindSpore's CPU StandardLaplace kernel makes them:
    u from `std::uniform_real_distribution<float>(nextafter(-1, 0), 1)` (2 v + low in float, v
    a canonical float of the generator `key` names: the kernel's `std::default_random_engine`
    stream), then -copysign(1, u) log(1 - |u|) in double."""
    u = F.add(F.mul(draw_uniform(shape, dt.float32, key), np.float32(2)), _OPEN_LOW)
    magnitude = F.sub(1.0, F.abs(F.cast(u, dt.float64)))
    sign = F.select(F.less(u, 0), F.fill(dt.float64, shape, 1.0), F.fill(dt.float64, shape, -1.0))
    return F.cast(F.mul(sign, F.log(magnitude)), dt.float32)


def standard_laplace(shape, seed=None):
    """Standard Laplace (location 0, scale 1) float32 samples of `shape`: MindSpore's
    StandardLaplace kernel's numbers (its seeds `_get_graph_seed(seed, "standard_laplace")`)."""
    return laplace_draws(_size((shape,)), call_stream(MinstdStream, seed, "standard_laplace"))

def _draw_shape(op: str, shape, **params) -> tuple:
    """The broadcast shape of `shape` (a tuple) and of the distribution parameters `params`,
    which must be Tensors (MindSpore's TypeError naming the first that is not)."""
    for name, value in params.items():
        if not hasattr(value, "aval"):
            raise DTypeError(f"For '{op}', '{name}' must be a Tensor, but got "
                             f"{type(value).__name__}.")
    return tuple(np.broadcast_shapes(_size((shape,)), *(tuple(abstract_of(v).shape)
                                                        for v in params.values())))


def laplace(shape, mean, lambda_param, seed=None):
    """Laplace float32 samples, location `mean` and scale `lambda_param` (Tensors), of the
    broadcast shape of `shape`, mean's and lambda_param's; `seed` None or 0: from the global
    generator (the numbers are not MindSpore's)."""
    _draw_shape("laplace", shape, mean=mean, lambda_param=lambda_param)
    draws = laplace_draws(_size((shape,)), call_stream(MinstdStream, seed, "laplace"))
    return F.add(F.mul(draws, F.cast(lambda_param, dt.float32)), F.cast(mean, dt.float32))


def random_gamma(shape, alpha, seed=None):
    """Gamma(alpha, 1) draws of shape `shape + alpha.shape` in alpha's dtype: `shape` a 1-D
    int32/int64 Tensor of sizes, `alpha` a float Tensor of concentrations (a draw is 0 where
    one is 0 and NaN where one is negative, as MindSpore's). With `seed` the draws come from
    that seed's stream, else from the global generator (its numbers are not MindSpore's)."""
    return gamma_draws(shape, alpha, op_seed(seed, "random_gamma"))


def gamma_draws(shape, alpha, key):
    """random_gamma's draws (MindSpore's RandomGamma checks) from the stream `key` (None: the
    global generator)."""
    if not hasattr(shape, "aval"):
        raise DTypeError("For RandomGamma, input[0] only support tensor!")
    shape_aval = abstract_of(shape)
    if shape_aval.dtype not in (dt.int32, dt.int64) or shape_aval.ndim != 1:
        raise DTypeError(f"For RandomGamma, 'shape' must be a 1-D int32 or int64 Tensor, but "
                         f"got Tensor[{shape_aval.dtype}] of rank {shape_aval.ndim}.")
    if not hasattr(alpha, "aval") or abstract_of(alpha).dtype not in (dt.float16, dt.float32,
                                                                     dt.float64):
        raise DTypeError(f"For RandomGamma, 'alpha' must be a float16, float32 or float64 "
                         f"Tensor, but got {type(alpha).__name__}.")
    return gamma_draw(alpha, shape=_known_sizes(shape),
                      **({} if key is None else {"seed": key}))


def gamma(shape, alpha, beta, seed=None):
    """Gamma(alpha, beta) draws (concentration `alpha`, rate `beta`, Tensors) of the broadcast
    shape of `shape` (a tuple), alpha's and beta's: standard gamma draws divided by beta."""
    out_shape = _draw_shape("gamma", shape, alpha=alpha, beta=beta)
    key = op_seed(seed, "gamma")
    draws = gamma_draw(F.broadcast_to(F.cast(alpha, dt.float32), out_shape), shape=(),
                       **({} if key is None else {"seed": key}))
    return F.div(draws, F.cast(beta, dt.float32))


def poisson(shape, mean, seed=None):
    """Poisson counts (float32) of the broadcast shape of `shape` (a tuple) and `mean`'s, each
    with its element of `mean` as the mean (MindSpore's deprecated ops.poisson; its CPU build
    has no kernel for it)."""
    out_shape = _draw_shape("poisson", shape, mean=mean)
    key = op_seed(seed, "poisson")
    return poisson_draw(F.broadcast_to(F.cast(mean, dt.float32), out_shape), shape=(),
                        dtype=dt.float32, **({} if key is None else {"seed": key}))


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Integers in [low, high) of `input`'s shape, in `dtype` (default input's), an int type
    (MindSpore's ValueError)."""
    dtype = dt.as_dtype(dtype or abstract_of(input).dtype)
    if not dtype.is_int:
        raise ArgumentValueError(f"For 'randint_like', the 'dtype' must be an int type, but got "
                                 f"{dtype}.")
    return random_ints(low, high, tuple(abstract_of(input).shape),
                       call_stream(Mt19937Stream, seed, "randint_like"), dtype)


_POISSON_TYPES = (dt.int64, dt.int32, dt.float16, dt.float32, dt.float64)


def random_poisson(shape, rate, seed=None, dtype=dt.float32):
    """Poisson counts of shape `shape + rate.shape`, each with its element of `rate` as mean (a
    rate <= 0 gives 0): `shape` a 1-D int Tensor of positive sizes, `rate` a float or int
    Tensor, `dtype` the result's (int32/int64 or a float). MindSpore's RandomPoisson kernel's
    numbers (runtime/mt19937.Mt19937Stream.poisson), seeded by `_get_graph_seed(seed, ...)`."""
    if seed is not None:
        _seed_int(seed, "random_poisson")
    seeds = _get_graph_seed(seed, "random_poisson")
    return poisson_counts(shape, rate, Mt19937Stream.for_poisson(*seeds) if any(seeds) else None,
                          dtype)


def poisson_counts(shape, rate, key, dtype):
    """random_poisson's checks and draws from the generator `key` names."""
    if not hasattr(shape, "aval"):
        raise dtype_error("RandomPoisson", "shape", (dt.int32, dt.int64), value_type_name(shape))
    shape_aval = abstract_of(shape)
    check_tensor_dtype("RandomPoisson", "shape", shape_aval.dtype, (dt.int32, dt.int64))
    if shape_aval.ndim != 1:
        raise ShapeError(f"For RandomPoisson, the argument[shape] must be a 1-D tensor, but got "
                         f"{shape_aval.ndim}-D")
    if not hasattr(rate, "aval"):
        raise dtype_error("RandomPoisson", "rate", _POISSON_TYPES, value_type_name(rate))
    check_tensor_dtype("RandomPoisson", "rate", abstract_of(rate).dtype, _POISSON_TYPES)
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
        raise dtype_error("RandomCategorical", name, (dt.int32, dt.int64), value_type_name(value))
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
    check_tensor_dtype("RandomCategorical", "logits", aval.dtype,
                       (dt.float16, dt.float32, dt.float64))
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
    if _ndim(input) not in (1, 2):
        raise ArgumentValueError(f"For 'multinomial', the dimension of inputs must be 1d or 2d, "
                                 f"but got {_ndim(input)}.")
    if not replacement:
        shape = _shape(input)
        if shape[-1] < num_samples:
            raise ArgumentValueError(
                f"For 'multinomial', the 'num_samples' must be less than the last dimension of "
                f"input without 'replacement', but got 'num_samples': {num_samples} and "
                f"'replacement': False")
        stream = call_stream(Mt19937Stream, seed, "multinomial")
        return _multinomial_without_replacement(input, num_samples, stream)
    return multinomial_draw(input, num_samples, call_stream(MinstdStream, seed, "multinomial"))


def multinomial_draw(input, num_samples, stream, dtype=dt.int32):
    """MindSpore's CPU Multinomial kernel: per row of the weights, their running sum in input's
    dtype divided by the total (when that is not 0), and for each sample a float u from
    `std::uniform_real_distribution<float>` over the kernel's `std::default_random_engine`
    (`stream`; None: the global generator), rows in turn; the sample is the first column whose
    running share exceeds u (the last column at most)."""
    aval = abstract_of(input)
    weights = input if aval.ndim == 2 else F.expand_dims(input, 0)
    rows, cols = _shape(weights)
    running = cumsum(weights, -1)
    total = running[:, cols - 1:]
    total = F.add(total, F.cast(F.equal(total, 0), aval.dtype))  # 0: left as it is
    share = F.floor_div(running, total) if aval.dtype.is_int else F.div(running, total)
    draws = F.cast(draw_uniform((rows, num_samples), dt.float32, stream), aval.dtype)
    passed = F.less_equal(F.expand_dims(share, 1), F.expand_dims(draws, -1))  # (N, samples, C)
    index = F.minimum(F.reduce_sum(F.cast(passed, dt.int32), -1), cols - 1)
    index = index if aval.ndim == 2 else F.squeeze(index, 0)
    return F.cast(index, dtype)


def _multinomial_without_replacement(input, num_samples, stream):
    """MindSpore's draw without replacement: the num_samples largest of log(u) / (w + 1e-6),
    u from a UniformReal kernel's `stream` per category (the Gumbel top-k trick in exponential
    form), as int32 indices in that order; zero weights come last."""
    shape = _shape(input)
    draws = F.reshape(draw_uniform((int(np.prod(shape)),), dt.float32, stream), shape)
    keys = F.div(F.log(draws), F.add(input, 1e-6))
    return F.top_k(keys, num_samples)[1]


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
    """N(0, 1) float32 samples of `shape`: from the global generator, an op seed's stream
    `key`, or a MindSpore StandardNormal kernel's stream (runtime/rng.MinstdStream.normal)."""
    return standard_normal_draw(shape, dt.float32, key)


def standard_normal(shape, seed=None):
    """N(0, 1) float32 samples of `shape`, MindSpore's StandardNormal kernel's numbers (its
    seeds `_get_graph_seed(seed, "standard_normal")`)."""
    return _normal_draws(_size((shape,)), call_stream(MinstdStream, seed, "standard_normal"))


def rand(*size, dtype=None, seed=None):
    """`ops.rand(2, 3)`: U[0, 1) samples, float32 unless `dtype` says otherwise: MindSpore's
    UniformReal kernel's numbers (runtime/mt19937.Mt19937Stream)."""
    out = draw_uniform(_size(size), dt.float32, call_stream(Mt19937Stream, seed, "rand"))
    return out if dtype is None else F.cast(out, dtype)


def rand_like(input, seed=None, *, dtype=None):
    """U[0, 1) samples with the shape of `input`, in `dtype` (by default input's), which must
    be a float type (MindSpore's ValueError)."""
    dtype = float_dtype("rand_like", dtype, abstract_of(input).dtype)
    out = draw_uniform(_shape(input), dt.float32, call_stream(Mt19937Stream, seed, "rand_like"))
    return F.cast(out, dtype)


def randn(*size, dtype=None, seed=None):
    """N(0, 1) samples, float32 unless `dtype` says otherwise (MindSpore's StandardNormal
    kernel's numbers)."""
    out = _normal_draws(_size(size), call_stream(MinstdStream, seed, "randn"))
    return out if dtype is None else F.cast(out, dtype)


def randn_like(input, seed=None, *, dtype=None):
    """N(0, 1) samples of input's shape, float32 unless `dtype` (a float type) says otherwise
    (MindSpore's default, whatever input's dtype)."""
    dtype = float_dtype("randn_like", dtype, dt.float32)
    out = _normal_draws(_shape(input), call_stream(MinstdStream, seed, "randn_like"))
    return F.cast(out, dtype)


def normal(shape, mean, stddev, seed=None):
    """N(0, 1) samples of `shape` times stddev plus mean."""
    draws = _normal_draws(_size((shape,)), call_stream(MinstdStream, seed, "normal"))
    return F.add(F.mul(draws, stddev), mean)


def uniform(shape, minval, maxval, seed=None, dtype=dt.float32):
    """U[minval, maxval) samples, U * (maxval - minval) + minval; integer dtypes give ints in
    [minval, maxval) (MindSpore's UniformInt kernel's)."""
    stream = call_stream(Mt19937Stream, seed, "uniform")
    if dt.as_dtype(dtype).is_int:
        low, high = (int(value_input(v, "uniform", name).reshape(-1)[0])
                     for v, name in ((minval, "minval"), (maxval, "maxval")))
        return F.cast(uniform_int(shape=_size((shape,)), low=low, high=high,
                                  **({} if stream is None else {"seed": stream})), dtype)
    draw = draw_uniform(_size((shape,)), dt.float32, stream)
    return F.cast(F.add(F.mul(draw, F.sub(maxval, minval)), minval), dtype)


def shuffle(x, seed=None):
    """`x` with its first axis in a random order (a 0-d Tensor as it is): MindSpore's
    RandomShuffle kernel's order, std::shuffle over its `std::default_random_engine`."""
    return shuffle_first_axis(x, call_stream(MinstdStream, seed, "shuffle"))


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in [low, high), MindSpore's UniformInt kernel's, int64 unless `dtype` says
    otherwise."""
    return random_ints(low, high, _size((size,)), call_stream(Mt19937Stream, seed, "randint"),
                       dtype or dt.int64)


def random_ints(low, high, shape, key, dtype):
    """int32 draws in [low, high) from the global generator, an op seed's stream `key` or a
    UniformInt kernel's stream, cast to `dtype`."""
    if high <= low:
        raise ArgumentValueError(f"randint: expected low < high, got {low} and {high}")
    out = uniform_int(shape=tuple(shape), low=int(low), high=int(high),
                      **({} if key is None else {"seed": key}))
    return F.cast(out, dtype)


def bernoulli(input, p=0.5, seed=None):
    """Zeros and ones of input's shape and dtype, one with probability `p` (a float or a Tensor
    broadcasting against input)."""
    if isinstance(p, numbers.Real) and not 0 <= p <= 1:
        raise ShapeError(f"bernoulli: `p` must be in [0, 1], got {p}")
    aval = abstract_of(input)
    if seed is None or seed == -1:  # MindSpore seeds these at random
        draws = global_rand_like(input) if aval.dtype.is_float else \
            global_rand_like(F.cast(input, dt.float32))
        return F.cast(M.less(draws, p), aval.dtype)
    p_kind = (tuple(abstract_of(p).shape), abstract_of(p).dtype) if hasattr(p, "aval") else None
    draws = draw_uniform(tuple(aval.shape), dt.float32, _bernoulli_stream(seed, aval, p_kind))
    return F.cast(M.less_equal(draws, p), aval.dtype)


_BERNOULLI_KERNELS: dict = {}  # (seed, input, p) -> the kernel's stream, eagerly


def _bernoulli_stream(seed, aval, p_kind):
    """The stream of MindSpore's Bernoulli kernel for `seed` (runtime/rng.
    PhiloxRestartingStream: Philox keyed by the seed, offset 0, one mantissa float a draw): one
    per graph node; eagerly one per seed, input and kind of p (a number or a Tensor's shape and
    dtype), as MindSpore caches the primitive of a seed and keeps a kernel per inputs."""
    seed = _seed_int(seed, "bernoulli")
    if current_builder() is not None:
        return PhiloxRestartingStream(seed, 0)
    key = (seed, tuple(aval.shape), aval.dtype, p_kind)
    if key not in _BERNOULLI_KERNELS:
        _BERNOULLI_KERNELS[key] = PhiloxRestartingStream(seed, 0)
    return _BERNOULLI_KERNELS[key]


# the in-place draws MindSpore defines here (the Tensor methods' functions)
from cellgraph.ops.function.inplace_func import (
    exponential_,
    normal_,
    random_,
    uniform_,
)

__all__ += ["exponential_", "normal_", "random_", "uniform_"]

# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())


# ---------------------------------------------------------------- MultinomialWithReplacement
def _pick(cdf, total, rr, cols: int):
    """MindSpore's kernel's pick for each draw rr: the smallest cumulative weight >= rr (at most
    the total), then the last column holding it."""
    above = F.greater_equal(cdf, rr)
    shape = tuple(abstract_of(above).shape)
    cdf = F.broadcast_to(cdf, shape)
    cand = F.select(above, cdf, F.broadcast_to(total, shape))
    least = F.expand_dims(F.reduce_min(cand, -1), -1)
    columns = F.cast(np.arange(cols, dtype=np.int64), dt.int64)
    hits = F.select(F.equal(cdf, least), F.broadcast_to(columns, shape),
                    F.broadcast_to(F.cast(np.array(-1), dt.int64), shape))
    return F.reduce_max(hits, -1)


def _cumulative(weights):
    """(cdf, total): the running sums of the nonzero weights at their columns (0 elsewhere)."""
    sums = cumsum(weights, -1)
    zero = F.zeros_like(weights)
    cdf = F.select(F.not_equal(weights, zero), sums, zero)
    return cdf, F.getitem(sums, (..., slice(-1, None)))


def multinomial_with_replacement_draw(x, seed, offset, numsamples, replacement, streams: dict):
    """(rows, numsamples) int64 column indices drawn by the weights in each row of the 1-D or 2-D
    x, as MindSpore's CPU kernel: one uniform float per sample (runtime/rng.PhiloxMantissaStream
    from seed and offset, the global generator when both are 0), cast to x's dtype, times the
    row's total; without replacement a drawn column's weight becomes 0, and once the nonzero
    weights are used up the zero-weight columns follow in order. `streams` is the instance's:
    eagerly one stream carried on while seed and offset stay the same."""
    op = "MultinomialWithReplacement"
    aval = abstract_of(x)
    if aval.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"For '{op}', the dtype of 'x' must be float16, float32 or float64, "
                         f"but got {aval.dtype}.")
    if aval.ndim not in (1, 2):
        raise ShapeError(f"For '{op}', the dimension of 'x' must be 1 or 2, but got "
                         f"{aval.ndim}.")
    if isinstance(numsamples, bool) or not isinstance(numsamples, numbers.Integral) \
            or numsamples <= 0:
        raise ArgumentValueError(f"For '{op}', 'numsamples' should be a nonnegative number, but "
                                 f"got {numsamples}.")
    rows, cols = (1, aval.shape[0]) if aval.ndim == 1 else tuple(aval.shape)
    if not replacement and numsamples > cols:
        raise ArgumentValueError(f"For '{op}', without replacement 'numsamples' ({numsamples}) "
                                 f"cannot exceed the number of categories ({cols}).")
    seeds = tuple(int(value_input(v, op, name).reshape(-1)[0])
                  for v, name in ((seed, "seed"), (offset, "offset")))
    if seeds == (0, 0):
        stream = None
    elif current_builder() is not None:
        stream = PhiloxMantissaStream(*seeds)
    else:
        last = streams.get("last")
        if last is None or last.seeds != seeds:
            streams["last"] = PhiloxMantissaStream(*seeds, carry=last)
        stream = streams["last"]
    draws = F.cast(F.cast(draw_uniform((rows, numsamples), dt.float32, stream), aval.dtype),
                   dt.float64)
    weights = F.cast(F.reshape(x, (rows, cols)), dt.float64)
    cdf, total = _cumulative(weights)
    if replacement:
        picks = _pick(F.expand_dims(cdf, 1), F.expand_dims(total, 1),
                      F.expand_dims(F.mul(draws, total), -1), cols)
        return F.reshape(picks, (numsamples,)) if aval.ndim == 1 else picks
    zero = F.zeros_like(weights)
    is_zero = F.equal(weights, zero)
    nonzero_count = F.reduce_sum(F.cast(F.logical_not(is_zero), dt.int64), -1)   # (rows,)
    zero_rank = cumsum(F.cast(is_zero, dt.int64), -1)                            # 1, 2, ...
    columns = F.cast(np.arange(cols, dtype=np.int64), dt.int64)
    picks = []
    for j in range(numsamples):
        rr = F.mul(F.getitem(draws, (slice(None), slice(j, j + 1))), total)
        normal = _pick(cdf, total, rr, cols)
        # past the nonzero weights: the (j - nonzero)-th zero-weight column
        wanted = F.expand_dims(F.sub(F.cast(np.array(j + 1), dt.int64), nonzero_count), -1)
        zeros_at = F.select(F.logical_and(is_zero, F.equal(zero_rank, wanted)),
                            F.broadcast_to(columns, (rows, cols)),
                            F.broadcast_to(F.cast(np.array(-1), dt.int64), (rows, cols)))
        in_nonzero = F.less(F.cast(np.array(j), dt.int64), nonzero_count)
        pick = F.select(in_nonzero, normal, F.reduce_max(zeros_at, -1))
        picks.append(pick)
        taken = F.logical_and(F.equal(F.expand_dims(pick, -1), columns),
                              F.expand_dims(in_nonzero, -1))
        weights = F.select(taken, zero, weights)
        cdf, total = _cumulative(weights)
    picks = F.stack(picks, 1)
    return F.reshape(picks, (numsamples,)) if aval.ndim == 1 else picks


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """`ops.multinomial_with_replacement(x, seed, offset, numsamples, replacement=False)`:
    MultinomialWithReplacement with a generator of its own (seed and offset ints or Tensors)."""
    from cellgraph.ops.function.array_func.attributes import _const

    for name, value in (("seed", seed), ("offset", offset)):
        if not hasattr(value, "aval") and (isinstance(value, bool)
                                           or not isinstance(value, numbers.Integral)):
            raise DTypeError(f"For multinomial_with_replacement, the input[{name}] must be int, "
                             f"but got {type(value)}.")
    seed, offset = (v if hasattr(v, "aval") else _const(np.array(v, np.int64), dt.int64)
                    for v in (seed, offset))
    return multinomial_with_replacement_draw(x, seed, offset, numsamples, replacement, {})


# mint's functions under the `_ext` names MindSpore's own code calls them by
from cellgraph.ops.function._mint_ext import ext_functions as _ext_functions

globals().update(_ext_functions(
    "cellgraph.mint",
    "multinomial normal rand rand_like randint randint_like randn randn_like randperm"))
