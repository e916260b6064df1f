"""ops.Conv3DTranspose: MindSpore 2.10 CPU's outputs with explicit asymmetric padding and
output_padding (on every axis, not only the depth), and in 'same' mode with groups and a
dilated width; its attribute errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

X = np.cos(np.arange(1 * 4 * 2 * 3 * 3)).reshape(1, 4, 2, 3, 3).astype(np.float32)
W = np.sin(np.arange(4 * 2 * 2 * 2 * 3)).reshape(4, 2, 2, 2, 3).astype(np.float32)
W_GROUPS = np.sin(np.arange(4 * 2 * 8)).reshape(4, 2, 2, 2, 2).astype(np.float32)


@pytest.mark.parametrize("make, weight, shape, head, total", [
    # MindSpore 2.10 CPU: shape, the first 12 values and the sum of each output
    (lambda: ops.Conv3DTranspose(4, 2, (2, 2, 3), pad_mode="pad", pad=(1, 0, 0, 1, 1, 1),
                                 stride=2, output_padding=1), W, (1, 2, 4, 6, 6),
     [0.88643, 0.70028, -0.81956, 0.27649, -1.77205, -1.53282, -0.58147, -0.63608, 0.99606,
      -0.33917, 1.65782, 1.67577], -2.4168186),
    (lambda: ops.Conv3DTranspose(4, 4, 2, pad_mode="same", stride=(1, 2, 1), dilation=(1, 1, 2),
                                 group=2), W_GROUPS, (1, 4, 2, 6, 3),
     [-0.28465, 0.08916, -0.49589, -0.25121, -0.44478, 0.22443, 0.28789, -0.15306, 0.41134,
      0.1566, 0.43628, -0.24211], 0.90004),
])
def test_as_mindspore(make, weight, shape, head, total):
    for got in both_ways(make(), X, weight):
        assert got.shape == shape
        np.testing.assert_allclose(got.ravel()[:12], head, atol=1e-5)
        np.testing.assert_allclose(got.sum(), total, atol=1e-4)


def test_mindspore_example_shape():
    dout = Tensor(np.ones([2, 16, 3, 4, 4]), cellgraph.float16)
    weight = Tensor(np.ones([16, 3, 4, 6, 2]), cellgraph.float16)
    out = ops.Conv3DTranspose(in_channel=16, out_channel=3, kernel_size=(4, 6, 2))(dout, weight)
    assert out.shape == (2, 3, 6, 9, 5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.Conv3DTranspose(4, 2, 2, pad=1), ValueError,
     "the 'pad' must be zero or \\(0, 0, 0, 0, 0, 0\\) when 'pad_mode' is not"),
    (lambda: ops.Conv3DTranspose(4, 2, 2, output_padding=1), ValueError,
     "the 'output_padding' must be zero or \\(0, 0, 0\\)"),
    (lambda: ops.Conv3DTranspose(4, 3, 2, group=2), ValueError,
     "'group' should be divisible by 'out_channel'"),
    (lambda: ops.Conv3DTranspose(4, 2, 2, mode=2), ValueError, "the 'mode' must be int"),
    (lambda: ops.Conv3DTranspose(4, 2, 2, data_format="NDHWC"), ValueError,
     "the 'format' must be str"),
    (lambda: ops.Conv3DTranspose(0, 2, 2), ValueError, "the 'in_channel' must be int"),
    (lambda: ops.Conv3DTranspose(4, 2, 2, pad=(1, 1)), ValueError, "attr 'pad' must be"),
    (lambda: ops.Conv3DTranspose(4, 2, 2, dilation=(2, 1, 1)), ValueError,
     "the depth of parameter 'dilation' must be 1"),
    (lambda: ops.Conv3DTranspose(4, 2, 2)(Tensor(X), Tensor(W_GROUPS), Tensor(W)), TypeError,
     "'bias' must be None"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
