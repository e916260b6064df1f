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


def test_augassign_as_mindspore():
    """MindSpore 2.10: `ops.augassign_add(x, y)` is x + y; a Tensor x is updated in place inside
    a graph (the caller's Tensor holds the result), not in PyNative; two numbers go through
    the scalar operations."""
    import numpy as np
    import pytest

    from cellgraph import Tensor, nn, ops

    x = Tensor(np.array([1.0, 2.0], np.float32))
    out = ops.augassign_add(x, Tensor(np.array([10.0, 20.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [11.0, 22.0])
    np.testing.assert_allclose(x.asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(ops.augassign_sub(x, 1.0).asnumpy(), [0.0, 1.0])

    class Net(nn.Cell):
        def construct(self, a, b):
            return ops.augassign_mul(a, b)

    a = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(Net()(a, Tensor(np.array([3.0, 3.0], np.float32))).asnumpy(),
                               [3.0, 6.0])
    np.testing.assert_allclose(a.asnumpy(), [3.0, 6.0])
    assert ops.augassign_sub(5, 2) == 3 and ops.augassign_add("a", "b") == "ab"
    assert ops.augassign_add((1,), (2,)) == (1, 2) and ops.augassign_mul([1], 2) == [1, 1]
    assert ops.augassign_div(7, 2) == 3.5 and ops.augassign_floordiv(7, 2) == 3
    assert ops.augassign_mod(7, 2) == 1
    with pytest.raises(ValueError, match="The divisor could not be zero"):
        ops.augassign_div(1, 0)


def test_hyper_add_as_mindspore():
    """MindSpore 2.10: ops.hyper_add sums leaf by leaf, Tensors of one shape only."""
    import numpy as np
    import pytest

    from cellgraph import Tensor, nn, ops
    from cellgraph.ops import composite

    assert ops.hyper_add is composite.hyper_add
    ones = Tensor(np.ones(2, np.float32))
    summed, number = ops.hyper_add((ones, 1), (ones, 2.5))
    np.testing.assert_allclose(summed.asnumpy(), [2.0, 2.0])
    assert number == 3.5
    assert ops.hyper_add((1, (2, 3)), (4, (5, 6))) == (5, (7, 9))
    with pytest.raises(ValueError, match=r"For 'AddN', input shape must be same, but got shape "
                                         r"of input\[1\]: \(2, 2\), shape of input\[0\]: \(2\)."):
        ops.hyper_add(ones, Tensor(np.ones((2, 2), np.float32)))

    class Net(nn.Cell):
        def construct(self, x, y):
            return ops.hyper_add((x, 1), (y, 2))

    out, two = Net()(ones, ones)
    np.testing.assert_allclose(out.asnumpy(), [2.0, 2.0])
    assert two == 3
