"""Fill values outside the dtype's range: MindSpore 2.10's Fill casts a Python int as C does,
so it wraps (values recorded from MindSpore 2.10 for the same calls), eagerly and in a graph."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, jit, mint, ops


def test_fill_wraps_ints_outside_the_dtype():
    assert ops.full((2,), 300, dtype=ms.int8).asnumpy().tolist() == [44, 44]
    assert ops.fill(ms.int8, (2,), 300).asnumpy().tolist() == [44, 44]
    assert ops.full_like(Tensor([1, 2], ms.int8), 300).asnumpy().tolist() == [44, 44]
    assert ops.full((1,), -1, dtype=ms.uint8).asnumpy().tolist() == [255]
    assert ops.full((2,), 2**63, dtype=ms.int64).asnumpy().tolist() == [-2**63] * 2
    assert ops.full((2,), 300.5, dtype=ms.int8).asnumpy().tolist() == [44, 44]
    # MindSpore's CPU has no kernel for these two; the cast is Fill's
    assert mint.full((2,), 300, dtype=ms.int8).asnumpy().tolist() == [44, 44]
    assert Tensor([1, 2], ms.int8).fill_(300).asnumpy().tolist() == [44, 44]


def test_fill_wraps_in_a_graph():
    @jit
    def f(x):
        return ops.full((2,), 300, dtype=ms.int8) + x

    out = f(Tensor(np.array([1, 2], np.int8)))
    assert out.dtype == ms.int8 and out.asnumpy().tolist() == [45, 46]
