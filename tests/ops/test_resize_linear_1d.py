"""ops.ResizeLinear1D against MindSpore 2.10's values in its three coordinate modes, its
gradient against finite differences, and its checks."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor
from cellgraph.ops.operations import ResizeLinear1D
from cellgraph.testing import check_grads

X = np.array([[[1, 2, 3], [4, 5, 6]]], np.float32)
# MindSpore 2.10 CPU, recorded: (mode, size) -> the first row
EXPECTED = {("align_corners", 6): [1.0, 1.4, 1.8, 2.2, 2.6, 3.0],
            ("half_pixel", 6): [1.0, 1.25, 1.75, 2.25, 2.75, 3.0],
            ("half_pixel", 4): [1.0, 1.625, 2.375, 3.0],
            ("align_corners", 4): [1.0, 1.6666667, 2.3333335, 3.0],
            ("align_corners", 1): [1.0],
            ("align_corners", 3): [1.0, 2.0, 3.0]}


@pytest.mark.parametrize("mode, size", sorted(EXPECTED))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_values_match_mindspore(mode, size, dtype):
    op = ResizeLinear1D(mode)
    size_tensor = Tensor(np.array([size], np.int64))
    for got in (op(Tensor(X.astype(dtype)), size_tensor),
                cellgraph.jit(lambda x: op(x, size_tensor))(Tensor(X.astype(dtype)))):
        assert got.shape == (1, 2, size) and got.dtype == Tensor(X.astype(dtype)).dtype
        np.testing.assert_allclose(got.asnumpy()[0, 0], EXPECTED[mode, size],
                                   rtol=2e-3 if dtype == np.float16 else 1e-6)
        np.testing.assert_allclose(got.asnumpy()[0, 1] - 3, EXPECTED[mode, size],
                                   rtol=2e-3 if dtype == np.float16 else 1e-6)


@pytest.mark.parametrize("mode", ["align_corners", "half_pixel"])
def test_gradient(mode):
    x = np.random.default_rng(0).normal(size=(2, 3, 5))
    check_grads(lambda v: ResizeLinear1D(mode)(v, Tensor(np.array([8]))), (Tensor(x),),
                order=1, rtol=1e-6)


def test_checks():
    with pytest.raises(ValueError, match="coordinate_transformation_mode"):
        ResizeLinear1D("nearest")
    with pytest.raises(RuntimeError, match="not support now"):
        ResizeLinear1D("asymmetric")(Tensor(X), Tensor(np.array([4])))
    with pytest.raises(ValueError, match="rank must be equal to 3"):
        ResizeLinear1D()(Tensor(X[0]), Tensor(np.array([4])))
    with pytest.raises(TypeError, match="can not be converted to tuple of int"):
        ResizeLinear1D()(Tensor(X), Tensor(np.array([4.0], np.float32)))
    with pytest.raises(TypeError, match=r"Tensor\[Int32\]"):
        ResizeLinear1D()(Tensor(X.astype(np.int32)), Tensor(np.array([4])))
