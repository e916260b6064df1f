"""`copy.copy(x)` and `copy.deepcopy(x)` of a Tensor inside a graph (MindSpore 2.10 runs them
through its fallback: `copy.deepcopy(x) + x` of [1, 2] is [2, 4])."""
from __future__ import annotations

import copy

import numpy as np

import cellgraph as ms
from cellgraph import Tensor


def test_deepcopy_in_a_graph_is_the_value():
    @ms.jit
    def f(x):
        return copy.deepcopy(x) + x, copy.copy(x) * 3

    a, b = f(Tensor(np.array([1, 2], np.int64)))
    np.testing.assert_array_equal(a.asnumpy(), [2, 4])
    np.testing.assert_array_equal(b.asnumpy(), [3, 6])


def test_a_copy_and_its_original_are_updated_apart():
    @ms.jit
    def f(x):
        x.add_(1)
        y = copy.deepcopy(x)  # after the update: [2, 3]
        y.mul_(10)
        return x, y

    x, y = f(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(x.asnumpy(), [2.0, 3.0])
    np.testing.assert_array_equal(y.asnumpy(), [20.0, 30.0])
