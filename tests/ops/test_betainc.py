"""ops.Betainc, the regularized incomplete beta function: MindSpore 2.10 CPU's values in float64
and float32 (both sides of the continued fraction's switch, the ends of [0, 1], large a and b),
derivatives in a, b and x against finite differences (MindSpore's in a and b are zeros, which is
wrong), and its dtype and shape errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

A = np.array([0.3, 0.1, 0.4, 2.0, 5.0, 30.0, 0.5, 1.0, 2.5, 80.0])
B = np.array([0.4, 0.5, 0.9, 3.0, 0.7, 20.0, 0.5, 1.0, 2.5, 90.0])
X = np.array([0.2, 0.6, 0.5, 0.9, 0.999, 0.55, 0.0, 1.0, 0.3, 0.47])
# MindSpore 2.10 CPU, float64
EXPECTED = [0.4146269648252665, 0.8706034369800058, 0.7298297720945992, 0.9963,
            0.9736254047308759, 0.23288860678656353, 0.0, 1.0, 0.1869669619088735,
            0.4950817884695297]


def test_as_mindspore():
    for got in both_ways(ops.Betainc(), A, B, X):
        np.testing.assert_allclose(got, EXPECTED, rtol=1e-12, atol=1e-14)
    got = ops.Betainc()(*(Tensor(v.astype(np.float32)) for v in (A, B, X)))
    assert got.dtype == cellgraph.float32
    np.testing.assert_allclose(got.asnumpy(), EXPECTED, rtol=2e-5, atol=1e-6)


def test_outside_the_domain_is_nan():
    got = ops.Betainc()(Tensor([-1.0, 1.0, 1.0]), Tensor([1.0, 0.0, 1.0]), Tensor([0.5, 0.5, 1.5]))
    assert np.isnan(got.asnumpy()).all()


def _sum_of(fn):
    return lambda *args: fn(*args).sum()


@pytest.mark.parametrize("order, position", [(1, 0), (1, 1), (1, 2), (2, 0)])
def test_derivatives_match_finite_differences(order, position):
    args = [np.array([0.7, 3.0]), np.array([1.3, 2.0]), np.array([0.4, 0.8])]
    f = _sum_of(ops.Betainc())
    for _ in range(order - 1):
        f = _sum_of(ops.grad(f, grad_position=position))
    got = ops.grad(f, grad_position=position)(*map(Tensor, args)).asnumpy()
    for i in range(2):
        h = np.zeros(2)
        h[i] = 1e-6
        up = [v + h if k == position else v for k, v in enumerate(args)]
        down = [v - h if k == position else v for k, v in enumerate(args)]
        numeric = (f(*map(Tensor, up)).asnumpy() - f(*map(Tensor, down)).asnumpy()) / 2e-6
        np.testing.assert_allclose(got[i], numeric, rtol=2e-5, atol=1e-7)


def test_x_derivative_is_the_density():
    a, b, x = 0.7, 1.3, np.array([0.2, 0.5, 0.9])
    got = ops.grad(lambda x: ops.Betainc()(Tensor(np.full(3, a)), Tensor(np.full(3, b)),
                                           x).sum())(Tensor(x)).asnumpy()
    from math import lgamma
    density = np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - lgamma(a) - lgamma(b)
                     + lgamma(a + b))
    np.testing.assert_allclose(got, density, rtol=1e-10)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.Betainc()(Tensor(A[:2]), Tensor(B), Tensor(X)), ValueError,
     "shape of b \\(10,\\) are not consistent with the shape a \\(2,\\)"),
    (lambda: ops.Betainc()(Tensor(A.astype(np.float32)), Tensor(B), Tensor(X)), TypeError,
     "the input type must be same"),
    (lambda: ops.Betainc()(Tensor([1, 2]), Tensor([1, 2]), Tensor([0, 1])), TypeError,
     r"input argument\[a\] must be a type of \{Tensor\[Float32\], Tensor\[Float64\]\}"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
