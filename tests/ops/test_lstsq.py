"""ops.lstsq, Tensor.lstsq and ops.Lstsq against MindSpore 2.10's CPU kernel: values recorded
from it (to float32's accuracy of the normal equations), a 1-D right side, float16, and its
dtype, shape and attribute errors."""
import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph.ops import operations as P

X = np.array([[1., 2.], [3., 4.], [5., 7.]], np.float32)
A = np.array([[1.], [2.], [4.]], np.float32)


def test_values_as_mindspore():
    x, a = Tensor(X), Tensor(A)
    for out in (ops.lstsq(x, a), x.lstsq(a), P.Lstsq()(x, a)):
        np.testing.assert_allclose(out.asnumpy(), [[0.0714279], [0.5000005]], atol=2e-6)
    # fewer equations than unknowns: the minimum-norm solution
    out = ops.lstsq(Tensor(X.T), Tensor(np.array([[1.], [2.]], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[0.92856], [-0.21428], [0.14285]], atol=2e-5)
    out = ops.lstsq(Tensor(X.astype(np.float64)), Tensor(A.astype(np.float64)))
    np.testing.assert_allclose(out.asnumpy(), [[0.07142857142856864], [0.5000000000000021]],
                               rtol=1e-12)
    assert ops.lstsq(x, Tensor(A.reshape(-1))).shape == (2, 1)
    half = ops.lstsq(Tensor(X.astype(np.float16)), Tensor(A.astype(np.float16)))
    assert half.asnumpy().dtype == np.float16
    np.testing.assert_array_equal(half.asnumpy(), np.array([[0.0714], [0.5]], np.float16))


def test_checks_as_mindspore():
    x, a = Tensor(X), Tensor(A)
    with pytest.raises(TypeError, match=r"but got Tensor\[Int32\]"):
        ops.lstsq(Tensor(X.astype(np.int32)), Tensor(A.astype(np.int32)))
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.lstsq(x, Tensor(A.astype(np.float64)))
    with pytest.raises(ValueError, match=r"x_dim\[0\]: 3,  a_dims\[0\]: 2"):
        ops.lstsq(x, Tensor(np.ones((2, 1), np.float32)))
    with pytest.raises(ValueError, match="the dimension of x must be equal to 2, but got "
                                         "x_dim: 3"):
        ops.lstsq(Tensor(np.ones((2, 2, 2), np.float32)), a)
    with pytest.raises(TypeError, match="the 'fast' should be True, but got 'False'"):
        P.Lstsq(fast=False)
    with pytest.raises(TypeError, match="the 'l2_regularizer' should be 0.0, but got '0.5'"):
        P.Lstsq(l2_regularizer=0.5)
