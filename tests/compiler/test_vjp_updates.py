"""A function differentiated by vjp may update Parameters (ops.BatchNorm's running statistics):
as MindSpore, the forward pass runs once and its updates happen once, however many times vjp_fn
is called, in a graph and eagerly. (MindSpore 2.10's test_vjp_multiple_outputs_merge_forward.)"""
import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.ones(2, np.float32)), name="scale")
        self.bias = Parameter(Tensor(np.ones(2, np.float32)), name="bias")
        self.mean = Parameter(Tensor(np.ones(2, np.float32)), name="mean")
        self.variance = Parameter(Tensor(np.ones(2, np.float32)), name="variance")
        self.batch_norm = ops.BatchNorm(is_training=True)

    def construct(self, x):
        y = self.batch_norm(x, self.scale, self.bias, self.mean, self.variance)[0]
        return y, ops.relu(y)


class _Vjp(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        outputs, vjp_fn = ops.vjp(self.net, x)
        first = vjp_fn((ops.ones_like(outputs[0]), ops.zeros_like(outputs[1])))
        second = vjp_fn((ops.zeros_like(outputs[0]), ops.ones_like(outputs[1])))
        return outputs, first, second


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_vjp_updates_running_statistics_once(mode):
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=mode)
    try:
        net = _Net()
        x = Tensor(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
        outputs, first, second = _Vjp(net)(x)
        # batch variance (unbiased) 2 and 8: 0.9 * 1 + 0.1 * v, once
        np.testing.assert_allclose(net.variance.asnumpy(), [1.1, 1.7], rtol=1e-6)
        np.testing.assert_allclose(net.mean.asnumpy(), [1.1, 1.3], rtol=1e-6)
        np.testing.assert_allclose(outputs[0].asnumpy(), [[0.0, 0.0], [2.0, 2.0]], atol=1e-4)
        assert first[0].shape == second[0].shape == (2, 2)
    finally:
        cellgraph.set_context(mode=before)


def test_vmap_refuses_updates_that_depend_on_the_batch():
    # MindSpore 2.10 refuses BatchNorm's running statistics under vmap with a ValueError
    net = _Net()
    with pytest.raises(ValueError, match="execution order of operator `Assign` cannot be "
                                         "guaranteed"):
        cellgraph.vmap(lambda x: net(x)[0])(Tensor(np.ones((3, 2, 2), np.float32)))
