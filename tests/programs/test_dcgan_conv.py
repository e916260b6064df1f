"""A DCGAN as the MindSpore tutorial builds it: a generator of Conv2dTranspose + BatchNorm2d +
ReLU layers ending in Tanh, a discriminator of strided Conv2d + LeakyReLU ending in Sigmoid,
Normal(0.02) initialisers, BCELoss, and one nn.TrainOneStepCell per network, each over its own
loss cell; trained on tiny 8x8 images of a fixed pattern."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common.initializer import Normal

LATENT = 6
FEATURES = 4


def conv_t(in_channels, out_channels, kernel_size=4, stride=2, padding=1):
    weight_init = Normal(mean=0, sigma=0.02)
    return nn.Conv2dTranspose(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                              padding=padding, weight_init=weight_init, has_bias=False,
                              pad_mode="pad")


def conv(in_channels, out_channels, kernel_size=4, stride=2, padding=1):
    weight_init = Normal(mean=0, sigma=0.02)
    return nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                     padding=padding, weight_init=weight_init, has_bias=False, pad_mode="pad")


class Generator(nn.Cell):
    def __init__(self):
        super().__init__()
        gamma_init = Normal(mean=1, sigma=0.02)
        self.generator = nn.SequentialCell()
        # 1x1 -> 2x2 -> 4x4 -> 8x8
        self.generator.append(conv_t(LATENT, FEATURES * 2, 2, 1, 0))
        self.generator.append(nn.BatchNorm2d(FEATURES * 2, gamma_init=gamma_init))
        self.generator.append(nn.ReLU())
        self.generator.append(conv_t(FEATURES * 2, FEATURES))
        self.generator.append(nn.BatchNorm2d(FEATURES, gamma_init=gamma_init))
        self.generator.append(nn.ReLU())
        self.generator.append(conv_t(FEATURES, 1))
        self.generator.append(nn.Tanh())

    def construct(self, x):
        return self.generator(x)


class Discriminator(nn.Cell):
    def __init__(self):
        super().__init__()
        self.discriminator = nn.SequentialCell(
            conv(1, FEATURES),            # 8 -> 4
            nn.LeakyReLU(alpha=0.2),
            conv(FEATURES, FEATURES * 2),  # 4 -> 2
            nn.BatchNorm2d(FEATURES * 2),
            nn.LeakyReLU(alpha=0.2),
            conv(FEATURES * 2, 1, 2, 1, 0),  # 2 -> 1
        )
        self.adv_layer = nn.Sigmoid()

    def construct(self, x):
        out = self.discriminator(x)
        out = out.view(out.shape[0], -1)
        return self.adv_layer(out)


class WithLossCellG(nn.Cell):
    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=True)
        self.netD = netD
        self.netG = netG
        self.loss_fn = loss_fn

    def construct(self, latent_code):
        fake_data = self.netG(latent_code)
        out = self.netD(fake_data)
        label_real = ops.OnesLike()(out)
        return self.loss_fn(out, label_real)


class WithLossCellD(nn.Cell):
    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=True)
        self.netD = netD
        self.netG = netG
        self.loss_fn = loss_fn

    def construct(self, real_data, latent_code):
        out_real = self.netD(real_data)
        label_real = ops.OnesLike()(out_real)
        loss_real = self.loss_fn(out_real, label_real)
        fake_data = self.netG(latent_code)
        fake_data = ops.stop_gradient(fake_data)
        out_fake = self.netD(fake_data)
        label_fake = ops.ZerosLike()(out_fake)
        loss_fake = self.loss_fn(out_fake, label_fake)
        return loss_real + loss_fake


def real_images(rng, n):
    """A bright cross on a dark background, with a little noise, in [-1, 1]."""
    image = -np.ones((8, 8), np.float32)
    image[3:5, :] = 1.0
    image[:, 3:5] = 1.0
    batch = image[None, None] + rng.normal(scale=0.1, size=(n, 1, 8, 8))
    return Tensor(np.clip(batch, -1, 1).astype(np.float32))


def latent(rng, n):
    return Tensor(rng.normal(size=(n, LATENT, 1, 1)).astype(np.float32))


def test_generator_and_discriminator_shapes():
    netG, netD = Generator(), Discriminator()
    fake = netG(latent(np.random.default_rng(0), 5))
    assert fake.shape == (5, 1, 8, 8)
    assert float(ops.abs(fake).max().asnumpy()) <= 1.0
    score = netD(fake)
    assert score.shape == (5, 1)
    assert np.all((score.asnumpy() > 0) & (score.asnumpy() < 1))
    names = [p.name for p in netG.trainable_params()]
    # MindSpore 2.10 names a Cell appended to an attached, empty SequentialCell by its index
    assert names[0] == "0.weight"
    assert netG.generator[0].weight.shape == (LATENT, FEATURES * 2, 2, 2)


def test_conv_transpose_matches_numpy_scatter():
    """Conv2dTranspose(stride 2, padding 1) is the scatter of each input pixel times the kernel."""
    layer = conv_t(2, 3)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(1, 2, 3, 3)).astype(np.float32)
    w = layer.weight.asnumpy()
    full = np.zeros((1, 3, 3 * 2 + 2, 3 * 2 + 2), np.float32)
    for i in range(3):
        for j in range(3):
            patch = np.einsum("c,cokl->okl", x[0, :, i, j], w)
            full[0, :, 2 * i:2 * i + 4, 2 * j:2 * j + 4] += patch
    expected = full[:, :, 1:-1, 1:-1]
    out = layer(Tensor(x))
    assert out.shape == (1, 3, 6, 6)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_dcgan_training_steps_move_both_losses():
    ms.set_seed(1)
    rng = np.random.default_rng(0)
    netG, netD = Generator(), Discriminator()
    loss = nn.BCELoss(reduction="mean")
    netD_with_criterion = WithLossCellD(netD, netG, loss)
    netG_with_criterion = WithLossCellG(netD, netG, loss)
    optimizerD = nn.Adam(netD.trainable_params(), learning_rate=2e-3, beta1=0.5)
    optimizerG = nn.Adam(netG.trainable_params(), learning_rate=2e-3, beta1=0.5)
    myTrainOneStepCellForD = nn.TrainOneStepCell(netD_with_criterion, optimizerD)
    myTrainOneStepCellForG = nn.TrainOneStepCell(netG_with_criterion, optimizerG)
    netG.set_train()
    netD.set_train()

    g_before = netG.generator[0].weight.asnumpy().copy()
    d_losses, g_losses = [], []
    for _ in range(25):
        real = real_images(rng, 8)
        z = latent(rng, 8)
        netD_loss = myTrainOneStepCellForD(real, z)
        netG_loss = myTrainOneStepCellForG(z)
        d_losses.append(float(netD_loss.asnumpy()))
        g_losses.append(float(netG_loss.asnumpy()))
    assert np.all(np.isfinite(d_losses)) and np.all(np.isfinite(g_losses))
    # the discriminator learns to separate the cross from the generator's early samples
    assert np.mean(d_losses[-5:]) < np.mean(d_losses[:5])
    # the generator step changed the generator only through its own optimizer
    assert not np.allclose(netG.generator[0].weight.asnumpy(), g_before)
    moving = netG.generator[1].moving_mean.asnumpy()
    assert np.any(moving != 0.0)
