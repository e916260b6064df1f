"""Behaviour MindSpore 2.10's tests showed: triu/tril with a diagonal known only when the graph
runs (a mutable number), vmap's out_axes given as a one-element tuple for a function of one
output, and ops.Cauchy's construction checks and draws."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops


def test_triangles_with_a_mutable_diagonal():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))

    @cellgraph.jit
    def bands(x, k):
        return ops.triu(x, k), ops.tril(x, k)

    for k in (0, 2, -1):
        upper, lower = bands(x, cellgraph.mutable(k))
        np.testing.assert_array_equal(upper.asnumpy(), np.triu(x.asnumpy(), k))
        np.testing.assert_array_equal(lower.asnumpy(), np.tril(x.asnumpy(), k))


def test_vmap_out_axes_of_one_entry_for_one_output():
    x = Tensor(np.ones((2, 3), np.float32))
    assert ops.vmap(lambda v: v * 2, in_axes=0, out_axes=(0,))(x).shape == (2, 3)
    assert ops.vmap(lambda v: v * 2, in_axes=0, out_axes=[1])(x).shape == (3, 2)
    with pytest.raises(RuntimeError, match="'out_axes' should be equal to the number of "
                                           "results of 'fn': 1, but got size: 2"):
        ops.vmap(lambda v: v * 2, in_axes=0, out_axes=(0, 0))(x)


def test_cauchy_class():
    draws = ops.Cauchy([20000], 1.0, 2.0)()
    assert draws.shape == (20000,) and draws.dtype == cellgraph.float32
    values = draws.asnumpy()
    assert abs(np.median(values) - 1.0) < 0.1  # median, and half the draws within sigma
    assert abs(np.mean(np.abs(values - 1.0) < 2.0) - 0.5) < 0.02
    with pytest.raises(ValueError, match=r"the 'size\[1\]' must be int and must > 0"):
        ops.Cauchy([2, -1])
    with pytest.raises(TypeError, match="the type of 'size' should be 'list'"):
        ops.Cauchy((2, 3))
    with pytest.raises(TypeError, match="the type of 'median' should be 'float'"):
        ops.Cauchy([2], median=1)
