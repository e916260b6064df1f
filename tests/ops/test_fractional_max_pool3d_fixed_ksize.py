"""ops.FractionalMaxPool3DWithFixedKsize: MindSpore 2.10 CPU's argmax indices for windows placed
by each plane's (depth, height, width) random samples, on 5-D and 4-D inputs and integers, the
channels-last layout, gradients to each window's maximum, and the argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

X = np.sin(np.arange(2 * 2 * 5 * 6 * 7) * 1.3).reshape(2, 2, 5, 6, 7).astype(np.float32)
S = (np.arange(12) * 0.37 % 1).reshape(2, 2, 3).astype(np.float32)
# MindSpore 2.10 CPU: argmax of FractionalMaxPool3DWithFixedKsize((2, 3, 2), (3, 2, 4))(X, S)
ARGMAX = [1, 1, 11, 6, 64, 64, 74, 40, 98, 93, 88, 103, 64, 64, 122, 69, 127, 127, 185, 180, 204,
          156, 151, 209, 57, 52, 4, 62, 28, 23, 81, 33, 57, 86, 52, 62, 120, 115, 115, 110, 168,
          178, 144, 173, 197, 149, 207, 202, 50, 45, 45, 55, 21, 79, 74, 26, 50, 45, 45, 55, 113,
          108, 108, 118, 176, 142, 137, 132, 190, 205, 200, 195, 43, 43, 53, 19, 77, 72, 67, 82,
          43, 43, 101, 48, 77, 72, 67, 125, 183, 135, 130, 188, 154, 198, 164, 159]
# ... of (2, (2, 3, 3)) on X[0] with samples S[0] as (C, 1, 3) float64
ARGMAX_4D = [1, 11, 6, 64, 59, 69, 35, 74, 40, 127, 137, 180, 190, 151, 146, 204, 199, 209, 43,
             52, 47, 57, 23, 62, 28, 38, 33, 168, 178, 173, 183, 149, 188, 197, 163, 202]


def _check(y, index, x, shape):
    assert y.shape == index.shape == shape and index.dtype == np.int64
    planes = x.reshape(int(np.prod(shape[:-3])), -1)
    np.testing.assert_array_equal(y.reshape(planes.shape[0], -1),
                                  np.take_along_axis(planes, index.reshape(planes.shape[0], -1),
                                                     1))


def test_argmax_as_mindspore():
    op = ops.FractionalMaxPool3DWithFixedKsize((2, 3, 2), (3, 2, 4))
    for y, index in both_ways(op, X, S):
        np.testing.assert_array_equal(index.ravel(), ARGMAX)
        _check(y, index, X, (2, 2, 3, 2, 4))
    y, index = ops.FractionalMaxPool3DWithFixedKsize(2, (2, 3, 3))(
        Tensor(X[0]), Tensor(S[0].reshape(2, 1, 3).astype(np.float64)))
    np.testing.assert_array_equal(index.asnumpy().ravel(), ARGMAX_4D)
    _check(y.asnumpy(), index.asnumpy(), X[0], (2, 2, 3, 3))


def test_integers_and_the_example_as_mindspore():
    xi = (np.arange(2 * 5 * 6 * 7) % 11).reshape(1, 2, 5, 6, 7).astype(np.int32)
    y, index = ops.FractionalMaxPool3DWithFixedKsize(2, 2)(Tensor(xi), Tensor(S[:1]))
    # MindSpore 2.10 CPU
    np.testing.assert_array_equal(y.asnumpy().ravel(), [10, 10, 7, 10, 10, 10, 10, 10, 10, 7, 8,
                                                        10, 7, 10, 10, 7])
    np.testing.assert_array_equal(index.asnumpy().ravel(), [43, 54, 29, 76, 175, 131, 197, 208,
                                                            42, 6, 29, 75, 127, 174, 196, 160])
    x = Tensor(np.arange(1, 17, dtype=np.float32).reshape(1, 1, 2, 2, 4))
    y, index = ops.FractionalMaxPool3DWithFixedKsize((1, 1, 1), (1, 1, 2))(
        x, Tensor(np.full((1, 1, 3), 0.7, np.float32)))
    np.testing.assert_array_equal(y.asnumpy().ravel(), [13, 16])
    np.testing.assert_array_equal(index.asnumpy().ravel(), [12, 15])


def test_channels_last_moves_the_channels():
    op = ops.FractionalMaxPool3DWithFixedKsize((2, 3, 2), (3, 2, 4), data_format="NDHWC")
    y, index = op(Tensor(np.transpose(X, (0, 2, 3, 4, 1))), Tensor(S))
    y, index = (np.transpose(t.asnumpy(), (0, 4, 1, 2, 3)) for t in (y, index))
    np.testing.assert_array_equal(index.ravel(), ARGMAX)
    _check(y, index, X, (2, 2, 3, 2, 4))


def test_gradient_goes_to_each_maximum():
    op = ops.FractionalMaxPool3DWithFixedKsize((2, 3, 2), (3, 2, 4))
    weights = np.cos(np.arange(96)).reshape(2, 2, 3, 2, 4).astype(np.float32)
    grad = ops.grad(lambda x: (op(x, Tensor(S))[0] * Tensor(weights)).sum())(Tensor(X))
    expected = np.zeros((4, 5 * 6 * 7), np.float32)
    for plane in range(4):
        np.add.at(expected[plane], np.array(ARGMAX).reshape(4, -1)[plane],
                  weights.reshape(4, -1)[plane])
    np.testing.assert_allclose(grad.asnumpy().reshape(4, -1), expected, rtol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.FractionalMaxPool3DWithFixedKsize(2, (4, 2, 2))(Tensor(X), Tensor(S)),
     ValueError, "pool depth ,2too large relative to input depth5"),
    (lambda: ops.FractionalMaxPool3DWithFixedKsize(2, (2, 2), data_format="NCHW"), ValueError,
     "'data_format' must be str and must be in"),
    (lambda: ops.FractionalMaxPool3DWithFixedKsize(1, 1)(Tensor(X), Tensor(S[:, :, :2])),
     ValueError, "'random_samples' must have shape"),
    (lambda: ops.FractionalMaxPool3DWithFixedKsize(1, 1)(Tensor(X),
                                                        Tensor(S).astype(cellgraph.int32)),
     TypeError, "the type of 'random_samples'"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
