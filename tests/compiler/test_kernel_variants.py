"""Kernel variants: a node of a special form of its operation (a matmul of two matrices of one
float dtype) calls its variant's kernel, `name@variant`, where the backend has one, and the
primitive's kernel where it has not; the numbers are the same either way."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.runtime import backend as rb

RNG = np.random.default_rng(0)


def _source(fn) -> str:
    """The generated code of `fn`'s last compiled specialisation (a jit function's cache)."""
    return fn._cache.last.compiled.module.source


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_of_two_matrices_runs_the_2d_kernel(dtype, transpose_a, transpose_b):
    a = RNG.standard_normal((4, 3) if transpose_a else (3, 4)).astype(dtype)
    b = RNG.standard_normal((5, 4) if transpose_b else (4, 5)).astype(dtype)

    @cellgraph.jit
    def f(x, y):
        return ops.MatMul(transpose_a, transpose_b)(x, y) * 2

    out = f(Tensor(a), Tensor(b)).asnumpy()
    expected = (a.T if transpose_a else a) @ (b.T if transpose_b else b) * 2
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert "_k_matmul_2d(" in _source(f)


@pytest.mark.parametrize("shapes, dtypes", [
    (((2, 3, 4), (2, 4, 5)), (np.float32, np.float32)),  # a batch
    (((2, 3, 4), (4, 5)), (np.float64, np.float64)),  # a batch by a matrix
    (((3, 4), (4, 5)), (np.float16, np.float16)),  # no BLAS for float16
    (((3, 4), (4, 5)), (np.int32, np.int32)),
])
def test_other_products_run_the_general_kernel(shapes, dtypes):
    a = RNG.standard_normal(shapes[0]).astype(dtypes[0])
    b = RNG.standard_normal(shapes[1]).astype(dtypes[1])

    @cellgraph.jit
    def f(x, y):
        return ops.matmul(x, y)

    out = f(Tensor(a), Tensor(b)).asnumpy()
    np.testing.assert_allclose(out.astype(np.float64),
                               np.matmul(a.astype(np.float64), b.astype(np.float64)),
                               rtol=2e-3 if dtypes[0] == np.float16 else 1e-5)
    source = _source(f)
    assert "_k_matmul(" in source and "_k_matmul_2d" not in source


def test_gradient_of_a_matrix_product_uses_the_2d_kernel_and_is_right():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    grad = cellgraph.grad(lambda x, y: ops.matmul(x, y).sum(), grad_position=(0, 1))
    dx, dy = grad(Tensor(a), Tensor(b))
    np.testing.assert_allclose(dx.asnumpy(), np.ones((2, 4)) @ b.T, rtol=1e-12)
    np.testing.assert_allclose(dy.asnumpy(), a.T @ np.ones((2, 4)), rtol=1e-12)


def test_a_backend_without_the_variant_runs_the_primitives_kernel():
    backend = rb.get_backend()
    general = backend.kernel("matmul")
    fallback = rb.Backend("no_variants", np, {"matmul": general})
    assert fallback.kernel("matmul@2d") is general
    with pytest.raises(NotImplementedError, match="no kernel for primitive"):
        fallback.kernel("conv2d@2d")
