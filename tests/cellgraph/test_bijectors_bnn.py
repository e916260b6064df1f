"""nn.probability: bijectors against hand-derived maps and log-Jacobians, the transformed
distribution (a log-normal) against its closed form, and the Bayesian layers: the
reparameterised draw, the KL term and a short training run that lowers the loss."""
import math

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.nn.probability.bijector as msb
import cellgraph.nn.probability.distribution as msd
from cellgraph import Tensor, nn
from cellgraph.nn.probability import bnn_layers
from cellgraph.testing import check_grads


def t32(v):
    return Tensor(np.asarray(v, np.float32))


X = np.array([0.25, 1.0, 2.0])


def _np(t):
    return t.asnumpy().astype(np.float64)


def test_exp():
    exp = msb.Exp()
    np.testing.assert_allclose(_np(exp.forward(t32(X))), np.exp(X), rtol=1e-6)
    np.testing.assert_allclose(_np(exp.inverse(t32(X))), np.log(X), rtol=1e-6)
    np.testing.assert_allclose(_np(exp.forward_log_jacobian(t32(X))), X)
    np.testing.assert_allclose(_np(exp.inverse_log_jacobian(t32(X))), -np.log(X), rtol=1e-6)


@pytest.mark.parametrize("power", [0.0, 0.5, 2.0])
def test_power_transform(power):
    bij = msb.PowerTransform(power)
    forward = np.exp(X) if power == 0 else (1 + power * X) ** (1 / power)
    np.testing.assert_allclose(_np(bij.forward(t32(X))), forward, rtol=1e-5)
    np.testing.assert_allclose(_np(bij.inverse(t32(forward))), X, rtol=1e-5)
    # log |dy/dx| by finite differences of the forward map
    h = 1e-6
    slope = ((1 + power * (X + h)) ** (1 / power) - (1 + power * (X - h)) ** (1 / power)) / (
        2 * h) if power else np.exp(X)
    np.testing.assert_allclose(_np(bij.forward_log_jacobian(t32(X))), np.log(slope), rtol=1e-4)
    np.testing.assert_allclose(_np(bij.inverse_log_jacobian(t32(forward))), -np.log(slope),
                               rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="power"):
        msb.PowerTransform(-1.0)


def test_scalar_affine():
    bij = msb.ScalarAffine(scale=-2.0, shift=0.5)
    np.testing.assert_allclose(_np(bij.forward(t32(X))), -2 * X + 0.5)
    np.testing.assert_allclose(_np(bij.inverse(t32(X))), (X - 0.5) / -2)
    np.testing.assert_allclose(_np(bij.forward_log_jacobian(t32(X))), math.log(2), rtol=1e-6)
    np.testing.assert_allclose(_np(bij.inverse_log_jacobian(t32(X))), -math.log(2), rtol=1e-6)
    assert bij.is_constant_jacobian and bij("forward", t32(1.0)).asnumpy() == -1.5


def test_bijector_in_a_graph_and_its_gradients():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bij = msb.PowerTransform(0.5)

        def construct(self, x):
            return self.bij("forward_log_jacobian", x) + self.bij("inverse", x)

    out = _np(Net()(t32(X)))
    np.testing.assert_allclose(out, np.log(1 + 0.5 * X) + (np.sqrt(X) - 1) / 0.5, rtol=1e-5)
    with pytest.raises(ValueError, match="unknown method"):
        msb.Exp()("sideways", t32(X))
    bij64 = msb.PowerTransform(0.5)
    bij64.dtype = ms.float64
    check_grads(bij64.forward, (X,), order=2)
    check_grads(bij64.inverse_log_jacobian, (X,), order=2)


def test_transformed_distribution_is_log_normal():
    log_normal = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.5, 0.8))
    y = np.array([0.3, 1.0, 4.0])
    density = np.exp(-0.5 * ((np.log(y) - 0.5) / 0.8) ** 2) / (y * 0.8 * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(_np(log_normal.prob(t32(y))), density, rtol=1e-5)
    np.testing.assert_allclose(_np(log_normal.log_prob(t32(y))), np.log(density), rtol=1e-5)
    cdf = [0.5 * (1 + math.erf((math.log(v) - 0.5) / (0.8 * math.sqrt(2)))) for v in y]
    np.testing.assert_allclose(_np(log_normal.cdf(t32(y))), cdf, rtol=1e-5)
    ms.set_seed(1)
    draws = log_normal.sample((20000,)).asnumpy()
    assert draws.min() > 0 and abs(np.log(draws).mean() - 0.5) < 0.03
    with pytest.raises(NotImplementedError, match="linear"):
        log_normal.mean()
    shifted = msd.TransformedDistribution(msb.ScalarAffine(3.0, 1.0), msd.Normal(2.0, 1.0))
    np.testing.assert_allclose(_np(shifted.mean()), 7.0)
    np.testing.assert_allclose(_np(shifted.log_prob(t32(7.0))),
                               -math.log(3.0) - 0.5 * math.log(2 * math.pi), rtol=1e-6)


def test_reparam_layers_draw_from_their_posteriors():
    ms.set_seed(0)
    dense = bnn_layers.DenseReparam(3, 2)
    post = dense.weight_posterior
    std = np.log1p(np.exp(post.untransformed_std.asnumpy()))
    x = np.eye(3, dtype=np.float32)
    draws = np.stack([dense(Tensor(x)).asnumpy() - dense.bias_posterior.mean.asnumpy()
                      for _ in range(3000)])
    # row i of x W^T + b is column i of W, plus the bias draw (std about 0.0067)
    np.testing.assert_allclose(draws.mean(0), post.mean.asnumpy().T, atol=2e-3)
    assert np.all(np.abs(draws.std(0) - np.hypot(std.T, 0.0067)) < 2e-3)
    prior_sd, mean = 0.1, post.mean.asnumpy()
    kl_w = np.sum(np.log(prior_sd / std) + (std ** 2 + mean ** 2) / (2 * prior_sd ** 2) - 0.5)
    bias = dense.bias_posterior
    b_std = np.log1p(np.exp(bias.untransformed_std.asnumpy()))
    kl_b = np.sum(np.log(prior_sd / b_std) + (b_std ** 2 + bias.mean.asnumpy() ** 2)
                  / (2 * prior_sd ** 2) - 0.5)
    np.testing.assert_allclose(dense.compute_kl_loss().asnumpy(), kl_w + kl_b, rtol=1e-4)
    conv = bnn_layers.ConvReparam(2, 4, 3, pad_mode="valid")
    assert conv(Tensor(np.ones((1, 2, 5, 5), np.float32))).shape == (1, 4, 3, 3)
    assert not conv.has_bias


def test_with_bnn_loss_cell_trains():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0], [0.5]])).astype(np.float32)
    net = nn.SequentialCell([bnn_layers.DenseReparam(3, 1)])
    loss_net = bnn_layers.WithBNNLossCell(net, nn.MSELoss(), dnn_factor=1, bnn_factor=1e-3)
    data_loss = nn.MSELoss()(net(Tensor(x)), Tensor(y)).asnumpy()
    kl = net[0].compute_kl_loss().asnumpy()
    total = loss_net(Tensor(x), Tensor(y)).asnumpy()
    assert abs(total - (data_loss + 1e-3 * kl)) < 0.5  # the data term is drawn anew
    kl_only = bnn_layers.WithBNNLossCell(net, nn.MSELoss(), dnn_factor=0, bnn_factor=2)
    np.testing.assert_allclose(kl_only(Tensor(x), Tensor(y)).asnumpy(), 2 * kl, rtol=1e-5)
    step = nn.TrainOneStepCell(loss_net, nn.Adam(loss_net.trainable_params(), 0.05))
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(150)]
    assert np.mean(losses[-10:]) < 0.2 * np.mean(losses[:10])
