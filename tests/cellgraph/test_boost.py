"""boost.GradientAccumulation: the optimizer runs every N-th call on the mean of the N
gradients, in PyNative and graph mode; the accumulation and clearing overloads."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.boost import GradientAccumulation
from cellgraph.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    previous = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=previous)


def _grads(w, b):
    return Tensor(np.array([w], np.float32)), Tensor(np.array([b], np.float32))


def test_the_optimizer_sees_the_mean_every_nth_call(mode):
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.5, momentum=0.9)
    acc = GradientAccumulation(3, opt)
    steps = [_grads([1.0, 2.0], 1.0), _grads([3.0, 0.0], -1.0), _grads([2.0, 4.0], 3.0)]
    for grads in steps[:2]:
        assert float(acc(Tensor(2.5), grads).asnumpy()) == 2.5
        np.testing.assert_array_equal(net.weight.asnumpy(), [[1.0, 1.0]])  # not yet
    np.testing.assert_allclose(acc._grad_accumulation[0].asnumpy(), [[4 / 3, 2 / 3]], rtol=1e-6)
    acc(Tensor(2.5), steps[2])
    mean_w, mean_b = np.array([2.0, 2.0]), 1.0
    np.testing.assert_allclose(net.weight.asnumpy(), [1.0 - 0.5 * mean_w], rtol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), [-0.5 * mean_b], rtol=1e-6)
    for buffer in acc._grad_accumulation:
        np.testing.assert_array_equal(buffer.asnumpy(), 0)  # cleared for the next round
    assert int(acc._accumulation_step.asnumpy()) == 0
    for grads in steps:  # the second round: momentum 0.9 carries the first update
        acc(Tensor(0.0), grads)
    np.testing.assert_allclose(net.weight.asnumpy(), [1.0 - 0.5 * mean_w - 0.5 * 1.9 * mean_w],
                               rtol=1e-6)


def test_the_overloads_accumulate_and_clear_in_place():
    buffer = ms.Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name="buffer")
    gradient_accumulation_op(4, buffer, Tensor(np.array([2.0, -4.0], np.float32)))
    np.testing.assert_allclose(buffer.asnumpy(), [1.5, 0.0])
    gradient_clear_op(buffer)
    np.testing.assert_array_equal(buffer.asnumpy(), [0.0, 0.0])
    with pytest.raises(ValueError, match="max_accumulation_step"):
        GradientAccumulation(0, nn.SGD(nn.Dense(1, 1).trainable_params()))
