"""Random numbers. The kernels draw from the runtime's global generator (seeded by
`cellgraph.set_seed`) each time the graph runs, so the primitives are effectful: never folded
at compile time, never merged with another draw, never dropped."""
from __future__ import annotations

import numbers

import numpy as np

from . import dtype as dt
from .array_ops import cast, gather, reshape
from .batching import loop_rule
from .check_convert import check_tensor_dtype, not_tensor_error
from .core import Primitive, TensorType, abstract_of, value_input
from .errors import ArgumentValueError, DTypeError, ShapeError
from .math_ops import less, select
from .sort_ops import argsort


def _uniform_real_type(shape, dtype, seed=None) -> TensorType:
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise ShapeError(f"expected a shape of non-negative ints, got {shape}")
    if not dtype.is_float:
        raise DTypeError(f"expected a float dtype, got {dtype}")
    return TensorType(tuple(shape), dtype)


uniform_real = Primitive("uniform_real", _uniform_real_type, label="UniformReal",
                         nondifferentiable=True, effectful=True)


def _standard_normal_type(shape, dtype, seed=None) -> TensorType:
    return _uniform_real_type(shape, dtype)


# N(0, 1) draws of `shape`, from the generator `seed` names (as uniform_real's; a stream
# object draws as MindSpore's StandardNormal kernel). Its kernel is in runtime/rng.py.
standard_normal = Primitive("standard_normal", _standard_normal_type, label="StandardNormal",
                            nondifferentiable=True, effectful=True)


def _uniform_int_type(shape, low, high, seed=None) -> TensorType:
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise ShapeError(f"expected a shape of non-negative ints, got {shape}")
    if high <= low:
        raise ArgumentValueError(f"For 'UniformInt', invalid min/max values: ({low}/{high})")
    return TensorType(tuple(shape), dt.int32)


# int32 draws in [low, high) of `shape`, from the generator `seed` names (as uniform_real's; a
# stream object draws as MindSpore's UniformInt kernel). Its kernel is in runtime/rng.py.
uniform_int = Primitive("uniform_int", _uniform_int_type, label="UniformInt",
                        nondifferentiable=True, effectful=True)


def _random_permutation_type(n, seed=None, engine_seed=None) -> TensorType:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ShapeError(f"expected a non-negative int n, got {n!r}")
    return TensorType((n,), dt.int64)


# A permutation of 0 .. n-1 (int64) from the generator `seed` names (as uniform_real's; a stream
# object, or `engine_seed`, shuffles as MindSpore's kernels). Its kernel is in runtime/rng.py.
random_permutation = Primitive("random_permutation", _random_permutation_type,
                               label="RandomPermutation", nondifferentiable=True,
                               effectful=True)


def _shuffled_true_positions_type(flags: TensorType, seed=None) -> TensorType:
    if flags.dtype != dt.bool_ or flags.ndim != 1:
        raise DTypeError(f"expected a 1-D bool Tensor, got {flags}")
    return TensorType(tuple(flags.shape), dt.int32)


# The positions of a 1-D bool Tensor's True elements in a random order, then its False ones in
# order (int32): the True positions shuffled as MindSpore's RandomChoiceWithMask kernel
# shuffles them, with the generator `seed` names (as uniform_real's). Kernel: runtime/rng.py.
shuffled_true_positions = Primitive(
    "shuffled_true_positions", _shuffled_true_positions_type, label="RandomChoiceWithMask",
    nondifferentiable=True, effectful=True)


def _random_poisson_type(rate: TensorType, shape, dtype, seed=None) -> TensorType:
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise ShapeError(f"expected a shape of non-negative ints, got {shape}")
    return TensorType(tuple(shape) + tuple(rate.shape), dtype)


# Poisson counts of shape `shape + rate.shape`, one per (draw, rate) pair (a rate <= 0 gives
# 0), drawn from the generator `seed` names (as uniform_real's). Its kernel is in runtime/rng.py.
random_poisson = Primitive("random_poisson", _random_poisson_type, label="RandomPoisson",
                           nondifferentiable=True, effectful=True)


def _random_gamma_type(alpha: TensorType, shape, seed=None) -> TensorType:
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise ShapeError(f"expected a shape of non-negative ints, got {shape}")
    if not alpha.dtype.is_float:
        raise DTypeError(f"For 'RandomGamma', the type of 'alpha' must be float16, float32 or "
                         f"float64, but got {alpha.dtype}")
    return TensorType(tuple(shape) + tuple(alpha.shape), alpha.dtype)


# Gamma(alpha, 1) draws of shape `shape + alpha.shape`, one per (draw, alpha) pair, in alpha's
# dtype, from the generator `seed` names (as uniform_real's). Its kernel is in runtime/rng.py.
random_gamma = Primitive("random_gamma", _random_gamma_type, label="RandomGamma",
                         nondifferentiable=True, effectful=True)


def _candidate_sampler_type(true_classes: TensorType, num_true, num_sampled, unique, range_max,
                            remove_accidental_hits, seed=None, log_uniform=False) -> tuple:
    check_tensor_dtype("UniformCandidateSampler", "true_classes", true_classes.dtype,
                       (dt.int32, dt.int64))
    if true_classes.ndim != 2:
        raise ArgumentValueError(f"For 'UniformCandidateSampler', the dimension of input "
                                 f"'true_classes' must be 2, but got {true_classes.ndim}")
    if true_classes.shape[1] is not None and true_classes.shape[1] != num_true:
        raise ArgumentValueError(f"For primitive[UniformCandidateSampler], the num_true must be "
                                 f"equal to {true_classes.shape[1]}, but got {num_true}.")
    return (TensorType((num_sampled,), true_classes.dtype),
            TensorType(true_classes.shape, dt.float32), TensorType((num_sampled,), dt.float32))


# MindSpore's UniformCandidateSampler: `num_sampled` classes drawn uniformly from [0, range_max)
# (`unique`: without repeats, and with `remove_accidental_hits` none of the true classes),
# and the expected count of every true and sampled class. Its kernel is in runtime/rng.py.
uniform_candidate_sampler = Primitive(
    "uniform_candidate_sampler", _candidate_sampler_type, label="UniformCandidateSampler",
    multiple_results=True, nondifferentiable=True, effectful=True)
uniform_candidate_sampler.def_batch(loop_rule(uniform_candidate_sampler))


# Op-level seeds. Without one, a draw takes the global generator's next numbers
# (`cellgraph.set_seed`). With one, it takes the next numbers of that seed's own stream, which
# starts the same in every process (and after every set_seed, which it combines with): the
# same program draws the same numbers, as MindSpore's op seeds promise (its numbers are its own).

def _seed_int(value, op: str, name: str = "seed") -> int:
    """A seed as MindSpore's validator takes it: TypeError for a bool or a non-int, ValueError
    for a negative int."""
    if isinstance(value, bool):
        raise DTypeError(f"For '{op}', the '{name}' must be int and must >= 0, but got "
                         f"'{value}' with type 'bool'.")
    if not isinstance(value, numbers.Integral):
        raise DTypeError(f"For '{op}', the '{name}' must be int, but got "
                         f"'{type(value).__name__}'")
    if value < 0:
        raise ArgumentValueError(f"For '{op}', the '{name}' must be int and must >= 0, but got "
                                 f"'{value}' with type 'int'.")
    return int(value)


def op_seed(seed, op: str):
    """The stream of a function's `seed` argument: None (the global generator) or a key."""
    return None if seed is None else (_seed_int(seed, op),)


def op_seeds(seed, seed2, op: str):
    """The stream of a primitive class's (seed, seed2): both 0 means the global generator."""
    if not seed and not seed2:
        return None
    return (_seed_int(seed, op), _seed_int(seed2, op, "seed2"))


def draw_uniform(shape, dtype, key=None):
    """U[0, 1) draws of `shape` from the global generator, or from the stream `key` (an op
    seed's key, or a stream object the kernel draws from: runtime/rng.MinstdStream)."""
    if key is None:
        return uniform_real(shape=tuple(shape), dtype=dtype)
    return uniform_real(shape=tuple(shape), dtype=dtype,
                        seed=tuple(key) if isinstance(key, (tuple, list)) else key)


def standard_normal_draw(shape, dtype, key=None):
    """N(0, 1) draws of `shape` from the global generator or the stream `key` names (as
    draw_uniform's)."""
    if key is None:
        return standard_normal(shape=tuple(shape), dtype=dtype)
    return standard_normal(shape=tuple(shape), dtype=dtype,
                           seed=tuple(key) if isinstance(key, (tuple, list)) else key)


def _shape(shape, op: str) -> tuple:
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, numbers.Integral) for d in shape):
        raise DTypeError(f"{op}: expected a shape (a tuple of ints), got {shape!r}")
    return tuple(int(d) for d in shape)


def rand(*size, dtype=None, seed=None):
    """`ops.rand(2, 3)`: U[0, 1) samples (float32 unless `dtype` says otherwise)."""
    shape = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    return draw_uniform(_shape(shape, "rand"), dt.as_dtype(dtype or dt.float32),
                        op_seed(seed, "rand"))


def rand_like(input, seed=None, *, dtype=None):
    """U[0, 1) samples with the shape of `input`, in `dtype` (by default input's), which must
    be a float type (MindSpore's ValueError)."""
    aval = abstract_of(input)
    return draw_uniform(aval.shape, float_dtype("rand_like", dtype, aval.dtype),
                        op_seed(seed, "rand_like"))


def float_dtype(op: str, dtype, default) -> dt.DType:
    """`dtype` (`default` when None), which must be a float type, as MindSpore's `*_like`
    draws require."""
    dtype = dt.as_dtype(default if dtype is None else dtype)
    if not dtype.is_float:
        raise ArgumentValueError(f"For '{op}', the 'dtype' must be a float type, but got "
                                 f"{dtype}.")
    return dtype


# ----- permutations ------------------------------------------------------------------------------

def _permutation_length(n) -> int:
    """RandpermV2's `n`: a positive int, or a Tensor holding one integer."""
    if hasattr(n, "aval"):
        aval = abstract_of(n)
        if not aval.dtype.is_int or int(np.prod(aval.shape)) != 1:
            raise DTypeError(f"For RandpermV2, the 0'th input is a Tensor whose shape is "
                             f"{list(aval.shape)} and dtype is [{aval.dtype}], which can not be "
                             f"converted to int.")
        n = int(np.asarray(value_input(n, "RandpermV2", "n")).reshape(-1)[0])
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DTypeError(f"For 'RandpermV2', the 'n' must be int, but got '{type(n).__name__}'")
    if n <= 0:
        raise ArgumentValueError(f"For 'RandpermV2', the input 'n' must be greater than 0, but "
                                 f"got data: {n}.")
    return int(n)


def randperm(n, seed=0, offset=0, dtype=dt.int64):
    """A random permutation of 0 .. n-1, MindSpore's RandpermV2 kernel's: libstdc++'s
    std::shuffle over a `std::mt19937` seeded afresh on every run with `offset`, or `seed` when
    offset is 0; with seed -1 and offset 0 the global generator's. A Tensor `n` (one integer)
    sets the result's length, so its value is read when the graph is built (a value input)."""
    n = _permutation_length(n)
    for name, value in (("seed", seed), ("offset", offset)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise DTypeError(f"For 'RandpermV2', the '{name}' must be int, but got "
                             f"'{type(value).__name__}'")
    if seed < 0 and seed != -1:
        raise ArgumentValueError(f"For 'RandpermV2', the attr seed must be greater than 0 or "
                                 f"equal to 0 or -1, but got data: {seed}.")
    engine_seed = int(offset) if offset else (int(seed) if seed != -1 else None)
    order = random_permutation(n=int(n)) if engine_seed is None else \
        random_permutation(n=int(n), engine_seed=engine_seed)
    return cast(order, dtype=dt.as_dtype(dtype))


def shuffle(x, seed=None):
    """`x` with its first axis in a random order (a 0-d Tensor as it is)."""
    return shuffle_first_axis(x, op_seed(seed, "shuffle"))


def shuffle_first_axis(x, key):
    """`x` with its first axis in the order of a permutation from the generator `key` names
    (see draw_uniform; a kernel's stream shuffles as MindSpore's RandomShuffle)."""
    if not hasattr(x, "aval") and not isinstance(x, np.ndarray):
        raise not_tensor_error("RandomShuffle", "input_x", x)
    aval = abstract_of(x)
    if aval.ndim == 0:
        return x
    order = random_permutation(n=aval.shape[0]) if key is None else random_permutation(
        n=aval.shape[0], seed=tuple(key) if isinstance(key, (tuple, list)) else key)
    return gather(x, order, axis=0)


class Randperm:
    """`ops.Randperm(max_length=1, pad=-1, dtype=int32)(n)`: a random permutation of
    0 .. n-1 (n a Tensor read when the graph runs) followed by `pad` up to `max_length`."""

    def __init__(self, max_length=1, pad=-1, dtype=dt.int32):
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
            raise DTypeError(f"Randperm: expected a positive int max_length, got {max_length!r}")
        self.max_length, self.pad, self.dtype = max_length, pad, dt.as_dtype(dtype)

    def __call__(self, n):
        positions = np.arange(self.max_length)
        n = reshape(n, shape=()) if abstract_of(n).ndim else n
        in_range = less(positions, n)
        # positions past n get keys above every draw, so they sort after the permutation
        keys = select(in_range, uniform_real(shape=(self.max_length,), dtype=dt.float64), 2.0)
        order = cast(argsort(keys), dtype=self.dtype)
        return select(in_range, order, self.pad)

    def __repr__(self) -> str:
        return f"Randperm(max_length={self.max_length}, pad={self.pad}, dtype={self.dtype})"


__all__ = ["Randperm", "rand", "rand_like", "randperm", "shuffle"]
