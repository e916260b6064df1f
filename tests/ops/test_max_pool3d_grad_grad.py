"""G.MaxPool3DGradGrad(x, out, grad): for each pooling window, `grad` at the position of the
window's maximum in x; 'SAME' and 'VALID' windows; MindSpore 2.10's values recorded below."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G

X = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8], np.float32).reshape(1, 1, 2, 2, 3)
GRAD = np.linspace(-1, 1, 12).astype(np.float32).reshape(1, 1, 2, 2, 3)
# pad_mode -> MindSpore's MaxPool3DGradGrad(kernel_size=2, strides=1)(X, MaxPool3D(X), GRAD)
EXPECTED = {'SAME': [0.272727, -0.090909, -0.090909, -0.272727, -0.090909, -0.090909, 0.272727, 1.0, 1.0, 0.818182, 1.0, 1.0], 'VALID': [0.272727, -0.090909]}


class Net(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.grad_grad = G.MaxPool3DGradGrad(kernel_size=2, strides=1, pad_mode=mode)

    def construct(self, x, out, grad):
        return self.grad_grad(x, out, grad)


@pytest.mark.parametrize("mode", sorted(EXPECTED))
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_values_as_mindspore(mode, dtype):
    x = Tensor(X.astype(dtype))
    out = ops.MaxPool3D(kernel_size=2, strides=1)(x) if mode == "VALID" else x
    for result in (Net(mode)(x, out, Tensor(GRAD.astype(dtype))),
                   G.MaxPool3DGradGrad(kernel_size=(1, 1, 2, 2, 2), strides=1, pad_mode=mode)(
                       x, out, Tensor(GRAD.astype(dtype)))):
        assert result.dtype == x.dtype
        np.testing.assert_allclose(result.asnumpy().reshape(-1), EXPECTED[mode], rtol=2e-3,
                                   atol=1e-3)


@pytest.mark.parametrize("kernel, strides, expected", [
    (2, 1, [9, 9, 9, 9, 9, 9, 6, 6, 5, 9, 9, 9, 9, 9, 9, 3, 3, 3]),
    (3, 2, [9, 9, 9, 9]),
    ((1, 2, 2), (1, 2, 1), [5, 9, 9, 6, 6, 5, 9, 9, 9, 3, 3, 3]),
])
def test_max_pool3d_same_as_mindspore(kernel, strides, expected):
    """MaxPool3D(pad_mode='SAME'): ceil(size / stride) windows an axis, padded with -inf, the
    odd cell after (MindSpore 2.10's values)."""
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3],
                 np.float32).reshape(1, 1, 2, 3, 3)
    out = ops.MaxPool3D(kernel_size=kernel, strides=strides, pad_mode="SAME")(Tensor(x))
    np.testing.assert_array_equal(out.asnumpy().reshape(-1), expected)
