"""Gradients at the kinks of the piecewise functions, as MindSpore 2.10 gives them (recorded):
clip_by_value and hardtanh share the gradient between x and a bound it equals (Maximum and
Minimum), clamp passes it on the closed interval (its kernel), hardsigmoid is flat at its
corners, hardswish takes the inner piece there."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops

EDGES = Tensor(np.array([-2.0, -1.0, 0.0, 1.0, 2.0], np.float32))
CORNERS = Tensor(np.array([-4.0, -3.0, 1.0, 3.0, 4.0], np.float32))


@pytest.mark.parametrize("fn, x, expected", [
    (lambda x: ops.clip_by_value(x, -1.0, 1.0), EDGES, [0, 0.5, 1, 0.5, 0]),
    (ops.hardtanh, EDGES, [0, 0.5, 1, 0.5, 0]),
    (lambda x: ops.maximum(x, -1.0), EDGES, [0, 0.5, 1, 1, 1]),
    (lambda x: ops.clamp(x, min=-1.0), EDGES, [0, 1, 1, 1, 1]),
    (lambda x: ops.clip(x, -1.0, 1.0), EDGES, [0, 1, 1, 1, 0]),
    (ops.hardsigmoid, CORNERS, [0, 0, 1 / 6, 0, 0]),
    (nn.HSigmoid(), CORNERS, [0, 0, 1 / 6, 0, 0]),
    (ops.hardswish, CORNERS, [0, -0.5, 5 / 6, 1.5, 1]),
    (nn.HSwish(), CORNERS, [0, -0.5, 5 / 6, 1.5, 1]),
    (ops.relu6, Tensor(np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32)), [0, 0, 1, 1, 0]),
])
def test_gradient_at_the_kinks(fn, x, expected):
    grad = cg.grad(lambda v: fn(v).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-6, atol=1e-7)


def test_values_unchanged():
    np.testing.assert_allclose(ops.hardsigmoid(CORNERS).asnumpy(), [0, 0, 2 / 3, 1, 1], rtol=1e-6)
    np.testing.assert_allclose(ops.hardswish(CORNERS).asnumpy(), [0, 0, 2 / 3, 3, 4], rtol=1e-6)
    clamped = ops.clamp(Tensor(np.array([1, 5, 9], np.int32)), min=3)
    assert clamped.dtype == cg.int32 and clamped.asnumpy().tolist() == [3, 5, 9]
    assert ops.clamp(Tensor(np.array([1, 5, 9], np.int32)), max=6).asnumpy().tolist() == [1, 5, 6]


def test_sum_refuses_a_keepdim_that_is_not_bool():
    with pytest.raises(TypeError, match="keepdim"):
        ops.sum(Tensor(np.ones((2, 2), np.float32)), dim=1, keepdim=12)
