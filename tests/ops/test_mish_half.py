"""Mish in float16 is computed in float32 and rounded once, as MindSpore 2.10's CPU kernel:
its results on [0, 1) recorded bit for bit (a float16 computation step by step is off by an
ulp on about a quarter of them)."""
import numpy as np

from cellgraph import Tensor, ops
from cellgraph.ops import operations as P

GRID = (np.arange(0, 1024) / 1024).astype(np.float16)[::97]
BITS = [0, 11172, 12288, 12867, 13400, 13730, 14078, 14388, 14577, 14772, 14971]  # MindSpore


def test_float16_mish_bit_for_bit():
    for out in (P.Mish()(Tensor(GRID)), ops.mish(Tensor(GRID))):
        assert out.asnumpy().dtype == np.float16
        np.testing.assert_array_equal(out.asnumpy().view(np.uint16), BITS)
