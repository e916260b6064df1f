"""The mean of integers keeps their dtype, as MindSpore's ReduceMean: the sum (wrapping in the
dtype) divided by the count, rounded towards zero. What depends on it (Tensor.var, the numpy
module's var, std and average) follows. Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Tensor, mint, ops


@pytest.mark.parametrize("values, dtype, expected", [
    ([-5, 2], ms.int32, -1),       # -1.5 rounds towards zero
    ([7, 2], ms.uint8, 4),
    ([100, 100], ms.int8, -28),    # the sum wraps in int8
    ([[-5, 4, 6], [-4, 3, 2], [1, 1, 1]], ms.int64, 1),
])
def test_integer_mean_as_mindspore(values, dtype, expected):
    x = Tensor(np.array(values), dtype)
    for out in (ops.mean(x), x.mean(), ops.ReduceMean()(x), mint.mean(x), mnp.mean(x)):
        assert out.dtype == dtype
        assert out.asnumpy() == expected


def test_integer_mean_along_an_axis_and_in_a_graph():
    x = Tensor(np.array([[1, 2], [4, 4], [-3, -2]]), ms.int64)
    np.testing.assert_array_equal(ops.mean(x, 1).asnumpy(), [1, 4, -2])
    np.testing.assert_array_equal(ops.mean(x, 0, keep_dims=True).asnumpy(), [[0, 1]])

    @ms.jit
    def f(x):
        return x.mean(1) * 2

    out = f(x)
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), [2, 8, -4])   # not mean(2 * x)


def test_what_follows_from_the_integer_mean():
    x = Tensor([-5, 2], ms.int32)
    assert x.var().asnumpy() == pytest.approx(12.5)     # deviations from the mean -1
    assert x.std().asnumpy() == pytest.approx(3.535534)
    assert mnp.var(Tensor([1, 2])).asnumpy() == pytest.approx(0.5)
    average = mnp.average(Tensor([1, 2]), weights=Tensor([1, 3]))
    assert average.dtype == ms.int64 and average.asnumpy() == 1
    assert mnp.average(Tensor([1.0, 2.0]), weights=Tensor([1, 3])).asnumpy() == 1.75
    assert mnp.mean(Tensor([1, 2]), dtype=ms.float32).asnumpy() == 1.0
    assert ops.mean(Tensor([True, False])).asnumpy() == 0.5   # MindSpore's CPU refuses bool
