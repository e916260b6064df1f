"""`ops.slogdet`, `matrix_power`, `matrix_exp`, `matrix_norm`, `cond`, `lu_unpack`,
`lu_solve`, `diagonal_scatter`, `vander`, `logspace`, `i0`: MindSpore 2.10's values (where its
CPU build runs them), NumPy references otherwise, and gradients against finite differences."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops
from tests.ops.test_fft_with_size import _numeric_grad

A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, -4.0]], np.float32)


def test_values_as_mindspore():
    sign, logabs = ops.slogdet(Tensor(A))
    assert float(sign.asnumpy()) == -1.0
    np.testing.assert_allclose(logabs.asnumpy(), 3.09104, rtol=1e-5)
    sign, logabs = ops.log_matrix_determinant(Tensor(np.zeros((2, 2), np.float32)))
    assert float(sign.asnumpy()) == 0.0 and float(logabs.asnumpy()) == -np.inf
    np.testing.assert_allclose(ops.matrix_power(Tensor(A), 3).asnumpy(),
                               [[15, 21, 1], [21, 37, 15], [1, 15, -69]], rtol=1e-6)
    np.testing.assert_allclose(ops.matrix_power(Tensor(A), -2).asnumpy(),
                               [[0.38429746, -0.17768596, -0.03305785],
                                [-0.17768596, 0.17355375, 0.02066116],
                                [-0.03305785, 0.02066116, 0.06198347]], rtol=1e-5)
    np.testing.assert_array_equal(ops.matrix_power(Tensor(A.astype(np.int32)), 2).asnumpy(),
                                  [[5, 5, 1], [5, 11, -1], [1, -1, 17]])
    np.testing.assert_array_equal(ops.matrix_power(Tensor(A), 0).asnumpy(), np.eye(3))
    norms = [ops.matrix_norm(Tensor(A), o).asnumpy() for o in
             ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf"))]
    np.testing.assert_allclose(norms, [5.74456, 9.28652, 5, 3, 4.14326, 1.42995, 5, 3],
                               rtol=1e-5)
    conds = [ops.cond(Tensor(A), p).asnumpy() for p in (None, "fro", "nuc", 1, 2, float("inf"))]
    np.testing.assert_allclose(conds, [2.89749, 4.52267, 11.2365, 4.09091, 2.89749, 4.09091],
                               rtol=1e-5)
    np.testing.assert_allclose(ops.logspace(0.0, 2.0, 5).asnumpy(), np.logspace(0, 2, 5),
                               rtol=1e-6)
    out = ops.logspace(Tensor(0.0), Tensor(3.0), 4, base=2, dtype=cg.float64)
    assert out.dtype == cg.float64
    np.testing.assert_array_equal(out.asnumpy(), [1, 2, 4, 8])
    np.testing.assert_array_equal(ops.vander(Tensor(np.array([1, 2, 3])), 4).asnumpy(),
                                  np.vander([1, 2, 3], 4))
    np.testing.assert_allclose(ops.i0(Tensor(np.array([0.0, 1.0, 2.0], np.float32))).asnumpy(),
                               [1.0, 1.266066, 2.2795854], rtol=1e-6)


def test_matrix_exp_of_symmetric_matrices_by_their_eigenvectors():
    rng = np.random.default_rng(1)
    m = rng.standard_normal((2, 4, 4)) * 3
    sym = m + np.swapaxes(m, -1, -2)
    w, v = np.linalg.eigh(sym)
    want = v @ (np.exp(w)[..., None] * np.swapaxes(v, -1, -2))
    np.testing.assert_allclose(ops.matrix_exp(Tensor(sym)).asnumpy(), want, rtol=1e-10)
    np.testing.assert_allclose(ops.matrix_exp(Tensor(np.zeros((3, 3)))).asnumpy(), np.eye(3))


def test_lu_unpack_and_solve():
    # LAPACK's getrf of [[1, 3.5], [2, 1]]: rows swapped, L = [[1, 0], [0.5, 1]], U = [[2, 1],
    # [0, 3]]
    lu, piv = Tensor(np.array([[2.0, 1.0], [0.5, 3.0]])), Tensor(np.array([2, 2], np.int32))
    perm, lower, upper = ops.lu_unpack(lu, piv)
    np.testing.assert_array_equal(perm.asnumpy(), [[0, 1], [1, 0]])
    np.testing.assert_array_equal(lower.asnumpy(), [[1, 0], [0.5, 1]])
    np.testing.assert_array_equal(upper.asnumpy(), [[2, 1], [0, 3]])
    np.testing.assert_allclose((perm @ lower @ upper).asnumpy(), [[1, 3.5], [2, 1]])
    x = ops.lu_solve(Tensor(np.array([[1.0], [2.0]])), lu, piv)
    np.testing.assert_allclose(x.asnumpy(), [[1.0], [0.0]], atol=1e-12)


@pytest.mark.parametrize("offset, dim1, dim2", [(0, 1, 2), (1, 1, 2), (-1, 1, 2), (0, 0, 2),
                                                (2, 2, 1)])
def test_diagonal_scatter(offset, dim1, dim2):
    x = np.random.default_rng(0).standard_normal((2, 3, 4))
    diagonal = np.diagonal(x, offset, dim1, dim2)
    src = np.arange(diagonal.size, dtype=float).reshape(diagonal.shape) + 10
    out = ops.diagonal_scatter(Tensor(x), Tensor(src), offset, dim1, dim2).asnumpy()
    want = x.copy()
    moved = np.moveaxis(want, (dim1, dim2), (-2, -1))  # a view of want
    rows = np.arange(max(0, -offset), max(0, -offset) + src.shape[-1])
    moved[..., rows, rows + offset] = src
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("fn", [
    lambda v: ops.slogdet(v)[1],
    lambda v: ops.matrix_exp(v * 0.5),
    lambda v: ops.matrix_power(v, 3),
    lambda v: ops.matrix_power(v, -1),
])
def test_gradients_match_finite_differences(fn):
    x = A.astype(np.float64)
    np.testing.assert_allclose(ops.grad(fn)(Tensor(x)).asnumpy(), _numeric_grad(fn, x),
                               rtol=1e-5, atol=1e-6)


def test_errors():
    with pytest.raises(TypeError, match="the 'n' must be an int"):
        ops.matrix_power(Tensor(A), 1.5)
    with pytest.raises(ValueError, match="square matrix"):
        ops.slogdet(Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="N must be greater than 0"):
        ops.vander(Tensor(np.array([1.0])), 0)
    with pytest.raises(ValueError, match="ord must be one of"):
        ops.matrix_norm(Tensor(A), 3)


def test_orgqr_as_mindspore():
    m = Tensor(np.array([[-114.6, 10.9, 1.1], [-0.304, 38.07, 69.38], [-0.45, -0.17, 62.0]],
                        np.float32))
    np.testing.assert_allclose(
        ops.orgqr(m, Tensor(np.float32([1.55, 1.94, 0.0]))).asnumpy(),
        [[-0.54999995, -0.21289244, 0.8137956], [0.47119996, -0.8752807, 0.08240613],
         [0.69749993, 0.42560163, 0.57772595]], rtol=1e-5, atol=1e-6)
    m2 = Tensor(np.arange(12).reshape(4, 3) / 7)
    np.testing.assert_allclose(
        m2.orgqr(Tensor(np.float64([0.5, 1.2]))).asnumpy(),
        [[0.5, 1.65918367, 1.44489796], [-0.21428571, 0.51107872, -0.58075802],
         [-0.42857143, 0.22215743, 1.03848397], [-0.64285714, 0.41895044, 0.14344023]],
        rtol=1e-7)
    with pytest.raises(ValueError, match="expected m >= n >= k"):
        ops.orgqr(Tensor(np.ones((2, 3))), Tensor(np.ones(2)))
