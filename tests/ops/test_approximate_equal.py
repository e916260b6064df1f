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


@pytest.mark.parametrize("tolerance", ["str", 1, True, None])
def test_tolerance_must_be_a_float(tolerance):
    # MindSpore 2.10 refuses it when the primitive is made, and in the functional op
    message = (f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', but got "
               f"type '{type(tolerance).__name__}'.")
    with pytest.raises(TypeError, match=message):
        ops.ApproximateEqual(tolerance=tolerance)
    with pytest.raises(TypeError, match=message):
        approximate_equal(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32)),
                          tolerance)


def test_rank_must_be_below_eight():
    x = Tensor(np.ones((2,) * 8, np.float32))
    with pytest.raises(RuntimeError, match="the x's rank should be less than 8, but got: 8"):
        ops.ApproximateEqual()(x, x)
    y = Tensor(np.ones((2,) * 7, np.float32))
    assert ops.ApproximateEqual()(y, y).shape == (2,) * 7
