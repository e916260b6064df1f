"""Gradient operations that MindSpore generates (`ops.auto_generate.HSigmoidGrad`,
`GridSampler2DGrad`, and every class of `ops.operations._grad_ops`): values recorded from
MindSpore 2.10 (CPU)."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.ops.operations import _grad_ops

# GridSampler2DGrad("bilinear", "border", True)(grad, x, grid) with the data of _data() below
MS_DX = [0.339461, -0.512687, 0.083281, 1.352221, 0.182866, -0.322258, -0.169308, -0.123463,
         0.799541, -0.317373, -0.151123, 0.0, -0.560318, -1.062286, 0.611505, 0.829537,
         0.000714, -0.166577, 0.314745, 0.400096, 0.039066, -0.182166, -0.086253, 0.0, 0.0,
         -1.484095, -0.154864, 0.0, 0.571958, -0.059336, -0.055812, 0.0, 0.925301, 0.790172,
         1.629633, 0.0, 0.0, 0.05767, -0.029115, 0.0, 1.179817, -0.217013, -0.012233, 0.0,
         -0.17257, -0.401701, 0.995135, 0.0]
MS_DGRID = [-0.31161, -0.151782, 2.109007, 2.975393, -1.318345, 0.0, -1.570764, -0.55993,
            -0.024024, 0.839458, -3.808955, -0.0, 1.548005, -0.506554, 5.667896, 2.446258,
            -0.303142, 0.648623, 1.997505, -0.0, 1.292351, 0.315686, 1.915069, -0.0]


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2, 3, 4)).astype(np.float32)
    grid = rng.uniform(-1.2, 1.2, (2, 3, 2, 2)).astype(np.float32)
    grad = rng.standard_normal((2, 2, 3, 2)).astype(np.float32)
    return Tensor(grad), Tensor(x), Tensor(grid)


def test_grid_sampler_2d_grad_as_mindspore():
    dx, dgrid = ops.auto_generate.GridSampler2DGrad("bilinear", "border", True)(*_data())
    np.testing.assert_allclose(dx.asnumpy().ravel(), MS_DX, atol=2e-6)
    np.testing.assert_allclose(dgrid.asnumpy().ravel(), MS_DGRID, atol=2e-6)


def test_hsigmoid_grad_as_mindspore():
    grads = Tensor(np.array([0.6666667, 0.8333333, 1.0, 0.5, 2.0], np.float32))
    x = Tensor(np.array([1.0, 2.0, 3.0, -3.0, -2.9], np.float32))
    np.testing.assert_allclose(ops.auto_generate.HSigmoidGrad()(grads, x).asnumpy(),
                               [0.1111111119389534, 0.138888880610466, 0.0, 0.0,
                                0.3333333432674408], rtol=1e-6)


def test_every_gradient_operation_is_generated_too():
    for name in _grad_ops.__all__:
        assert getattr(ops.auto_generate, name) is getattr(_grad_ops, name)
    assert ms.ops.auto_generate.gen_ops_prim.SqrtGrad is _grad_ops.SqrtGrad


def test_nll_loss_grad_as_mindspore():
    """Rows whose label is ignore_index (0 here) get no gradient; "mean" divides by
    total_weight (0.7)."""
    expected = {"none": [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0],
                         [0.0, 0.0, 0.0, 0.0, -0.5], [0.0, 0.0, -0.3, 0.0, 0.0]],
                "mean": [[0.0, -0.642857, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0],
                         [0.0, 0.0, 0.0, 0.0, -0.535714], [0.0, 0.0, -0.214286, 0.0, 0.0]],
                "sum": [[0.0, -0.45, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0, -0.375], [0.0, 0.0, -0.15, 0.0, 0.0]]}
    logits = Tensor(np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32))
    labels = Tensor(np.array([1, 0, 4, 2], np.int32))
    weight = Tensor(np.array([0.2, 0.3, 0.1, 0.15, 0.25], np.float32))
    for reduction, want in expected.items():
        grad = Tensor(np.arange(4, dtype=np.float32) if reduction == "none"
                      else np.array(1.5, np.float32))
        got = ops.auto_generate.NLLLossGrad(reduction=reduction, ignore_index=0)(
            logits, grad, labels, weight, Tensor(np.array([0.7], np.float32)))
        np.testing.assert_allclose(got.asnumpy(), want, atol=1e-6)


def test_prelu_grad_as_mindspore():
    rng = np.random.default_rng(1)
    rng.standard_normal((4, 5))  # (the draws the recording made before these)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    dy = rng.standard_normal((2, 3, 4)).astype(np.float32)
    w = np.array([0.1, 0.5, -0.3], np.float32)
    dx, dw = ops.auto_generate.PReLUGrad()(Tensor(dy), Tensor(x), Tensor(w))
    np.testing.assert_allclose(dx.asnumpy(), np.where(x > 0, dy, dy * w[:, None]), rtol=1e-6)
    np.testing.assert_allclose(dw.asnumpy(), [-0.371623, -3.48119, 0.531261], atol=2e-6)


# GridSampler3DGrad("bilinear", "zeros", False)(grad, x, grid), data of the test below
MS_DX_3D = [0.00934, 0.186355, 0.014017, 1.533281, 0.0, 0.121964, -0.018732, -0.06524, -0.026,
            -0.044786, 0.0, -0.019909, 0.016034, 0.319922, 0.024063, 1.161204, 0.0, 0.114582,
            -0.036072, -0.125632, -0.050068, 0.006047, 0.0, 0.304361]
MS_DGRID_3D = [-0.342125, 0.575772, 1.07923, -0.840874, -0.719394, 0.628686, 0.758842,
               -0.367588, -0.759273, 0.367112, 1.058142, -0.354084]


def test_grid_sampler_3d_grad_as_mindspore():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 2, 3, 2)).astype(np.float32)
    grid = rng.uniform(-1.2, 1.2, (1, 2, 1, 2, 3)).astype(np.float32)
    grad = rng.standard_normal((1, 2, 2, 1, 2)).astype(np.float32)
    dx, dgrid = ops.auto_generate.GridSampler3DGrad("bilinear", "zeros", False)(
        Tensor(grad), Tensor(x), Tensor(grid))
    np.testing.assert_allclose(dx.asnumpy().ravel(), MS_DX_3D, atol=2e-6)
    np.testing.assert_allclose(dgrid.asnumpy().ravel(), MS_DGRID_3D, atol=2e-6)
