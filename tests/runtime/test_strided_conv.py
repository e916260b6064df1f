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


def _direct_conv(x, w, stride, pad, dilation):
    """The convolution in float64, summed window position by window position."""
    size = strided_conv.out_hw(x.shape[2:], w.shape[2:], stride, pad, dilation)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), pad[:2], pad[2:]))
    direct = np.zeros((x.shape[0], w.shape[0]) + size)
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            r, s = i * dilation[0], j * dilation[1]
            window = xp[:, :, r:r + stride[0] * (size[0] - 1) + 1:stride[0],
                        s:s + stride[1] * (size[1] - 1) + 1:stride[1]]
            direct += np.einsum("nchw,oc->nohw", window, w[:, :, i, j].astype(np.float64))
    return direct


PIXEL_ROW_SETTINGS = [  # x shape, w shape, stride, pad, dilation
    ((4, 16, 9, 8), (16, 16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1)),
    ((3, 6, 12, 11), (8, 6, 5, 5), (1, 1), (0, 2, 1, 0), (1, 2)),
    ((2, 8, 10, 10), (4, 8, 2, 3), (1, 1), (0, 0, 0, 0), (2, 1)),
    ((2, 6, 7, 9), (4, 6, 3, 3), (1, 2), (1, 2, 0, 1), (2, 1)),
    ((2, 8, 5, 7), (5, 8, 2, 3), (1, 3), (0, 1, 2, 1), (1, 3)),
    ((2, 8, 4, 2), (3, 8, 2, 2), (1, 1), (2, 0, 3, 3), (1, 1)),
    ((0, 16, 6, 6), (8, 16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("x_shape, w_shape, stride, pad, dilation", PIXEL_ROW_SETTINGS)
def test_pixel_rows_give_the_channels_last_sums(monkeypatch, dtype, x_shape, w_shape, stride,
                                                pad, dilation):
    """Few output channels, stride 1 along H: the window rows laid out by pixel, one GEMM by
    every kernel row's filter and the shifted adds give the forward convolution, both
    gradients together and the filter gradient alone as the channels-last row buffer with one
    GEMM per kernel row does (to BLAS's order of adding), and a direct sum's values."""
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal(x_shape).astype(dtype), rng.standard_normal(w_shape).astype(dtype)
    size = strided_conv.out_hw(x_shape[2:], w_shape[2:], stride, pad, dilation)
    dout = rng.standard_normal((x_shape[0], w_shape[0]) + size).astype(dtype)

    def run():
        return (strided_conv.conv2d(np, x, w, stride, pad, dilation, 1),
                *strided_conv.conv2d_grad(np, x, w, dout, stride, pad, dilation, 1),
                strided_conv.conv2d_backprop_filter(np, x, dout, w_shape, stride, pad,
                                                    dilation, 1))

    assert strided_conv._by_pixel_rows(w_shape[0], w_shape[2], stride, 1)
    by_pixel = run()
    monkeypatch.setattr(strided_conv, "STACKED_OUTPUTS", 0)
    channels_last = run()
    tolerance = 1e-5 if dtype == np.float32 else 1e-12
    for got, per_row in zip(by_pixel, channels_last):
        assert got.dtype == dtype and got.shape == per_row.shape
        np.testing.assert_allclose(got, per_row, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(by_pixel[0], _direct_conv(x, w, stride, pad, dilation),
                               rtol=1e-4, atol=1e-4)
    dw = np.einsum("nohw,nohw->o", dout.astype(np.float64), by_pixel[0].astype(np.float64))
    # the filter gradient against the forward convolution: sum(dout * conv(x, w)) is linear
    # in w, so its derivative contracted with w is the same sum again
    np.testing.assert_allclose(np.einsum("ocij,ocij->o", by_pixel[3].astype(np.float64), w),
                               dw, rtol=1e-4, atol=1e-3)


def test_pixel_rows_half_precision_rounds_the_float32_result_once():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 16, 6, 6)).astype(np.float16)
    w = rng.standard_normal((8, 16, 3, 3)).astype(np.float16)
    conv = strided_conv.TABLE["conv2d"]
    got = conv(np, x, w, (1, 1), (1, 1, 1, 1), (1, 1), 1)
    wide = conv(np, x.astype(np.float32), w.astype(np.float32), (1, 1), (1, 1, 1, 1), (1, 1), 1)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, wide.astype(np.float16))
