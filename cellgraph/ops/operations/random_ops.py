"""MindSpore's `ops.operations.random_ops`: the primitive classes of random draws."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.random_func import random_ints, seeded_standard_normal
from cellgraph.ops.primitive_class import PrimitiveClass, generate_classes
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.random_ops import op_seeds

__all__ = ["StandardNormal", "UniformInt"]


class StandardNormal(PrimitiveClass):
    """`ops.StandardNormal(seed=0, seed2=0)(shape)`."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape):
        return seeded_standard_normal(shape, self.seed, self.seed2)


class UniformInt(PrimitiveClass):
    """`ops.UniformInt(seed, seed2)(shape, minval, maxval)`: ints in [minval, maxval)."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape, minval, maxval):
        low, high = int(np.asarray(minval)), int(np.asarray(maxval))
        return random_ints(low, high, tuple(shape), op_seeds(self.seed, self.seed2, "UniformInt"),
                           dt.int32)

# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
