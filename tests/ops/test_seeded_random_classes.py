"""ops.StandardLaplace, ops.StandardNormal and ops.UniformInt: each seeded instance draws from a
generator of its own, as each MindSpore kernel does (two instances with the same seeds give
the same numbers, in a graph or eagerly); the samples follow their distributions; the seeds
are checked as MindSpore checks them."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Draw(nn.Cell):
    def __init__(self, cls, shape, seed, seed2):
        super().__init__()
        self.shape, self.op = shape, cls(seed, seed2)

    def construct(self):
        return self.op(self.shape)


@pytest.mark.parametrize("cls", [ops.StandardLaplace, ops.StandardNormal])
def test_same_seeds_same_numbers(cls):
    first, second = Draw(cls, (5, 6, 8), 10, 10)(), Draw(cls, (5, 6, 8), 10, 10)()
    assert first.shape == (5, 6, 8) and first.dtype == ms.float32
    np.testing.assert_array_equal(first.asnumpy(), second.asnumpy())
    np.testing.assert_array_equal(cls(3, 1)((50,)).asnumpy(), cls(3, 1)((50,)).asnumpy())
    op = cls(3, 1)
    assert not np.array_equal(op((50,)).asnumpy(), op((50,)).asnumpy())  # it goes on
    low, high = Tensor(1, ms.int32), Tensor(5, ms.int32)
    np.testing.assert_array_equal(ops.UniformInt(2, 3)((40,), low, high).asnumpy(),
                                  ops.UniformInt(2, 3)((40,), low, high).asnumpy())


def test_laplace_samples():
    x = ops.standard_laplace((40000,), 8).asnumpy()
    assert x.dtype == np.float32
    assert abs(x.mean()) < 0.03 and abs(np.abs(x).mean() - 1.0) < 0.03  # E|x| = 1
    assert abs(x.var() - 2.0) < 0.1
    assert ops.standard_laplace((5, 6, 8)).shape == (5, 6, 8)


def test_seed_checks():
    with pytest.raises(ValueError, match="For 'StandardLaplace', the 'seed' must be int"):
        ops.StandardLaplace(-1, 0)
    with pytest.raises(TypeError, match="'seed' must be int, but got 'float'"):
        ops.standard_laplace((2, 3), 1.5)
