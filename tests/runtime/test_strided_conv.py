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
