"""The NumPy backend's blocked and in-place kernels (runtime/blocked_kernels.py) against the
shared functional kernels in float64, over arrays spanning several blocks and a partial last
one, and on the operands that leave the blocked paths (other dtypes, broadcasting, views)."""
import numpy as np
import pytest

from cellgraph.runtime import blocked_kernels
from cellgraph.runtime.blocked_kernels import NAMESPACE
from cellgraph.runtime.kernels import TABLE as SHARED


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(blocked_kernels, "BLOCK", 1000)


def _reference(name, *operands, **params):
    wide = [np.asarray(o, np.float64) for o in operands]
    return SHARED[name](NAMESPACE, *wide, **params)


@pytest.mark.parametrize("name", ["gelu", "gelu_tanh", "normal_cdf"])
def test_unary_over_several_blocks(small_blocks, name):
    x = np.random.default_rng(0).uniform(-6, 6, (7, 450)).astype(np.float32)
    out = blocked_kernels.TABLE[name](x)
    assert out.dtype == np.float32 and out.shape == x.shape
    np.testing.assert_allclose(out, _reference(name, x), rtol=2e-6, atol=1e-5)


@pytest.mark.parametrize("name", ["gelu_grad", "gelu_tanh_grad"])
def test_grads_over_several_blocks(small_blocks, name):
    rng = np.random.default_rng(1)
    x = rng.uniform(-6, 6, (7, 450)).astype(np.float32)
    dy = rng.standard_normal((7, 450)).astype(np.float32)
    out = blocked_kernels.TABLE[name](x, dy)
    assert out.dtype == np.float32 and out.shape == x.shape
    np.testing.assert_allclose(out, _reference(name, x, dy), rtol=2e-5, atol=1e-5)


def test_gelu_and_slope_over_several_blocks(small_blocks):
    x = np.random.default_rng(7).uniform(-6, 6, (7, 450)).astype(np.float32)
    out, slope = blocked_kernels.TABLE["gelu_and_slope"](x)
    assert out.dtype == slope.dtype == np.float32 and out.shape == slope.shape == x.shape
    np.testing.assert_allclose(out, _reference("gelu", x), rtol=2e-6, atol=1e-5)
    np.testing.assert_allclose(slope, _reference("gelu_grad", x, np.ones_like(x)), rtol=2e-5,
                               atol=1e-5)


@pytest.mark.parametrize("operands", [
    lambda rng: (rng.standard_normal((3, 4)), rng.standard_normal((3, 4))),  # float64
    lambda rng: (rng.standard_normal((3, 4)).astype(np.float32),
                 rng.standard_normal((4,)).astype(np.float32)),  # broadcasting dy
    lambda rng: (rng.standard_normal((4, 3)).astype(np.float32).T,
                 rng.standard_normal((3, 4)).astype(np.float32)),  # a transposed view
])
def test_gelu_grad_off_the_blocked_path(operands):
    x, dy = operands(np.random.default_rng(2))
    out = blocked_kernels.TABLE["gelu_grad"](x, dy)
    assert out.dtype == np.result_type(x, dy)
    np.testing.assert_allclose(out, _reference("gelu_grad", x, dy), rtol=2e-5, atol=1e-6)


def test_erf_keeps_shape_and_dtype():
    for x in (np.float32(0.3), np.linspace(-5, 5, 2001, dtype=np.float16).reshape(3, 667)):
        out = NAMESPACE.erf(np.asarray(x))
        assert out.shape == np.shape(x) and out.dtype == np.asarray(x).dtype


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax_family_in_place(axis):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 6, 7)).astype(np.float32)
    dy = rng.standard_normal((5, 6, 7)).astype(np.float32)
    table = blocked_kernels.TABLE
    for name, args in [("softmax", (x,)), ("log_softmax", (x,)),
                       ("softmax_grad", (table["softmax"](x, axis=axis), dy)),
                       ("log_softmax_grad", (table["log_softmax"](x, axis=axis), dy))]:
        out = table[name](*args, axis=axis)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, _reference(name, *args, axis=axis), rtol=1e-5,
                                   atol=1e-6, err_msg=name)


@pytest.mark.parametrize("scale, shift", [(1.0, 0.0), (30.0, 40.0), (1.0, -200.0),
                                          (1.0, 500.0), (100.0, 0.0)])
def test_softmax_without_and_with_row_maxima(scale, shift):
    """Inside +-EXP_SAFE the row maxima are not subtracted; beyond, they are: both give the
    float64 softmax, even for rows far below or above zero."""
    x = (np.random.default_rng(4).standard_normal((6, 9)) * scale + shift).astype(np.float32)
    x[0] = x[0, 0]  # a row of ties
    out = blocked_kernels.TABLE["softmax"](x, axis=-1)
    np.testing.assert_allclose(out, _reference("softmax", x, axis=-1), rtol=1e-5, atol=1e-7)
    assert np.all(np.isfinite(out))


@pytest.mark.parametrize("shape, norm_axis, params_axis, dtype", [
    ((4, 5, 6), 1, 1, np.float32), ((4, 5, 6), 2, 2, np.float64),
    ((4, 5, 6), 2, 1, np.float32),  # gamma over more axes than are normalised
    ((5000, 3), 1, 1, np.float32)])  # more rows than BLAS sums
def test_layer_norm_and_its_grad_in_place(shape, norm_axis, params_axis, dtype):
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(shape) + 3).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    gamma, beta = rng.standard_normal((2,) + shape[params_axis:]).astype(dtype)
    params = {"begin_norm_axis": norm_axis, "begin_params_axis": params_axis, "epsilon": 1e-5}
    y, mean, var = blocked_kernels.TABLE["layer_norm"](x, gamma, beta, **params)
    for got, want in zip((y, mean, var), _reference("layer_norm", x, gamma, beta, **params)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    grads = blocked_kernels.TABLE["layer_norm_grad"](x, dy, gamma, mean, var, **params)
    want = _reference("layer_norm_grad", x, dy, gamma, mean, var, **params)
    for got, expected in zip(grads, want):
        assert got.dtype == dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape, axis, dtype", [
    ((6, 5, 4), (0,), np.float32), ((6, 5, 4), (0, 1), np.float64), ((6, 5, 4), (2,), np.float32),
    ((6, 5, 4), (1, 2), np.float32), ((6, 5, 4), (1,), np.float32), ((6, 5, 4), (), np.float32),
    ((5000, 3), (0,), np.float32), ((6, 5), (0,), np.int32), ((3, 4), (-1,), np.float32)])
@pytest.mark.parametrize("keep_dims", [False, True])
def test_reduce_sum(shape, axis, dtype, keep_dims):
    x = np.random.default_rng(5).uniform(-3, 3, shape).astype(dtype)
    out = blocked_kernels.TABLE["reduce_sum"](x, axis=axis, keep_dims=keep_dims)
    want = np.sum(x.astype(np.float64), axis=axis or None, keepdims=keep_dims)
    assert out.dtype == x.dtype and out.shape == want.shape
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("n", [1, 7, 64, 100])
def test_softmax_rows_of_any_length(n):
    x = np.random.default_rng(6).standard_normal((3, n)).astype(np.float32) * 30
    x[0, n // 2] = 1e4  # exp overflows unless the row's maximum is subtracted
    out = blocked_kernels.TABLE["softmax"](x, axis=-1)
    np.testing.assert_allclose(out, _reference("softmax", x, axis=-1), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("x_shape, y_shape, transpose_a, transpose_b", [
    ((8, 4, 64, 32), (8, 4, 64, 32), False, True),  # q @ k^T: a row-major copy of k^T
    ((8, 4, 64, 64), (8, 4, 64, 32), True, False),
    ((2, 3, 5), (1, 4, 5), False, True),  # a broadcast stack stays a view
    ((2, 100, 80), (2, 90, 80), False, True),  # large matrices: as they are
    ((6, 5), (7, 5), False, True)])
def test_matmul_of_transposed_stacks(x_shape, y_shape, transpose_a, transpose_b):
    rng = np.random.default_rng(8)
    x, y = (rng.standard_normal(s).astype(np.float32) for s in (x_shape, y_shape))
    if len(y_shape) > 2 and y_shape[0] == 1:
        y = np.broadcast_to(y, (x_shape[0],) + y_shape[1:])
    out = blocked_kernels.TABLE["matmul"](x, y, transpose_a=transpose_a, transpose_b=transpose_b)
    a = np.swapaxes(x, -1, -2) if transpose_a else x
    b = np.swapaxes(y, -1, -2) if transpose_b else y
    np.testing.assert_allclose(out, np.matmul(a.astype(np.float64), b), rtol=1e-5, atol=1e-4)


def test_views_of_python_numbers():
    assert blocked_kernels.TABLE["reshape"](2.0, (1, 1)).shape == (1, 1)
    assert blocked_kernels.TABLE["transpose"](np.float32(2), ()).shape == ()


_SPECIAL = [-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf, 1.5, -1.5, 1e-40, -1e-40]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("size", [3000, 2048, 5])
def test_relu_is_maximum_with_zero_to_the_bit(dtype, size):
    """Over rows of zeros or not, with a partial last row: NaN payloads, -0.0 and subnormals
    come out as np.maximum(x, 0) gives them."""
    rng = np.random.default_rng(2)
    x = np.resize(np.array(_SPECIAL, dtype), size)
    x[::7] = rng.standard_normal(x[::7].shape)
    out = blocked_kernels.TABLE["relu"](x.reshape(-1, 1) if size == 5 else x.reshape(-1, 8)
                                        if size % 8 == 0 else x)
    bits = f"u{np.dtype(dtype).itemsize}"
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.reshape(-1).view(bits), np.maximum(x, 0).view(bits))


def test_relu_of_a_view_and_of_integers():
    x = np.arange(-2048, 2048, dtype=np.float32).reshape(64, 64)[:, ::2]
    np.testing.assert_array_equal(blocked_kernels.TABLE["relu"](x), np.maximum(x, 0))
    i = np.arange(-5, 5, dtype=np.int32)
    out = blocked_kernels.TABLE["relu"](i)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, np.maximum(i, 0))


def test_relu_grad_selects_even_infinite_gradients():
    from cellgraph.runtime.numpy_backend import numpy_backend

    x = np.array([1.0, -1.0, np.nan, 0.0, 2.0] * 3, np.float32).reshape(3, 5)
    dy = np.array([np.inf, np.inf, np.nan, -np.inf, -0.0] * 3, np.float32).reshape(3, 5)
    out = numpy_backend.kernel("relu_grad")(x, dy)
    expected = np.where(x > 0, dy, np.float32(0))
    np.testing.assert_array_equal(out.view("u4"), expected.view("u4"))


@pytest.mark.parametrize("transpose_b", [False, True])
def test_float16_matmul_accumulates_in_float32(transpose_b):
    """float16 products are float32 products rounded once (as MindSpore's CPU kernel), not
    NumPy's float16 loop, which rounds every partial sum and runs without BLAS."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 8, 300)).astype(np.float16)
    y = rng.standard_normal((2, 300, 8) if not transpose_b else (2, 8, 300)).astype(np.float16)
    out = blocked_kernels.TABLE["matmul"](x, y, transpose_b=transpose_b)
    b = np.swapaxes(y, -1, -2) if transpose_b else y
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, np.matmul(x.astype(np.float32), b.astype(np.float32))
                                  .astype(np.float16))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["c", "f", "strided"])
@pytest.mark.parametrize("m,k,n", [(2, 3, 3), (1, 5, 1), (5, 1, 7), (17, 64, 1), (64, 130, 33)])
def test_matrix_products_give_np_matmul_bit_for_bit(dtype, layout, m, k, n):
    """Two matrices take ndarray.dot (half np.matmul's call cost), which makes np.matmul's
    BLAS call for row- and column-major operands, bit for bit; a strided operand (which
    np.matmul would multiply without BLAS) gives its row-major copy's product, to rounding
    (NumPy 1.x's dot sums a strided row by a column in its own order)."""
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    if layout == "f":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    elif layout == "strided":
        a = np.repeat(a, 2, axis=1)[:, ::2]
    for transpose_b in (False, True):
        y = np.ascontiguousarray(b.T) if transpose_b else b
        out = blocked_kernels.TABLE["matmul"](a, y, transpose_b=transpose_b)
        # np.matmul of the same operands (NumPy's own result depends on the right operand's
        # layout: a transposed view sums in another order than a row-major copy)
        if layout == "strided":
            expected = np.matmul(np.ascontiguousarray(a), y.T if transpose_b else y)
            np.testing.assert_allclose(out, expected, rtol=10 * np.finfo(dtype).eps * k)
        else:
            np.testing.assert_array_equal(out, np.matmul(a, y.T if transpose_b else y))
