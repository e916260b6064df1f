"""ops.operations.nn_ops.DeformableOffsets and _grad_ops.DeformableOffsetsGrad: the deformed,
masked samples deformable_conv2d contracts with its weight, laid out (N, C, H_out * kh,
W_out * kw), and their pullback; MindSpore 2.10's values recorded below, the derivatives also
against finite differences in float64."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.ops.operations import _grad_ops as G
from cellgraph.ops.operations import nn_ops
from cellgraph.testing import check_grads

X = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3) / 4
OFFSETS = np.linspace(-1.3, 1.7, 48).reshape(1, 12, 2, 2).astype(np.float32)
OFFSETS[:, 8:] = np.linspace(0.2, 1.0, 16).reshape(1, 4, 2, 2)  # the masks
DOUT = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 1, 4, 4)
# MindSpore 2.10 CPU: DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(X, OFFSETS) and
# DeformableOffsetsGrad(same)(DOUT, X, OFFSETS)
Y = [0.0, 0.0, 0.0, 0.13305, 0.12196, 1.034809, 0.707489, 1.380865, 0.0, 0.441447, 0.219705, 0.666653, 0.23832, 0.600954, 0.725983, 0.61504]
GX = [-0.436284, -0.263536, -0.005145, -0.010406, 0.080774, 0.018296, 0.332622, 0.376068, 0.200438]
GOFF = [0.0, 0.0, 0.0, 0.082149, 0.0, -0.07, 0.026, 0.066889, -0.2702, -0.034, 0.422681, 0.098278, -0.07, -0.014889, 0.066837, 0.080319, 0.0, 0.0, 0.0, 0.080234, 0.0, -0.21, 0.078, 0.200667, -0.0462, -0.102, -0.223277, -1.091207, -0.21, -0.044667, -1.144359, -1.914362, 0.0, 0.0, 0.0, 0.20343, 0.0, -0.171064, 0.169787, 0.542624, -0.090821, -0.208085, 0.194989, 0.799812, -0.410638, -0.10305, 0.465528, 0.61504]


class Offsets(nn.Cell):
    def __init__(self, *attrs, **kw):
        super().__init__()
        self.op = nn_ops.DeformableOffsets(*attrs, **kw)

    def construct(self, x, offsets):
        return self.op(x, offsets)


def test_values_as_mindspore():
    for out in (nn_ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(
            Tensor(X), Tensor(OFFSETS)), Offsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(
            Tensor(X), Tensor(OFFSETS))):
        assert out.shape == (1, 1, 4, 4)
        np.testing.assert_allclose(out.asnumpy().reshape(-1), Y, rtol=1e-5, atol=1e-6)
    grad_x, grad_offsets = G.DeformableOffsetsGrad((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(
        Tensor(DOUT), Tensor(X), Tensor(OFFSETS))
    np.testing.assert_allclose(grad_x.asnumpy().reshape(-1), GX, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grad_offsets.asnumpy().reshape(-1), GOFF, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("attrs", [((1, 1, 2, 2), (1, 1, 1, 1), (3, 3), (1, 1, 1, 1), "NCHW", 2),
                                   ((1, 1, 1, 1), (1, 0, 0, 1), (2, 3), (1, 1, 2, 2))])
def test_derivatives_against_finite_differences(attrs):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 5, 5))
    cell = Offsets(*attrs)
    out_shape = cell(Tensor(x.astype(np.float32)), Tensor(np.zeros(
        _offsets_shape(attrs), np.float32))).shape
    assert out_shape[:2] == (1, 2)
    # offsets away from integers, where the bilinear read is smooth
    offsets = rng.uniform(0.1, 0.4, _offsets_shape(attrs))
    check_grads(lambda x, o: cell(x, o), (Tensor(x), Tensor(offsets)), order=1)


def _offsets_shape(attrs):
    strides, pads, (kh, kw) = attrs[0], attrs[1], attrs[2]
    dilation = attrs[3][2] if len(attrs) > 3 else 1
    groups = attrs[5] if len(attrs) > 5 else 1
    out_h = (5 + pads[0] + pads[1] - dilation * (kh - 1) - 1) // strides[2] + 1
    out_w = (5 + pads[2] + pads[3] - dilation * (kw - 1) - 1) // strides[3] + 1
    return (1, 3 * groups * kh * kw, out_h, out_w)


def test_layouts_are_nchw_or_nhwc():
    with pytest.raises(ValueError, match="'data_format' must be 'NCHW' or 'NHWC'"):
        nn_ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), data_format="HWCN")(
            Tensor(X), Tensor(OFFSETS))


def test_nhwc_float16_and_positions_from_the_offsets():
    """NHWC is the NCHW op on transposed views; float16 is sampled in float32 (as MindSpore's
    kernel); offsets holding fewer output positions than x allows give that many, as in
    MindSpore (its own test passes (1, 27, 1, 1) offsets for a 4x4 input and a 3x3 kernel)."""
    args = ((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))
    nchw = nn_ops.DeformableOffsets(*args)(Tensor(X), Tensor(OFFSETS)).asnumpy()
    nhwc = nn_ops.DeformableOffsets(*args, data_format="NHWC")(
        Tensor(X.transpose(0, 2, 3, 1)), Tensor(OFFSETS.transpose(0, 2, 3, 1))).asnumpy()
    np.testing.assert_allclose(nhwc.transpose(0, 3, 1, 2), nchw, rtol=1e-6)
    half = nn_ops.DeformableOffsets(*args)(Tensor(X.astype(np.float16)),
                                           Tensor(OFFSETS.astype(np.float16)))
    assert half.dtype == Tensor(X.astype(np.float16)).dtype
    np.testing.assert_allclose(half.asnumpy(), nchw, rtol=2e-3, atol=2e-3)
    x, offsets = np.ones((1, 2, 4, 4), np.float32), np.full((1, 27, 1, 1), 0.1, np.float32)
    grad_x, grad_offsets = G.DeformableOffsetsGrad((1, 1, 1, 1), (0, 0, 0, 0), (3, 3))(
        Tensor(np.ones((1, 2, 3, 3), np.float32)), Tensor(x), Tensor(offsets))
    assert grad_x.shape == (1, 2, 4, 4) and grad_offsets.shape == (1, 27, 1, 1)
    np.testing.assert_allclose(grad_x.asnumpy()[0, 0, 0], [0.081, 0.09, 0.09, 0.009],
                               rtol=1e-5)  # MindSpore's expected values in its test
