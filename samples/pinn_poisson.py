"""A physics-informed neural network (PINN) for the Poisson equation u'' = -pi^2 sin(pi x).

On [0, 1] with u(0) = u(1) = 0 the solution is u(x) = sin(pi x). A small tanh MLP u(x) is
trained so that the equation holds at collocation points and the boundary values vanish:

    loss = mean((u''(x_i) + pi^2 sin(pi x_i))^2) + (u(0)^2 + u(1)^2) / 2

u'' comes from differentiating the network twice with respect to its input,
`ops.grad(ops.grad(u))`, inside the loss Cell. TrainOneStepCell then differentiates that loss
with respect to the weights, so the training graph holds a third derivative of the MLP:
cellgraph expands the innermost gradient first, differentiates the result twice more, and
compiles the whole step (forward, u'', weight gradients, Adam update) into one graph. With
matplotlib installed the loss curve goes to pinn_poisson_loss.png.
"""
import math

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

from _common import Progress, save_curve


class MLP(nn.Cell):
    """u(x): 1 -> width -> width -> 1 with tanh, smooth enough to differentiate twice."""

    def __init__(self, width=32):
        super().__init__()
        self.hidden1 = nn.Dense(1, width, activation="tanh")
        self.hidden2 = nn.Dense(width, width, activation="tanh")
        self.out = nn.Dense(width, 1)

    def construct(self, x):
        return self.out(self.hidden2(self.hidden1(x)))


class PoissonLoss(nn.Cell):
    """The PDE residual at the collocation points plus the boundary condition."""

    def __init__(self, u):
        super().__init__()
        self.u = u
        # grad of a batch of outputs is the gradient of their sum; u(x_i) depends on x_i only,
        # so row i of grad(u)(x) is u'(x_i), and grad(grad(u)) gives u''(x_i).
        self.u_xx = ops.grad(ops.grad(u))
        self.boundary = Tensor(np.array([[0.0], [1.0]], np.float32))

    def construct(self, x):
        residual = self.u_xx(x) + math.pi ** 2 * ops.sin(math.pi * x)
        u_boundary = self.u(self.boundary)
        return ops.reduce_mean(residual * residual) + ops.reduce_mean(u_boundary * u_boundary)


def max_error(u, grid):
    """max |u(x) - sin(pi x)| over `grid`."""
    return float(np.abs(u(Tensor(grid)).asnumpy() - np.sin(np.pi * grid)).max())


def main(steps=3000, points=64, width=32, learning_rate=1e-2, seed=0,
         plot="pinn_poisson_loss.png", verbose=True):
    """Train and return {"max_error", "errors", "losses", "seconds", "plot"}."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(seed)
    x = Tensor(np.linspace(0.0, 1.0, points, dtype=np.float32)[:, None])  # collocation points
    grid = np.linspace(0.0, 1.0, 201, dtype=np.float32)[:, None]  # where the error is measured

    u = MLP(width)
    # Adam with a learning rate decaying 100-fold over the run, so the last steps settle.
    schedule = nn.ExponentialDecayLR(learning_rate, 0.01, steps)
    train_step = nn.TrainOneStepCell(PoissonLoss(u), nn.Adam(u.trainable_params(), schedule))

    reports = 10
    progress = Progress(steps, label="step", verbose=verbose)
    losses, errors = [], [max_error(u, grid)]
    for step in range(1, steps + 1):
        losses.append(float(train_step(x).asnumpy()))
        if step % max(steps // reports, 1) == 0 or step == steps:
            errors.append(max_error(u, grid))
            progress.report(step, loss=losses[-1], max_error=errors[-1])

    written = save_curve(plot, {"loss": losses}, "step", "PINN for u'' = -pi^2 sin(pi x)") \
        if plot else None
    if verbose:
        print(f"max |u - sin(pi x)| = {errors[-1]:.2e} on {len(grid)} points"
              + (f"; loss curve in {written}" if written else ""))
    return {"max_error": errors[-1], "errors": errors, "losses": losses,
            "seconds": progress.seconds, "plot": written}


if __name__ == "__main__":
    main()
