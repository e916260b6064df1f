"""The NumPy convolution kernels' layouts agree with each other and with a direct sum."""
import numpy as np
import pytest

from cellgraph.runtime import strided_conv


def _direct_input_grad(dout, w, x_shape, pad, dilation):
    """The input gradient of a stride-1 convolution, summed window position by position."""
    n, c, h, wd = x_shape
    _, _, kh, kw = w.shape
    ho, wo = dout.shape[2:]
    dxp = np.zeros((n, c, h + pad[0] + pad[1], wd + pad[2] + pad[3]))
    for i in range(kh):
        for j in range(kw):
            r, s = i * dilation[0], j * dilation[1]
            dxp[:, :, r:r + ho, s:s + wo] += np.einsum("nohw,oc->nchw", dout, w[:, :, i, j])
    return dxp[:, :, pad[0]:pad[0] + h, pad[2]:pad[2] + wd]


@pytest.mark.parametrize("x_shape, w_shape, pad, dilation", [
    ((3, 2, 7, 8), (5, 2, 2, 3), (0, 1, 2, 0), (2, 2)),
    ((2, 1, 6, 6), (4, 1, 5, 5), (0, 0, 0, 0), (1, 1)),
])
def test_col2im_in_runs_matches_a_direct_sum(x_shape, w_shape, pad, dilation):
    rng = np.random.default_rng(0)
    w = rng.standard_normal(w_shape)
    ho, wo = strided_conv.out_hw(x_shape[2:], w_shape[2:], (1, 1), pad, dilation)
    dout = rng.standard_normal((x_shape[0], w_shape[0], ho, wo))
    got = strided_conv.conv2d_backprop_input(np, dout, w, x_shape, (1, 1), pad, dilation, 1)
    np.testing.assert_allclose(got, _direct_input_grad(dout, w, x_shape, pad, dilation),
                               rtol=1e-12, atol=1e-12)


def test_col2im_with_an_infinite_weight_spreads_only_where_the_weight_reads():
    """The zero columns that make the runs contiguous would turn an infinite weight into NaN
    in unrelated places: such filters take the row-by-row path."""
    x_shape, pad, dilation = (1, 1, 5, 5), (0, 0, 0, 0), (1, 1)
    w = np.ones((2, 1, 2, 2))
    w[1, 0, 1, 1] = np.inf
    dout = np.zeros((1, 2, 4, 4))
    dout[0, 1, 0, 0] = 1.0
    got = strided_conv.conv2d_backprop_input(np, dout, w, x_shape, (1, 1), pad, dilation, 1)
    with np.errstate(invalid="ignore"):
        expected = _direct_input_grad(dout, w, x_shape, pad, dilation)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("x_shape, w_shape, pad, dilation", [
    ((4, 16, 9, 8), (16, 16, 3, 3), (1, 1, 1, 1), (1, 1)),
    ((3, 6, 12, 11), (8, 6, 5, 5), (0, 2, 1, 0), (1, 2)),
    ((2, 8, 10, 10), (4, 8, 2, 3), (0, 0, 0, 0), (2, 1)),
])
def test_one_gemm_over_the_row_buffer_gives_the_per_row_sums(monkeypatch, dtype, x_shape,
                                                              w_shape, pad, dilation):
    """Few output channels: one GEMM of the window rows by every kernel row's filter, then
    the shifted adds, gives the forward convolution and both gradients as one GEMM per kernel
    row does (to BLAS's order of adding), and a direct sum's values."""
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal(x_shape).astype(dtype), rng.standard_normal(w_shape).astype(dtype)
    size = strided_conv.out_hw(x_shape[2:], w_shape[2:], (1, 1), pad, dilation)
    dout = rng.standard_normal((x_shape[0], w_shape[0]) + size).astype(dtype)

    def run():
        return (strided_conv.conv2d(np, x, w, (1, 1), pad, dilation, 1),
                *strided_conv.conv2d_grad(np, x, w, dout, (1, 1), pad, dilation, 1))

    stacked = run()
    monkeypatch.setattr(strided_conv, "STACKED_OUTPUTS", 0)
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    for got, per_row in zip(stacked, run()):
        np.testing.assert_allclose(got, per_row, rtol=tolerance, atol=tolerance)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pad[:2], pad[2:]))
    direct = np.zeros((x_shape[0], w_shape[0]) + size)
    for i in range(w_shape[2]):
        for j in range(w_shape[3]):
            r, s = i * dilation[0], j * dilation[1]
            direct += np.einsum("nchw,oc->nohw", xp[:, :, r:r + size[0], s:s + size[1]],
                                w[:, :, i, j].astype(np.float64))
    np.testing.assert_allclose(stacked[0], direct, rtol=1e-4, atol=1e-4)
