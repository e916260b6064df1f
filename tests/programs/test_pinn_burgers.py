"""A PINN for the viscous Burgers equation u_t + u u_x = nu u_xx on (x, t), written as the
MindSpore Science examples do: a network on the concatenated (x, t) input, first derivatives
from ops.grad(..., grad_position=(0, 1)) of the summed output, u_xx from a grad of that grad,
an initial- and boundary-condition loss, Adam with an exponential-decay schedule in a jit
train step; derivatives checked against finite differences of the network itself."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

NU = 0.01 / np.pi


class Net(nn.Cell):
    def __init__(self, width=16):
        super().__init__()
        self.layers = nn.SequentialCell([
            nn.Dense(2, width, activation="tanh", weight_init="XavierNormal"),
            nn.Dense(width, width, activation="tanh", weight_init="XavierNormal"),
            nn.Dense(width, 1, weight_init="XavierNormal"),
        ])

    def construct(self, x, t):
        return self.layers(ops.concat((x, t), axis=1))


class BurgersResidual(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.first = ops.grad(self.summed, grad_position=(0, 1))
        self.second = ops.grad(self.u_x_summed, grad_position=0)

    def summed(self, x, t):
        return self.net(x, t).sum()

    def u_x_summed(self, x, t):
        u_x, _ = self.first(x, t)
        return u_x.sum()

    def construct(self, x, t):
        u = self.net(x, t)
        u_x, u_t = self.first(x, t)
        u_xx = self.second(x, t)
        return u_t + u * u_x - NU * u_xx


class PINNLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.residual = BurgersResidual(net)
        self.mse = nn.MSELoss()

    def construct(self, x_col, t_col, x_ic, t_ic, u_ic, x_bc, t_bc):
        r = self.residual(x_col, t_col)
        loss_pde = self.mse(r, ops.zeros_like(r))
        loss_ic = self.mse(self.net(x_ic, t_ic), u_ic)
        u_bc = self.net(x_bc, t_bc)
        loss_bc = self.mse(u_bc, ops.zeros_like(u_bc))
        return loss_pde + loss_ic + loss_bc


def column(values):
    return Tensor(np.asarray(values, np.float32).reshape(-1, 1))


def finite_difference_derivatives(net, x, t, h=1e-2):
    def u(xs, ts):
        return net(column(xs), column(ts)).asnumpy()[:, 0].astype(np.float64)
    u_x = (u(x + h, t) - u(x - h, t)) / (2 * h)
    u_t = (u(x, t + h) - u(x, t - h)) / (2 * h)
    u_xx = (u(x + h, t) - 2 * u(x, t) + u(x - h, t)) / h ** 2
    return u_x, u_t, u_xx


def test_residual_derivatives_match_finite_differences():
    net = Net()
    residual = BurgersResidual(net)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, 6)
    t = rng.uniform(0, 1, 6)
    u_x, u_t = residual.first(column(x), column(t))
    u_xx = residual.second(column(x), column(t))
    fd_x, fd_t, fd_xx = finite_difference_derivatives(net, x, t)
    np.testing.assert_allclose(u_x.asnumpy()[:, 0], fd_x, rtol=2e-2, atol=2e-3)
    np.testing.assert_allclose(u_t.asnumpy()[:, 0], fd_t, rtol=2e-2, atol=2e-3)
    np.testing.assert_allclose(u_xx.asnumpy()[:, 0], fd_xx, rtol=5e-2, atol=2e-2)
    u = net(column(x), column(t)).asnumpy()[:, 0]
    expected = fd_t + u * fd_x - NU * fd_xx
    np.testing.assert_allclose(residual(column(x), column(t)).asnumpy()[:, 0], expected,
                               rtol=5e-2, atol=5e-3)


def test_burgers_pinn_loss_decreases():
    ms.set_seed(3)
    rng = np.random.default_rng(0)
    net = Net()
    loss_net = PINNLoss(net)
    lr = nn.ExponentialDecayLR(learning_rate=0.01, decay_rate=0.9, decay_steps=20)
    optimizer = nn.Adam(net.trainable_params(), learning_rate=lr)
    grad_fn = ms.value_and_grad(loss_net, None, optimizer.parameters)

    x_col = column(rng.uniform(-1, 1, 64))
    t_col = column(rng.uniform(0, 1, 64))
    x_ic_np = np.linspace(-1, 1, 32)
    x_ic, t_ic = column(x_ic_np), column(np.zeros(32))
    u_ic = column(-np.sin(np.pi * x_ic_np))
    t_bc_np = rng.uniform(0, 1, 16)
    x_bc = column(np.where(np.arange(16) % 2 == 0, -1.0, 1.0))
    t_bc = column(t_bc_np)

    @ms.jit
    def train_step(*data):
        loss, grads = grad_fn(*data)
        optimizer(grads)
        return loss

    data = (x_col, t_col, x_ic, t_ic, u_ic, x_bc, t_bc)
    first = float(loss_net(*data).asnumpy())
    for _ in range(60):
        loss = train_step(*data)
    assert float(loss.asnumpy()) < 0.5 * first
    assert optimizer.global_step.asnumpy().item() == 60
