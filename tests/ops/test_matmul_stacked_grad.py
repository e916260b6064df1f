"""The gradient of a matrix multiplying every matrix of a stack is one product over all the
stack's rows (no stack of per-matrix products held at once): the numbers of the summed
per-matrix products, and differentiable again."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.testing import check_grads


@pytest.mark.parametrize("transpose_b", [False, True])
def test_weight_gradient_over_a_stack(transpose_b):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4, 3)).astype(np.float32)
    w = rng.standard_normal((6, 3) if transpose_b else (3, 6)).astype(np.float32)
    dout = rng.standard_normal((5, 4, 6)).astype(np.float32)

    def f(x, w):
        return (ops.matmul(x, w.T if transpose_b else w) * Tensor(dout)).sum()

    dx, dw = ms.jit(ms.grad(f, grad_position=(0, 1)))(Tensor(x), Tensor(w))
    weight = w.T if transpose_b else w
    want_dw = np.einsum("tbk,tbn->kn", x.astype(np.float64), dout)
    np.testing.assert_allclose(dw.asnumpy(), want_dw.T if transpose_b else want_dw, rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(dx.asnumpy(), dout @ weight.T, rtol=1e-5, atol=1e-5)


def test_stacked_product_differentiates_twice():
    rng = np.random.default_rng(1)
    check_grads(lambda x, w: ops.matmul(ops.tanh(x), w), (rng.standard_normal((3, 2, 4)),
                rng.standard_normal((4, 5))), order=2, rtol=1e-5)
