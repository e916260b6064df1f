"""`ops.operations.comm_ops._VirtualDataset`: MindSpore's marker of the dataset inputs; with
every process reading the whole batch its inputs pass unchanged, in a graph and eagerly."""
from __future__ import annotations

import numpy as np

from cellgraph import Tensor, context, nn, ops
from cellgraph.common.api import _cell_graph_executor
from cellgraph.ops.operations.comm_ops import _VirtualDataset, virtual_dataset


class VirtualDatasetNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.virtual_dataset = _VirtualDataset()
        self.matmul = ops.MatMul()

    def construct(self, x, y, z):
        x, y, z = self.virtual_dataset(x, y, z)
        return self.matmul(self.matmul(x, y), z)


def test_virtual_dataset_passes_its_inputs():
    x = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    y = Tensor(np.ones((4, 3), np.float32))
    z = Tensor(np.full((3, 2), 2.0, np.float32))
    net = VirtualDatasetNet()
    _cell_graph_executor.compile(net, x, y, z)
    expected = x.asnumpy() @ y.asnumpy() @ z.asnumpy()
    np.testing.assert_allclose(net(x, y, z).asnumpy(), expected)
    mode = context.get_context("mode")
    context.set_context(mode=context.PYNATIVE_MODE)
    try:
        np.testing.assert_allclose(net(x, y, z).asnumpy(), expected)
    finally:
        context.set_context(mode=mode)
    assert virtual_dataset(x, y)[1] is y
    assert virtual_dataset.attrs["order_enforce_skip"] is True


def test_virtual_dataset_cell_passes_its_inputs_to_the_backbone():
    from cellgraph.nn.wrap.cell_wrapper import _VirtualDatasetCell

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 2)

        def construct(self, x, y):
            return self.dense(x - y)

    backbone = Net()
    net = _VirtualDatasetCell(backbone)
    x, y = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4)), Tensor(np.ones(4, np.float32))
    np.testing.assert_allclose(net(x, y).asnumpy(), backbone(x, y).asnumpy())
    # MindSpore's names: the wrapper adds no prefix
    assert [p.name for p in net.get_parameters()] == ["dense.weight", "dense.bias"]
