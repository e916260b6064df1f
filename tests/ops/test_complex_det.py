"""ops.det and ops.slogdet of complex matrices: NumPy's values, and the gradient in the
convention of the other complex rules (PyTorch's: a real loss's gradient is dL/dRe + i dL/dIm),
checked against finite differences and PyTorch's recorded values."""
import numpy as np

import cellgraph as cg
from cellgraph import Tensor, ops

A = np.array([[1 + 1j, 2], [3, 4j]], np.complex128)


def test_values_match_numpy():
    np.testing.assert_allclose(ops.det(Tensor(A)).asnumpy(), np.linalg.det(A))
    sign, logabs = ops.slogdet(Tensor(A.astype(np.complex64)))
    ref = np.linalg.slogdet(A)
    np.testing.assert_allclose(sign.asnumpy(), ref[0], rtol=1e-6)
    np.testing.assert_allclose(logabs.asnumpy(), ref[1], rtol=1e-6)
    batch = np.stack([A, A.conj()])
    np.testing.assert_allclose(ops.det(Tensor(batch)).asnumpy(), np.linalg.det(batch))


def test_gradient_of_a_real_loss():
    grad = cg.grad(lambda x: ops.abs(ops.det(x)) ** 2)(Tensor(A)).asnumpy()
    np.testing.assert_allclose(grad, [[32 + 80j, 60 - 24j], [40 - 16j, -12 + 28j]], atol=1e-9)

    def loss(z):
        return abs(np.linalg.det(z)) ** 2

    eps, expected = 1e-6, np.zeros_like(A)
    for index in np.ndindex(A.shape):
        step = np.zeros_like(A)
        step[index] = eps
        expected[index] = ((loss(A + step) - loss(A - step))
                           + 1j * (loss(A + 1j * step) - loss(A - 1j * step))) / (2 * eps)
    np.testing.assert_allclose(grad, expected, rtol=1e-6)
