"""`ops.igamma`, `ops.igammac`, `ops.Igamma`, `Tensor.igamma`, `nn.IGamma` and
`_grad_ops.IgammaGradA`: MindSpore 2.10's values, NaN outside the domain, its dtype errors and
the gradients of ops.grad (MindSpore's numbers)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G

A = np.array([0.5, 1.0, 2.0, 10.0, 0.0, -1.0, 3.0, 100.0], np.float32)
X = np.array([0.3, 1.0, 5.0, 9.0, 1.0, 1.0, 0.0, 120.0], np.float32)
# MindSpore 2.10 CPU
P = [0.561422, 0.6321201, 0.9595723, 0.41259068, np.nan, np.nan, 0.0, 0.97213566]
GRAD_A = [-0.7705705, -0.4317296, -0.05585987, -0.12703626, np.nan, np.nan, 0.0, -0.00621332]


def test_values_as_mindspore():
    a, x = Tensor(A), Tensor(X)
    np.testing.assert_allclose(ops.igamma(a, x).asnumpy(), P, rtol=2e-5)
    np.testing.assert_allclose(ops.igammac(a, x).asnumpy(), 1 - np.array(P), rtol=2e-5,
                               atol=1e-6)
    np.testing.assert_allclose(G.IgammaGradA()(a, x).asnumpy(), GRAD_A, rtol=5e-5, atol=1e-7)
    np.testing.assert_allclose(ops.Igamma()(a, x).asnumpy(), P, rtol=2e-5)
    np.testing.assert_allclose(a.igamma(x).asnumpy(), P, rtol=2e-5)
    np.testing.assert_allclose(nn.IGamma()(a, x).asnumpy(), P, rtol=2e-5)


def test_broadcasting_and_gradients_as_mindspore():
    out = ops.igamma(Tensor(np.array([[1.0], [2.0]], np.float32)),
                     Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert out.shape == (2, 3)
    da, dx = ops.grad(ops.igamma, (0, 1))(Tensor(np.array([2.0], np.float32)),
                                          Tensor(np.array([3.0], np.float32)))
    np.testing.assert_allclose(da.asnumpy(), [-0.19742535], rtol=1e-5)
    np.testing.assert_allclose(dx.asnumpy(), [0.14936112], rtol=1e-5)


def test_identities_in_float64():
    x = np.linspace(0.1, 30.0, 40)
    np.testing.assert_allclose(ops.igamma(Tensor(np.ones_like(x)), Tensor(x)).asnumpy(),
                               -np.expm1(-x), rtol=1e-13)
    # P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1), at a = 3.5
    a = np.full_like(x, 3.5)
    lower = ops.igamma(Tensor(a), Tensor(x)).asnumpy()
    upper = ops.igamma(Tensor(a + 1), Tensor(x)).asnumpy()
    from math import gamma
    np.testing.assert_allclose(upper, lower - x ** 3.5 * np.exp(-x) / gamma(4.5), atol=1e-14)


@pytest.mark.parametrize("call, message", [
    (lambda: ops.igamma(Tensor(np.ones(1, np.float16)), Tensor(np.ones(1, np.float16))),
     "must be a type of {Tensor[Float32], Tensor[Float64]}, but got Tensor[Float16]"),
    (lambda: ops.igamma(Tensor(np.ones(1, np.float32)), Tensor(np.ones(1, np.float64))),
     "the input type must be same"),
    (lambda: nn.IGamma()(Tensor(np.ones(1, np.float64)), Tensor(np.ones(1, np.float64))),
     "For 'IGamma', the 'a' should be Float32"),
])
def test_dtype_errors(call, message):
    with pytest.raises(TypeError) as info:
        call()
    assert message in str(info.value)
