"""cellgraph.numpy's norm, reciprocal and clip give MindSpore 2.10's (NumPy's) values and dtypes:
matrix norms over two axes, integer reciprocals, integer clipping by number bounds."""
import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph import numpy as mnp

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
Y = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10
XI = np.array([[1, -2, 3], [0, 4, -1]], np.int32)


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
def test_norm_of_a_matrix_by_singular_values_is_not_implemented(ord):
    with pytest.raises(NotImplementedError, match="not implemented"):  # as in MindSpore
        mnp.norm(Tensor(X), ord=ord)


@pytest.mark.parametrize("ord", [None, 1, -1, np.inf, -np.inf, "fro"])
def test_norm_of_a_matrix_is_the_matrix_norm(ord):
    np.testing.assert_allclose(mnp.norm(Tensor(X), ord=ord).asnumpy(),
                               np.linalg.norm(X, ord), rtol=1e-5)
    kept = mnp.norm(Tensor(X), ord=ord, keepdims=True)
    assert kept.shape == (1, 1)
    np.testing.assert_allclose(mnp.norm(Tensor(Y), ord=ord, axis=(0, 2)).asnumpy(),
                               np.linalg.norm(Y, ord, axis=(0, 2)), rtol=1e-5)


def test_norm_of_vectors_and_its_errors():
    np.testing.assert_allclose(mnp.norm(Tensor(Y)).asnumpy(), np.linalg.norm(Y), rtol=1e-6)
    assert mnp.norm(Tensor(Y), keepdims=True).shape == (1, 1, 1)
    np.testing.assert_allclose(mnp.norm(Tensor(Y), ord=1, axis=1).asnumpy(),
                               np.linalg.norm(Y, 1, axis=1), rtol=1e-6)
    np.testing.assert_allclose(mnp.norm(Tensor(np.array([3, 4], np.int32))).asnumpy(), 5.0)
    for call, words in ((lambda: mnp.norm(Tensor(Y), ord=1), "array must a vector or a 2-D"),
                        (lambda: mnp.norm(Tensor(Y), axis=(0, 1, 2)), "invalid number of dim"),
                        (lambda: mnp.norm(Tensor(Y), ord="fro", axis=1), "Frobenius norm"),
                        (lambda: mnp.norm(Tensor(X), ord=3), "invalid norm order")):
        with pytest.raises(ValueError, match=words):
            call()


def test_reciprocal_of_integers_is_their_integer_quotient():
    """MindSpore's tensor_div(1, x): rounded towards zero, 1 / 0 the dtype's max; a bool x
    gives int64."""
    out = mnp.reciprocal(Tensor(XI))
    assert str(out.dtype) == "Int32"
    assert out.asnumpy().tolist() == [[1, 0, 0], [2147483647, 0, -1]]
    assert mnp.reciprocal(Tensor(np.array([1, 2], np.uint8))).asnumpy().tolist() == [1, 0]
    flags = mnp.reciprocal(Tensor(np.array([True, False])))
    assert flags.asnumpy().tolist() == [1, 9223372036854775807]
    assert str(flags.dtype) == "Int64"
    np.testing.assert_allclose(mnp.reciprocal(Tensor(X)).asnumpy(), 1 / X, rtol=1e-6)
    assert mnp.reciprocal(Tensor(XI), dtype=np.float32).asnumpy().tolist() == [
        [1.0, 0.0, 0.0], [2147483648.0, 0.0, -1.0]]


def test_clip_keeps_an_integer_array_integer():
    out = mnp.clip(Tensor(XI), 0.5, 2)
    assert str(out.dtype) == "Int32" and out.asnumpy().tolist() == [[1, 0, 2], [0, 2, 0]]
    assert mnp.clip(Tensor(X), 0, 2).asnumpy().tolist() == [[1.5, 0.0, 2.0], [0.5, 2.0, 0.0]]
    assert mnp.clip(Tensor(XI), None, 1).asnumpy().tolist() == [[1, -2, 1], [0, 1, -1]]
    with pytest.raises(ValueError, match="One of max or min must be given"):
        mnp.clip(Tensor(XI), None, None)


def test_sign_is_x_over_its_absolute_value():
    """MindSpore 2.10's numpy.sign: x / |x| where x != 0, so integers give float32 signs and NaN
    stays NaN; a bool tensor is refused."""
    out = mnp.sign(Tensor(XI))
    assert out.dtype == mnp.float32
    np.testing.assert_array_equal(out.asnumpy(), np.sign(XI).astype(np.float32))
    floats = mnp.sign(Tensor(np.array([np.nan, -0.0, -2.5], np.float32))).asnumpy()
    assert np.isnan(floats[0]) and floats[1:].tolist() == [0.0, -1.0]
    assert mnp.sign([-1, 2]).asnumpy().tolist() == [-1.0, 1.0]
    assert mnp.sign(Tensor(XI), dtype=mnp.int32).dtype == mnp.int32
    with pytest.raises(TypeError, match="sign does not accept dtype bool."):
        mnp.sign(Tensor(np.array([True])))


@pytest.mark.parametrize("np_dtype, expected", [
    (np.bool_, np.int32), (np.int8, np.int32), (np.int16, np.int32), (np.uint8, np.uint32),
    (np.int32, np.int32), (np.int64, np.int64), (np.float16, np.float16),
    (np.float64, np.float64)])
def test_cumprod_keeps_or_widens_the_dtype_as_mindspore_numpy(np_dtype, expected):
    """MindSpore 2.10's numpy.cumprod multiplies in float32 and gives the input's dtype (bool,
    int8, int16: int32; uint8, uint16: uint32), where ops.cumprod gives int64."""
    x = np.array([[1, 2, 3], [1, 0, 2]], np_dtype)
    out = mnp.cumprod(Tensor(x), 1)
    assert out.asnumpy().dtype == expected
    np.testing.assert_array_equal(out.asnumpy(), np.cumprod(x.astype(np.float64), 1))
    assert mnp.cumprod(Tensor(x), dtype=mnp.float32).asnumpy().dtype == np.float32
