"""Jacobians: the broadcast-and-mask trick with grad, and jacrev / jacfwd directly.

For z_i = y[index_i] * x[index_i], grad alone only gives the sum of the Jacobian's rows (the
gradient of sum(z)). The MindSpore blog recovers the whole matrix by broadcasting x to one copy
per output and masking each copy to the element its output reads. `ops.jacrev` (one reverse
pass per output row, batched with vmap) and `ops.jacfwd` (one forward pass per input column)
compute the same Jacobian directly.
"""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph import numpy as mnp


class Scale(nn.Cell):
    """z = y[index] * x (broadcast: row i of the result is y[index_i] * x)."""

    def __init__(self, y, index):
        super().__init__()
        self.y = y
        self.index = index

    def construct(self, x):
        return self.y[self.index] * x


class MaskedScale(nn.Cell):
    """Like Scale, applied to one copy of x per output row, each copy masked so that row i only
    sees x[index_i]: the gradient of row i is then row i of the Jacobian."""

    def __init__(self, y, index, size):
        super().__init__()
        self.y = y
        self.index = index
        self.mask = mnp.zeros((y.shape[0], size))
        self.mask[mnp.arange(self.index.shape[0]), self.index] = 1

    def construct(self, x):
        return self.mask * self.y[self.index] * x


class Gathered(nn.Cell):
    """z_i = y[index_i] * x[index_i]."""

    def __init__(self, y, index):
        super().__init__()
        self.y = y
        self.index = index

    def construct(self, x):
        return self.y[self.index].squeeze(-1) * x[self.index]


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([1, 2, 3]).astype(np.float32))
    y = Tensor(np.array([[1], [2], [3]]).astype(np.float32))
    index = Tensor(np.array([0, 2, 1]).astype(np.int32))
    shape = (y.shape[0], x.shape[0])

    # grad of the summed output: every x_j meets y[0] + y[2] + y[1] = 6
    summed = ms.grad(Scale(y, index))(x)
    print("grad of sum(z):", summed)
    # one copy of x per output row: row i gets y[index_i]
    per_row = ms.grad(Scale(y, index))(ops.BroadcastTo(shape)(x))
    print("grad with x broadcast per row:\n", per_row, sep="")
    # the mask keeps only the entry each row really depends on: the Jacobian
    masked = ms.grad(MaskedScale(y, index, x.shape[0]))(ops.BroadcastTo(shape)(x))
    print("broadcast and mask:\n", masked, sep="")

    # The same Jacobian, directly.
    rev = ops.jacrev(Gathered(y, index))(x)
    fwd = ops.jacfwd(Gathered(y, index))(x)
    print("jacrev:\n", rev, "\njacfwd:\n", fwd, sep="")
    return {"summed": summed.asnumpy(), "per_row": per_row.asnumpy(),
            "masked": masked.asnumpy(), "jacrev": rev.asnumpy(), "jacfwd": fwd.asnumpy()}


if __name__ == "__main__":
    main()
