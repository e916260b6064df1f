"""Cell.set_data_parallel and Cell.offload mark the Cell's primitives (its own and its
sub-Cells') with the attributes MindSpore 2.10 sets, after its checks (its errors below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.graph.lazy_inline import lazy_inline


def test_set_data_parallel_marks_every_primitive():
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU()])
    net.set_data_parallel()
    prims = net._get_prims_recursively()
    assert {type(p).__name__ for p in prims} >= {"MatMul", "BiasAdd", "ReLU"}
    assert all(p.attrs["strategy_gen_mode"] == "data_parallel" for p in prims)


@pytest.mark.parametrize("prefetch", ["Auto", 0, 3])
def test_offload_marks_every_primitive(prefetch):
    net = nn.Dense(3, 4)
    net.offload(prefetch)
    assert net.matmul.attrs["offload"] is True
    assert net.matmul.attrs["backward_prefetch"] == prefetch
    out = net(Tensor(np.ones((2, 3), np.float32)))  # computes as before
    assert out.shape == (2, 4)


@pytest.mark.parametrize("prefetch, error, message", [
    ("auto", ValueError, ("For 'Dense', the 'backward_prefetch' must be str and must be in "
                          "'['Auto']', but got 'auto'.")),
    (-1, ValueError, "The input value must be int and must >= 0, but got '-1' with type 'int'."),
    (2.0, TypeError, "The input value must be int, but got 'float'"),
    (True, TypeError, ("The input value must be int and must >= 0, but got 'True' with type "
                       "'bool'.")),
])
def test_offload_checks_as_mindspore(prefetch, error, message):
    net = nn.Dense(3, 4)
    with pytest.raises(error) as info:
        net.offload(prefetch)
    assert str(info.value) == message
    assert "offload" not in net.matmul.attrs


def test_offload_in_lazy_inline_blocks():
    """MindSpore's example: blocks built under `mindspore.graph.lazy_inline`, offloaded."""
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.transpose = ops.Transpose()
            self.softmax = ops.Softmax(-1)

        def construct(self, x):
            return self.softmax(self.transpose(x, (1, 0)))

    class OuterBlock(nn.Cell):
        @lazy_inline
        def __init__(self):
            super().__init__()
            self.block = Block()

        def construct(self, x):
            return self.block(x)

    blocks = nn.CellList()
    for _ in range(2):
        block = OuterBlock()
        block.offload()
        blocks.append(block)
    assert all(p.attrs["offload"] for p in blocks._get_prims_recursively())
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = blocks[1](blocks[0](x))
    assert out.shape == (2, 3)
    assert ms.graph.lazy_inline.lazy_inline is lazy_inline
