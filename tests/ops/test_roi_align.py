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


# MindSpore 2.10's ROIAlign(2, 2, 0.5, -1) of X, ROIS: per roi and axis floor(size / pooled)
# points (1 to 3 here); the second roi's last bins have none along x
ADAPTIVE = [1.5434, 0.30382, 0.53675, 0.09722, 5.1434, 0.90382, 1.13675, 0.19722, 8.6125,
            5.90972, 9.8125, 6.70972, 12.2125, 8.30972, 13.4125, 9.10972, 2.66226, 0.0, 0.0,
            0.0, 6.26226, 0.0, 0.0, 0.0]
# its ROIAlignGrad(2, 2, 0.5, -1) for dy = linspace(-1, 1, 24): the sum, and image 1 channel 0
ADAPTIVE_GRAD_SUM = -1.07488
ADAPTIVE_GRAD = [0.0] * 7 + [
    -0.02431, -0.02325, -0.02325, -0.01812, -0.0234, 0.0, -0.04861, -0.0465, -0.0465, -0.03623,
    -0.0468, 0.0, -0.03472, -0.03321, -0.03321, -0.02295, -0.02808, 0.0, -0.02083, -0.01993,
    -0.01993, -0.00966, -0.00936, 0.0, -0.01042, -0.00996, -0.00996, -0.00483, -0.00468]


@pytest.mark.parametrize("sample_num", [-1, 0])
def test_adaptive_sample_num_as_mindspore(sample_num):
    out = ops.ROIAlign(2, 2, 0.5, sample_num)(Tensor(X), Tensor(ROIS))
    np.testing.assert_allclose(out.asnumpy().ravel(), ADAPTIVE, atol=2e-5)

    @cg.jit
    def compiled(x, rois):
        return ops.ROIAlign(2, 2, 0.5, sample_num)(x, rois)

    np.testing.assert_allclose(compiled(Tensor(X), Tensor(ROIS)).asnumpy().ravel(), ADAPTIVE,
                               atol=2e-5)
    dy = np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 2, 2, 2)
    grad = G.ROIAlignGrad(2, 2, 0.5, sample_num)(Tensor(dy), Tensor(ROIS), (2, 2, 6, 6))
    np.testing.assert_allclose(grad.asnumpy().sum(), ADAPTIVE_GRAD_SUM, atol=2e-5)
    np.testing.assert_allclose(grad.asnumpy()[1, 0].ravel(), ADAPTIVE_GRAD, atol=2e-5)
    through_grad = ops.grad(lambda x: (ops.ROIAlign(2, 2, 0.5, sample_num)(
        x, Tensor(ROIS)) * Tensor(dy)).sum())(Tensor(X))
    np.testing.assert_allclose(through_grad.asnumpy(), grad.asnumpy(), atol=1e-6)


def test_adaptive_bins_without_points_are_nan():
    """MindSpore 2.10: a roi smaller than its pooled size takes no point in a bin: 0 / 0."""
    x = np.random.RandomState(0).rand(1, 2, 6, 7).astype(np.float32)
    rois = np.array([[0, 0.3, 0.7, 5.1, 4.2], [0, 1.5, 0.2, 3.3, 5.9]], np.float32)
    with np.errstate(invalid="ignore"):
        out = ops.ROIAlign(3, 2, 0.5, -1, 1)(Tensor(x), Tensor(rois)).asnumpy()
        tall = ops.ROIAlign(3, 2, 1.0, -1, 0)(Tensor(x), Tensor(rois)).asnumpy()
    assert np.isnan(out).all()
    assert not np.isnan(tall[0]).any() and np.isnan(tall[1]).all()  # the second: 1.8 wide
    np.testing.assert_allclose(tall[0, 0].ravel(), [0.52126, 0.68437, 0.32357, 0.60104,
                                                    0.46028, 0.49498], atol=2e-5)


def test_sample_num_must_be_an_int():
    with pytest.raises(TypeError, match="sample_num"):
        ops.ROIAlign(2, 2, 0.5, 1.5)(Tensor(X), Tensor(ROIS))
