"""nn.LBeta and the nn.MatrixDiag family, against MindSpore 2.10's values."""
import math

import numpy as np
import pytest

from cellgraph import Tensor, nn

X = np.array([2.0, 4, 6, 8, 0.5, 9, 20, 3], np.float32)
Y = np.array([2.0, 3, 14, 15, 30, 10, 0.7, 9], np.float32)
# MindSpore 2.10 CPU: nn.LBeta()(X, Y)
MS_LBETA = [-1.7917618, -4.0943465, -12.000225, -14.754795, -1.1240677, -12.989012,
            -1.8309127, -6.204557]


def test_lbeta_matches_mindspore_and_the_plain_sum():
    out = nn.LBeta()(Tensor(X), Tensor(Y)).asnumpy()
    np.testing.assert_allclose(out, MS_LBETA, rtol=5e-6)  # float32 lgammas: both ~2e-6 off
    exact = [math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b) for a, b in zip(X, Y)]
    np.testing.assert_allclose(out, exact, rtol=5e-6)


def test_lbeta_broadcasts_and_checks_dtypes():
    out = nn.LBeta()(Tensor(np.array([[1.5], [9.0]], np.float32)),
                     Tensor(np.array([2.0, 12], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[-1.3217584, -3.878551], [-4.4998097, -14.228703]],
                               rtol=2e-6)
    with pytest.raises(TypeError, match="For 'LBeta', the 'y' should be Float32, but got "
                                        "'mindspore.float16'"):
        nn.LBeta()(Tensor(np.float32([1, 2])), Tensor(np.float16([1, 2])))
    with pytest.raises(TypeError, match=r"the 'x' should be one of \[mindspore.float16, "
                                        r"mindspore.float32\], but got 'mindspore.float64'"):
        nn.LBeta()(Tensor(np.float64([1, 2])), Tensor(np.float64([1, 2])))


def test_matrix_diag_family():
    np.testing.assert_array_equal(nn.MatrixDiag()(Tensor(np.float32([1, 2, 3]))).asnumpy(),
                                  np.diag([1.0, 2, 3]))
    batch = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(nn.MatrixDiagPart()(Tensor(batch)).asnumpy(),
                                  [[0, 5, 10], [12, 17, 22]])
    out = nn.MatrixSetDiag()(Tensor(np.float32([[1, 2, 3], [4, 5, 6]])), Tensor(np.float32([9, 8])))
    np.testing.assert_array_equal(out.asnumpy(), [[9, 2, 3], [4, 8, 6]])
