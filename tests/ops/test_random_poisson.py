"""ops.random_poisson: shape + rate.shape counts in the asked dtype, Poisson-distributed with
each rate as mean (0 for a rate <= 0), seeded draws repeatable, and MindSpore 2.10's checks."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.common import dtype as mstype
from cellgraph.ops.function import random_func as R

I32, I64, F32 = mstype.int32, mstype.int64, mstype.float32


@pytest.mark.parametrize("dtype", [mstype.float64, F32, mstype.float16, I64, I32])
@pytest.mark.parametrize("rate_dtype", [mstype.float64, mstype.float16, I64])
def test_shape_and_dtype(dtype, rate_dtype):
    out = R.random_poisson(Tensor(np.array([3, 5]), I64), Tensor(0.5, rate_dtype), seed=1,
                           dtype=dtype)
    assert out.shape == (3, 5) and out.dtype == dtype
    rates = Tensor(np.array([[5.0, 10.0], [5.0, 1.0]]), rate_dtype)
    out = ops.random_poisson(Tensor(np.array([3, 2]), I32), rates, seed=5, dtype=dtype)
    assert out.shape == (3, 2, 2, 2) and out.dtype == dtype
    compiled = cellgraph.jit(lambda r: R.random_poisson(Tensor(np.array([4]), I32), r, 2, dtype))
    assert compiled(rates).shape == (4, 2, 2)


def test_draws_follow_the_rates():
    rates = Tensor(np.array([0.5, 3.0, 40.0, -1.0], np.float32))
    counts = R.random_poisson(Tensor(np.array([20000]), I32), rates, seed=3).asnumpy()
    np.testing.assert_allclose(counts.mean(0), [0.5, 3.0, 40.0, 0.0], rtol=0.05, atol=0.02)
    np.testing.assert_allclose(counts.var(0), [0.5, 3.0, 40.0, 0.0], rtol=0.1, atol=0.02)
    assert np.array_equal(counts, np.round(counts))
    cellgraph.set_seed(7)
    first = R.random_poisson(Tensor(np.array([50]), I32), rates, seed=3).asnumpy()
    cellgraph.set_seed(7)
    np.testing.assert_array_equal(
        R.random_poisson(Tensor(np.array([50]), I32), rates, seed=3).asnumpy(), first)


@pytest.mark.parametrize("shape, rate, kwargs, error, message", [
    ((3, 5), Tensor([0.5]), {"seed": 1}, TypeError, r"argument\[shape\]"),
    (Tensor(np.array([[1, 2], [3, 5]]), I32), Tensor([0.5]), {}, ValueError, "1-D tensor"),
    (Tensor(np.array([3.0, 5.0]), F32), Tensor([0.5]), {}, TypeError, r"Tensor\[Float32\]"),
    (Tensor(np.array([-3, 5]), I32), Tensor([0.5]), {}, ValueError, "all positive item"),
    (Tensor(np.array([3, 5]), I32), [0.5], {}, TypeError, r"argument\[rate\]"),
    (Tensor(np.array([3, 5]), I32), Tensor(np.array([True])), {}, TypeError, r"Tensor\[Bool\]"),
    (Tensor(np.array([3, 5]), I32), Tensor([0.5]), {"seed": 0.5}, TypeError, "'seed' must be int"),
    (Tensor(np.array([3, 5]), I32), Tensor([0.5]), {"dtype": mstype.bool_}, TypeError,
     "'dtype' should be one of"),
])
def test_checks_as_mindspore(shape, rate, kwargs, error, message):
    with pytest.raises(error, match=message):
        R.random_poisson(shape, rate, **kwargs)
