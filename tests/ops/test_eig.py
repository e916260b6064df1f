"""ops.eig, ops.eigvals and ops.Eig: values and errors as MindSpore 2.10 CPU gives them, and a
gradient (MindSpore defines none) checked against finite differences and PyTorch."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

A = np.array([[2., 1., 0.], [0.5, 3., 1.], [1., 0., 1.]])
# MindSpore 2.10's eigenvalues of A (float32)
MS_VALUES = np.array([1.2162659 + 0.5854211j, 1.216266 - 0.5854211j, 3.567469 + 0.j])


def test_values_dtypes_and_vectors():
    w, v = ops.eig(Tensor(A, ms.float32))
    assert w.dtype == ms.complex64 and v.dtype == ms.complex64
    np.testing.assert_allclose(w.asnumpy(), MS_VALUES, rtol=1e-6)
    vectors = v.asnumpy()
    np.testing.assert_allclose(A @ vectors, vectors * w.asnumpy(), atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=0), 1.0, rtol=1e-6)
    assert ops.eigvals(Tensor(A)).dtype == ms.complex128
    values, placeholder = ops.Eig()(Tensor(A, ms.float32))  # compute_v=False
    assert placeholder.shape == () and placeholder.dtype == ms.complex64
    np.testing.assert_allclose(values.asnumpy(), MS_VALUES, rtol=1e-6)
    # MindSpore's documented example
    w, v = ops.eig(Tensor(np.diag([1.0, 2.0]), ms.float32))
    np.testing.assert_allclose(w.asnumpy(), [1, 2])
    np.testing.assert_allclose(v.asnumpy(), np.eye(2))


def test_batches_graphs_and_vmap():
    stack = np.stack([A, A.T, np.diag([3.0, 1.0, 2.0])])

    class Net(nn.Cell):
        def construct(self, x):
            return ops.eig(x)

    w, _ = Net()(Tensor(stack))
    assert w.shape == (3, 3)
    np.testing.assert_allclose(np.sort_complex(w.asnumpy()[2]), [1, 2, 3])
    mapped = ops.vmap(ops.eigvals)(Tensor(stack))
    np.testing.assert_allclose(mapped.asnumpy(), w.asnumpy())


@pytest.mark.parametrize("x, error, words", [
    (np.ones((2, 3), np.float32), ValueError, "should be square"),
    (np.ones((2, 2), np.int32), TypeError, "but got Tensor[Int32]"),
    (np.float32(1.0), ValueError, "should be at lease 2, but got a 0-D Tensor"),
])
def test_refuses_what_mindspore_refuses(x, error, words):
    with pytest.raises(error, match=None) as info:
        ops.eig(Tensor(x))
    assert words in str(info.value)


C, D = np.array([0.3, -1.2, 0.7]), np.array([0.5, 0.9, -0.4])
W = np.array([[0.2, -0.5, 1.1], [0.4, 0.3, -0.8], [-1.0, 0.6, 0.25]])


def _loss(x):
    w, v = ops.eig(x)
    return (ops.real(w) * Tensor(C)).sum() + (ops.imag(w) * Tensor(D)).sum() + \
        ((ops.abs(v) ** 2) * Tensor(W)).sum()


def _loss_np(a):
    w, v = np.linalg.eig(a)
    return (w.real * C).sum() + (w.imag * D).sum() + (np.abs(v) ** 2 * W).sum()


def _finite_differences(f, a, eps=1e-6):
    out = np.zeros_like(a)
    for index in np.ndindex(a.shape):
        step = np.zeros_like(a)
        step[index] = eps
        out[index] = (f(a + step) - f(a - step)) / (2 * eps)
    return out


def test_gradient_of_values_and_phase_free_vector_functions():
    np.testing.assert_allclose(ms.grad(_loss)(Tensor(A)).asnumpy(),
                               _finite_differences(_loss_np, A), atol=1e-7)


def test_second_derivative_of_the_eigenvalues():
    def first(x):
        return ms.grad(lambda y: (ops.real(ops.eigvals(y)) * Tensor(C)).sum())(x).sum()

    def first_np(a):
        _, v = np.linalg.eig(a)
        return np.real(np.linalg.inv(v).T @ np.diag(C).astype(complex) @ v.T).sum()

    np.testing.assert_allclose(ms.grad(first)(Tensor(A)).asnumpy(),
                               _finite_differences(first_np, A), atol=1e-7)


def test_complex_input_gradient_as_pytorch_gives_it():
    torch = pytest.importorskip("torch")
    a = A + 1j * np.array([[0.1, -0.3, 0.2], [0.5, 0.0, -0.1], [0.2, 0.4, -0.6]])
    x = torch.tensor(a, requires_grad=True)
    w, v = torch.linalg.eig(x)
    ((w.real * torch.tensor(C)).sum() + (w.imag * torch.tensor(D)).sum()
     + (v.abs() ** 2 * torch.tensor(W)).sum()).backward()
    np.testing.assert_allclose(ms.grad(_loss)(Tensor(a)).asnumpy(), x.grad.numpy(), atol=1e-12)
