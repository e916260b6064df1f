"""ops.approximate_equal and ops.ApproximateEqual as MindSpore 2.10's (values recorded from it)."""
import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph.ops.function.math_func import approximate_equal


def test_values_as_mindspore():
    a = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    b = Tensor(np.array([1.0, 2.00001, 3.1], np.float32))
    assert approximate_equal(a, b).asnumpy().tolist() == [True, False, False]
    assert approximate_equal(a, b, 0.2).asnumpy().tolist() == [True, True, True]
    assert ops.ApproximateEqual(2.0)(a, b).asnumpy().tolist() == [True, True, True]
    ints = Tensor(np.array([1, 2, 3], np.int32))
    assert approximate_equal(a, ints).asnumpy().tolist() == [True, True, True]
    halves = (Tensor(np.array([1.0, 2.0], np.float16)), Tensor(np.array([1.0, 2.001], np.float16)))
    assert ops.approximate_equal(*halves, 0.01).asnumpy().tolist() == [True, True]


def test_shapes_must_match():
    with pytest.raises(RuntimeError, match="'x1' must have the same shape as 'x2'"):
        approximate_equal(Tensor(np.ones(3, np.float32)), Tensor(np.ones(2, np.float32)))
