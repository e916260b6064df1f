"""`ops.operations.comm_ops`: `_VirtualDataset`, MindSpore's marker of the dataset inputs
(with every process reading the whole batch its inputs pass unchanged, in a graph and
eagerly), and `NeighborExchangeV2`, the halo exchange (values in a world of one and on two
processes, gradients, and MindSpore 2.10's checks with its exception types and messages)."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, communication, context, nn, ops
from cellgraph.common.api import _cell_graph_executor
from cellgraph.ops.operations.comm_ops import NeighborExchangeV2, _VirtualDataset, virtual_dataset

from . import comm_ops_worker


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


# ----- NeighborExchangeV2 ----------------------------------------------------------------------

def _halo(**attrs):
    settings = {"send_rank_ids": [0, -1, -1, -1, -1, -1, -1, -1], "send_lens": [1, 0, 0, 0],
                "recv_rank_ids": [-1, -1, -1, -1, 0, -1, -1, -1], "recv_lens": [0, 1, 0, 0],
                "data_format": "NCHW", **attrs}
    return NeighborExchangeV2(**settings)


class HaloNet(nn.Cell):
    def __init__(self, **attrs):
        super().__init__()
        self.exchange = _halo(**attrs)

    def construct(self, x):
        return self.exchange(x)


@pytest.fixture
def world_of_one():
    pytest.importorskip("torch.distributed")
    communication.init()
    yield
    communication.release()


def test_neighbor_exchange_v2_alone_is_its_own_neighbour(world_of_one):
    """In a world of one, the strip sent to the top neighbour (this rank) comes back as the
    strip from the bottom neighbour: the input's top row appended below it. Its gradient: the
    cotangent of that row goes back to the row it came from."""
    x = Tensor(np.arange(20, dtype=np.float32).reshape(1, 1, 4, 5))
    net = HaloNet()
    out = net(x).asnumpy()
    np.testing.assert_array_equal(out[0, 0], np.vstack([x.asnumpy()[0, 0], x.asnumpy()[0, 0, :1]]))
    weights = Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
    grad = ms.grad(lambda t: (net(t) * weights).sum())(x).asnumpy()[0, 0]
    expected = weights.asnumpy()[0, 0, :4].copy()
    expected[0] += weights.asnumpy()[0, 0, 4]
    np.testing.assert_array_equal(grad, expected)


def test_neighbor_exchange_v2_columns_and_eager(world_of_one):
    """Right strip of two columns to this rank, received as the left strip: the output is
    (N, C, H, W + 2), and PyNative gives what the graph gives."""
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 1, 3, 4))
    attrs = {"send_rank_ids": [-1, -1, 0, -1, -1, -1, -1, -1], "send_lens": [0, 0, 0, 2],
             "recv_rank_ids": [-1, -1, -1, -1, -1, -1, 0, -1], "recv_lens": [0, 0, 2, 0]}
    expected = np.concatenate([x.asnumpy()[..., 2:], x.asnumpy()], axis=3)
    np.testing.assert_array_equal(HaloNet(**attrs)(x).asnumpy(), expected)
    np.testing.assert_array_equal(_halo(**attrs)(x).asnumpy(), expected)


def test_neighbor_exchange_v2_without_neighbours_compiles_to_its_input():
    x = Tensor(np.ones((1, 1, 32, 16), np.float32))
    net = HaloNet(send_rank_ids=[-1] * 8, recv_rank_ids=[-1] * 8, recv_lens=[1, 2, 3, 4])
    _cell_graph_executor.compile(net, x)
    np.testing.assert_array_equal(net(x).asnumpy(), x.asnumpy())


@pytest.mark.parametrize("attrs, error, message", [
    ({"send_rank_ids": [-1, -1, -1, -1, 1, -1, -1, -1]}, ValueError,
     "The 'rank_id in send_rank_ids' must be in range of [0, 1), but got 1 with type 'int'."),
    ({"recv_rank_ids": [-1, -1, -1, -1, 1.0, -1, -1, -1]}, TypeError, "rank_id in recv_rank_ids"),
    ({"group": ("str",)}, TypeError, "group"),
    ({"send_rank_ids": [-1, -1, -1, -3, 0, -1, -1, -1]}, ValueError,
     "The 'rank_id in send_rank_ids' must be in range of [0, 1), but got -3 with type 'int'."),
])
def test_neighbor_exchange_v2_checks_ranks_against_the_group_when_made(attrs, error, message):
    """MindSpore 2.10 checks the rank ids against the group's size in __init__ (one process
    alone: size 1)."""
    with pytest.raises(error, match=re.escape(message)):
        _halo(**attrs)


@pytest.mark.parametrize("attrs, error, message", [
    ({"send_rank_ids": (0, -1, -1, -1, -1, -1, -1, -1)}, TypeError,
     "attr 'send_rank_ids' must be a list[int, int, ...]."),
    ({"recv_lens": [0, 1.0, 0, 0]}, TypeError, "attr 'recv_lens' must be a list[int, int, ...]."),
    ({"send_lens": [1, 0, 0, 0, 2]}, ValueError,
     ("attr 'send_lens' size must be equal to attr_value size, but got attr send_lens size: 4, "
      "attr_value size: 5.")),
    ({"recv_rank_ids": [0, -1, -1, -1, 0, -1, -1, -1]}, ValueError,
     "'send_rank_ids' or 'recv_rank_ids' can not be repeated, but got id :0 repeated."),
    ({"recv_lens": [0, -3, 0, 0]}, ValueError,
     "'send_lens' or 'recv_lens' must be >=0, but got invalid len:-3."),
    ({"recv_rank_ids": [-1, 0, -1, -1, -1, -1, -1, -1]}, ValueError,
     ("recv_rank_ids[0] and recv_rank_ids[2] can not be -1, or recv_rank_ids[1] must be -1. "
      "But got recv_rank_ids[0]: -1, recv_rank_ids[2]: -1, and recv_rank_ids[1]: 0.")),
    ({"data_format": "NHWC"}, ValueError,
     "attr 'data_format' only support NCHW now, but got NHWC."),
    ({"send_lens": [33, 0, 0, 0]}, ValueError,
     ("attr send_lens[0] must be less than or equal to input size in H dim, but got "
      "send_lens[0]:33, input size in H dim: 32.")),
    ({"send_lens": [0, 0, 0, 17]}, ValueError,
     ("attr send_lens[3] must be less than or equal to input size in W dim, but got "
      "send_lens[3]: 17, input size in W dim: 16.")),
])
def test_neighbor_exchange_v2_checks_its_attributes_when_compiled(attrs, error, message):
    """The checks of MindSpore 2.10's infer, with its exception types and messages."""
    net = HaloNet(**attrs)
    with pytest.raises(error, match=re.escape(message)):
        _cell_graph_executor.compile(net, Tensor(np.ones((1, 1, 32, 16), np.float32)))


def test_neighbor_exchange_v2_takes_one_nchw_input():
    exchange = _halo()
    with pytest.raises(ValueError, match=re.escape("the input number must be equal to 1")):
        exchange(Tensor(np.ones((1, 1, 4, 4), np.float32)), Tensor(np.ones((1, 1, 4, 4))))
    with pytest.raises(ValueError, match=re.escape("input shape size must be 4, but got 3")):
        exchange(Tensor(np.ones((1, 4, 4), np.float32)))


def test_neighbor_exchange_v2_on_two_processes(tmp_path):
    """MindSpore's documented example (rank 0: [[1,1],[1,1],[2,2]], rank 1: [[1,1],[2,2],
    [2,2]]); each strip's cotangent goes back to the rank that sent it."""
    pytest.importorskip("torch.distributed")
    from .. import distributed_worker

    distributed_worker.launch("halo", tmp_path, script=comm_ops_worker.__file__)
    expected = {0: {"out": [[[[1.0, 1.0], [1.0, 1.0], [2.0, 2.0]]]],
                    "grad": [[[[1.0, 1.0], [3.0, 3.0]]]]},
                1: {"out": [[[[1.0, 1.0], [2.0, 2.0], [2.0, 2.0]]]],
                    "grad": [[[[3.0, 3.0], [2.0, 2.0]]]]}}
    for rank in range(2):
        assert json.loads((tmp_path / f"halo_rank{rank}.json").read_text()) == expected[rank]
