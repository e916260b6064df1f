"""ops.ROIAlign and _grad_ops.ROIAlignGrad: MindSpore 2.10's values (recorded) for both
roi_end_modes, a zero roi, float16, the gradient as the pullback checked against finite
differences, and in a graph."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops
from cellgraph.ops.operations import _grad_ops as G

X = np.arange(2 * 2 * 6 * 6, dtype=np.float32).reshape(2, 2, 6, 6) / 10
ROIS = np.array([[0, -2.0, -2.0, 22.0, 22.0], [1, 1.0, 2.0, 13.0, 9.0],
                 [0, 5.5, 3.2, 17.9, 20.4]], np.float32)


@pytest.mark.parametrize("mode, first, total", [
    (1, [0.37917, 0.5875, 0.78438, 1.62917, 1.8375, 2.03438, 2.81042, 3.01875, 3.21562],
     317.6688),
    (0, [0.35, 0.55, 0.75, 1.55, 1.75, 1.95, 2.75, 2.95, 3.15], 313.425),
])
def test_values_as_mindspore(mode, first, total):
    out = ops.ROIAlign(3, 3, 0.25, 2, mode)(Tensor(X), Tensor(ROIS))
    assert out.shape == (3, 2, 3, 3) and out.dtype == cg.float32
    np.testing.assert_allclose(out.asnumpy().ravel()[:9], first, atol=2e-5)
    np.testing.assert_allclose(out.asnumpy().sum(), total, rtol=1e-5)
    coarse = ops.ROIAlign(2, 3, 0.5, 1)(Tensor(X), Tensor(ROIS))
    np.testing.assert_allclose(coarse.asnumpy().sum(), 156.2733, rtol=1e-5)


def test_zero_roi_float16_and_graph():
    rois = ROIS.copy()
    rois[1, 1] = rois[1, 3] = 0.0
    out = ops.ROIAlign(2, 2, 0.5)(Tensor(X), Tensor(rois)).asnumpy()
    assert not out[1].any() and out[0].any()
    half = ops.ROIAlign(2, 2, 0.5)(Tensor(X.astype(np.float16)), Tensor(ROIS.astype(np.float16)))
    assert half.dtype == cg.float16
    compiled = cg.jit(lambda x, r: ops.ROIAlign(2, 2, 0.5)(x, r))
    np.testing.assert_allclose(compiled(Tensor(X), Tensor(ROIS)).asnumpy(),
                               ops.ROIAlign(2, 2, 0.5)(Tensor(X), Tensor(ROIS)).asnumpy(),
                               rtol=1e-6)


def test_gradient_is_the_pullback():
    dy = np.random.default_rng(0).standard_normal((3, 2, 3, 3)).astype(np.float32)
    grad = G.ROIAlignGrad(3, 3, 0.25, 2)(Tensor(dy), Tensor(ROIS), (2, 2, 6, 6)).asnumpy()
    x64 = X.astype(np.float64)
    step, probe = 1e-3, (1, 0, 2, 3)
    up, down = x64.copy(), x64.copy()
    up[probe] += step
    down[probe] -= step

    def loss(x):
        return float((ops.ROIAlign(3, 3, 0.25, 2)(Tensor(x), Tensor(ROIS.astype(np.float64)))
                      .asnumpy() * dy).sum())

    np.testing.assert_allclose(grad[probe], (loss(up) - loss(down)) / (2 * step), rtol=1e-4)
    with pytest.raises(ValueError, match="sample_num"):
        ops.ROIAlign(2, 2, 0.5, 0)(Tensor(X), Tensor(ROIS))
