"""ops.auto_generate's LayerNormGradGrad and BatchNormGrad against MindSpore 2.10 CPU's values
(recorded as literals; the inputs drawn again from the same seeds)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops


def _layer_norm_inputs():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 4)).astype(np.float32)
    dy = rng.normal(size=(2, 3, 4)).astype(np.float32)
    gamma = rng.normal(size=(3, 4)).astype(np.float32)
    mean, var = x.mean(axis=(1, 2), keepdims=True), x.var(axis=(1, 2), keepdims=True)
    d_dx = rng.normal(size=(2, 3, 4)).astype(np.float32)
    d_dg, d_db = (rng.normal(size=(3, 4)).astype(np.float32) for _ in range(2))
    return x, dy, var, mean, gamma, d_dx, d_dg, d_db


def test_layer_norm_grad_grad_as_mindspore():
    op = ops.auto_generate.LayerNormGradGrad(begin_norm_axis=1, begin_params_axis=1)
    ones = Tensor(np.ones((2, 3), np.float32))
    x = Tensor(np.array([[1, 2, 3], [1, 2, 3]], np.float32))
    sopd_x, sopd_dy, sopd_gamma = op(x, ones, Tensor(np.full((2, 1), 0.6666667, np.float32)),
                                     Tensor(np.full((2, 1), 2.0, np.float32)),
                                     Tensor(np.ones(3, np.float32)), ones,
                                     Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
    np.testing.assert_allclose(sopd_x.asnumpy(), np.zeros((2, 3)), atol=1e-5)
    np.testing.assert_allclose(sopd_dy.asnumpy(), [[-0.2247448, 1.0, 2.2247448]] * 2, rtol=1e-5)
    np.testing.assert_allclose(sopd_gamma.asnumpy(), np.zeros(3), atol=1e-5)

    x, dy, var, mean, gamma, d_dx, d_dg, d_db = _layer_norm_inputs()
    # statistics that are not x's: their values are used, x's derivative follows x's own
    out = op(*(Tensor(a) for a in (x, dy, var * 1.5, mean + 0.3, gamma, d_dx, d_dg, d_db)))
    np.testing.assert_allclose(out[0].asnumpy().ravel()[:6], [-2.1873198, 0.36089656,
                               0.14329192, -1.8356564, 0.64081776, 0.7768748], rtol=1e-4)
    np.testing.assert_allclose(out[1].asnumpy().ravel()[:6], [-0.49468717, -2.463634,
                               -0.55557483, -1.028862, 1.2492824, 0.73744595], rtol=1e-4)
    np.testing.assert_allclose(out[2].asnumpy()[0], [-0.77976096, -0.0254531, -0.16549277,
                                                     -1.4436438], rtol=1e-4)
    out = op(*(Tensor(a) for a in (x, dy, var, mean, gamma, d_dx, d_dg, d_db)))
    np.testing.assert_allclose(out[0].asnumpy()[0, 0], [-3.088373, 0.83218825, 0.9090599,
                                                        -2.3565695], rtol=1e-4)
    with pytest.raises(TypeError, match="same dtype"):
        op(*(Tensor(a.astype(np.float64) if i == 0 else a)
             for i, a in enumerate((x, dy, var, mean, gamma, d_dx, d_dg, d_db))))


def _batch_norm_inputs():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 2, 2, 2)).astype(np.float32)
    dout = rng.normal(size=(3, 2, 2, 2)).astype(np.float32)
    scale = rng.normal(size=2).astype(np.float32)
    mean = rng.normal(size=2).astype(np.float32)
    var = rng.uniform(0.5, 1.5, size=2).astype(np.float32)
    reserve = rng.normal(size=2).astype(np.float32)
    return dout, x, scale, mean, var, reserve


@pytest.mark.parametrize(("training", "dx"), [
    (True, [-1.18807, -0.775382, 0.132034, 0.054978, 0.780505, 0.659518]),
    (False, [-1.410555, -0.98281, -0.09093, -0.219656, 0.228983, 0.232926])])
def test_batch_norm_grad_as_mindspore(training, dx):
    op = ops.auto_generate.BatchNormGrad(is_training=training, epsilon=1e-5)
    grads = op(*(Tensor(a) for a in _batch_norm_inputs()))
    np.testing.assert_allclose(grads[0].asnumpy().ravel()[:6], dx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), [0.832554, -2.53386], rtol=1e-5)
    np.testing.assert_allclose(grads[2].asnumpy(), [-5.149579, -0.922312], rtol=1e-5)


def test_batch_norm_grad_channels_last_and_its_gradient():
    dout, x, scale, mean, var, reserve = _batch_norm_inputs()
    nhwc = ops.auto_generate.BatchNormGrad(True, 1e-5, "NHWC")
    last = lambda a: Tensor(a.transpose(0, 2, 3, 1))
    got = nhwc(last(dout), last(x), *(Tensor(a) for a in (scale, mean, var, reserve)))
    want = ops.auto_generate.BatchNormGrad(True)(*(Tensor(a) for a in _batch_norm_inputs()))
    np.testing.assert_allclose(got[0].asnumpy(), want[0].asnumpy().transpose(0, 2, 3, 1),
                               rtol=1e-5, atol=1e-6)

    class FirstOutput(cellgraph.nn.Cell):
        def construct(self, *args):
            return ops.auto_generate.BatchNormGrad(is_training=True)(*args)[0]

    # dx is linear in dout: its gradient for ones is the same at any dout
    args = [Tensor(a) for a in _batch_norm_inputs()]
    first = ops.grad(FirstOutput(), 0)(*args)
    args[0] = Tensor(np.zeros_like(dout))
    np.testing.assert_allclose(ops.grad(FirstOutput(), 0)(*args).asnumpy(), first.asnumpy(),
                               rtol=1e-5, atol=1e-6)
