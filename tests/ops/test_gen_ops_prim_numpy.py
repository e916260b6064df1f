"""gen_ops_prim's classes where MindSpore 2.10's CPU build gives no values to compare with, or
wrong ones: checked against NumPy (the Ascend kernels' documented behaviour, torch's)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph.ops.auto_generate import gen_ops_prim as G
from cellgraph.primitives.errors import UnsupportedError

X = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -1.0]], np.float32)


def test_scatter_reduces_by_adding():
    """MindSpore's CPU Scatter replaces whatever `reduce` says; "multiply" is not supported
    here (said so)."""
    index = np.array([[1, 0, 1]])
    out = G.Scatter()(cg.Tensor(X), 0, cg.Tensor(index), cg.Tensor(np.array([[1.0, 2.0, 3.0]],
                                                                           np.float32)), "add")
    want = X.copy()
    want[1, 0] += 1.0
    want[0, 1] += 2.0
    want[1, 2] += 3.0
    np.testing.assert_allclose(out.asnumpy(), want)
    out = G.ScatterValue()(cg.Tensor(X), 1, cg.Tensor(np.array([[0], [2]])), 3.0, "add")
    want = X.copy()
    want[0, 0] += 3.0
    want[1, 2] += 3.0
    np.testing.assert_allclose(out.asnumpy(), want)
    with pytest.raises(UnsupportedError, match="multiply"):
        G.ScatterValue()(cg.Tensor(X), 1, cg.Tensor(np.array([[0], [2]])), 3.0, "multiply")
    with pytest.raises(ValueError, match="reduce"):
        G.Scatter()(cg.Tensor(X), 0, cg.Tensor(index), cg.Tensor(X[:1]), "max")


def test_one_hot_ext_puts_the_classes_at_its_axis():
    """MindSpore's CPU graph puts them last whatever the axis."""
    out = G.OneHotExt(axis=0)(cg.Tensor(np.array([0, 2], np.int32)), 3, cg.Tensor(5.0),
                              cg.Tensor(-1.0))
    np.testing.assert_array_equal(out.asnumpy(), np.where(np.eye(3)[[0, 2]].T == 1, 5.0, -1.0))


def test_reflection_pad_3d():
    """No CPU kernel of MindSpore pads a 5-D input by reflection."""
    x = np.arange(18, dtype=np.float32).reshape(1, 1, 2, 3, 3)
    out = G.ReflectionPad3D()(cg.Tensor(x), (1, 0, 1, 1, 1, 0))
    np.testing.assert_array_equal(out.asnumpy(), np.pad(
        x, ((0, 0), (0, 0), (1, 0), (1, 1), (1, 0)), mode="reflect"))


def test_any_of_numbers():
    """MindSpore's CPU Any and AnyExt read a number's bytes as bools."""
    x = np.array([[0, 0, 1], [0, 0, 0]], np.int32)
    assert G.Any()(cg.Tensor(x)).asnumpy().item() is True
    np.testing.assert_array_equal(G.AnyExt()(cg.Tensor(x.astype(np.float32)), 1, True).asnumpy(),
                                  [[True], [False]])


@pytest.mark.parametrize("make, shape, dtype", [
    (lambda: G.Empty()((2, 3)), (2, 3), cg.float32),
    (lambda: G.Empty()((4,), cg.int32), (4,), cg.int32),
    (lambda: G.EmptyLike()(cg.Tensor(X), cg.float16), (2, 3), cg.float16),
    (lambda: G.NewEmpty()(cg.Tensor(X.astype(np.int64)), (3, 1)), (3, 1), cg.int64),
])
def test_empty_tensors_have_their_shape_and_dtype(make, shape, dtype):
    """(their values are whatever memory held in MindSpore)"""
    out = make()
    assert out.shape == shape and out.dtype == dtype


def test_convolution_grad_leaves_out_what_its_mask_says():
    rng = np.random.default_rng(2)
    x = cg.Tensor(rng.standard_normal((1, 2, 4, 4)).astype(np.float32))
    w = cg.Tensor(rng.standard_normal((3, 2, 3, 3)).astype(np.float32))
    dout = cg.Tensor(rng.standard_normal((1, 3, 2, 2)).astype(np.float32))
    bias = cg.Tensor(np.zeros(3, np.float32))
    dx, dw, db = G.ConvolutionGrad()(dout, x, w, bias, (1, 1), (0, 0), (1, 1), False, (0, 0),
                                     1, (1, 0, 1))
    assert not dw.asnumpy().any() and dx.asnumpy().any()
    np.testing.assert_allclose(db.asnumpy(), dout.asnumpy().sum((0, 2, 3)), rtol=1e-5)
    assert G.ConvolutionGrad()(dout, x, w)[2] is None  # no bias, no bias gradient


@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_linalg_qr(mode):
    """(No CPU kernel of MindSpore computes LinalgQr.)"""
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    q, r = G.LinalgQr()(cg.Tensor(a), mode)
    assert q.shape == ((3, 2) if mode == "reduced" else (3, 3))
    np.testing.assert_allclose((q.asnumpy() @ r.asnumpy()), a, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.tril(r.asnumpy(), -1), 0, atol=1e-6)
