"""`MultinomialWithReplacement` and `ops.multinomial_with_replacement`: MindSpore 2.10's draws
for a seed and offset (Philox4x32-10 words as MindSpore's CPU kernel turns them into floats),
its generator carried on from call to call, without replacement (drawn columns' weights zeroed,
then the zero-weight columns in order), a 1-D input, and the Philox stream against the
reference block."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import random_ops as R
from cellgraph.runtime.rng import PhiloxMantissaStream, philox4x32


class Net(nn.Cell):
    def __init__(self, numsamples, replacement):
        super().__init__()
        self.op = R.MultinomialWithReplacement(numsamples, replacement)

    def construct(self, x, seed, offset):
        return self.op(x, seed, offset)


X = Tensor((np.arange(40) % 7 * 3.0 + 1).reshape(4, 10).astype(np.float32))


@pytest.fixture
def graph_mode():
    cg.set_context(mode=cg.GRAPH_MODE)
    yield
    cg.set_context(mode=cg.PYNATIVE_MODE)


def test_draws_as_mindspore_and_carried_on(graph_mode):
    net = Net(6, True)
    # MindSpore 2.10 CPU, GRAPH_MODE: two calls of the same Cell with seed 50, offset 20
    first = net(X, Tensor([50]), Tensor([20]))
    assert first.asnumpy().dtype == np.int64
    np.testing.assert_array_equal(first.asnumpy(), [[2, 9, 6, 5, 3, 6], [6, 6, 3, 8, 2, 2], [6, 0, 9, 1, 5, 7], [3, 4, 7, 4, 9, 3]])
    np.testing.assert_array_equal(net(X, Tensor([50]), Tensor([20])).asnumpy(), [[9, 5, 9, 4, 3, 5], [9, 7, 3, 8, 7, 7], [5, 4, 4, 3, 7, 7], [4, 1, 1, 0, 0, 4]])


def test_without_replacement_and_one_row(graph_mode):
    weights = np.array([[0, 3, 0, 1, 2.5, 0], [1, 1, 1, 0, 1, 1]], np.float64)
    out = Net(6, False)(Tensor(weights), Tensor([7]), Tensor([1]))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 4, 3, 0, 2, 5], [0, 4, 1, 5, 2, 3]])  # MindSpore 2.10
    one = Net(4, True)(Tensor(np.array([0.2, 0, 5, 1], np.float16)), Tensor([3]), Tensor([0]))
    np.testing.assert_array_equal(one.asnumpy(), [2, 2, 3, 2])


def test_function_takes_int_seeds():
    out = ops.multinomial_with_replacement(X, 12, 5, 3, True)
    np.testing.assert_array_equal(out.asnumpy(), [[5, 6, 2], [8, 8, 7], [7, 2, 0], [3, 6, 1]])  # MindSpore 2.10
    with pytest.raises(TypeError, match="seed"):
        ops.multinomial_with_replacement(X, 1.5, 5, 3, True)


def test_stream_words_are_philox_blocks_in_order():
    stream = PhiloxMantissaStream(5, 1 << 32 | 3)
    words = philox4x32((np.arange(2), 0, 3, 1), (5, 0)).reshape(-1)
    expected = ((words & 0x7FFFFF) | (127 << 23)).astype(np.uint32).view(np.float32) - 1
    got = np.concatenate([stream.random((3,)), stream.random((5,))])
    np.testing.assert_array_equal(got, expected)
