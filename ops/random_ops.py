"""Random numbers. The kernels draw from the runtime's global generator (seeded by
`cellgraph.set_seed`) each time the graph runs, so the primitives are effectful: never folded
at compile time, never merged with another draw, never dropped."""
from __future__ import annotations

import numbers

from . import dtype as dt
from .core import Primitive, TensorType, abstract_of
from .errors import DTypeError, ShapeError


def _uniform_real_type(shape, dtype) -> TensorType:
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise ShapeError(f"expected a shape of non-negative ints, got {shape}")
    if not dtype.is_float:
        raise DTypeError(f"expected a float dtype, got {dtype}")
    return TensorType(tuple(shape), dtype)


uniform_real = Primitive("uniform_real", _uniform_real_type, label="UniformReal",
                         nondifferentiable=True, effectful=True)


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
    return uniform_real(shape=_shape(shape, "rand"), dtype=dt.as_dtype(dtype or dt.float32))


def rand_like(input, seed=None, *, dtype=None):
    """U[0, 1) samples with the shape of `input` (and its dtype if it is a float)."""
    aval = abstract_of(input)
    dtype = dt.as_dtype(dtype) if dtype is not None else (
        aval.dtype if aval.dtype.is_float else dt.float32)
    return uniform_real(shape=aval.shape, dtype=dtype)


class UniformReal:
    """`ops.UniformReal(seed=0, seed2=0)(shape)`; the seeds are ignored in favour of the global
    generator that `cellgraph.set_seed` sets."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape):
        return uniform_real(shape=_shape(shape, "UniformReal"), dtype=dt.float32)

    def __repr__(self) -> str:
        return f"UniformReal(seed={self.seed}, seed2={self.seed2})"


__all__ = ["UniformReal", "rand", "rand_like"]
