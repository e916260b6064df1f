"""cellgraph.scipy.linalg against the values and errors MindSpore 2.10 gives."""
import numpy as np
import pytest

import cellgraph.scipy.linalg as alg
from cellgraph import Tensor, nn
from cellgraph.common import dtype as mstype


def _signed(v):
    """Eigenvectors with each column's largest entry in magnitude positive."""
    rows = np.argmax(np.abs(v), axis=0)
    return v * np.sign(v[rows, np.arange(v.shape[1])])


class _Eigh(nn.Cell):
    def construct(self, x):
        return alg.eigh(x)


def test_eigh_in_a_graph_casts_integers_to_float64():
    w, v = _Eigh()(Tensor([[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 1]]))
    assert w.dtype == mstype.float64 and v.dtype == mstype.float64
    np.testing.assert_array_equal(w.asnumpy(), [1.0, 1.0, 2.0, 2.0])
    a = np.diag([2.0, 1.0, 2.0, 1.0])
    np.testing.assert_allclose(a @ v.asnumpy(), v.asnumpy() * w.asnumpy(), atol=1e-12)


def test_eigh_reads_the_triangle_lower_names():
    a = Tensor(np.array([[2.0, 5.0], [1.0, 3.0]], np.float32))
    w, v = alg.eigh(a, lower=True)  # [[2, 1], [1, 3]]
    np.testing.assert_allclose(w.asnumpy(), [1.38196588, 3.61803341], rtol=1e-6)
    np.testing.assert_allclose(_signed(v.asnumpy()), _signed(np.array(
        [[-8.50650728e-01, -5.25731146e-01], [5.25731146e-01, -8.50650728e-01]])), rtol=1e-5)
    w, v = alg.eigh(a, lower=False)  # [[2, 5], [5, 3]]
    np.testing.assert_allclose(w.asnumpy(), [-2.52493739, 7.52493668], rtol=1e-6)
    np.testing.assert_allclose(_signed(v.asnumpy()), _signed(np.array(
        [[-7.41452456e-01, -6.71005309e-01], [6.71005309e-01, -7.41452456e-01]])), rtol=1e-5)
    only = alg.eigh(a, eigvals_only=True)
    np.testing.assert_allclose(only.asnumpy(), [1.38196588, 3.61803341], rtol=1e-6)


def test_inv_det_cholesky():
    np.testing.assert_allclose(alg.inv(Tensor(np.array([[1, 2], [3, 4]]))).asnumpy(),
                               [[-2.0, 1.0], [1.5, -0.5]])
    det = alg.det(Tensor(np.array([[1, 2], [3, 4]])))
    assert det.dtype == mstype.float64 and float(det.asnumpy()) == -2.0
    three = Tensor(np.array([[0, 2, 3], [4, 5, 6], [7, 8, 9]], np.float64))
    assert float(alg.det(three).asnumpy()) == 3.0
    four = np.array([[4.0, 1, 0, 0], [1, 3, 0, 0], [0, 0, 2, 0], [0, 0, 0, 1]])
    np.testing.assert_allclose(float(alg.det(Tensor(four)).asnumpy()), 22.0)
    spd = Tensor(np.array([[4.0, 2.0], [2.0, 3.0]], np.float32))
    np.testing.assert_allclose(alg.cholesky(spd).asnumpy(), [[2.0, 1.0], [0.0, 1.4142135]],
                               rtol=1e-6)
    np.testing.assert_allclose(alg.cholesky(spd, lower=True).asnumpy(),
                               [[2.0, 0.0], [1.0, 1.4142135]], rtol=1e-6)


@pytest.mark.parametrize("call, arg, error, message", [
    (alg.eigh, Tensor(np.ones((2, 3), np.float32)), ValueError,
     "For 'eigh', the matrix 'a' should be a square matrix like (N, N), but got (2, 3)."),
    (alg.eigh, Tensor(np.ones((2,), np.float32)), ValueError,
     "For 'eigh', the dimension of 'a' should be 2, but got 1."),
    (alg.inv, Tensor(np.ones((2, 2), np.float16)), TypeError,
     ("For 'inv', the data type of 'a' should be one of [mindspore.int32, mindspore.int64, "
      "mindspore.float32, mindspore.float64], but got Float16.")),
    (alg.eigh, np.ones((2, 2)), TypeError, "For 'eigh', the type of 'a' should be Tensor"),
    (lambda a: alg.eigh(a, lower=1), Tensor(np.ones((2, 2), np.float32)), TypeError,
     "For 'eigh', the type of 'lower' should be bool, but got '1' with type int."),
    (alg.cholesky, Tensor(np.ones((2, 3), np.float32)), ValueError,
     "For 'cholesky', the matrix 'a' should be a square matrix like (N, N), but got (2, 3)."),
])
def test_argument_errors(call, arg, error, message):
    with pytest.raises(error) as info:
        call(arg)
    assert message.replace("mindspore", "cellgraph") in str(info.value)


SPD = np.array([[9, 3, 1, 5], [3, 7, 5, 1], [1, 5, 9, 2], [5, 1, 2, 6]], np.float32)
LOWER = np.array([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]], np.float32)


@pytest.mark.parametrize("lower", [False, True])
def test_cho_factor_and_cho_solve_as_mindspore(lower):
    c, flag = alg.cho_factor(Tensor(SPD), lower=lower)
    upper = np.array([[3.0, 1.0, 0.33333334, 1.6666666], [0.0, 2.4494898, 1.9051585, -0.2721655],
                      [0.0, 0.0, 2.2933078, 0.8559526], [0.0, 0.0, 0.0, 1.5541857]])
    assert flag is lower
    np.testing.assert_allclose(c.asnumpy(), upper.T if lower else upper, rtol=1e-5, atol=1e-6)
    x = alg.cho_solve((c, flag), Tensor(np.ones(4, np.float32)))
    np.testing.assert_allclose(x.asnumpy(), [-0.01749266, 0.11953348, 0.01166185, 0.15743434],
                               rtol=1e-4)
    with pytest.raises(TypeError, match="the type of 'lower' should be bool"):
        alg.cho_solve((c, 1), Tensor(np.ones(4, np.float32)))


@pytest.mark.parametrize("trans, unit, want", [
    (0, False, [1 / 3, 1 / 3, 2 / 3, -1 / 3]),
    ("N", True, [1, -1, 0, 1]),
    (1, False, [0, 0, 0, 1]),
    ("C", True, [0, 0, 0, 1]),
])
def test_solve_triangular_as_mindspore(trans, unit, want):
    x = alg.solve_triangular(Tensor(LOWER), Tensor(np.ones(4, np.float32)), trans=trans,
                             lower=True, unit_diagonal=unit)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6, atol=1e-7)
    # the upper triangle of LOWER is its diagonal
    upper = alg.solve_triangular(Tensor(LOWER), Tensor(np.ones(4, np.float32)))
    np.testing.assert_allclose(upper.asnumpy(), [1 / 3, 1, 1, 1], rtol=1e-6)


def test_solve_triangular_refuses_as_mindspore():
    with pytest.raises(ValueError, match="last two dimensions of `a` and `b` should be matched"):
        alg.solve_triangular(Tensor(LOWER), Tensor(np.ones(3, np.float32)))
    with pytest.raises(RuntimeError, match=r"'trans' must be in \[0, 1, 2, 'N', 'T', 'C'\]"):
        alg.solve_triangular(Tensor(LOWER), Tensor(np.ones(4, np.float32)), trans=5)


def test_block_diag_as_mindspore():
    out = alg.block_diag(Tensor(np.ones((2, 2), np.float32)),
                         Tensor(np.full((1, 3), 2, np.float32)), Tensor(np.array([5.0], np.float32)))
    want = np.zeros((4, 6), np.float32)
    want[:2, :2], want[2, 2:5], want[3, 5] = 1, 2, 5
    np.testing.assert_array_equal(out.asnumpy(), want)
    assert alg.block_diag().shape == (1, 0)
    with pytest.raises(ValueError, match="at most 2 dimensions"):
        alg.block_diag(Tensor(np.ones((1, 1, 1), np.float32)))
