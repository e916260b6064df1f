"""ops.UpsampleNearest3D, ops.UpsampleTrilinear3D and ops.AdaptiveAvgPool3D: MindSpore 2.10
CPU's outputs, sizes given or by scales (sampled 1 / scale apart), and the argument errors."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

LINE = np.arange(5, dtype=np.float32).reshape(1, 1, 1, 1, 5)


def test_nearest_as_mindspore():
    x = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 2, 2, 4)
    plane = np.array([[1, 1, 2, 3, 4], [1, 1, 2, 3, 4], [5, 5, 6, 7, 8], [5, 5, 6, 7, 8]])
    # MindSpore 2.10: depth 2 -> 3 repeats the first plane
    expected = np.stack([plane, plane, plane + 8])[None, None]
    for got in both_ways(lambda x: ops.UpsampleNearest3D()(x, [3, 4, 5], None), x):
        np.testing.assert_array_equal(got, expected)
    out = ops.UpsampleNearest3D()(Tensor(LINE), None, [1.0, 1.0, 2.7]).asnumpy()
    np.testing.assert_array_equal(out.ravel(), [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4])


def test_trilinear_as_mindspore():
    x = np.arange(1, 5, dtype=np.float32).reshape(1, 1, 1, 2, 2)
    plane = [[1, 1.25, 1.75, 2], [1.5, 1.75, 2.25, 2.5], [2.5, 2.75, 3.25, 3.5],
             [3, 3.25, 3.75, 4]]
    for got in both_ways(lambda x: ops.UpsampleTrilinear3D()(x, [2, 4, 4], None), x):
        np.testing.assert_allclose(got, [[[plane, plane]]], rtol=1e-6)
    # MindSpore 2.10 CPU
    out = ops.UpsampleTrilinear3D()(Tensor(LINE), None, [1.0, 1.0, 2.7]).asnumpy()
    np.testing.assert_allclose(out.ravel(), [
        0.0, 0.05555553734302521, 0.4259259104728699, 0.796296238899231, 1.1666666269302368,
        1.5370370149612427, 1.907407283782959, 2.277777671813965, 2.6481480598449707,
        3.0185184478759766, 3.3888888359069824, 3.7592592239379883, 4.0], rtol=1e-5, atol=1e-6)
    out = ops.UpsampleTrilinear3D(align_corners=True)(Tensor(LINE), [1, 1, 7], None).asnumpy()
    np.testing.assert_allclose(out.ravel(), np.arange(7) * 2 / 3, rtol=1e-6)
    out = ops.UpsampleTrilinear3D()(Tensor(LINE), [2, 1, 3], None).asnumpy()
    np.testing.assert_allclose(out.ravel(), [1 / 3, 2, 11 / 3] * 2, rtol=1e-6)


def test_trilinear_gradient_is_the_interpolation_transposed():
    op = ops.UpsampleTrilinear3D()
    weights = Tensor(np.cos(np.arange(13)).reshape(1, 1, 1, 1, 13).astype(np.float32))
    grad = ops.grad(lambda x: (op(x, None, [1.0, 1.0, 2.7]) * weights).sum())(Tensor(LINE))
    columns = [ops.UpsampleTrilinear3D()(Tensor(np.eye(5, dtype=np.float32)[i].reshape(
        LINE.shape)), None, [1.0, 1.0, 2.7]).asnumpy().ravel() for i in range(5)]
    np.testing.assert_allclose(grad.asnumpy().ravel(), np.array(columns) @ weights.asnumpy()
                               .ravel(), rtol=1e-5)


def test_adaptive_avg_pool3d_as_mindspore():
    a = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(1, 2, 3, 4, 5)
    out = ops.AdaptiveAvgPool3D((2, None, 3))(Tensor(a)).asnumpy()
    # MindSpore 2.10: bins [0, 2) and [1, 3) of depth, all of H, bins [0, 2), [1, 4), [3, 5)
    assert out.shape == (1, 2, 2, 4, 3)
    np.testing.assert_allclose(out[0, 0, 0, 0], [10.5, 12.0, 13.5])
    np.testing.assert_allclose(out[0, 1, 1, 3], [105.5, 107.0, 108.5])
    out = ops.AdaptiveAvgPool3D(2)(Tensor(a[0])).asnumpy()
    np.testing.assert_allclose(out.ravel(), [13.5, 15.5, 23.5, 25.5, 33.5, 35.5, 43.5, 45.5,
                                             73.5, 75.5, 83.5, 85.5, 93.5, 95.5, 103.5, 105.5],
                               rtol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.UpsampleNearest3D()(Tensor(LINE), None, None), ValueError,
     "only one of 'output_size' or 'scales'"),
    (lambda: ops.UpsampleNearest3D()(Tensor(LINE[0]), [1, 1, 2], None), ValueError,
     "the dimension of 'x' should be 5"),
    (lambda: ops.UpsampleTrilinear3D(align_corners=1), TypeError,
     "the type of 'align_corners' should be 'bool'"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_interpolate_by_a_scale_samples_one_over_the_scale_apart():
    """A scale factor (not recomputed) spaces the samples 1 / scale apart, not in / out:
    MindSpore 2.10's values (its tests/st/ops/test_ops_upsample_trilinear3d.py), forward and
    gradient."""
    from cellgraph import grad
    from cellgraph.ops.function.nn_func import interpolate_ext

    x = Tensor(np.array([[[[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
                           [[0.7, 0.8, 0.9], [1.0, 1.1, 1.2]]]]], np.float32))
    out = interpolate_ext(x, None, [1.5, 2.0, 2.5], "trilinear", False)
    assert out.shape == (1, 1, 3, 4, 7)
    np.testing.assert_allclose(out.asnumpy()[0, 0, 0, 0],
                               [0.1, 0.11, 0.15, 0.19, 0.23, 0.27, 0.3], atol=1e-6)
    np.testing.assert_allclose(out.asnumpy()[0, 0, 2, 3],
                               [1.0, 1.01, 1.05, 1.09, 1.13, 1.17, 1.2], atol=1e-6)
    dx = grad(lambda v: interpolate_ext(v, None, [1.5, 2.0, 2.5], "trilinear", False))(x)
    np.testing.assert_allclose(dx.asnumpy(), np.array(
        [[[[[7.5, 7.5, 6.0], [7.5, 7.5, 6.0]], [[7.5, 7.5, 6.0], [7.5, 7.5, 6.0]]]]]), atol=1e-5)
