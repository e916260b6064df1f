"""Gradients with respect to weights: GradOperation(get_by_list=True) and ms.grad(weights=...).

Training needs d loss / d Parameter. `GradOperation(get_by_list=True)` takes the Parameters
as a ParameterTuple and returns one gradient per Parameter; the 2.x form `ms.grad(net,
grad_position, weights)` returns input and weight gradients together.
"""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, x, y):
        x = x * self.z
        return self.matmul(x, y)


class GradNetWrtWeights(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.params = ParameterTuple(net.trainable_params())
        self.grad_op = ops.GradOperation(get_by_list=True)

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net, self.params)
        return gradient_function(x, y)


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)
    net = Net()

    # d sum(out) / dz = sum(x @ y), because z scales every element of out: 21.536.
    (dz,) = GradNetWrtWeights(net)(x, y)
    print("d out / dz:", repr(dz))

    # The same from the 2.x API, together with the gradient for input 0.
    dx, (dz_v2,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(x, y)
    print("grad(net, 0, weights): dx =\n", dx, "\ndz = ", dz_v2, sep="")
    return {"dz": dz.asnumpy(), "dz_v2": dz_v2.asnumpy(), "dx": dx.asnumpy(),
            "expected_dz": (x.asnumpy() @ y.asnumpy()).sum()}


if __name__ == "__main__":
    main()
