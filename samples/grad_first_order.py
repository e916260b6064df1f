"""First-order gradients with respect to inputs: GradOperation, get_all and one output element.

The network computes out = (x * z) @ y with a Parameter z. `ops.GradOperation()` builds a
function that returns d(sum of out)/dx; `get_all=True` returns the gradient for every input; a
network that returns one element of `out` gives the gradient of that element alone. Each
gradient is computed by a graph that cellgraph derives from `construct` by source
transformation; `cellgraph ir samples/grad_first_order.py` prints the first one, optimised down
to a matmul with a matrix of ones.
"""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, x, y):
        x = x * self.z
        return self.matmul(x, y)


class FirstElementNet(Net):
    """The same network, returning out[0][0] only."""

    def construct(self, x, y):
        x = x * self.z
        out = self.matmul(x, y)
        return out[0][0]


class GradNet(nn.Cell):
    """Gradients of `net` with respect to its inputs, computed inside a graph."""

    def __init__(self, net, get_all=False):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation(get_all=get_all)

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y)


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)

    # The output is a matrix: GradOperation differentiates the sum of its elements (an implicit
    # sens of ones), so each row of dx is the row sums of y: [4.51, 2.7, 3.6].
    dx = GradNet(Net())(x, y)
    print("d out / dx:\n", dx, sep="")

    # get_all=True: one gradient per input. dy[i][j] = sum_k x[k][i] * z.
    dx_all, dy = GradNet(Net(), get_all=True)(x, y)
    print("d out / dy:\n", dy, sep="")

    # Only out[0][0] = x[0] . y[:, 0] depends on the first row of x, through the first column
    # of y; the second row of dx is zero.
    dx_first = GradNet(FirstElementNet())(x, y)
    print("d out[0][0] / dx:\n", dx_first, sep="")
    return {"dx": dx.asnumpy(), "dx_all": dx_all.asnumpy(), "dy": dy.asnumpy(),
            "dx_first": dx_first.asnumpy()}


if __name__ == "__main__":
    main()
