"""Scaling gradients with sens: GradOperation(sens_param=True) is a vector-Jacobian product.

Without sens, GradOperation differentiates the sum of the outputs. With `sens_param=True` the
last argument is the weight given to each output element (the cotangent v), and the result
is v^T J, the vector-Jacobian product that reverse mode computes in one pass. A sens of ones
gives back the plain gradient; a one-hot sens picks out one output element.
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


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation(sens_param=True)

    def construct(self, x, y, sens):
        gradient_function = self.grad_op(self.net)
        return gradient_function(x, y, sens)


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)
    grad_net = GradNetWrtX(Net())

    # out = x @ y, so v^T J with respect to x is v @ y^T.
    sens = Tensor([[0.1, 0.6, 0.2], [0.8, 1.3, 1.1]], dtype=ms.float32)
    dx = grad_net(x, y, sens)
    print("sens-weighted gradient:\n", dx, sep="")

    # A one-hot sens differentiates one output element: here out[1][2].
    one_hot = np.zeros((2, 3), np.float32)
    one_hot[1, 2] = 1.0
    dx_12 = grad_net(x, y, Tensor(one_hot))
    print("d out[1][2] / dx:\n", dx_12, sep="")
    return {"dx": dx.asnumpy(), "dx_12": dx_12.asnumpy(),
            "expected_dx": sens.asnumpy() @ y.asnumpy().T}


if __name__ == "__main__":
    main()
