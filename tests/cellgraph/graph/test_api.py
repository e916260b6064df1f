"""mindspore.graph.api's ms_memory_recycle: every compiled graph is dropped and compiled again
at the next call, with the same results."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn


def test_ms_memory_recycle_drops_compiled_graphs():
    @ms.jit
    def double(x):
        return x * 2

    net = nn.Dense(2, 3)
    grad = ms.grad(lambda x: (net(x) ** 2).sum())
    x = Tensor(np.ones((1, 2), np.float32))
    before = (double(x).asnumpy(), net(x).asnumpy(), grad(x).asnumpy())
    assert double._cache.entries and net._graph_cache.entries
    ms.ms_memory_recycle()
    assert not double._cache.entries and not net._graph_cache.entries
    after = (double(x).asnumpy(), net(x).asnumpy(), grad(x).asnumpy())
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    assert double._cache.entries  # compiled again


def test_cells_compile_cache_follows_the_live_cells_with_graphs():
    from cellgraph.common.api import cells_compile_cache

    class Net(nn.Cell):
        def construct(self, x, y):
            return x + y

    ms.ms_memory_recycle()
    assert not cells_compile_cache
    x, y = Tensor([1.0]), Tensor([2.0])
    net1 = Net()
    net1(x, y)
    assert len(net1.compile_cache) == 1 and len(cells_compile_cache) == 1
    assert cells_compile_cache[id(net1)] == net1.compile_cache
    net2 = Net()
    net2(x, y)
    net2(Tensor([[1.0]]), Tensor([[2.0]]))  # a second specialisation
    assert len(cells_compile_cache) == 2 and len(net2.compile_cache) == 2
    del net1
    assert list(cells_compile_cache) == [id(net2)]
    ms.ms_memory_recycle()
    assert not cells_compile_cache and net2.compile_cache == set()
