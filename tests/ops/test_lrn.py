"""ops.lrn / ops.LRN (local response normalisation across channels) and G.LRNGrad, its
pullback: MindSpore 2.10's values recorded below; the derivative against finite differences
in float64; MindSpore's argument errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G
from cellgraph.testing import check_grads

X = np.linspace(-2, 2, 10).reshape(1, 5, 1, 2).astype(np.float32)
DY = np.linspace(1, -1, 10).reshape(1, 5, 1, 2).astype(np.float32)
# (depth_radius, bias, alpha, beta) -> MindSpore's (LRN(X), LRNGrad(DY, X, LRN(X)))
EXPECTED = {(5, 1.0, 1.0, 0.5): ([-0.661246, -0.514303, -0.367359, -0.220416, -0.073472, 0.073472, 0.220416, 0.367359, 0.514303, 0.661247], [0.036141, 0.02811, 0.020078, 0.012047, 0.004016, -0.004016, -0.012047, -0.020078, -0.02811, -0.036141]), (1, 2.0, 0.3, 0.9): ([-0.636192, -0.604307, -0.352125, -0.257787, -0.096774, 0.096774, 0.257787, 0.352125, 0.604307, 0.636192], [0.066724, 0.138957, 0.03385, 0.057415, 0.037739, -0.037739, -0.057415, -0.03385, -0.138957, -0.066724])}


class Net(nn.Cell):
    def __init__(self, attrs):
        super().__init__()
        self.lrn = ops.LRN(*attrs)

    def construct(self, x):
        return self.lrn(x)


@pytest.mark.parametrize("attrs", sorted(EXPECTED))
def test_values_as_mindspore(attrs):
    y, grad = EXPECTED[attrs]
    for out in (ops.LRN(*attrs)(Tensor(X)), ops.lrn(Tensor(X), *attrs), Net(attrs)(Tensor(X))):
        np.testing.assert_allclose(out.asnumpy().reshape(-1), y, rtol=1e-5, atol=1e-6)
    out = G.LRNGrad(*attrs)(Tensor(DY), Tensor(X), ops.LRN(*attrs)(Tensor(X)))
    np.testing.assert_allclose(out.asnumpy().reshape(-1), grad, rtol=1e-5, atol=1e-6)


def test_derivatives_against_finite_differences():
    x = np.random.default_rng(0).standard_normal((2, 6, 2, 3))
    check_grads(lambda x: ops.lrn(x, 2, 1.5, 0.4, 0.75), (Tensor(x),), order=2)


@pytest.mark.parametrize("kwargs, shape, message", [
    ({"norm_region": "X"}, (1, 2, 1, 1), (r"the 'norm_region' must be str and must be in "
                                         r"'\['ACROSS_CHANNELS'\]', but got 'X'")),
    ({"depth_radius": -1}, (1, 2, 1, 1), r"the 'depth_radius' must be int and must >= 0"),
    ({}, (2, 3), r"the rank of input  must be equal to 4 , but got 2"),
])
def test_errors_as_mindspore(kwargs, shape, message):
    with pytest.raises(ValueError, match=message):
        ops.LRN(**kwargs)(Tensor(np.ones(shape, np.float32)))
