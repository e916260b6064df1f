"""MindSpore's `ops.operations.random_ops`: the primitive classes of random draws."""
from __future__ import annotations

from builtins import min as min_

import numpy as np

from cellgraph._checkparam import check_value_type
from cellgraph.compiler.builder import current_builder
from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.ops.function.random_func import (
    _normal_draws,
    _size,
    bernoulli,
    categorical_draw,
    check_candidate_sampler,
    check_log_uniform_sampler,
    gamma_draws,
    instance_stream,
    laplace_draws,
    multinomial_draw,
    multinomial_with_replacement_draw,
    pick_true_positions,
    poisson_counts,
    random_categorical_dtype_check,
    random_ints,
    sample_candidates,
)
from cellgraph.ops.primitive_class import PrimitiveClass, define_class, generate_classes
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_type,
    not_tensor_error,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
)
from cellgraph.primitives.random_ops import (
    _seed_int,
    draw_uniform,
    op_seeds,
    randperm,
    shuffle_first_axis,
    standard_normal_draw,
    uniform_int,
)
from cellgraph.runtime.mt19937 import Mt19937Stream
from cellgraph.runtime.rng import MinstdStream, TruncatedNormalStream, generator

__all__ = [
    "LogUniformCandidateSampler",
    "MultinomialWithReplacement",
    "RandomCategorical",
    "RandomChoiceWithMask",
    "RandomGamma",
    "RandomPoisson",
    "RandomShuffle",
    "StandardLaplace",
    "StandardNormal",
    "UniformCandidateSampler",
    "UniformInt",
    "UniformReal",
]  # and Uniform, which
# MindSpore keeps to this module (not in ops.operations or ops)


class RandomShuffle(PrimitiveClass):
    """`ops.RandomShuffle(seed=0, seed2=0)(input_x)`: input_x with its first axis in a random
    order (a 0-d Tensor as it is). With a seed, each instance draws from a generator of its own
    seeded from the pair, as each MindSpore kernel seeds its own: two instances with the same
    seeds give the same orders; one graph's node, or one instance eagerly (per input shape and
    dtype), carries its draws on from run to run. With neither seed, the global generator."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = _seed_int(seed, "RandomShuffle"), \
            _seed_int(seed2, "RandomShuffle", "seed2")
        self._streams: dict = {}

    def __call__(self, input_x):
        key = None
        if self.seed or self.seed2:
            if current_builder() is not None:
                key = MinstdStream(self.seed, self.seed2)
            elif hasattr(input_x, "aval"):
                aval = abstract_of(input_x)
                key = self._streams.setdefault((aval.shape, aval.dtype),
                                               MinstdStream(self.seed, self.seed2))
        return shuffle_first_axis(input_x, key)

    def __repr__(self) -> str:
        return f"RandomShuffle(seed={self.seed}, seed2={self.seed2})"


class UniformCandidateSampler(PrimitiveClass):
    """`ops.UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)`: `uniform_candidate_sampler`. With a seed,
    each instance draws from a generator of its own, carried on from call to call, as each
    MindSpore kernel seeds its own: two instances with the same seed give the same classes."""

    def __init__(self, num_true, num_sampled, unique, range_max, seed=0,
                 remove_accidental_hits=False):
        check_candidate_sampler(num_true, num_sampled, unique, range_max, seed,
                                remove_accidental_hits)
        self.num_true, self.num_sampled, self.unique = num_true, num_sampled, unique
        self.range_max, self.seed = range_max, seed
        self.remove_accidental_hits = remove_accidental_hits
        self._streams: dict = {}

    def __call__(self, true_classes):
        aval = abstract_of(true_classes)
        stream = instance_stream(self.seed, 0, self._streams, (aval.shape, aval.dtype))
        return sample_candidates(true_classes, self.num_true, self.num_sampled, self.unique,
                                 self.range_max, self.remove_accidental_hits, stream)

    def __repr__(self) -> str:
        return (f"UniformCandidateSampler(num_true={self.num_true}, num_sampled="
                f"{self.num_sampled}, unique={self.unique}, range_max={self.range_max})")


class LogUniformCandidateSampler(PrimitiveClass):
    """`ops.LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5,
    seed=0)(true_classes)`: `log_uniform_candidate_sampler`; with a seed each instance draws
    from a generator of its own, carried on from call to call."""

    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        check_log_uniform_sampler(num_true, num_sampled, unique, range_max, seed)
        self.num_true, self.num_sampled, self.unique = num_true, num_sampled, unique
        self.range_max, self.seed = range_max, seed
        self._streams: dict = {}

    def __call__(self, true_classes):
        aval = abstract_of(true_classes)
        stream = instance_stream(self.seed, 0, self._streams, (aval.shape, aval.dtype))
        return sample_candidates(true_classes, self.num_true, self.num_sampled, self.unique,
                                 self.range_max, False, stream, log_uniform=True)

    def __repr__(self) -> str:
        return (f"LogUniformCandidateSampler(num_true={self.num_true}, num_sampled="
                f"{self.num_sampled}, unique={self.unique}, range_max={self.range_max})")


class RandomCategorical(PrimitiveClass):
    """`ops.RandomCategorical(dtype=int64)(logits, num_sample, seed=0)`: `random_categorical`;
    eagerly, an instance carries its draws on from call to call for the same inputs, as
    MindSpore's kernel does."""

    def __init__(self, dtype=dt.int64):
        random_categorical_dtype_check(dtype)
        self.dtype = dtype
        self._streams: dict = {}

    def __call__(self, logits, num_sample, seed=0):
        return categorical_draw(logits, num_sample, seed, self.dtype, self._streams)

    def __repr__(self) -> str:
        return f"RandomCategorical(dtype={self.dtype})"


class MultinomialWithReplacement(PrimitiveClass):
    """`MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)`: int64
    column indices drawn by the weights in each row of x, from a generator seeded by the seed
    and offset Tensors (`multinomial_with_replacement_draw`)."""

    def __init__(self, numsamples, replacement=False):
        self.numsamples, self.replacement = numsamples, replacement
        self._streams: dict = {}

    def __call__(self, x, seed, offset):
        return multinomial_with_replacement_draw(x, seed, offset, self.numsamples,
                                                 self.replacement, self._streams)

    def __repr__(self) -> str:
        return (f"MultinomialWithReplacement(numsamples={self.numsamples}, "
                f"replacement={self.replacement})")


class _SeededRandom(PrimitiveClass):
    """A random primitive class seeded by (seed=0, seed2=0): each instance draws from a
    generator of its own (random_func.instance_stream), as each MindSpore kernel does."""

    def __init__(self, seed=0, seed2=0):
        name = type(self).__name__
        self.seed, self.seed2 = _seed_int(seed, name), _seed_int(seed2, name, "seed2")
        self._streams: dict = {}

    kind = MinstdStream  # the engine of MindSpore's kernel

    def _stream(self, key: tuple):
        return instance_stream(self.seed, self.seed2, self._streams, key, self.kind)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed}, seed2={self.seed2})"


class StandardNormal(_SeededRandom):
    """`ops.StandardNormal(seed=0, seed2=0)(shape)`: N(0, 1) float32 samples."""

    def __call__(self, shape):
        shape = _size((shape,))
        return _normal_draws(shape, self._stream(shape))


class StandardLaplace(_SeededRandom):
    """`ops.StandardLaplace(seed=0, seed2=0)(shape)`: Laplace(0, 1) float32 samples."""

    def __call__(self, shape):
        shape = _size((shape,))
        return laplace_draws(shape, self._stream(shape))


class RandomGamma(_SeededRandom):
    """`ops.RandomGamma(seed=0, seed2=0)(shape, alpha)`: Gamma(alpha, 1) draws of shape
    `shape + alpha.shape` (`shape` a 1-D int Tensor), from the stream of the seed pair (the
    global generator when both are 0)."""

    def __call__(self, shape, alpha):
        return gamma_draws(shape, alpha, op_seeds(self.seed, self.seed2, "RandomGamma"))


class RandomPoisson(_SeededRandom):
    """`ops.RandomPoisson(seed=0, seed2=0, dtype=int64)(shape, rate)`: Poisson counts of shape
    `shape + rate.shape`, MindSpore's CPU kernel's (random_func.random_poisson) from the
    instance's kernel per input."""

    kind = Mt19937Stream.for_poisson

    def __init__(self, seed=0, seed2=0, dtype=dt.int64):
        super().__init__(seed, seed2)
        self.dtype = dtype

    def __call__(self, shape, rate):
        rate_aval = abstract_of(rate) if hasattr(rate, "aval") else None
        key = (tuple(value_input(shape, "RandomPoisson", "shape").reshape(-1).tolist())
               if hasattr(shape, "aval") else shape,
               None if rate_aval is None else (rate_aval.shape, rate_aval.dtype))
        return poisson_counts(shape, rate, self._stream(key), self.dtype)


class UniformReal(_SeededRandom):
    """`ops.UniformReal(seed=0, seed2=0)(shape)`: U[0, 1) float32 samples, MindSpore's CPU
    kernel's numbers (runtime/mt19937.Mt19937Stream)."""

    kind = Mt19937Stream

    def __call__(self, shape):
        shape = _size((shape,))
        return draw_uniform(shape, dt.float32, self._stream(shape))


class UniformInt(_SeededRandom):
    """`ops.UniformInt(seed, seed2)(shape, minval, maxval)`: int32 in [minval, maxval),
    MindSpore's CPU kernel's numbers (runtime/mt19937.Mt19937Stream)."""

    kind = Mt19937Stream

    def __call__(self, shape, minval, maxval):
        low, high = (int(value_input(v, "UniformInt", name).reshape(-1)[0])
                     for v, name in ((minval, "minval"), (maxval, "maxval")))
        shape = _size((shape,))
        return random_ints(low, high, shape, self._stream(shape), dt.int32)


class Uniform(PrimitiveClass):
    """`ops.operations.random_ops.Uniform(minval=0.0, maxval=1.0, seed=0, offset=0)(x)`: draws
    uniform on [minval, maxval) of x's shape and (float) dtype; with a seed, each instance draws
    from a generator of its own seeded from (seed, offset)."""

    def __init__(self, minval=0.0, maxval=1.0, seed=0, offset=0):
        for name, value in (("minval", minval), ("maxval", maxval)):
            if not isinstance(value, float):
                raise DTypeError(f"For 'Uniform', the '{name}' must be float, but got "
                                 f"'{type(value).__name__}'")
            if value < 0:
                raise ArgumentValueError(f"For 'Uniform', the '{name}' must be float and must "
                                         f">= 0, but got '{value}' with type 'float'.")
        if minval > maxval:
            raise ArgumentValueError(f"For 'Uniform', the 'minval' should be <= maxval: "
                                     f"{maxval}, but got {minval}.")
        self.minval, self.maxval = minval, maxval
        self.seed, self.offset = _seed_int(seed, "Uniform"), _seed_int(offset, "Uniform",
                                                                      "offset")
        self._streams: dict = {}

    def __call__(self, x):
        aval = abstract_of(x)
        check_tensor_dtype("Uniform", "x", aval.dtype, (dt.float16, dt.float32, dt.float64))
        shape = tuple(aval.shape)
        stream = instance_stream(self.seed, self.offset, self._streams, (shape, aval.dtype))
        draws = F.cast(draw_uniform(shape, dt.float32, stream), aval.dtype)
        return F.add(F.mul(draws, self.maxval - self.minval), self.minval)



class RandomChoiceWithMask(PrimitiveClass):
    """`ops.RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)`: the coordinates of
    `count` True elements of the bool `input_x` picked at random without repetition, shape
    (count, rank) int32, and a (count,) mask that is False on the rows past the number of True
    elements (their coordinates zero)."""

    def __init__(self, count=256, seed=0, seed2=0):
        for name, value in (("count", count), ("seed", seed), ("seed2", seed2)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ArgumentError(f"For 'RandomChoiceWithMask', the type of '{name}' should "
                                    f"be 'int', but got type '{type(value).__name__}'.")
        if count <= 0:
            raise ArgumentValueError(f"For 'RandomChoiceWithMask', the 'count' must be int "
                                     f"and must > 0, but got '{count}' with type 'int'.")
        self.count, self.seed, self.seed2 = count, seed, seed2

    def __call__(self, input_x):
        aval = abstract_of(input_x)
        check_tensor_dtype("RandomChoiceWithMask", "input_x", aval.dtype, (dt.bool_,))
        shape = tuple(aval.shape)
        if not 1 <= len(shape) <= 5:
            raise ShapeError(f"For 'RandomChoiceWithMask', input[0] rank should be between 1 "
                             f"and 5, but got:{len(shape)}")
        if self.count * len(shape) > 2**31 - 1:
            raise RunError("For 'RandomChoiceWithMask', output size exceed INT_MAX.")
        # MindSpore takes any int seeds (a negative one as its 64-bit pattern)
        stream = instance_stream(self.seed & (2**64 - 1), self.seed2 & (2**64 - 1),
                                 self.__dict__.setdefault("_streams", {}), (shape,))
        return pick_true_positions(input_x, self.count, stream)

    def __repr__(self) -> str:
        return (f"RandomChoiceWithMask(count={self.count}, seed={self.seed}, "
                f"seed2={self.seed2})")



# ----- the classes of random draws cellgraph computes with its functional samplers -------------

def _bernoulli(x, p, seed=-1, offset=0):
    """Zeros and ones of x's shape and dtype, one with probability p; seed -1 draws from the
    global generator."""
    return bernoulli(x, p, seed=None if seed == -1 else seed)


class Multinomial(_SeededRandom):
    """`ops.Multinomial(seed=0, seed2=0, dtype=int32)(x, num_samples)`: num_samples category
    indices per row of x drawn with its weights (with replacement), MindSpore's CPU kernel's
    (random_func.multinomial_draw) from the instance's kernel per input shape."""

    def __init__(self, seed=0, seed2=0, dtype=dt.int32):
        super().__init__(seed, seed2)
        self.dtype = dtype

    def __call__(self, x, num_samples):
        num_samples = int(value_input(num_samples, "Multinomial", "num_samples"))
        aval = abstract_of(x)
        if aval.ndim not in (1, 2):
            raise ArgumentValueError(f"For 'Multinomial', the dimension of 'x' must be 1 or 2, "
                                     f"but got {aval.ndim}.")
        stream = self._stream((aval.shape, aval.dtype, num_samples))
        return multinomial_draw(x, num_samples, stream, self.dtype)


Bernoulli = define_class("Bernoulli", _bernoulli, {"seed": -1, "offset": 0}, __name__)
__all__ += ["Bernoulli", "Multinomial"]


def _shape_tensor(op: str, shape, allowed=(dt.int32, dt.int64)) -> tuple:
    """The sizes a 1-D int Tensor `shape` holds (read when the graph is built), with
    MindSpore's TypeErrors for what is not one."""
    if not is_tensor(shape):
        raise not_tensor_error(op, "shape", shape)
    check_tensor_dtype(op, "shape", abstract_of(shape).dtype, allowed)
    return tuple(int(v) for v in np.asarray(value_input(shape, op, "shape")).reshape(-1))


class TruncatedNormal(_SeededRandom):
    """`ops.TruncatedNormal(dtype=float32, seed=0, seed2=0)(shape)`: N(0, 1) draws in [-2, 2]
    of `shape` (a 1-D int32/int64 Tensor of at least 2 positive sizes), MindSpore's CPU kernel's
    numbers (runtime/rng.TruncatedNormalStream) from the instance's generator; with both seeds
    0 (where MindSpore's kernel seeds from the device's entropy), one seeded from the global
    generator."""

    kind = TruncatedNormalStream

    def __init__(self, dtype=dt.float32, seed=0, seed2=0):
        if dtype not in (dt.float16, dt.float32, dt.float64):
            raise DTypeError(f"For 'TruncatedNormal', the 'dtype' should be one of "
                             f"[{dt.float16!r}, {dt.float32!r}, {dt.float64!r}], but got "
                             f"'{dtype!r}'.")
        check_value_type("seed", seed, [int], "TruncatedNormal")
        check_value_type("seed2", seed2, [int], "TruncatedNormal")
        super().__init__(seed, seed2)
        self.dtype = dtype

    def __call__(self, shape):
        op = "TruncatedNormal"
        if is_tensor(shape) and abstract_of(shape).ndim != 1:
            raise ArgumentValueError("The input tensor must be a 1-D tensor.")
        sizes = _shape_tensor(op, shape)
        if len(sizes) < 2:
            raise ArgumentValueError(f"For '{op}', the input tensor shape must >= 2, but got "
                                     f"{len(sizes)}")
        if min(sizes) <= 0:
            raise ArgumentValueError("Each dimension must be greater than zero.")
        stream = self._stream(sizes)
        if stream is None:  # MindSpore seeds from the device's entropy; here the global generator
            stream = TruncatedNormalStream(*(int(v) for v in generator().integers(1, 2**62, 2)))
        return F.cast(standard_normal_draw(sizes, dt.float64, stream), self.dtype)

    def __repr__(self) -> str:
        return f"TruncatedNormal(dtype={self.dtype!r}, seed={self.seed}, seed2={self.seed2})"


class RandpermV2(PrimitiveClass):
    """`ops.RandpermV2(seed=0, offset=0, dtype=int64)(n)`: `randperm(n, seed, offset, dtype)`,
    `n` an int or an int Tensor (read when the graph is built)."""

    def __init__(self, seed=0, offset=0, dtype=dt.int64):
        self.seed, self.offset, self.dtype = seed, offset, dtype
        self._attrs = {"seed": seed, "offset": offset, "dtype": dtype}

    def __call__(self, n):
        if is_tensor(n):
            n = int(value_input(n, "RandpermV2", "n"))
        return randperm(n, self.seed, self.offset, self.dtype)


class LogNormalReverse(PrimitiveClass):
    """`ops.LogNormalReverse(mean=1.0, std=2.0)(input)`: exp of N(mean, std) draws in the shape
    and float dtype of `input`, drawn in float32 from the global generator (MindSpore's kernel
    seeds its engine from the clock)."""

    def __init__(self, mean=1.0, std=2.0):
        self.mean = check_value_type("mean", mean, [float], "LogNormalReverse")
        self.std = check_value_type("std", std, [float], "LogNormalReverse")
        self._attrs = {"mean": mean, "std": std}

    def __call__(self, input):
        check_tensor_type("LogNormalReverse", "x", input, (dt.float16, dt.float32, dt.float64))
        aval = abstract_of(input)
        normal = standard_normal_draw(aval.shape, dt.float32, None)
        return F.cast(F.exp(F.add(F.mul(normal, self.std), self.mean)), aval.dtype)


class ParameterizedTruncatedNormal(_SeededRandom):
    """`ops.ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean, stdevs, min, max)`:
    draws of `shape` (a 1-D int Tensor (batch, ...)) from normal distributions truncated to
    [min, max], one set of parameters per batch row (each () or (batch,), one float dtype).
    Drawn by inverting the normal CDF (in float64) over uniform draws from the instance's
    (seed, seed2) generator (the global one when both are 0); not MindSpore's kernel's
    numbers, which come from its Philox-based rejection samplers."""

    def __call__(self, shape, mean, stdevs, min, max):
        op = "ParameterizedTruncatedNormal"
        if is_tensor(shape) and abstract_of(shape).ndim != 1:
            raise ArgumentValueError(f"For '{op}', the shape must be a 1-D tensor.")
        sizes = _shape_tensor(op, shape)
        if len(sizes) < 2:
            raise ArgumentValueError(f"For '{op}', the shape must have at least 2 elements, "
                                     f"but got {len(sizes)}.")
        if min_(sizes) <= 0:
            raise ArgumentValueError(f"For '{op}', the shape elements must be positive, but got "
                                     f"{sizes}.")
        named = {"mean": mean, "stdevs": stdevs, "min": min, "max": max}
        for name, value in named.items():
            check_tensor_type(op, name, value, (dt.float16, dt.float32, dt.float64))
            if abstract_of(value).shape not in ((), (1,), (sizes[0],)):
                raise ArgumentValueError(f"For '{op}', the shape of '{name}' must be () or "
                                         f"({sizes[0]},), but got {abstract_of(value).shape}.")
        dtype = abstract_of(mean).dtype
        if any(abstract_of(v).dtype != dtype for v in named.values()):
            raise DTypeError(f"For '{op}', 'mean', 'stdevs', 'min' and 'max' must have the same "
                             f"type.")
        row = (sizes[0],) + (1,) * (len(sizes) - 1)
        mean, std, low, high = (F.reshape(F.broadcast_to(F.cast(v, dt.float64), (sizes[0],)),
                                          row) for v in named.values())
        check_range(F.reduce_sum(F.cast(F.less_equal(std, 0.0), dt.int32)), low=0, high=1,
                    what="count of stdevs not positive", op=op, error="value")
        root2 = float(np.sqrt(2.0))

        def cdf(x):
            return F.mul(F.erfc(F.div(F.neg(x), root2)), 0.5)

        below = cdf(F.div(F.sub(low, mean), std))
        above = cdf(F.div(F.sub(high, mean), std))
        draws = F.cast(draw_uniform(sizes, dt.float32, self._stream(sizes)), dt.float64)
        p = F.add(below, F.mul(draws, F.sub(above, below)))
        z = F.mul(F.erfinv(F.sub(F.mul(p, 2.0), 1.0)), root2)
        values = F.add(mean, F.mul(std, z))
        return F.cast(F.minimum(F.maximum(values, low), high), dtype)


def _int_parts(sizes: tuple, bits: int, dtype):
    """Uniform integers in [0, 2 ** bits) of `dtype`, made of 16-bit draws of the global
    generator (the only int draws are int32's)."""
    total = None
    for _ in range(bits // 16):
        part = F.cast(uniform_int(shape=sizes, low=0, high=1 << 16), dtype)
        total = part if total is None else F.add(F.mul(total, 1 << 16), part)
    return total


class NonDeterministicInts(PrimitiveClass):
    """`ops.NonDeterministicInts(dtype=int64)(shape)`: uniform integers of `shape` (a 1-D int
    Tensor, read when the graph is built) over [-max, max] of `dtype` (unsigned: [1, max], as
    MindSpore's kernel's distribution over -max wrapped). MindSpore seeds its engine from the
    clock; these come from the global generator."""

    _DTYPES = (dt.int32, dt.int64, dt.uint32, dt.uint64)

    def __init__(self, dtype=dt.int64):
        if dtype not in self._DTYPES:
            raise DTypeError(f"For 'NonDeterministicInts', the 'dtype' should be one of "
                             f"[{', '.join(repr(d) for d in self._DTYPES)}], but got '{dtype!r}'.")
        self.dtype = dtype
        self._attrs = {"dtype": dtype}

    def __call__(self, shape):
        op = "NonDeterministicInts"
        if is_tensor(shape) and abstract_of(shape).ndim != 1:
            raise ArgumentValueError(f"For primitive[{op}], the shape's rank must be equal to 1, "
                                     f"but got {abstract_of(shape).ndim}.")
        sizes = _shape_tensor(op, shape, (dt.int32, dt.int64, dt.uint32, dt.uint64))
        if sizes and min_(sizes) < 0:
            raise ArgumentValueError(f"Shape should not have values less than -2 but got "
                                     f"{sizes}.")
        if self.dtype == dt.int32:
            return F.cast(uniform_int(shape=sizes, low=-(2**31 - 1), high=2**31), dt.int32)
        if self.dtype == dt.int64:  # [-2**63, 2**63), the lowest value moved up to -max
            high = F.cast(uniform_int(shape=sizes, low=-(2**31), high=2**31), dt.int64)
            value = F.add(F.mul(high, 1 << 32), _int_parts(sizes, 32, dt.int64))
            return F.maximum(value, F.cast(np.array(-(2**63 - 1)), dt.int64))
        bits = 32 if self.dtype == dt.uint32 else 64
        value = _int_parts(sizes, bits, self.dtype)
        return F.maximum(value, F.cast(np.array(1), self.dtype))


__all__ += ["LogNormalReverse", "NonDeterministicInts", "ParameterizedTruncatedNormal",
            "RandpermV2", "TruncatedNormal"]


# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
