"""MindSpore 2.10's Tensor methods defined in ops/tensor_method.py: `repeat` tiles (PyTorch's
repeat), it is not NumPy's element repeat."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor

GRID = np.array([[1, 2], [3, 4]], np.int32)


@pytest.mark.parametrize("call, expected", [
    (lambda t: t.repeat(2, 3), np.tile(GRID, (2, 3))),
    (lambda t: t.repeat((2, 3)), np.tile(GRID, (2, 3))),
    (lambda t: t.repeat([1, 2]), np.tile(GRID, (1, 2))),
    (lambda t: t.repeat(repeats=(2, 1)), np.tile(GRID, (2, 1))),
    (lambda t: t.repeat(2, 1, 3), np.tile(GRID, (2, 1, 3))),
    (lambda t: t.repeat(0, 2), np.zeros((0, 4), np.int32)),
    (lambda t: t.repeat(Tensor(2), 1), np.tile(GRID, (2, 1))),
])
def test_repeat_tiles_each_axis(call, expected):
    for run in (call, ms.jit(call)):
        out = run(Tensor(GRID))
        assert out.dtype == ms.int32
        np.testing.assert_array_equal(out.asnumpy(), expected)


def test_repeat_of_a_scalar_and_of_bools():
    np.testing.assert_array_equal(Tensor(5).repeat(3, 2).asnumpy(), np.full((3, 2), 5))
    assert Tensor([True, False]).repeat(2).asnumpy().tolist() == [True, False, True, False]


@pytest.mark.parametrize("call, error, words", [
    (lambda t: t.repeat(2), ValueError, ("number of items of repeats can not be smaller than "
                                        "the number of dimensions of self tensor, but got "
                                        "repeats with 1 items and rank of self Tensor is 2.")),
    (lambda t: t.repeat(2, axis=1), TypeError, "unexpected keyword argument 'axis'"),
    (lambda t: t.repeat(repeats=2), TypeError, ("argument 'repeats' must be tuple of int but "
                                               "got int.")),
    (lambda t: t.repeat(2.0, 1), TypeError, "found type of float at pos 0."),
    (lambda t: t.repeat(-1, 2), RuntimeError, ("should be no smaller than 0, but got -2 at "
                                              "dim 0")),
])
def test_repeat_refuses_what_mindspore_refuses(call, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        call(Tensor(GRID))
