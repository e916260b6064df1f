"""stop_gradient: a value that takes part in the forward pass but not in the gradient.

out = out1 + out2 with out1 = out2 = x @ y. Differentiating through both terms doubles the
gradient; wrapping out2 in `ops.stop_gradient` treats it as a constant, so only out1 counts.
Typical uses: targets computed from the network itself (as in Q-learning), or a part of a
loss that must not train some weights.
"""
import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self, stop=True):
        super().__init__()
        self.matmul = ops.MatMul()
        self.stop = stop

    def construct(self, x, y):
        out1 = self.matmul(x, y)
        out2 = self.matmul(x, y)
        if self.stop:  # a Python bool: decided when the graph is compiled
            out2 = ops.stop_gradient(out2)
        return out1 + out2


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation()

    def construct(self, x, y):
        return self.grad_op(self.net)(x, y)


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], dtype=ms.float32)
    y = Tensor([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], dtype=ms.float32)
    stopped = GradNetWrtX(Net(stop=True))(x, y)
    full = GradNetWrtX(Net(stop=False))(x, y)
    print("with stop_gradient:\n", stopped, sep="")
    print("without:\n", full, sep="")
    # The forward value is the same either way: stop_gradient is the identity on values.
    same_value = Net(stop=True)(x, y).asnumpy() == Net(stop=False)(x, y).asnumpy()
    print("same forward value:", bool(same_value.all()))
    return {"stopped": stopped.asnumpy(), "full": full.asnumpy(),
            "same_value": bool(same_value.all())}


if __name__ == "__main__":
    main()
