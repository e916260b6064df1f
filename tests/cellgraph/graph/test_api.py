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
