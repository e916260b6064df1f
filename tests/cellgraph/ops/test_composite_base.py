"""`ops.composite.base`: MindSpore's module path for GradOperation and the other higher-order
operations, used as MindSpore's tests use it."""
import numpy as np

import cellgraph as ms
from cellgraph import nn, ops
from cellgraph.ops.composite import base


def test_the_classes_are_ops_composite_s():
    assert base.GradOperation is ops.GradOperation
    assert base.HyperMap is ops.HyperMap and base.Map is ops.Map
    assert base.MultitypeFuncGraph is ops.MultitypeFuncGraph


def test_grad_operation_from_base_differentiates_a_network():
    class Dense(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.float32([[1.0, 2.0], [3.0, 4.0]])), name="w")

        def construct(self, x):
            return ops.matmul(x, self.w)

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad = net, base.GradOperation()

        def construct(self, x):
            return self.grad(self.net)(x)

    x = ms.Tensor(np.float32([[1.0, 1.0]]))
    np.testing.assert_allclose(Grad(Dense())(x).asnumpy(), [[3.0, 7.0]])
