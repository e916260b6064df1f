"""Image-to-image networks as the CycleGAN/pix2pix and ESPCN examples build them: a ResNet
generator with ReflectionPad2d, InstanceNorm2d, residual blocks with Dropout2d, strided
Conv2d down and Conv2dTranspose up; a PatchGAN discriminator scored with nn.MSELoss (LSGAN);
an L1 reconstruction term; and an ESPCN super-resolution net with nn.PixelShuffle trained on
downsampled images. Padding and normalisation are checked against NumPy."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class ResidualBlock(nn.Cell):
    def __init__(self, dim, use_dropout=True):
        super().__init__()
        layers = [nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3, pad_mode="valid"),
                  nn.InstanceNorm2d(dim, affine=False), nn.ReLU()]
        if use_dropout:
            layers.append(nn.Dropout2d(0.5))
        layers += [nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3, pad_mode="valid"),
                   nn.InstanceNorm2d(dim, affine=False)]
        self.block = nn.SequentialCell(layers)

    def construct(self, x):
        return x + self.block(x)


class ResNetGenerator(nn.Cell):
    def __init__(self, in_planes=1, ngf=4, n_blocks=2):
        super().__init__()
        self.model = nn.SequentialCell(
            nn.ReflectionPad2d(3),
            nn.Conv2d(in_planes, ngf, 7, pad_mode="valid"),
            nn.InstanceNorm2d(ngf), nn.ReLU(),
            nn.Conv2d(ngf, ngf * 2, 3, stride=2, pad_mode="pad", padding=1),
            nn.InstanceNorm2d(ngf * 2), nn.ReLU(),
            *[ResidualBlock(ngf * 2) for _ in range(n_blocks)],
            nn.Conv2dTranspose(ngf * 2, ngf, 3, stride=2, pad_mode="same"),
            nn.InstanceNorm2d(ngf), nn.ReLU(),
            nn.ReflectionPad2d(3),
            nn.Conv2d(ngf, in_planes, 7, pad_mode="valid"),
            nn.Tanh(),
        )

    def construct(self, x):
        return self.model(x)


class PatchDiscriminator(nn.Cell):
    def __init__(self, in_planes=1, ndf=4):
        super().__init__()
        self.model = nn.SequentialCell(
            nn.Conv2d(in_planes, ndf, 4, stride=2, pad_mode="pad", padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(ndf, ndf * 2, 4, stride=1, pad_mode="pad", padding=1),
            nn.InstanceNorm2d(ndf * 2), nn.LeakyReLU(0.2),
            nn.Conv2d(ndf * 2, 1, 3, stride=1, pad_mode="pad", padding=1),
        )

    def construct(self, x):
        return self.model(x)


class GeneratorLoss(nn.Cell):
    def __init__(self, generator, discriminator, lambda_l1=10.0):
        super().__init__()
        self.generator = generator
        self.discriminator = discriminator
        self.gan_loss = nn.MSELoss()
        self.l1 = nn.L1Loss()
        self.lambda_l1 = lambda_l1

    def construct(self, source, target):
        fake = self.generator(source)
        score = self.discriminator(fake)
        return self.gan_loss(score, ops.ones_like(score)) + self.lambda_l1 * self.l1(fake, target)


class ESPCN(nn.Cell):
    def __init__(self, scale=2):
        super().__init__()
        self.body = nn.SequentialCell(
            nn.Conv2d(1, 8, 5, pad_mode="same"), nn.Tanh(),
            nn.Conv2d(8, 4, 3, pad_mode="same"), nn.Tanh(),
            nn.Conv2d(4, scale * scale, 3, pad_mode="same"),
        )
        self.shuffle = nn.PixelShuffle(scale)

    def construct(self, x):
        return self.shuffle(self.body(x))


def images(rng, n, size=8):
    """Smooth blobs in [-1, 1]."""
    yy, xx = np.mgrid[0:size, 0:size] / (size - 1)
    centres = rng.uniform(0.2, 0.8, size=(n, 2))
    blobs = np.exp(-((xx[None] - centres[:, :1, None]) ** 2 + (yy[None] - centres[:, 1:, None])
                     ** 2) / 0.05)
    return (2 * blobs - 1).astype(np.float32)[:, None]


def test_reflection_pad_and_instance_norm_match_numpy():
    x = np.random.default_rng(0).normal(size=(2, 3, 5, 4)).astype(np.float32)
    padded = nn.ReflectionPad2d((1, 2, 3, 0))(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(padded, np.pad(x, ((0, 0), (0, 0), (3, 0), (1, 2)), "reflect"))
    norm = nn.InstanceNorm2d(3, affine=True, gamma_init="ones", beta_init="zeros")
    mean = x.mean(axis=(2, 3), keepdims=True)
    var = x.var(axis=(2, 3), keepdims=True)
    np.testing.assert_allclose(norm(Tensor(x)).asnumpy(), (x - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-4, atol=1e-5)
    norm.set_train(False)   # instance statistics in evaluation too
    np.testing.assert_allclose(norm(Tensor(x)).asnumpy(), (x - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-4, atol=1e-5)


def test_generator_shapes_and_pix2pix_steps():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    netG, netD = ResNetGenerator(), PatchDiscriminator()
    source = Tensor(images(rng, 4))
    target = Tensor(-images(rng, 4))
    fake = netG(source)
    assert fake.shape == (4, 1, 8, 8)
    assert netD(fake).shape == (4, 1, 3, 3)
    g_loss = GeneratorLoss(netG, netD)
    opt_g = nn.Adam(netG.trainable_params(), learning_rate=2e-3, beta1=0.5)
    train_g = nn.TrainOneStepCell(g_loss, opt_g)
    train_g.set_train()
    d_before = [p.asnumpy().copy() for p in netD.trainable_params()]
    losses = [float(train_g(source, target).asnumpy()) for _ in range(15)]
    assert losses[-1] < losses[0]
    for before, p in zip(d_before, netD.trainable_params()):   # only G's optimizer ran
        np.testing.assert_array_equal(before, p.asnumpy())


def test_espcn_super_resolution_learns_upsampling():
    ms.set_seed(1)
    rng = np.random.default_rng(1)
    high = images(rng, 16, size=8)
    low = high.reshape(16, 1, 4, 2, 4, 2).mean(axis=(3, 5))
    net = ESPCN()
    assert net(Tensor(low)).shape == (16, 1, 8, 8)
    loss_fn = nn.MSELoss()
    opt = nn.Adam(net.trainable_params(), learning_rate=5e-3)
    grad_fn = ms.value_and_grad(lambda lo, hi: loss_fn(net(lo), hi), None, opt.parameters)

    @ms.jit
    def step(lo, hi):
        loss, grads = grad_fn(lo, hi)
        opt(grads)
        return loss

    losses = [float(step(Tensor(low), Tensor(high)).asnumpy()) for _ in range(150)]
    nearest = np.repeat(np.repeat(low, 2, axis=2), 2, axis=3)
    assert losses[-1] < 0.5 * losses[0]
    assert losses[-1] < float(((nearest - high) ** 2).mean())
