"""A PINN for the 1-D Poisson problem -u'' = pi^2 sin(pi x), u(0) = u(1) = 0, with the second
derivative taken by nesting ops.grad, a jit-compiled training step and Adam."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class MLP(nn.Cell):
    def __init__(self, width=20):
        super().__init__()
        self.net = nn.SequentialCell(
            nn.Dense(1, width, activation=nn.Tanh()),
            nn.Dense(width, width, activation='tanh'),
            nn.Dense(width, 1),
        )

    def construct(self, x):
        return self.net(x)


class PoissonResidual(nn.Cell):
    """-u''(x) - f(x) at collocation points, u'' from two nested ops.grad calls."""

    def __init__(self, model):
        super().__init__()
        self.model = model
        self.pi = np.pi

    def u(self, x):
        return self.model(x).sum()

    def construct(self, x):
        u_x = ops.grad(self.u)
        u_xx = ops.grad(lambda t: u_x(t).sum())(x)
        f = self.pi ** 2 * ops.sin(self.pi * x)
        return -u_xx - f


def test_second_derivative_matches_finite_differences():
    ms.set_seed(1)
    model = MLP(8)
    residual = PoissonResidual(model)
    x = np.linspace(0.1, 0.9, 5, dtype=np.float64).reshape(-1, 1)
    got = residual(Tensor(x, ms.float32)).asnumpy()
    h = 1e-2

    def u(points):
        return model(Tensor(points.astype(np.float32))).asnumpy().astype(np.float64)

    u_xx = (u(x + h) - 2 * u(x) + u(x - h)) / h ** 2
    expected = -u_xx - np.pi ** 2 * np.sin(np.pi * x)
    np.testing.assert_allclose(got, expected, rtol=2e-2, atol=2e-2)


def test_pinn_learns_the_solution():
    ms.set_seed(0)
    model = MLP()
    residual = PoissonResidual(model)
    optimizer = nn.Adam(model.trainable_params(), learning_rate=1e-2)
    x_interior = Tensor(np.linspace(0, 1, 32, dtype=np.float32)[1:-1].reshape(-1, 1))
    x_boundary = Tensor(np.array([[0.0], [1.0]], np.float32))

    def loss_fn(x_in, x_bc):
        r = residual(x_in)
        bc = model(x_bc)
        return ops.mean(r ** 2) + 10.0 * ops.mean(ops.square(bc))

    grad_fn = ms.value_and_grad(loss_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(x_in, x_bc):
        loss, grads = grad_fn(x_in, x_bc)
        optimizer(grads)
        return loss

    losses = [float(train_step(x_interior, x_boundary).asnumpy()) for _ in range(300)]
    assert losses[-1] < 0.05 * losses[0]
    x_test = np.linspace(0, 1, 11, dtype=np.float32).reshape(-1, 1)
    u = model(Tensor(x_test)).asnumpy()
    np.testing.assert_allclose(u, np.sin(np.pi * x_test), atol=0.1)
