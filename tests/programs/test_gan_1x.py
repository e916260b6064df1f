"""A 1-D GAN in the 1.x style: generator and discriminator with their own WithLossCell and
optimizer, gradients from GradOperation(get_by_list=True, sens_param=True) with a sens made by
ops.Fill, updates wrapped in ops.depend, as the model-zoo DCGAN writes its TrainOneStepCell."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph import dtype as mstype


class Generator(nn.Cell):
    def __init__(self, latent=4):
        super().__init__()
        self.fc1 = nn.Dense(latent, 16)
        self.act = nn.LeakyReLU(0.2)
        self.fc2 = nn.Dense(16, 1)

    def construct(self, z):
        return self.fc2(self.act(self.fc1(z)))


class Discriminator(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(1, 16)
        self.act = nn.LeakyReLU(0.2)
        self.fc2 = nn.Dense(16, 1)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


class WithLossCellD(nn.Cell):
    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=True)
        self.netD = netD
        self.netG = netG
        self._loss_fn = loss_fn
        self.ones_like = ops.OnesLike()
        self.zeros_like = ops.ZerosLike()

    def construct(self, real_data, latent_code):
        out_real = self.netD(real_data)
        label_real = self.ones_like(out_real)
        loss_real = self._loss_fn(out_real, label_real)
        fake_data = self.netG(latent_code)
        fake_data = ops.stop_gradient(fake_data)
        out_fake = self.netD(fake_data)
        label_fake = self.zeros_like(out_fake)
        loss_fake = self._loss_fn(out_fake, label_fake)
        return loss_real + loss_fake


class WithLossCellG(nn.Cell):
    def __init__(self, netD, netG, loss_fn):
        super().__init__(auto_prefix=True)
        self.netD = netD
        self.netG = netG
        self._loss_fn = loss_fn
        self.ones_like = ops.OnesLike()

    def construct(self, latent_code):
        fake_data = self.netG(latent_code)
        out = self.netD(fake_data)
        return self._loss_fn(out, self.ones_like(out))


class TrainOneStepGAN(nn.Cell):
    def __init__(self, netD, netG, optimizerD, optimizerG, sens=1.0):
        super().__init__(auto_prefix=True)
        self.optimizerD = optimizerD
        self.optimizerG = optimizerG
        self.netD = netD
        self.netD.set_grad()
        self.netD.add_flags(defer_inline=True)
        self.weights_D = optimizerD.parameters
        self.netG = netG
        self.netG.set_grad()
        self.weights_G = optimizerG.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens

    def trainD(self, real_data, latent_code, loss, loss_net, grad, optimizer, weights):
        sens = ops.Fill()(ops.DType()(loss), ops.Shape()(loss), self.sens)
        grads = grad(loss_net, weights)(real_data, latent_code, sens)
        return ops.depend(loss, optimizer(grads))

    def trainG(self, latent_code, loss, loss_net, grad, optimizer, weights):
        sens = ops.Fill()(ops.DType()(loss), ops.Shape()(loss), self.sens)
        grads = grad(loss_net, weights)(latent_code, sens)
        return ops.depend(loss, optimizer(grads))

    def construct(self, real_data, latent_code):
        ld = self.netD(real_data, latent_code)
        lg = self.netG(latent_code)
        d_out = self.trainD(real_data, latent_code, ld, self.netD, self.grad, self.optimizerD,
                            self.weights_D)
        g_out = self.trainG(latent_code, lg, self.netG, self.grad, self.optimizerG,
                            self.weights_G)
        return d_out, g_out


def test_discriminator_gradient_matches_finite_differences():
    netD, netG = Discriminator(), Generator()
    loss_net = WithLossCellD(netD, netG, nn.BCEWithLogitsLoss())
    weights = ParameterTuple(netD.trainable_params())
    grad = ops.GradOperation(get_by_list=True, sens_param=True)
    rng = np.random.default_rng(0)
    real = Tensor(rng.normal(3.0, 0.5, size=(8, 1)).astype(np.float32))
    z = Tensor(rng.normal(size=(8, 4)).astype(np.float32))
    sens = Tensor(2.0, mstype.float32)
    grads = grad(loss_net, weights)(real, z, sens)
    assert len(grads) == 4
    bias = netD.fc2.bias
    original = bias.asnumpy().copy()
    eps = 1e-3
    values = []
    for step in (eps, -eps):
        bias.set_data(Tensor(original + step))
        values.append(float(loss_net(real, z).asnumpy()))
    bias.set_data(Tensor(original))
    numeric = 2.0 * (values[0] - values[1]) / (2 * eps)
    np.testing.assert_allclose(grads[3].asnumpy(), [numeric], rtol=1e-2, atol=1e-4)
    assert isinstance(bias, Parameter)


def test_gan_moves_generated_mean_to_data_mean():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    netG, netD = Generator(), Discriminator()
    loss = nn.BCEWithLogitsLoss()
    netD_with_loss = WithLossCellD(netD, netG, loss)
    netG_with_loss = WithLossCellG(netD, netG, loss)
    optimizerD = nn.Adam(netD.trainable_params(), learning_rate=5e-3, beta1=0.5)
    optimizerG = nn.Adam(netG.trainable_params(), learning_rate=5e-3, beta1=0.5)
    gan = TrainOneStepGAN(netD_with_loss, netG_with_loss, optimizerD, optimizerG)
    gan.set_train()

    def generated_mean():
        z = Tensor(rng.normal(size=(256, 4)).astype(np.float32))
        return float(netG(z).mean().asnumpy())

    start = generated_mean()
    for _ in range(300):
        real = Tensor(rng.normal(3.0, 0.5, size=(32, 1)).astype(np.float32))
        z = Tensor(rng.normal(size=(32, 4)).astype(np.float32))
        d_loss, g_loss = gan(real, z)
        assert np.isfinite(d_loss.asnumpy()) and np.isfinite(g_loss.asnumpy())
    end = generated_mean()
    assert abs(end - 3.0) < 0.5 * abs(start - 3.0)
    assert abs(end - 3.0) < 1.0
