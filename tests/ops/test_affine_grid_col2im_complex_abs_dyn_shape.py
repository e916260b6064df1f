"""ops.AffineGrid, ops.Col2Im, ops.ComplexAbs and ops.dyn_shape: MindSpore 2.10 CPU's outputs
and argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from tests.ops.nn_helpers import both_ways

THETA_2D = np.array([[[0.8, 0.5, 0], [-0.5, 0.8, 0]]], np.float32)
THETA_3D = np.array([[[1, 0.2, 0, 0.1], [0, 1, 0.3, 0], [0.1, 0, 1, -0.2]]], np.float32)
# MindSpore 2.10 CPU: AffineGrid(align_corners=True)(THETA_2D, (1, 3, 2, 3)) and
# AffineGrid()(THETA_3D, (1, 1, 2, 2, 2)), flattened
GRID_2D = [-1.3, -0.3, -0.5, -0.8, 0.3, -1.3, -0.3, 1.3, 0.5, 0.8, 1.3, 0.3]
GRID_3D = [-0.5, -0.65, -0.75, 0.5, -0.65, -0.65, -0.3, 0.35, -0.75, 0.7, 0.35, -0.65, -0.5,
           -0.35, 0.25, 0.5, -0.35, 0.35, -0.3, 0.65, 0.25, 0.7, 0.65, 0.35]
# Col2Im(kernel_size=2, padding=1, stride=2)(arange(72) as (1, 2, 4, 9), [4, 4]), flattened
COL2IM = [27.0, 19.0, 28.0, 20.0, 12.0, 4.0, 13.0, 5.0, 30.0, 22.0, 31.0, 23.0, 15.0, 7.0, 16.0,
          8.0, 63.0, 55.0, 64.0, 56.0, 48.0, 40.0, 49.0, 41.0, 66.0, 58.0, 67.0, 59.0,
          51.0, 43.0, 52.0, 44.0]


def test_affine_grid_as_mindspore():
    op = ops.AffineGrid(align_corners=True)
    for got in both_ways(lambda t: op(t, (1, 3, 2, 3)), THETA_2D):
        np.testing.assert_allclose(got.ravel(), GRID_2D, rtol=1e-6, atol=1e-7)
    got = ops.AffineGrid()(Tensor(THETA_3D), (1, 1, 2, 2, 2)).asnumpy()
    assert got.shape == (1, 2, 2, 2, 3)
    np.testing.assert_allclose(got.ravel(), GRID_3D, rtol=1e-6, atol=1e-7)


def test_col2im_as_mindspore():
    x = np.arange(1 * 2 * 4 * 9, dtype=np.float32).reshape(1, 2, 4, 9)
    op = ops.Col2Im(kernel_size=2, dilation=1, padding=1, stride=2)
    got = op(Tensor(x), Tensor(np.array([4, 4], np.int32))).asnumpy()
    assert got.shape == (1, 2, 4, 4)
    np.testing.assert_array_equal(got.ravel(), COL2IM)


def test_complex_abs_and_dyn_shape_as_mindspore():
    out = ops.ComplexAbs()(Tensor(np.array([3 + 4j, -1 - 1j]), cellgraph.complex128))
    assert out.dtype == cellgraph.float64
    np.testing.assert_allclose(out.asnumpy(), [5.0, np.sqrt(2.0)])

    class Net(nn.Cell):
        def construct(self, x):
            return ops.dyn_shape(x) * 2

    out = Net()(Tensor(np.ones((3, 2, 1), np.float32)))
    assert out.dtype == cellgraph.int64
    np.testing.assert_array_equal(out.asnumpy(), [6, 4, 2])


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.AffineGrid(align_corners=1), TypeError,
     "the type of 'align_corners' should be 'bool'"),
    (lambda: ops.ComplexAbs()(Tensor([1.0])), TypeError,
     r"must be a type of \{Tensor\[Complex128\], Tensor\[Complex64\]\}, but got Tensor\[Float32\]"),
    (lambda: ops.Col2Im(kernel_size=2)(Tensor(np.ones((1, 2, 4, 9), np.float32)), (4, 4)),
     TypeError, r"the type of input argument\[output_size\] must be Tensor"),
    (lambda: ops.dyn_shape([1, 2]), TypeError, "must be a Tensor"),
])
def test_errors_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
