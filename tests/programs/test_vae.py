"""A small VAE: the reparameterisation trick with ops.StandardNormal noise, a KL term written
with ops.exp/ops.square, a Cell-level loss, and TrainOneStepCell; the KL gradient is checked
against its closed form."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Encoder(nn.Cell):
    def __init__(self, dim, latent):
        super().__init__()
        self.fc = nn.Dense(dim, 32, activation='relu')
        self.mean = nn.Dense(32, latent)
        self.log_var = nn.Dense(32, latent)

    def construct(self, x):
        h = self.fc(x)
        return self.mean(h), self.log_var(h)


class VAE(nn.Cell):
    def __init__(self, dim=6, latent=2):
        super().__init__()
        self.encoder = Encoder(dim, latent)
        self.decoder = nn.SequentialCell(nn.Dense(latent, 32), nn.ReLU(), nn.Dense(32, dim))
        self.normal = ops.StandardNormal(seed=2)
        self.shape = (latent,)

    def construct(self, x):
        mu, log_var = self.encoder(x)
        eps = self.normal(mu.shape)
        z = mu + ops.exp(0.5 * log_var) * eps
        return self.decoder(z), mu, log_var


class VAELoss(nn.Cell):
    def __init__(self, net, beta=0.1):
        super().__init__(auto_prefix=False)
        self.net = net
        self.beta = beta
        self.reduce_sum = ops.ReduceSum()

    def construct(self, x):
        recon, mu, log_var = self.net(x)
        recon_loss = self.reduce_sum(ops.square(recon - x), 1).mean()
        kl = -0.5 * self.reduce_sum(1 + log_var - ops.square(mu) - ops.exp(log_var), 1).mean()
        return recon_loss + self.beta * kl


def kl_term(mu, log_var):
    return (-0.5 * (1 + log_var - mu ** 2 - ops.exp(log_var)).sum(1)).mean()


def test_kl_gradient_closed_form():
    rng = np.random.default_rng(0)
    mu = rng.normal(size=(4, 3)).astype(np.float32)
    log_var = rng.normal(size=(4, 3)).astype(np.float32)
    d_mu, d_log_var = ms.grad(kl_term, grad_position=(0, 1))(Tensor(mu), Tensor(log_var))
    np.testing.assert_allclose(d_mu.asnumpy(), mu / 4, rtol=1e-5)
    np.testing.assert_allclose(d_log_var.asnumpy(), 0.5 * (np.exp(log_var) - 1) / 4, rtol=1e-5)


def test_vae_reconstruction_improves():
    ms.set_seed(3)
    rng = np.random.default_rng(0)
    codes = rng.normal(size=(128, 2))
    data = np.tanh(codes @ rng.normal(size=(2, 6))).astype(np.float32)
    vae = VAE()
    train = nn.TrainOneStepCell(VAELoss(vae), nn.Adam(vae.trainable_params(), 5e-3))
    train.set_train()
    losses = [float(train(Tensor(data)).asnumpy()) for _ in range(200)]
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:10])
    # the noise differs from call to call: two forward passes sample different z
    recon_a, _, _ = vae(Tensor(data[:4]))
    recon_b, _, _ = vae(Tensor(data[:4]))
    assert not np.allclose(recon_a.asnumpy(), recon_b.asnumpy())
