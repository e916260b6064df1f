"""ops.SplitV: pieces of given sizes along a dimension (one size -1 for the rest), with
MindSpore 2.10's checks and messages (its CPU build has no SplitV kernel; the values are
NumPy's split at the same points), in PyNative and graph mode, and its gradient."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import nn, ops

X = np.arange(24, dtype=np.float32).reshape(4, 6)


@pytest.fixture(params=[cg.PYNATIVE_MODE, cg.GRAPH_MODE])
def mode(request):
    cg.set_context(mode=request.param)
    return request.param


class _Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x):
        return self.op(x)


@pytest.mark.parametrize("sizes, dim, num, points", [
    ((1, 2, 3), 1, 3, [1, 3]), ((1, -1, 3), 1, 3, [1, 3]), ([3, 3], 1, 2, [3]),
    ((4,), 0, 1, []), ((2, 2), -2, 2, [2]),
])
def test_pieces(mode, sizes, dim, num, points):
    out = _Net(ops.SplitV(sizes, dim, num))(cg.Tensor(X))
    expected = np.split(X, points, axis=dim)
    assert len(out) == len(expected)
    for got, want in zip(out, expected):
        np.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("sizes, dim, num, error, message", [
    ((1, 2), 1, 3, ValueError,
     r"For primitive\[SplitV\], the attribute\[num_split\] must be equal to 2, but got 3\."),
    ((1, 2, 2), 1, 3, ValueError,
     r"the attribute\[sum of size_splits\] must be equal to 6, but got 5\."),
    ((1, -1, -1), 1, 3, ValueError,
     "For 'SplitV', 'size_splits' default value can contain only one -1, but got more than one."),
    ((7, -1), 1, 2, ValueError,
     r"For primitive\[SplitV\], the elements of size_splits must be in \[0,6\], but got 7\."),
    ((1, 2, 3), -3, 3, ValueError,
     r"For primitive\[SplitV\], the split_dim must be in \[-2,2\), but got -3\."),
])
def test_shape_errors_as_mindspore(mode, sizes, dim, num, error, message):
    with pytest.raises(error, match=message):
        _Net(ops.SplitV(sizes, dim, num))(cg.Tensor(X))


@pytest.mark.parametrize("args, error, message", [
    (((0, 6), 1, 2), ValueError, "all elements of size_splits must be positive .* but got: 0."),
    (((1.0, 5), 1, 2), TypeError, "the type of 'elements of size_splits' should be 'int'"),
    (((3, 3), 1, 0), ValueError, "the 'num_split' must be int and must > 0, but got '0'"),
    (((3, 3), 1.0, 2), TypeError, "the type of 'split_dim' should be 'int', but got type 'float'"),
])
def test_argument_errors_as_mindspore(args, error, message):
    with pytest.raises(error, match=message):
        ops.SplitV(*args)


def test_float64_refused():
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[BFloat16\].*Float64\]"):
        ops.SplitV((1, 1), 0, 2)(cg.Tensor(np.ones((2, 2))))


def test_gradient_routes_each_piece_back(mode):
    net = _Net(ops.SplitV((2, -1), 1, 2))

    def weighted(x):
        first, second = net(x)
        return first.sum() * 2 + second.sum() * 3

    grad = cg.grad(weighted)(cg.Tensor(X))
    expected = np.concatenate([np.full((4, 2), 2.0), np.full((4, 4), 3.0)], 1)
    np.testing.assert_array_equal(grad.asnumpy(), expected)
