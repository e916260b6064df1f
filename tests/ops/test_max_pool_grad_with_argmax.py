"""G.MaxPoolGradWithArgmax(x, grad, argmax): each gradient added at the position its argmax
names in its sample (row-major over C, H, W, as MaxPoolWithArgmax counts), repeated positions
adding up; MindSpore 2.10's values recorded below, eagerly, compiled and in float16."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G

X = np.array([[[[1, 5, 2], [0, 3, 9], [4, 8, 7]], [[6, 1, 0], [2, 7, 3], [5, 4, 8]]]], np.float32)
DY = np.array([[[[0.5, 1.0], [2.0, 4.0]], [[-1.0, 0.25], [3.0, 1.5]]]], np.float32)
# MindSpore 2.10: MaxPoolWithArgmax(kernel_size=2, strides=1)(X), then the grad of DY
ARGMAX = [[[[1, 5], [7, 5]], [[13, 13], [13, 17]]]]
EXPECTED = [[[[0.0, 0.5, 0.0], [0.0, 0.0, 5.0], [0.0, 2.0, 0.0]],
             [[0.0, 0.0, 0.0], [0.0, 2.25, 0.0], [0.0, 0.0, 1.5]]]]


class Grad(nn.Cell):
    def __init__(self):
        super().__init__()
        self.grad = G.MaxPoolGradWithArgmax(kernel_size=2, strides=1, pad_mode="VALID")

    def construct(self, x, dy, argmax):
        return self.grad(x, dy, argmax)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_values_as_mindspore(dtype):
    _, argmax = ops.MaxPoolWithArgmax(kernel_size=2, strides=1, pad_mode="VALID")(Tensor(X))
    np.testing.assert_array_equal(argmax.asnumpy(), ARGMAX)
    args = (Tensor(X.astype(dtype)), Tensor(DY.astype(dtype)), argmax)
    for out in (G.MaxPoolGradWithArgmax(kernel_size=2, strides=1)(*args), Grad()(*args)):
        assert out.dtype == args[0].dtype
        np.testing.assert_allclose(out.asnumpy(), EXPECTED, rtol=1e-3)


def test_grad_grad_reads_grad_at_each_argmax():
    """G.MaxPoolGradGradWithArgmax(x, grad, argmax): `grad` at each output's argmax (over the
    sample's C, H, W), as MindSpore 2.10 gives it for ARGMAX."""
    grad = np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3) / 4
    _, argmax = ops.MaxPoolWithArgmax(kernel_size=2, strides=1, pad_mode="VALID")(Tensor(X))
    out = G.MaxPoolGradGradWithArgmax(kernel_size=2, strides=1)(Tensor(X), Tensor(grad), argmax)
    np.testing.assert_array_equal(out.asnumpy(), np.take(grad.reshape(-1), ARGMAX) / 1.0)
