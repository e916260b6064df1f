"""Second-order derivatives: a gradient graph differentiated again.

GradOperation's result is itself a Cell-like function made of ordinary operations, so wrapping
it in another GradOperation gives the second derivative; cellgraph expands the innermost
gradient first and differentiates the graph it produced. Three cases from the MindSpore
documentation: sin (one input, one output), x * x (one input, several outputs), and x^2 y
(two inputs, two outputs, every mixed second derivative picked out by a one-hot sens).
"""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Sin(nn.Cell):
    def construct(self, x):
        return ops.sin(x)


class Square(nn.Cell):
    def construct(self, x):
        return x * x


class SquareTimesY(nn.Cell):
    def construct(self, x, y):
        return x * x * y


class Grad(nn.Cell):
    """The gradient of `network` with respect to its first input."""

    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation()
        self.network = network

    def construct(self, x):
        return self.grad(self.network)(x)


class GradAll(nn.Cell):
    """(d/dx, d/dy) of `network`."""

    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True)
        self.network = network

    def construct(self, x, y):
        return self.grad(self.network)(x, y)


class Hessian2x2(nn.Cell):
    """Every second derivative of a two-input function: differentiate (d/dx, d/dy) once more,
    with a sens that keeps one of the two first derivatives at a time."""

    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.network = network
        self.one = Tensor(np.array([1.0], np.float32))
        self.zero = Tensor(np.array([0.0], np.float32))

    def construct(self, x, y):
        dxdx, dxdy = self.grad(self.network)(x, y, (self.one, self.zero))
        dydx, dydy = self.grad(self.network)(x, y, (self.zero, self.one))
        return dxdx, dxdy, dydx, dydy


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    # d²/dx² sin(x) = -sin(x)
    x = Tensor(np.array([1.0], np.float32))
    d2_sin = Grad(Grad(Sin()))(x)
    print("d2 sin(x)/dx2 at 1:", d2_sin, " -sin(1) =", -np.sin(1.0))

    # d²/dx² x² = 2 everywhere
    d2_square = Grad(Grad(Square()))(Tensor([0.1, 0.2, 0.3], ms.float32))
    print("d2 x^2/dx2:", d2_square)

    # f = x² y: f_xx = 2y, f_xy = f_yx = 2x, f_yy = 0; at x = 4, y = 5: 10, 8, 8, 0
    x, y = Tensor(np.array([4.0], np.float32)), Tensor(np.array([5.0], np.float32))
    dxdx, dxdy, dydx, dydy = Hessian2x2(GradAll(SquareTimesY()))(x, y)
    print("f = x^2 y at (4, 5): f_xx, f_xy, f_yx, f_yy =", dxdx, dxdy, dydx, dydy)

    # The same derivative to any order: the fourth derivative of sin is sin.
    d4_sin = Grad(Grad(Grad(Grad(Sin()))))(Tensor(np.array([1.0], np.float32)))
    print("d4 sin(x)/dx4 at 1:", d4_sin, " sin(1) =", np.sin(1.0))
    return {"d2_sin": d2_sin.asnumpy(), "d2_square": d2_square.asnumpy(),
            "hessian": np.concatenate([t.asnumpy() for t in (dxdx, dxdy, dydx, dydy)]),
            "d4_sin": d4_sin.asnumpy()}


if __name__ == "__main__":
    main()
